/* xq_coord.c: xiangqi coordinate notations and SAN.
 *
 * ICCS H2-E2 and UCCI h2e2 (ranks 0-9), Fairy-Stockfish UCI h3e3 (ranks
 * 1-10), WinBoard SAN (ranks 0-9, letters K A E H R C, pawns bare, a pawn
 * that captures or moves sideways names its file: axa3, ab3) and
 * Fairy-Stockfish SAN (ranks 1-10, P for pawns).  Reference sections 2 and 8. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "i18n/i18n.h"
#include "notation/xq_notation_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char san_letters[8] = { '?', 'K', 'A', 'E', 'H', 'R', 'C', 'P' };

/* A rank number at s: 0-9 (base 0) or 1-10 (base 1); returns chars used. */
static int read_rank(const char *s, int base, int *rank)
{
    if (base == 1 && s[0] == '1' && s[1] == '0') {
        *rank = 9;
        return 2;
    }
    if (!isdigit((unsigned char)s[0]))
        return 0;
    int v = s[0] - '0' - base;
    if (v < 0 || v > 9)
        return 0;
    *rank = v;
    return 1;
}

static bool is_file(char c)
{
    return c >= 'a' && c <= 'i';
}

/* Coordinates "h2e2", "H2-E2", "h3e3": from and to, or false. */
static bool split_coord(const char *s, int base, int *from, int *to, bool *dash, bool *upper)
{
    int f1, r1, f2, r2, k;
    *dash = *upper = false;
    char c = s[0];
    if (isupper((unsigned char)c))
        *upper = true;
    c = (char)tolower((unsigned char)c);
    if (!is_file(c))
        return false;
    f1 = c - 'a';
    s++;
    if (!(k = read_rank(s, base, &r1)))
        return false;
    s += k;
    if (*s == '-') {
        *dash = true;
        s++;
    }
    c = s[0];
    if (isupper((unsigned char)c))
        *upper = true;
    c = (char)tolower((unsigned char)c);
    if (!is_file(c))
        return false;
    f2 = c - 'a';
    s++;
    if (!(k = read_rank(s, base, &r2)))
        return false;
    s += k;
    if (*s)
        return false;
    *from = XQ_SQ(f1, r1);
    *to = XQ_SQ(f2, r2);
    return true;
}

typedef struct san_parts {
    int type;            /* 0 for a bare (pawn) move */
    int dfile, drank;    /* disambiguation, -1 when absent */
    int to;
    bool capture, dash;
} san_parts;

static bool split_san(const char *s, int base, san_parts *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->dfile = sp->drank = -1;
    size_t n = strlen(s);
    if (n < 2)
        return false;
    /* destination from the end */
    int tr;
    size_t rl;
    if (base == 1 && n >= 3 && s[n - 2] == '1' && s[n - 1] == '0') {
        tr = 9;
        rl = 2;
    } else if (isdigit((unsigned char)s[n - 1]) && s[n - 1] - '0' - base >= 0 &&
               s[n - 1] - '0' - base <= 9) {
        tr = s[n - 1] - '0' - base;
        rl = 1;
    } else {
        return false;
    }
    if (n < rl + 1 || !is_file(s[n - rl - 1]))
        return false;
    sp->to = XQ_SQ(s[n - rl - 1] - 'a', tr);
    size_t end = n - rl - 1;   /* s[0..end) is piece, disambiguation, x */
    size_t i = 0;
    if (end > 0 && strchr("KAEHRCPBNG", s[0])) {
        switch (s[0]) {
        case 'K': sp->type = XQ_GENERAL; break;
        case 'A': case 'G': sp->type = XQ_ADVISOR; break;
        case 'E': case 'B': sp->type = XQ_ELEPHANT; break;
        case 'H': case 'N': sp->type = XQ_HORSE; break;
        case 'R': sp->type = XQ_CHARIOT; break;
        case 'C': sp->type = XQ_CANNON; break;
        default: sp->type = XQ_SOLDIER; break;
        }
        i = 1;
    } else if (end == 0) {
        sp->type = 0;
    }
    if (end > i && (s[end - 1] == 'x' || s[end - 1] == ':' || s[end - 1] == '-')) {
        if (s[end - 1] == '-')
            sp->dash = true;
        else
            sp->capture = true;
        end--;
    }
    if (i < end && is_file(s[i])) {
        sp->dfile = s[i] - 'a';
        i++;
    }
    if (i < end) {
        int r, k = read_rank(s + i, base, &r);
        if (!k)
            return false;
        sp->drank = r;
        i += (size_t)k;
    }
    return i == end;
}

/* A rank number (0-10) as text: no printf, which cost a converted game more than its
 * replay. */
static int rank_text(int rank, char *buf)
{
    if (rank >= 10) {
        buf[0] = '1';
        buf[1] = (char)('0' + rank - 10);
        return 2;
    }
    buf[0] = (char)('0' + rank);
    return 1;
}

