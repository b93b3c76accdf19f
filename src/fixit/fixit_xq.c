/* fixit_xq.c: candidates for a xiangqi move text, in any notation xqn_parse reads. */
#include <config.h>

/* like notation/, fixit/ reads positions only through the core's accessors */
#define ARBITER_OPAQUE_POSITIONS 1

#include <string.h>

#include "fixit/fixit_internal.h"

static int replay_rest(xq_pos pos, xqn_notation n, const char *const *rest, int nrest,
                       int *canon)
{
    int k = 0;
    *canon = 0;
    for (; k < nrest; k++) {
        xqn_result r;
        xqn_parse(&pos, n, rest[k], &r);
        if (r.status != XQN_OK)
            break;
        /* written as the notation writes it: nothing lenient, no front/rear marker
         * missing where one was due or added where none is (the parser's own
         * observations; formatting every move again cost more than the rest) */
        *canon += !r.lenient && !(r.dialect & (XQN_D_FILE_TANDEM | XQN_D_MARKER_EXTRA));
        xq_undo undo;
        xq_make(&pos, r.move, &undo);
    }
    return k;
}

/* The styles a record in notation n may be written in; the closest one is suggested. */
static int styles_of(xqn_notation n, const char *written, unsigned *styles)
{
    bool wide = false;
    for (const unsigned char *p = (const unsigned char *)written; *p; p++)
        wide |= *p >= 0x80;
    if (n == XQN_WXF && wide) {
        styles[0] = XQN_STYLE_FULL_WIDTH | XQN_STYLE_EQUALS | XQN_STYLE_MARKER_FIRST;
        styles[1] = XQN_STYLE_FULL_WIDTH | XQN_STYLE_EQUALS;
        return 2;
    }
    if (n == XQN_WXF) {
        /* only the styles the text shows a sign of: each costs a format and a distance
         * for every legal move */
        bool equals = strchr(written, '=') != NULL, lower = false;
        for (const char *p = written; *p; p++)
            lower |= *p >= 'a' && *p <= 'z';
        int k = 0;
        styles[k++] = 0;
        if (equals)
            styles[k++] = XQN_STYLE_EQUALS;
        if (lower)
            styles[k++] = XQN_STYLE_LOWER_BLACK;
        if (equals && lower)
            styles[k++] = XQN_STYLE_EQUALS | XQN_STYLE_LOWER_BLACK;
        if (strchr("+-=.", written[0]))
            styles[k++] = XQN_STYLE_MARKER_FIRST;
        return k;
    }
    if (n == XQN_CHINESE) {
        styles[0] = 0;
        styles[1] = XQN_STYLE_TRADITIONAL;
        return 2;
    }
    styles[0] = 0;
    return 1;
}

void fixit_xq(const xq_pos *pos, xqn_notation n, const char *written, const char *const *rest,
              int nrest, fixit_result *out)
{
    memset(out, 0, sizeof *out);
    char w[FIXIT_TEXT];
    fixit_strip(written, w, sizeof w);
    unsigned styles[5];
    int nstyles = styles_of(n, written, styles);
    xq_movelist list;
    xq_gen_legal(pos, &list);
    xqn_result as_written;   /* an ambiguous text names its candidates */
    xqn_parse(pos, n, written, &as_written);
    fixit_cand c[64];
    int count = 0;
    for (int i = 0; i < list.count; i++) {
        xq_move m = list.moves[i];
        double best = 1e9;
        char best_text[XQN_FORMAT_BUFSIZE] = "";
        for (int s = 0; s < nstyles; s++) {
            char text[XQN_FORMAT_BUFSIZE], bare[XQN_FORMAT_BUFSIZE];
            if (xqn_format(pos, m, n, styles[s], text, sizeof text) < 0)
                continue;
            fixit_strip(text, bare, sizeof bare);
            fixit_keep_cheaper(text, fixit_distance(w, bare), &best, best_text, sizeof text);
        }
        if (as_written.status == XQN_AMBIGUOUS)
            best = fixit_ambiguous_cap(best, as_written.candidates, as_written.candidate_count,
                                       m);
        fixit_cand *k = fixit_add_replace(c, &count, (int)(sizeof c / sizeof *c), best_text,
                                          best, xq_move_to(m) * 16 + (xq_piece_at(pos, xq_move_from(m)) & 15));
        if (!k)
            continue;
        xq_pos after = *pos;
        xq_undo undo;
        xq_make(&after, m, &undo);
        k->replays = replay_rest(after, n, rest, nrest, &k->canon);
    }
    /* two plies written in the wrong order */
    if (nrest >= 1 && count < (int)(sizeof c / sizeof *c)) {
        xqn_result r;
        xqn_parse(pos, n, rest[0], &r);
        if (r.status == XQN_OK) {
            xq_pos after = *pos;
            xq_undo undo;
            xq_make(&after, r.move, &undo);
            xqn_result r2;
            xqn_parse(&after, n, written, &r2);
            if (r2.status == XQN_OK) {
                fixit_cand *k = fixit_add_swap(c, &count, rest[0]);
                xq_make(&after, r2.move, &undo);
                k->replays = 1 + replay_rest(after, n, rest + 1, nrest - 1, &k->canon);
                /* the move written next counts as the rest's do (the one written here
                 * is the candidate, as a replacement's own text is not counted) */
                char text[XQN_FORMAT_BUFSIZE];
                k->canon += xqn_format(pos, r.move, n, 0, text, sizeof text) > 0 &&
                            strcmp(text, rest[0]) == 0;
            }
        }
    }
    fixit_rank(c, count, nrest, out);
}
