/* fixit_chess.c: candidates for a chess move text (SAN, LAN, UCI). */
#include <config.h>

/* like notation/, fixit/ reads positions only through the core's accessors */
#define ARBITER_OPAQUE_POSITIONS 1

#include <string.h>

#include "fixit/fixit_internal.h"

/* Moves of rest that replay from pos, stopping at the first that does not; *canon
 * counts those written as SAN writes them: the check marker right, no needless
 * disambiguation, nothing lenient (the parser's own observations, so no move is
 * formatted again: this loop is most of what a suggestion costs). */
static int replay_rest(chess_pos pos, const char *const *rest, int nrest, int *canon)
{
    int k = 0;
    *canon = 0;
    for (; k < nrest; k++) {
        san_result r;
        chess_san_parse(&pos, rest[k], &r);
        chess_undo undo;
        if (r.status == SAN_OK) {
            *canon += !r.check_marker_wrong && !r.over_disambiguated && !r.lenient;
            chess_make(&pos, r.move, &undo);
        }
        else if (r.status == SAN_NULL && !chess_in_check(&pos))
            chess_make_null(&pos, &undo);
        else
            break;
    }
    return k;
}

/* Two pieces of one type could make the move, and the rest of the line replays as
 * written with either: the game cannot tell which moved, but players can. Measured
 * on corpus games (tests/tools/fixit_typos.py, the disambiguation sets), the piece
 * that moved is more often the one on the edge of the board, in the line (file or
 * rank) where the two differ: the rook in the corner, the knight not yet out; then
 * the one that comes from further away. Lower is likelier; a ranking hint, never
 * grounds for a fix. */
static int piece_prior(int from, int other, int to)
{
    bool by_file = CHESS_FILE(from) != CHESS_FILE(other);
    int line = by_file ? CHESS_FILE(from) : CHESS_RANK(from);
    int dest = by_file ? CHESS_FILE(to) : CHESS_RANK(to);
    bool edge = line == 0 || line == 7;
    int far = line > dest ? line - dest : dest - line;
    return (edge ? 0 : 8) + 7 - far;
}

/* Castling written with zeros or in lower case reads as the letter O. */
static void normalise(const char *in, char *out, size_t size)
{
    fixit_strip(in, out, size);
    if (strchr(out, '-') && (out[0] == '0' || out[0] == 'o'))
        for (char *p = out; *p; p++)
            if (*p == '0' || *p == 'o')
                *p = 'O';
}

/* The cost of writing `written` for the move whose text in one notation is cand. */
static double chess_cost(const char *written, const char *cand, bool pawn_capture)
{
    double d = fixit_distance(written, cand);
    size_t wl = strlen(written), cl = strlen(cand);
    /* the wrong castling side: O-O for O-O-O and back */
    if ((strcmp(written, "O-O") == 0 && strcmp(cand, "O-O-O") == 0) ||
        (strcmp(written, "O-O-O") == 0 && strcmp(cand, "O-O") == 0))
        return 0.7;
    /* a pawn capture written as a push: d5 for exd5 */
    if (pawn_capture && cl == wl + 2 && cand[1] == 'x' && strcmp(cand + 2, written) == 0 &&
        d > 0.8)
        return 0.8;
    return d;
}

/* Whether a text may be long algebraic or UCI (two squares, or a dash that is not
 * castling's): otherwise only SAN is compared, a third of the work on every error. */
static bool maybe_long(const char *w)
{
    int squares = 0;
    for (const char *p = w; *p; p++)
        squares += *p >= 'a' && *p <= 'h' && p[1] >= '1' && p[1] <= '8';
    return squares >= 2 || (strchr(w, '-') && w[0] != 'O');
}

/* The check or mate sign a text ends with ('+', '#'; 0 for none), annotations aside. */
static char written_mark(const char *text)
{
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '!' || text[len - 1] == '?'))
        len--;
    return len > 0 && (text[len - 1] == '+' || text[len - 1] == '#') ? text[len - 1] : 0;
}