static int sq_rank_text(int sq, int base, char *buf)
{
    buf[0] = (char)('a' + XQ_FILE(sq));
    return 1 + rank_text(XQ_RANK(sq) + base, buf + 1);
}

/* Prepare the text: fold full-width, strip remarks and a stray '.'. */
static bool prepare(const char *text, char *s, size_t size, xqn_result *out)
{
    if (!xqn_fold_move_text(text, s, size, out))
        return false;
    size_t n = strlen(s);
    if (n > 1 && s[n - 1] == '.') {
        s[--n] = '\0';
        xqn_note(out, _("stray trailing '.'"));
    }
    while (n > 0 && strchr("+#!?", s[n - 1])) {
        s[--n] = '\0';
        out->dialect |= XQN_D_REMARK;
    }
    if (!n) {
        xqn_set_reason(out, XQN_UNREADABLE, _("empty move text"));
        return false;
    }
    return true;
}

static void finish_single(const xq_pos *pos, xq_move m, xqn_result *out)
{
    if (xq_move_check(pos, m) == XQ_LEGAL) {
        out->status = XQN_OK;
        out->move = m;
    } else {
        out->status = XQN_ILLEGAL;
        out->named = m;
        xqn_verdict_reason(pos, m, out->reason, sizeof out->reason);
    }
}

static void san_resolve(const xq_pos *pos, const san_parts *sp, bool fsf, xqn_result *out)
{
    int side = xq_pos_side(pos);
    int type = sp->type ? sp->type : XQ_SOLDIER;
    int code = XQ_PIECE(type, side);
    int legal = 0, matched = 0;
    xq_move bad = XQ_MOVE_NONE;
    if (!sp->type && fsf)
        xqn_note(out, _("pawn move without the letter P"));
    for (int i = 0; i < xq_piece_count(pos, side); i++) {
        int from = xq_piece_square(pos, side, i);
        if (xq_piece_at(pos, from) != code)
            continue;
        if (sp->dfile >= 0 && XQ_FILE(from) != sp->dfile)
            continue;
        if (sp->drank >= 0 && XQ_RANK(from) != sp->drank)
            continue;
        if (from == sp->to)
            continue;
        xq_move m = xq_move_make(from, sp->to);
        matched++;
        if (xq_move_check(pos, m) == XQ_LEGAL) {
            if (legal < 8)
                out->candidates[legal] = m;
            legal++;
        } else if (bad == XQ_MOVE_NONE) {
            bad = m;
        }
    }
    char t[3];
    xqn_sqname(sp->to, t);
    if (legal == 1) {
        out->status = XQN_OK;
        out->move = out->candidates[0];
        out->candidates[0] = XQ_MOVE_NONE;
        bool takes = xq_piece_at(pos, sp->to) != 0;
        if (sp->capture && !takes)
            xqn_note(out, _("'x' on a move that captures nothing"));
        else if (!sp->capture && takes)
            xqn_note(out, _("capture not marked with 'x'"));
        return;
    }
    if (legal > 1) {
        out->candidate_count = legal > 8 ? 8 : legal;
        xqn_set_reason(out, XQN_AMBIGUOUS, _("%d %s %ss can move to %s"), legal,
                       _(xqn_color_name[side]), _(xqn_type_name[type]), t);
        return;
    }
    if (matched == 1) {
        out->status = XQN_ILLEGAL;
        out->named = bad;
        xqn_verdict_reason(pos, bad, out->reason, sizeof out->reason);
        return;
    }
    xqn_set_reason(out, XQN_ILLEGAL, _("no %s %s can move to %s"), _(xqn_color_name[side]),
                   _(xqn_type_name[type]), t);
}

/* The plain UCCI form the binary and square-coded readers make ("h2e2"): nothing to
 * fold, trim or note, so it skips prepare() and split_coord() (same result). */
static bool plain_ucci(const char *t)
{
    return t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
           t[2] <= 'i' && t[3] >= '0' && t[3] <= '9' && t[4] == '\0';
}

