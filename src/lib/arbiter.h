/* arbiter.h: libarbiter, the C API of arbiter (libarbiter(3)).
 *
 * Open a source (a file, a buffer or a descriptor, in any format arbiter reads: chess
 * PGN, xiangqi PGN, WXF, articles, LaTeX, Markdown/HTML, XQF, DhtmlXQ, CCBridge;
 * gzip or zstd compressed), pull its games one at a time, each read and replayed
 * through the referee as "arbiter check" replays it, and read what the game holds: its
 * tags, the main line in any notation, the findings (code, severity, position,
 * message, suggestions), the claims and the result verdict; convert a game to PGN,
 * WXF or DhtmlXQ text.
 *
 * The handles are opaque. A game owns all its memory and stays valid after its source
 * is closed, until arbiter_game_free(); strings returned by the game functions live
 * as long as the game (arbiter_game_move's until the next call of it with another
 * notation). A source, and a game, is used by one thread at a time; different sources
 * may be read in different threads. Messages are in English.
 *
 * Errors: functions that return a handle or a text return NULL on failure, and
 * arbiter_last_error() says why (per thread). arbiter_next_game() returns 1 for a game,
 * 0 at the end and a negative ARBITER_E_* code on a read error (arbiter_source_error()
 * says it). The symbols are versioned ARBITER_1.0; the soname is libarbiter.so.0. */
#ifndef ARBITER_H
#define ARBITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(ARBITER_BUILDING)
#define ARBITER_API __attribute__((visibility("default")))
#else
#define ARBITER_API
#endif

/* The version of the library (and of the arbiter it comes with): "0.1.0". */
ARBITER_API const char *arbiter_version(void);

/* Status codes (negative; 0 is success). */
enum {
    ARBITER_OK = 0,
    ARBITER_E_ARGUMENT = -1, /* a NULL or unknown argument (format, variant, notation) */
    ARBITER_E_OPEN = -2,     /* the input could not be opened or is not a game record */
    ARBITER_E_READ = -3,     /* the input could not be read to its end */
    ARBITER_E_NOMEM = -4,    /* out of memory */
    ARBITER_E_CONVERT = -5   /* the game cannot be written so (a chess game as WXF) */
};

/* The sentence of a status code. */
ARBITER_API const char *arbiter_strerror(int status);

/* What the last failing call in this thread said: a sentence naming the input. */
ARBITER_API const char *arbiter_last_error(void);

typedef struct arbiter_source arbiter_source;
typedef struct arbiter_game arbiter_game;
typedef struct arbiter_finding arbiter_finding;

/* Open a source. from is a format name as for --from ("pgn", "wxf", "article", "tex",
 * "markdown", "html", "xqf", "dhtmlxq", "cbr", "cbl", "cbf") or NULL to detect it from
 * the first bytes and the name; variant is "chess" or "xiangqi" for every PGN game, or
 * NULL to tell by its tags. path "-" is standard input. A buffer is not copied: it
 * must stay as it is until arbiter_close(); name (NULL: "buffer") names it in messages
 * and by its suffix. A descriptor is duplicated: the caller keeps and closes fd. NULL
 * on failure (arbiter_last_error). */
ARBITER_API arbiter_source *arbiter_open_file(const char *path, const char *from,
                                              const char *variant);
ARBITER_API arbiter_source *arbiter_open_buffer(const void *data, size_t size, const char *name,
                                                const char *from, const char *variant);
ARBITER_API arbiter_source *arbiter_open_fd(int fd, const char *name, const char *from,
                                            const char *variant);

/* The format the source is read as ("pgn", "xqf", ...). */
ARBITER_API const char *arbiter_source_format(const arbiter_source *src);

/* Read and replay the next game: 1 and *game set (free it with arbiter_game_free), 0 at
 * the end, or a negative code on a read error (the games before were whole). */
ARBITER_API int arbiter_next_game(arbiter_source *src, arbiter_game **game);

/* The read error's sentence, with the source's name, or NULL. */
ARBITER_API const char *arbiter_source_error(const arbiter_source *src);

/* Close a source (NULL is fine); its games stay valid. */
ARBITER_API void arbiter_close(arbiter_source *src);

/* --- a game */
ARBITER_API void arbiter_game_free(arbiter_game *g);

/* The source's name and the game's number in it (from 1); the line (0 in a binary
 * format) and byte offset where the game starts. */
