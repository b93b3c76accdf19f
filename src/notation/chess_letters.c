/* chess_letters.c: national piece letters in and out (FIDE Laws, Appendix C.10). */
/* notation/ and fixit/ ask the core and never touch a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include <config.h>

#include "i18n/i18n.h"
#include "notation/chess_letters.h"

#include <string.h>

/* A set's glyphs for one piece, the usual one first (the one written); the others
 * are read too: Russian texts typed with Latin look-alikes ("Kf3" for "Кf3"). */
typedef struct {
    const char *glyphs[4];
} piece_glyphs;

typedef struct {
    const char *name, *language;
    piece_glyphs piece[5];        /* king, queen, rook, bishop, knight */
} letter_set;

static const char english_letter[5] = {'K', 'Q', 'R', 'B', 'N'};

static const letter_set sets[CHESS_LETTERS_COUNT] = {
    [CHESS_LETTERS_EN] = {"en", N_("English"), {{{"K"}}, {{"Q"}}, {{"R"}}, {{"B"}}, {{"N"}}}},
    [CHESS_LETTERS_RU] = {"ru", N_("Russian"),
                          {{{"Кр", "Kp", "Kр", "Кp"}}, {{"Ф"}}, {{"Л"}}, {{"С", "C"}},
                           {{"К", "K"}}}},
    [CHESS_LETTERS_DE] = {"de", N_("German"), {{{"K"}}, {{"D"}}, {{"T"}}, {{"L"}}, {{"S"}}}},
    [CHESS_LETTERS_FR] = {"fr", N_("French"), {{{"R"}}, {{"D"}}, {{"T"}}, {{"F"}}, {{"C"}}}},
    [CHESS_LETTERS_ES] = {"es", N_("Spanish/Italian"),
                          {{{"R"}}, {{"D"}}, {{"T"}}, {{"A"}}, {{"C"}}}},
    [CHESS_LETTERS_NL] = {"nl", N_("Dutch"), {{{"K"}}, {{"D"}}, {{"T"}}, {{"L"}}, {{"P"}}}},
    [CHESS_LETTERS_VI] = {"vi", N_("Vietnamese"), {{{"V"}}, {{"H"}}, {{"X"}}, {{"T"}}, {{"M"}}}},
    [CHESS_LETTERS_FIGURINE] = {"figurine", N_("figurine"),
                                {{{"♔", "♚"}}, {{"♕", "♛"}}, {{"♖", "♜"}}, {{"♗", "♝"}},
                                 {{"♘", "♞"}}}},
};

static const char *const list[CHESS_LETTERS_COUNT] = {
    "K Q R B N", "Кр Ф Л С К", "K D T L S", "R D T F C", "R D T A C",
    "K D T L P", "V H X T M", "♔ ♕ ♖ ♗ ♘",
};

const char *chess_letters_name(chess_letters set) { return sets[set].name; }
const char *chess_letters_language(chess_letters set) { return _(sets[set].language); }
const char *chess_letters_list(chess_letters set) { return list[set]; }

bool chess_letters_from_name(const char *name, chess_letters *out)
{
    if (strncmp(name, "san-", 4) == 0)
        name += 4;
    if (strcmp(name, "it") == 0)
        name = "es";
    for (int i = 0; i < CHESS_LETTERS_COUNT; i++)
        if (strcmp(name, sets[i].name) == 0) {
            *out = (chess_letters)i;
            return true;
        }
    return false;
}

/* A character that can only be a piece letter where a piece goes: an upper-case
 * Latin or Cyrillic letter, or a chess figurine (U+2654..U+265F). */
static size_t piece_like(const unsigned char *s)
{
    if (s[0] >= 'A' && s[0] <= 'Z')
        return 1;
    if (s[0] == 0xD0 && s[1] >= 0x90 && s[1] <= 0xAF)
        return 2;
    if (s[0] == 0xE2 && s[1] == 0x99 && s[2] >= 0x94 && s[2] <= 0x9F)
        return 3;
    return 0;
}

/* The English letter of set's glyph at s, and its length in *len; 0 if none. */
static char glyph_at(chess_letters set, const char *s, size_t *len)
{
    size_t best = 0;
    char letter = 0;
    for (int p = 0; p < 5; p++)
        for (int k = 0; k < 4 && sets[set].piece[p].glyphs[k]; k++) {
            const char *g = sets[set].piece[p].glyphs[k];
            size_t n = strlen(g);
            if (n > best && strncmp(s, g, n) == 0) {
                best = n;
                letter = english_letter[p];
            }
        }
    *len = best;
    return letter;
}

/* Castling is written with letters of its own in every language. */
static bool castling_text(const char *s)
{
    return strncmp(s, "O-O", 3) == 0 || strncmp(s, "0-0", 3) == 0 || strncmp(s, "o-o", 3) == 0;
}

bool chess_letters_to_english(chess_letters set, const char *text, char *out, size_t size)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0;
    bool castle = castling_text(text);
    for (size_t i = 0; s[i];) {
        /* a piece's place: the start, after a promotion sign, or a letter right
         * after the destination's rank (e8Q) */
        bool place = !castle && (i == 0 || s[i - 1] == '=' || s[i - 1] == '/' ||
                                 s[i - 1] == '(' || (i >= 2 && s[i - 1] >= '1' && s[i - 1] <= '8'));
        /* English also reads a pawn letter (chess_san_parse does): copied below */
        if (place && piece_like(s + i) && !(set == CHESS_LETTERS_EN && s[i] == 'P')) {
            size_t len;
            char letter = glyph_at(set, (const char *)s + i, &len);
            if (!letter || o + 1 >= size)
                return false;
            out[o++] = letter;
            i += len;
            continue;
        }
        if (o + 1 >= size)
            return false;
        out[o++] = (char)s[i++];
    }
    out[o] = '\0';
    return true;
}

void chess_letters_from_english(chess_letters set, const char *san, char *out, size_t size)
{
    size_t o = 0;
    bool castle = castling_text(san);
    for (size_t i = 0; san[i] && o + 1 < size;) {
        bool place = !castle && (i == 0 || san[i - 1] == '=' ||
                                 (i >= 2 && san[i - 1] >= '1' && san[i - 1] <= '8'));
        const char *p = place ? memchr(english_letter, san[i], sizeof english_letter) : NULL;
        if (p) {
            const char *g = sets[set].piece[p - english_letter].glyphs[0];
            size_t n = strlen(g);
            if (o + n >= size)
                break;
            memcpy(out + o, g, n);
            o += n;
            i++;
            continue;
        }
        out[o++] = san[i++];
    }
    out[o] = '\0';
}

void chess_letters_seen_init(chess_letters_seen *s)
{
    s->fits = (1u << CHESS_LETTERS_COUNT) - 1;
}

void chess_letters_observe(chess_letters_seen *s, const char *text)
{
    char tmp[CHESS_LETTERS_BUFSIZE];
    for (int i = 0; i < CHESS_LETTERS_COUNT; i++)
        if ((s->fits & (1u << i)) && !chess_letters_to_english((chess_letters)i, text, tmp, sizeof tmp))
            s->fits &= ~(1u << i);
}
