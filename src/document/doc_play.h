/* doc_play.h: what both article readers ask of the rules for a run of moves.
 *
 * An article's positions carry the move counter the article itself keeps (skak's, a
 * blog's "12..."), not the core's. A run of moves (grammar/move_run.h) is replayed on
 * them through the notation layer; the first place a run fits is chosen by one rule;
 * a move that does not replay is repaired only when fixit finds one certain
 * replacement after which the rest replays ("going on after a certain fix"). The
 * findings the document layer makes wait here until their game is read, then go
 * into it with their repairs. This is the one file of src/document/ that plays moves
 * on a board. */
#ifndef ARBITER_DOCUMENT_DOC_PLAY_H
#define ARBITER_DOCUMENT_DOC_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chess.h"
#include "doc_map.h"
#include "fixit/fixit.h"
#include "move_run.h"
#include "notation/chess_san.h"
#include "record/record.h"

/* A position and the article's move number with it. */
typedef struct doc_pos {
    chess_pos p;
    int full;
} doc_pos;

/* The size of a FEN written by doc_pos_fen. */
#define DOC_FEN_SIZE (CHESS_FEN_BUFSIZE + 8)

void doc_pos_start(doc_pos *t);
/* The board of a FEN (the counter left as it is); false when it does not parse. */
bool doc_pos_board(doc_pos *t, const char *fen);
/* Set from a FEN; the FEN's own move number is kept when it has all six fields (skak's
 * \fenboard takes it). False when it does not parse. */
bool doc_pos_from_fen(doc_pos *t, const char *fen);
/* The FEN with the article's counter as its last field. */
void doc_pos_fen(const doc_pos *t, char *buf, size_t size);
bool doc_pos_black(const doc_pos *t);
/* Mate or stalemate: nothing comes after. */
bool doc_pos_over(const doc_pos *t);
/* Play one move text (English letters); false when it does not resolve. */
bool doc_pos_play(doc_pos *t, const char *text);
/* Whether text is a legal move at t. */
bool doc_pos_legal(const doc_pos *t, const char *text);
/* The same side to move again, the opponent's move skipped (where a threat line
 * starts: "24.Rd1, threatening 25.Qh5"); false when that side is in check or the game
 * is over, as there is no move to skip. */
bool doc_pos_pass(doc_pos *t);
/* Set the side to move ('w' or 'b') when the position allows it. */
void doc_pos_set_side(doc_pos *t, char side);

/* How many moves of the run replay from start (positions after each into out when
 * given). */
size_t doc_replay(const move_run *s, const doc_pos *start, doc_pos *out);
/* Whether the run's first number ("12." or "12...") names start's move and side (true
 * when it starts with no number). */
bool doc_run_fits(const move_run *s, const doc_pos *start);

/* Where a run starts, of the candidate positions in the order given: the first from
 * which every move replays, else the one from which most do (ties to the earlier);
 * none (-1) when no first move plays anywhere, unless take_first (skak's fixed places:
 * the first candidate however far the run replays). *done gets the moves replayed. */
long doc_pick_start(const move_run *s, const doc_pos *const *cands, size_t n, bool take_first,
                    size_t *done);

/* A move that does not replay at before (bad): whether a repair is worth looking for
 * (not at a mate or stalemate, and bad is no null move and not legal after all); why:
 * what is wrong with bad. */
bool doc_fix_wanted(const doc_pos *before, const char *bad, san_result *why);
/* Whether fixit finds exactly one replacement for bad after which the moves written
 * after it (rest) replay (fr: the candidates); never with nothing after it. */
bool doc_fix_certain(const doc_pos *before, const char *bad, const char *const *rest, int nrest,
                     fixit_result *fr);

/* A move the document layer repaired or suggests a repair for. */
typedef struct doc_repair {
    char written[48];        /* the document's bytes */
    char fen[DOC_FEN_SIZE];  /* the position before it */
    int ply;                 /* its ply in the game, 0 when not known */
    uint32_t len;
    fixit_result fr;         /* the candidates in the document's letters */
} doc_repair;

/* A finding of the document layer, waiting for its game. */
typedef struct doc_finding {
    const char *code;
    rec_severity sev;
    uint64_t off;
    char msg[400];
    doc_repair *repair;      /* owned */
} doc_finding;

typedef struct doc_findings {
    doc_finding *v;
    size_t n;
} doc_findings;

/* Add a finding; NULL when out of memory. */
doc_finding *doc_findings_add(doc_findings *fs, const char *code, rec_severity sev, uint64_t off,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Each finding into g at its place in the document, with its repair. */
void doc_findings_attach(const doc_findings *fs, const doc_map *m, rec_game *g);
void doc_findings_free(doc_findings *fs);

#endif
