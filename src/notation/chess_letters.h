/* chess_letters.h: the piece letters of chess move text in the languages of FIDE's
 * Laws, Appendix C.10 ("each country may use its own letters"), and figurines.
 *
 * The rules core and chess_san.c read and write English SAN. A record written with
 * national letters (Russian "Кf3", German "Sf3", Vietnamese "Mf3") is read by turning
 * each move's piece letters into English before parsing, and written by turning the
 * English SAN of a move into the chosen letters. Only letters in a piece's place are
 * changed: at the start of the move and where a promotion piece goes (after '=', '/'
 * or '(', or right after the destination square). Files and ranks stay as written. */
#ifndef ARBITER_NOTATION_CHESS_LETTERS_H
#define ARBITER_NOTATION_CHESS_LETTERS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    CHESS_LETTERS_EN,        /* K Q R B N (the PGN standard's) */
    CHESS_LETTERS_RU,        /* Кр Ф Л С К */
    CHESS_LETTERS_DE,        /* K D T L S */
    CHESS_LETTERS_FR,        /* R D T F C */
    CHESS_LETTERS_ES,        /* R D T A C (Italian writes the same letters) */
    CHESS_LETTERS_NL,        /* K D T L P */
    CHESS_LETTERS_VI,        /* V H X T M (Vua, Hậu, Xe, Tượng, Mã) */
    CHESS_LETTERS_FIGURINE,  /* ♔ ♕ ♖ ♗ ♘ (♚ ♛ ♜ ♝ ♞ read too) */
    CHESS_LETTERS_COUNT
} chess_letters;

/* The longest move text either way (a Russian king is two characters, four bytes;
 * a figurine three bytes). */
#define CHESS_LETTERS_BUFSIZE 64

/* "en", "ru", "de", "fr", "es", "nl", "vi", "figurine". */
const char *chess_letters_name(chess_letters set);
/* The language in words, for messages: "Russian". */
const char *chess_letters_language(chess_letters set);
/* The letters for king, queen, rook, bishop and knight, space-separated: "Кр Ф Л С К". */
const char *chess_letters_list(chess_letters set);
/* From a name: "ru" or "san-ru", and "it" for the Spanish set. */
bool chess_letters_from_name(const char *name, chess_letters *out);

/* text written with set's letters, in English letters, into out (size bytes).
 * False when the text has a letter in a piece's place that set does not have (the
 * text is then not a move in that set) or out is too small. */
bool chess_letters_to_english(chess_letters set, const char *text, char *out, size_t size);

/* English SAN or LAN text in set's letters, into out (size bytes; at least
 * CHESS_LETTERS_BUFSIZE). */
void chess_letters_from_english(chess_letters set, const char *san, char *out, size_t size);

/* Which sets a record's moves may be written in: feed every move text to
 * chess_letters_observe, then chess_letters_fitting gives the sets in which each text
 * reads (set i fits when bit i of the mask is set). English alone fits most records,
 * and then no other set needs trying. */
typedef struct chess_letters_seen {
    unsigned fits;           /* sets every move so far reads in */
} chess_letters_seen;

void chess_letters_seen_init(chess_letters_seen *s);
void chess_letters_observe(chess_letters_seen *s, const char *text);

#endif