void xqn_coord_parse(const xq_pos *pos, xqn_notation n, const char *text, xqn_result *out)
{
    if (n == XQN_UCCI && plain_ucci(text)) {
        finish_single(pos, xq_move_make(XQ_SQ(text[0] - 'a', text[1] - '0'),
                                        XQ_SQ(text[2] - 'a', text[3] - '0')), out);
        return;
    }
    char s[48];
    if (!prepare(text, s, sizeof s, out))
        return;
    int from, to;
    bool dash, upper;
    switch (n) {
    case XQN_ICCS: case XQN_UCCI: case XQN_FSF_UCI: {
        int base = n == XQN_FSF_UCI ? 1 : 0;
        if (!split_coord(s, base, &from, &to, &dash, &upper)) {
            xqn_set_reason(out, XQN_UNREADABLE, n == XQN_ICCS ? _("not an ICCS move like H2-E2")
                           : n == XQN_UCCI ? _("not a UCCI move like h2e2")
                                           : _("not a Fairy-Stockfish UCI move like h3e3"));
            return;
        }
        if (n == XQN_ICCS && (!dash || !upper))
            xqn_note(out, !dash ? _("ICCS move without '-'") : _("ICCS move in lower case"));
        if (n != XQN_ICCS && (dash || upper))
            xqn_note(out, dash ? _("coordinate move with '-'") : _("coordinate move in upper case"));
        finish_single(pos, xq_move_make(from, to), out);
        return;
    }
    default: {
        bool fsf = n == XQN_FSF_SAN;
        san_parts sp;
        if (!split_san(s, fsf ? 1 : 0, &sp)) {
            xqn_set_reason(out, XQN_UNREADABLE, fsf ? _("not a Fairy-Stockfish SAN move like Che3")
                                                    : _("not a WinBoard SAN move like Che2"));
            return;
        }
        if (sp.dash)
            xqn_note(out, _("long algebraic move with '-'"));
        san_resolve(pos, &sp, fsf, out);
        return;
    }
    }
}

bool xqn_coord_fits(xqn_notation n, const char *text)
{
    char s[48];
    xqn_result r;
    xqn_result_init(&r);
    if (!prepare(text, s, sizeof s, &r))
        return false;
    int from, to;
    bool dash, upper;
    san_parts sp;
    switch (n) {
    case XQN_ICCS: return split_coord(s, 0, &from, &to, &dash, &upper) && dash;
    case XQN_UCCI: return split_coord(s, 0, &from, &to, &dash, &upper) && !dash && !upper;
    case XQN_FSF_UCI: return split_coord(s, 1, &from, &to, &dash, &upper) && !dash && !upper;
    case XQN_WINBOARD_SAN: return split_san(s, 0, &sp) && !sp.dash;
    case XQN_FSF_SAN: return split_san(s, 1, &sp) && !sp.dash;
    default: return false;
    }
}

int xqn_coord_format(const xq_pos *pos, xq_move m, xqn_notation n, char *buf, size_t size)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    char t[24];
    int k = 0;
    switch (n) {
    case XQN_ICCS:
        k = sq_rank_text(from, 0, t);
        t[0] = (char)('A' + XQ_FILE(from));
        t[k++] = '-';
        t[k] = (char)('A' + XQ_FILE(to));
        k += 1 + rank_text(XQ_RANK(to), t + k + 1);
        break;
    case XQN_UCCI:
        k = sq_rank_text(from, 0, t);
        k += sq_rank_text(to, 0, t + k);
        break;
    case XQN_FSF_UCI:
        k = sq_rank_text(from, 1, t);
        k += sq_rank_text(to, 1, t + k);
        break;
    default: {
        bool fsf = n == XQN_FSF_SAN;
        int base = fsf ? 1 : 0;
        int side = xq_pos_side(pos), p = xq_piece_at(pos, from), type = XQ_TYPE(p);
        bool capture = xq_piece_at(pos, to) != 0;
        if (type != XQ_SOLDIER || fsf)
            t[k++] = san_letters[type];
        /* others of the type that can legally go to the same point */
        bool other = false, same_file = false, same_rank = false;
        for (int i = 0; i < xq_piece_count(pos, side); i++) {
            int sq = xq_piece_square(pos, side, i);
            if (sq == from || xq_piece_at(pos, sq) != p)
                continue;
            if (!xq_is_legal(pos, xq_move_make(sq, to)))
                continue;
            other = true;
            same_file |= XQ_FILE(sq) == XQ_FILE(from);
            same_rank |= XQ_RANK(sq) == XQ_RANK(from);
        }
        bool want_file = false, want_rank = false;
        if (other) {
            if (!same_file)
                want_file = true;
            else if (!same_rank)
                want_rank = true;
            else
                want_file = want_rank = true;
        }
        if (!fsf && type == XQ_SOLDIER && (capture || XQ_FILE(from) != XQ_FILE(to)))
            want_file = true;
        if (want_file)
            t[k++] = (char)('a' + XQ_FILE(from));
        if (want_rank)
            k += rank_text(XQ_RANK(from) + base, t + k);
        if (capture)
            t[k++] = 'x';
        k += sq_rank_text(to, base, t + k);
        if (xq_gives_check(pos, m)) {
            xq_pos after = *pos;
            xq_undo u;
            xq_make(&after, m, &u);
            t[k++] = xq_has_legal_move(&after) ? '+' : '#';
        }
        break;
    }
    }
    t[k] = '\0';
    if (size) {
        size_t c = (size_t)k < size - 1 ? (size_t)k : size - 1;
        memcpy(buf, t, c);
        buf[c] = '\0';
    }
    return k;
}