ARBITER_API const char *arbiter_game_file(const arbiter_game *g);
ARBITER_API uint64_t arbiter_game_number(const arbiter_game *g);
ARBITER_API unsigned arbiter_game_line(const arbiter_game *g);
ARBITER_API uint64_t arbiter_game_offset(const arbiter_game *g);

/* "chess" or "xiangqi". */
ARBITER_API const char *arbiter_game_variant(const arbiter_game *g);

/* The tags in the order written (a repeated name is there twice); the value of the
 * first tag of a name, or NULL. */
ARBITER_API size_t arbiter_game_tag_count(const arbiter_game *g);
ARBITER_API const char *arbiter_game_tag_name(const arbiter_game *g, size_t i);
ARBITER_API const char *arbiter_game_tag_value(const arbiter_game *g, size_t i);
ARBITER_API const char *arbiter_game_tag(const arbiter_game *g, const char *name);

/* The main line's plies that replayed (a line stops at its first bad move), and ply i
 * (from 0) in a notation: for chess "san" (NULL: san), "lan", "uci", "san-ru",
 * "san-de", "san-fr", "san-es", "san-it", "san-nl", "san-vi", "figurine"; for xiangqi
 * "wxf" (NULL: wxf), "vi", "chinese", "iccs", "ucci", "fsf-uci", "winboard",
 * "fsf-san". NULL when i is out of range or the notation is not the game's variant's
 * (arbiter_last_error). */
ARBITER_API size_t arbiter_game_ply_count(const arbiter_game *g);
ARBITER_API const char *arbiter_game_move(arbiter_game *g, size_t i, const char *notation);

/* The position after the last replayed ply, as FEN, or NULL. */
ARBITER_API const char *arbiter_game_final_fen(const arbiter_game *g);

/* "ok", "warnings" or "errors" (as check's report). */
ARBITER_API const char *arbiter_game_status(const arbiter_game *g);

/* The result verdict: the result as written ("1-0", ...; NULL when missing), what the
 * board says ("1-0", "0-1", "1/2-1/2", or NULL when the game did not end on the
 * board) and why ("checkmate", "stalemate", ..., or NULL). A result that the board
 * contradicts is also a finding. */
ARBITER_API const char *arbiter_game_result(const arbiter_game *g);
ARBITER_API const char *arbiter_game_derived_result(const arbiter_game *g);
ARBITER_API const char *arbiter_game_derived_reason(const arbiter_game *g);

/* The findings (faults of the record) and the claims (draws that could have been
 * claimed, automatic ends), in the order of the input; i from 0. */
ARBITER_API size_t arbiter_game_finding_count(const arbiter_game *g);
ARBITER_API const arbiter_finding *arbiter_game_finding(const arbiter_game *g, size_t i);
ARBITER_API size_t arbiter_game_claim_count(const arbiter_game *g);
ARBITER_API const arbiter_finding *arbiter_game_claim(const arbiter_game *g, size_t i);

/* A finding's stable code ("illegal-move"), severity ("error", "warning", "info"),
 * line and column (0 in a binary format, where the offset says it), byte offset, ply in
 * its line (0 when not about a move), the move as written (or NULL), the sentence, and
 * what was probably meant (best first). */
ARBITER_API const char *arbiter_finding_code(const arbiter_finding *f);
ARBITER_API const char *arbiter_finding_severity(const arbiter_finding *f);
ARBITER_API unsigned arbiter_finding_line(const arbiter_finding *f);
ARBITER_API unsigned arbiter_finding_column(const arbiter_finding *f);
ARBITER_API uint64_t arbiter_finding_offset(const arbiter_finding *f);
ARBITER_API int arbiter_finding_ply(const arbiter_finding *f);
ARBITER_API const char *arbiter_finding_move(const arbiter_finding *f);
ARBITER_API const char *arbiter_finding_message(const arbiter_finding *f);
ARBITER_API size_t arbiter_finding_suggestion_count(const arbiter_finding *f);
ARBITER_API const char *arbiter_finding_suggestion(const arbiter_finding *f, size_t i);

/* The game as text, as "arbiter convert --to TO -n NOTATION" writes it: to is "pgn"
 * (NULL: pgn), "wxf" or "dhtmlxq" (xiangqi only); notation as for arbiter_game_move
 * (NULL: the default). Free the text with arbiter_free. NULL on failure. */
ARBITER_API char *arbiter_game_convert(const arbiter_game *g, const char *to,
                                       const char *notation);

/* Free a text the library returned. */
ARBITER_API void arbiter_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
