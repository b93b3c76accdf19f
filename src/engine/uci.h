/* uci.h: a UCI engine as a child process (Stockfish, Fairy-Stockfish): start it, ask
 * for the evaluation and best line of a position under a fixed limit, stop it.
 *
 * Every read has a deadline, so an engine that hangs is killed and reported; one that
 * dies or prints something that is not UCI is reported the same way, naming the
 * engine. After a failure the handle answers nothing more (uci_failed). */
#ifndef ARBITER_ENGINE_UCI_H
#define ARBITER_ENGINE_UCI_H

#include <stdbool.h>
#include <stddef.h>

typedef struct uci_engine uci_engine;

typedef struct uci_limit {
    long nodes;              /* "go nodes N" when > 0 */
    int depth;               /* else "go depth N" */
    double timeout;          /* seconds allowed for one answer (and for the handshake) */
} uci_limit;

#define UCI_PV_MAX 16        /* moves of the best line kept */

typedef struct uci_eval {
    bool mate;               /* score is a mate distance */
    int score;               /* side to move's view: centipawns, or moves to mate (< 0: mated) */
    int depth;               /* the depth of the last score line */
    char pv[UCI_PV_MAX][8];  /* the best line, in the engine's move text */
    int pv_len;
} uci_eval;

/* Start command (a name looked up in PATH and /usr/games, or a path) and do the
 * handshake; variant "xiangqi" sets UCI_Variant. NULL with a sentence in err. */
uci_engine *uci_open(const char *command, const char *variant, double timeout, char *err,
                     size_t errsize);

/* "name version" as the engine says it ("Stockfish 15.1"), for the cache key. */
const char *uci_name(const uci_engine *e);

/* Evaluate the position fen. False with a sentence in err when the engine failed
 * (then it is stopped and every later call fails at once). */
bool uci_evaluate(uci_engine *e, const char *fen, const uci_limit *limit, uci_eval *out,
                  char *err, size_t errsize);

bool uci_failed(const uci_engine *e);

/* Ask the engine to quit, wait a moment, kill it if it does not. NULL is fine. */
void uci_close(uci_engine *e);

#endif