void fixit_chess(const chess_pos *pos, const char *written, const char *const *rest, int nrest,
                 fixit_result *out)
{
    memset(out, 0, sizeof *out);
    char w[FIXIT_TEXT];
    normalise(written, w, sizeof w);
    chess_movelist list;
    chess_gen_legal(pos, &list);
    /* an ambiguous text names its candidates: one of them is far likelier than any
     * other slip */
    san_result as_written;
    chess_san_parse(pos, written, &as_written);
    fixit_cand c[64];
    int from[64];
    int count = 0;
    static const chess_notation forms[3] = {CHESS_NOTATION_SAN, CHESS_NOTATION_LAN,
                                            CHESS_NOTATION_UCI};
    bool long_forms = maybe_long(w);
    char mark = written_mark(written);
    for (int i = 0; i < list.count; i++) {
        chess_move m = list.moves[i];
        bool pawn_capture = CHESS_PIECE_TYPE(chess_piece_at(pos, chess_move_from(m))) ==
                                CHESS_PAWN &&
                            CHESS_FILE(chess_move_from(m)) != CHESS_FILE(chess_move_to(m));
        double best = 1e9;
        char best_text[CHESS_NOTATION_BUFSIZE] = "";
        for (int f = 0; f < (long_forms ? 3 : 1); f++) {
            char text[CHESS_NOTATION_BUFSIZE], bare[CHESS_NOTATION_BUFSIZE];
            chess_notation_format(pos, m, forms[f], text, sizeof text);
            fixit_strip(text, bare, sizeof bare);
            fixit_keep_cheaper(text, chess_cost(w, bare, pawn_capture), &best, best_text,
                               sizeof text);
        }
        if (as_written.status == SAN_AMBIGUOUS)
            best = fixit_ambiguous_cap(best, as_written.candidates, as_written.candidate_count,
                                       m);
        /* the check or mate sign written is part of the text: a move that does not
         * give it needs a second slip */
        if (mark && written_mark(best_text) != mark)
            best += FIXIT_MARK_COST;
        fixit_cand *k = fixit_add_replace(
            c, &count, (int)(sizeof c / sizeof *c), best_text, best,
            chess_move_to(m) * 8 + CHESS_PIECE_TYPE(chess_piece_at(pos, chess_move_from(m))));
        if (!k)
            continue;
        from[count - 1] = chess_move_from(m);
        chess_pos after = *pos;
        chess_undo undo;
        chess_make(&after, m, &undo);
        k->replays = replay_rest(after, rest, nrest, &k->canon);
    }
    for (int i = 0; i < count; i++) {
        c[i].prior = 16;  /* a piece no other could stand in for */
        for (int j = 0; j < count; j++)
            if (j != i && c[j].group == c[i].group)
                c[i].prior = piece_prior(from[i], from[j], c[i].group / 8);
    }
    /* two plies in the wrong order: the move written next is legal here, and the one
     * written here is legal after it */
    if (nrest >= 1 && count < (int)(sizeof c / sizeof *c)) {
        san_result r;
        chess_san_parse(pos, rest[0], &r);
        if (r.status == SAN_OK) {
            chess_pos after = *pos;
            chess_undo undo;
            chess_make(&after, r.move, &undo);
            san_result r2;
            chess_san_parse(&after, written, &r2);
            if (r2.status == SAN_OK) {
                fixit_cand *k = fixit_add_swap(c, &count, rest[0]);
                chess_make(&after, r2.move, &undo);
                k->replays = 1 + replay_rest(after, rest + 1, nrest - 1, &k->canon);
                /* the move written next counts as the rest's do (the one written here
                 * is the candidate, as a replacement's own text is not counted) */
                char text[CHESS_NOTATION_BUFSIZE];
                chess_notation_format(pos, r.move, CHESS_NOTATION_SAN, text, sizeof text);
                k->canon += strcmp(text, rest[0]) == 0;
            }
        }
    }
    fixit_rank(c, count, nrest, out);
}
