/* xq_notation.c: xiangqi notation entry points and the resolution shared by
 * the descriptive notations (WXF, Vietnamese, Chinese).
 *
 * A descriptive move names a piece by type and own file (or by front/middle/
 * rear marker or index among pieces of the type on one file), then an
 * operator and an argument (section 2-3 of the reference).  Resolution looks
 * only at the side's pieces of that type (at most 5), computes for each the
 * one destination the text allows, and asks the rules core about those few
 * moves; the reason of an illegal move comes from xq_move_check. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "i18n/i18n.h"
#include "notation/xq_notation_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const xqn_type_name[8] = {
    N_("piece"), N_("general"), N_("advisor"), N_("elephant"), N_("horse"), N_("chariot"), N_("cannon"), N_("soldier")
};
const char *const xqn_color_name[2] = { N_("red"), N_("black") };

/* ------------------------------------------------------------------ */
/* small helpers                                                        */

void xqn_result_init(xqn_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = XQN_UNREADABLE;
    out->move = XQ_MOVE_NONE;
}

void xqn_set_reason(xqn_result *out, xqn_status st, const char *fmt, ...)
{
    va_list ap;
    out->status = st;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

void xqn_note(xqn_result *out, const char *note)
{
    if (!out->lenient)
        snprintf(out->lenient_note, sizeof out->lenient_note, "%s", note);
    out->lenient = true;
}

void xqn_sqname(int sq, char buf[3])
{
    buf[0] = (char)('a' + XQ_FILE(sq));
    buf[1] = (char)('0' + XQ_RANK(sq));
    buf[2] = '\0';
}

int xqn_own_file(int color, int file)
{
    return color == XQ_RED ? 9 - file : file + 1;
}

int xqn_board_file(int color, int own)
{
    return color == XQ_RED ? 9 - own : own - 1;
}

int xqn_advance(int color, int sq)
{
    return color == XQ_RED ? XQ_RANK(sq) : 9 - XQ_RANK(sq);
}

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

const char *xqn_status_name(xqn_status s)
{
    switch (s) {
    case XQN_OK: return "ok";
    case XQN_UNREADABLE: return "unreadable";
    case XQN_ILLEGAL: return "illegal";
    case XQN_AMBIGUOUS: return "ambiguous";
    }
    return "unknown";
}

static const char *const notation_names[XQN_NOTATION_COUNT] = {
    "wxf", "vi", "chinese", "iccs", "ucci", "fsf-uci", "winboard", "fsf-san"
};

const char *xqn_notation_name(xqn_notation n)
{
    return (unsigned)n < XQN_NOTATION_COUNT ? notation_names[n] : "unknown";
}

bool xqn_notation_from_name(const char *name, xqn_notation *out)
{
    static const struct { const char *alias; xqn_notation n; } aliases[] = {
        { "english", XQN_WXF }, { "axf", XQN_WXF }, { "vietnamese", XQN_VIETNAMESE },
        { "zh", XQN_CHINESE }, { "uci", XQN_FSF_UCI }, { "san", XQN_FSF_SAN },
        { "wb", XQN_WINBOARD_SAN }, { "winboard-san", XQN_WINBOARD_SAN },
    };
    if (!name)
        return false;
    for (int i = 0; i < XQN_NOTATION_COUNT; i++)
        if (strcmp(name, notation_names[i]) == 0) {
            *out = (xqn_notation)i;
            return true;
        }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0) {
            *out = aliases[i].n;
            return true;
        }
    return false;
}

int xqn_utf8_next(const unsigned char *s, unsigned *cp)
{
    if (!s[0])
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    int len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!len) {
        *cp = 0xFFFD;
        return 1;
    }
    unsigned v = s[0] & (0x3Fu >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    *cp = v;
    return len;
}

bool xqn_fold_ascii(const char *text, char *buf, size_t size, bool *full_width)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = 0;
    *full_width = false;
    unsigned cp;
    while (xqn_utf8_take(&s, &cp)) {
        if (cp >= 0xFF01 && cp <= 0xFF5E) {
            cp -= 0xFEE0;
            *full_width = true;
        } else if (cp == 0x3000) {
            cp = ' ';
        } else if (cp == 0x2212 || cp == 0x2013) {   /* minus sign, en dash */
            cp = '-';
        }
        if (cp >= 0x80)
            cp = '\x7f';   /* anything else non-ASCII: unreadable marker */
        if (n + 1 >= size)
            return false;
        buf[n++] = (char)cp;
    }
    buf[n] = '\0';
    /* trim blanks */
    size_t a = 0;
    while (buf[a] == ' ' || buf[a] == '\t' || buf[a] == '\r' || buf[a] == '\n')
        a++;
    while (n > a && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r' ||
                     buf[n - 1] == '\n'))
        n--;
    memmove(buf, buf + a, n - a);
    buf[n - a] = '\0';
    return true;
}

bool xqn_fold_move_text(const char *text, char *buf, size_t size, xqn_result *out)
{
    bool fw;
    if (!xqn_fold_ascii(text, buf, size, &fw)) {
        xqn_set_reason(out, XQN_UNREADABLE, _("move text too long"));
        return false;
    }
    if (fw)
        out->dialect |= XQN_D_FULL_WIDTH;
    return true;
}

/* ------------------------------------------------------------------ */
/* reasons                                                              */

/* The first occupied point strictly between a and b (same file or rank). */
static int first_between(const xq_pos *pos, int a, int b)
{
    int step = sign(XQ_RANK(b) - XQ_RANK(a)) * XQ_FILES + sign(XQ_FILE(b) - XQ_FILE(a));
    for (int sq = a + step; sq != b; sq += step)
        if (xq_piece_at(pos, sq))
            return sq;
    return -1;
}

static int count_between(const xq_pos *pos, int a, int b)
{
    int step = sign(XQ_RANK(b) - XQ_RANK(a)) * XQ_FILES + sign(XQ_FILE(b) - XQ_FILE(a));
    int n = 0;
    for (int sq = a + step; sq != b; sq += step)
        n += xq_piece_at(pos, sq) != 0;
    return n;
}

void xqn_verdict_reason(const xq_pos *pos, xq_move m, char *buf, size_t size)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    char f[3], t[3], x[3];
    enum xq_verdict v = xq_move_check(pos, m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES) {
        snprintf(buf, size, "%s", xq_verdict_text(v));
        return;
    }
    xqn_sqname(from, f);
    xqn_sqname(to, t);
    int p = xq_piece_at(pos, from);
    char who[40];
    if (p)
        snprintf(who, sizeof who, _("the %s %s on %s"), _(xqn_color_name[XQ_COLOR(p)]),
                 _(xqn_type_name[XQ_TYPE(p)]), f);
    else
        snprintf(who, sizeof who, _("the empty point %s"), f);
    int df = XQ_FILE(to) - XQ_FILE(from), dr = XQ_RANK(to) - XQ_RANK(from);
    switch (v) {
    case XQ_ILLEGAL_HORSE_LEG: {
        int leg = abs(dr) == 2 ? from + sign(dr) * XQ_FILES : from + sign(df);
        xqn_sqname(leg, x);
        snprintf(buf, size, _("%s cannot move to %s: its leg %s is blocked"), who, t, x);
        return;
    }
    case XQ_ILLEGAL_ELEPHANT_EYE:
        xqn_sqname(from + (dr / 2) * XQ_FILES + df / 2, x);
        snprintf(buf, size, _("%s cannot move to %s: its eye %s is blocked"), who, t, x);
        return;
    case XQ_ILLEGAL_RIVER:
        snprintf(buf, size, _("%s cannot move to %s: elephants may not cross the river"), who, t);
        return;
    case XQ_ILLEGAL_PALACE:
        snprintf(buf, size, _("%s cannot move to %s: it may not leave the palace"), who, t);
        return;
    case XQ_ILLEGAL_PATH_BLOCKED: {
        int b = first_between(pos, from, to);
        if (b >= 0) {
            xqn_sqname(b, x);
            snprintf(buf, size, _("%s cannot move to %s: the path is blocked on %s"), who, t, x);
        } else {
            snprintf(buf, size, _("%s cannot move to %s: the path is blocked"), who, t);
        }
        return;
    }
    case XQ_ILLEGAL_CANNON_SCREEN: {
        int n = count_between(pos, from, to);
        if (n == 0)
            snprintf(buf, size, _("%s cannot capture on %s: a cannon needs a screen to capture"),
                     who, t);
        else
            snprintf(buf, size, _("%s cannot capture on %s: a cannon captures over exactly one "
                     "screen, not %d"), who, t, n);
        return;
    }
    case XQ_ILLEGAL_OWN_CAPTURE:
        snprintf(buf, size, _("%s cannot move to %s: a piece of its own side stands there"), who, t);
        return;
    case XQ_ILLEGAL_FLYING_GENERAL:
        snprintf(buf, size, _("%s cannot move to %s: the generals would face each other"), who, t);
        return;
    case XQ_ILLEGAL_SELF_CHECK:
        snprintf(buf, size, _("%s cannot move to %s: the move exposes its own general to check"),
                 who, t);
        return;
    case XQ_ILLEGAL_CHECK_NOT_MET:
        snprintf(buf, size, _("%s cannot move to %s: the move leaves its general in check"), who, t);
        return;
    default:
        snprintf(buf, size, _("%s cannot move to %s: %s"), who, t, xq_verdict_text(v));
        return;
    }
}

/* ------------------------------------------------------------------ */
/* pieces of one type                                                   */

/* The side's pieces of a type on one board file, front (nearest the
 * opponent) first.  Returns the count. */
static int pieces_on_file(const xq_pos *pos, int side, int type, int file, int out[10])
{
    int n = 0;
    int code = XQ_PIECE(type, side);
    if (side == XQ_RED) {
        for (int r = 9; r >= 0; r--)
            if (xq_piece_at(pos, XQ_SQ(file, r)) == code)
                out[n++] = XQ_SQ(file, r);
    } else {
        for (int r = 0; r <= 9; r++)
            if (xq_piece_at(pos, XQ_SQ(file, r)) == code)
                out[n++] = XQ_SQ(file, r);
    }
    return n;
}

/* Pieces of a type on files holding two or more of them, file by file from
 * the mover's right (own file 1 first), front to back on each file.  Returns
 * the count; *files gets the number of such files. */
static int doubled_series(const xq_pos *pos, int side, int type, int out[16], int *files)
{
    int n = 0;
    *files = 0;
    for (int own = 1; own <= 9; own++) {
        int list[10];
        int k = pieces_on_file(pos, side, type, xqn_board_file(side, own), list);
        if (k >= 2) {
            (*files)++;
            for (int i = 0; i < k && n < 16; i++)
                out[n++] = list[i];
        }
    }
    return n;
}

/* The destination the descriptor gives a piece on from, or -1 with why. */
static int destination(int side, const xqn_desc *d, int from, char *why, size_t size)
{
    int fwd = side == XQ_RED ? 1 : -1;
    int f = XQ_FILE(from), r = XQ_RANK(from);
    const char *name = _(xqn_type_name[d->type]);
    char fs[3];
    xqn_sqname(from, fs);
    switch (d->type) {
    case XQ_GENERAL: case XQ_CHARIOT: case XQ_CANNON: case XQ_SOLDIER:
        if (d->op == '=') {
            int tf = xqn_board_file(side, d->arg);
            if (tf == f) {
                snprintf(why, size, _("the %s on %s is already on file %d"), name, fs, d->arg);
                return -1;
            }
            return XQ_SQ(tf, r);
        } else {
            int nr = r + (d->op == '+' ? 1 : -1) * fwd * d->arg;
            if (nr < 0 || nr > 9) {
                snprintf(why, size,
                         d->op == '+'
                             ? ngettext("the %s on %s cannot move %d point forward: off the board",
                                        "the %s on %s cannot move %d points forward: off the "
                                        "board", d->arg)
                             : ngettext("the %s on %s cannot move %d point backward: off the "
                                        "board",
                                        "the %s on %s cannot move %d points backward: off the "
                                        "board", d->arg),
                         name, fs, d->arg);
                return -1;
            }
            return XQ_SQ(f, nr);
        }
    default: {
        if (d->op == '=') {
            snprintf(why, size, _("the %s on %s cannot move sideways ('=' or '.' traverse)"),
                     name, fs);
            return -1;
        }
        int tf = xqn_board_file(side, d->arg);
        int adf = abs(tf - f), dr;
        if (d->type == XQ_ADVISOR)
            dr = adf == 1 ? 1 : -1;
        else if (d->type == XQ_ELEPHANT)
            dr = adf == 2 ? 2 : -1;
        else
            dr = adf == 1 ? 2 : adf == 2 ? 1 : -1;
        if (dr < 0) {
            snprintf(why, size, _("the %s on %s cannot reach file %d in one move"), name, fs,
                     d->arg);
            return -1;
        }
        int nr = r + (d->op == '+' ? 1 : -1) * fwd * dr;
        if (nr < 0 || nr > 9) {
            snprintf(why, size, _("the %s on %s cannot move %s to file %d: off the board"), name,
                     fs, d->op == '+' ? _("forward") : _("backward"), d->arg);
            return -1;
        }
        return XQ_SQ(tf, nr);
    }
    }
}

static const char *ordinal(int i)
{
    static const char *const names[] = { N_("0th"), N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th") };
    return i >= 0 && i <= 5 ? _(names[i]) : _("nth");
}

void xqn_resolve_desc(const xq_pos *pos, const xqn_desc *d, xqn_result *out)
{
    int side = xq_pos_side(pos);
    const char *color = _(xqn_color_name[side]);
    const char *name = _(xqn_type_name[d->type]);
    int origins[16], no = 0;

    switch (d->org) {
    case XQN_ORG_FILE: {
        no = pieces_on_file(pos, side, d->type, xqn_board_file(side, d->file), origins);
        if (no == 0) {
            xqn_set_reason(out, XQN_ILLEGAL, _("no %s %s on file %d"), color, name, d->file);
            return;
        }
        if (no >= 2 && d->type != XQ_ADVISOR && d->type != XQ_ELEPHANT)
            out->dialect |= XQN_D_FILE_TANDEM;
        break;
    }
    case XQN_ORG_FRONT: case XQN_ORG_MIDDLE: case XQN_ORG_REAR: {
        int need = d->org == XQN_ORG_MIDDLE ? 3 : 2;
        for (int own = 1; own <= 9; own++) {
            if (d->file && own != d->file)
                continue;
            int list[10];
            int k = pieces_on_file(pos, side, d->type, xqn_board_file(side, own), list);
            if (k < need || (d->org == XQN_ORG_MIDDLE && k != 3))
                continue;
            origins[no++] = d->org == XQN_ORG_FRONT ? list[0]
                          : d->org == XQN_ORG_REAR ? list[k - 1] : list[1];
        }
        if (no == 0) {
            if (d->file)
                xqn_set_reason(out, XQN_ILLEGAL, _("no %s %ss on file %d to tell %s"), color,
                               name, d->file, need == 3 ? _("front, middle and rear")
                                                        : _("front from rear"));
            else
                xqn_set_reason(out, XQN_ILLEGAL, _("no file with %s %s %ss to tell %s"),
                               need == 3 ? _("three") : _("two"), color, name,
                               need == 3 ? _("front, middle and rear") : _("front from rear"));
            return;
        }
        if (d->type == XQ_ADVISOR || d->type == XQ_ELEPHANT)
            out->dialect |= XQN_D_MARKER_EXTRA;
        break;
    }
    case XQN_ORG_INDEX: {
        int series[16], files;
        int k = doubled_series(pos, side, d->type, series, &files);
        if (d->index < 1 || d->index > k) {
            xqn_set_reason(out, XQN_ILLEGAL, _("no %s %s %s among %d on doubled files"),
                           ordinal(d->index), color, name, k);
            return;
        }
        origins[no++] = series[d->index - 1];
        break;
    }
    case XQN_ORG_FILE_INDEX: {
        int list[10];
        int k = pieces_on_file(pos, side, d->type, xqn_board_file(side, d->file), list);
        if (d->index < 1 || d->index > k) {
            xqn_set_reason(out, XQN_ILLEGAL,
                           ngettext("no %s %s %s on file %d (there is %d)",
                                    "no %s %s %s on file %d (there are %d)", (unsigned long)k),
                           ordinal(d->index), color, name, d->file, k);
            return;
        }
        origins[no++] = list[d->index - 1];
        break;
    }
    }

    char why[160] = "";
    xq_move first_bad = XQ_MOVE_NONE;
    int legal = 0, bad = 0;
    for (int i = 0; i < no; i++) {
        char w[160];
        int to = destination(side, d, origins[i], w, sizeof w);
        if (to < 0) {
            if (!why[0])
                snprintf(why, sizeof why, "%s", w);
            continue;
        }
        xq_move m = xq_move_make(origins[i], to);
        if (xq_move_check(pos, m) == XQ_LEGAL) {
            if (legal < 8)
                out->candidates[legal] = m;
            legal++;
        } else {
            if (first_bad == XQ_MOVE_NONE)
                first_bad = m;
            bad++;
        }
    }
    if (legal == 1) {
        out->status = XQN_OK;
        out->move = out->candidates[0];
        out->candidates[0] = XQ_MOVE_NONE;
        out->reason[0] = '\0';
        return;
    }
    if (legal > 1) {
        out->candidate_count = legal > 8 ? 8 : legal;
        char a[3], b[3], c[3], e[3];
        xqn_sqname(xq_move_from(out->candidates[0]), a);
        xqn_sqname(xq_move_to(out->candidates[0]), b);
        xqn_sqname(xq_move_from(out->candidates[1]), c);
        xqn_sqname(xq_move_to(out->candidates[1]), e);
        xqn_set_reason(out, XQN_AMBIGUOUS, _("%d %s %ss can make this move: %s%s, %s%s%s"),
                       legal, color, name, a, b, c, e, legal > 2 ? ", …" : "");
        return;
    }
    out->status = XQN_ILLEGAL;
    if (bad == 1)
        out->named = first_bad;
    if (first_bad != XQ_MOVE_NONE)
        xqn_verdict_reason(pos, first_bad, out->reason, sizeof out->reason);
    else
        snprintf(out->reason, sizeof out->reason, "%s", why);
}

void xqn_describe(const xq_pos *pos, xq_move m, xqn_desc *d)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    int p = xq_piece_at(pos, from), side = XQ_COLOR(p), type = XQ_TYPE(p);
    memset(d, 0, sizeof *d);
    d->type = type;
    if (XQ_RANK(to) == XQ_RANK(from))
        d->op = '=';
    else
        d->op = xqn_advance(side, to) > xqn_advance(side, from) ? '+' : '-';
    bool straight = type == XQ_GENERAL || type == XQ_CHARIOT || type == XQ_CANNON ||
                    type == XQ_SOLDIER;
    if (straight && XQ_FILE(to) == XQ_FILE(from))
        d->arg = abs(XQ_RANK(to) - XQ_RANK(from));
    else
        d->arg = xqn_own_file(side, XQ_FILE(to));
    d->file = xqn_own_file(side, XQ_FILE(from));
    d->org = XQN_ORG_FILE;

    int list[10];
    int k = pieces_on_file(pos, side, type, XQ_FILE(from), list);
    if (k < 2 || type == XQ_GENERAL || type == XQ_ADVISOR || type == XQ_ELEPHANT)
        return;
    int at = 0;
    while (list[at] != from)
        at++;
    if (type != XQ_SOLDIER) {
        d->org = at == 0 ? XQN_ORG_FRONT : XQN_ORG_REAR;
        d->file = 0;
        return;
    }
    int series[16], files;
    int total = doubled_series(pos, side, type, series, &files);
    if (files == 1 && k <= 3) {
        d->org = at == 0 ? XQN_ORG_FRONT : at == k - 1 ? XQN_ORG_REAR : XQN_ORG_MIDDLE;
        d->file = 0;
        return;
    }
    for (int i = 0; i < total; i++)
        if (series[i] == from) {
            d->org = XQN_ORG_INDEX;
            d->index = i + 1;
            d->file = 0;
            return;
        }
}

/* ------------------------------------------------------------------ */
/* entry points                                                         */

void xqn_parse(const xq_pos *pos, xqn_notation n, const char *text, xqn_result *out)
{
    xqn_result_init(out);
    if (!text) {
        xqn_set_reason(out, XQN_UNREADABLE, _("no move text"));
        return;
    }
    xqn_desc d;
    switch (n) {
    case XQN_WXF:
        if (xqn_wxf_read(text, xq_pos_side(pos), &d, out))
            xqn_resolve_desc(pos, &d, out);
        return;
    case XQN_VIETNAMESE:
        if (xqn_vi_read(text, &d, out))
            xqn_resolve_desc(pos, &d, out);
        return;
    case XQN_CHINESE:
        if (xqn_cn_read(text, xq_pos_side(pos), &d, out))
            xqn_resolve_desc(pos, &d, out);
        return;
    case XQN_ICCS: case XQN_UCCI: case XQN_FSF_UCI: case XQN_WINBOARD_SAN: case XQN_FSF_SAN:
        xqn_coord_parse(pos, n, text, out);
        return;
    }
    xqn_set_reason(out, XQN_UNREADABLE, _("unknown notation"));
}

int xqn_format(const xq_pos *pos, xq_move m, xqn_notation n, unsigned style_flags,
               char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    if (m == XQ_MOVE_NONE || !xq_is_legal(pos, m))
        return -1;
    return xqn_format_legal(pos, m, n, style_flags, buf, size);
}

int xqn_format_legal(const xq_pos *pos, xq_move m, xqn_notation n, unsigned style_flags,
                     char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    switch (n) {
    case XQN_WXF: return xqn_wxf_format(pos, m, style_flags, buf, size);
    case XQN_VIETNAMESE: return xqn_vi_format(pos, m, buf, size);
    case XQN_CHINESE: return xqn_cn_format(pos, m, style_flags, buf, size);
    case XQN_ICCS: case XQN_UCCI: case XQN_FSF_UCI: case XQN_WINBOARD_SAN: case XQN_FSF_SAN:
        return xqn_coord_format(pos, m, n, buf, size);
    }
    return -1;
}

unsigned xqn_syntax_fits(const char *text)
{
    unsigned bits = 0;
    xqn_result r;
    xqn_desc d;
    if (!text)
        return 0;
    /* Side only matters for case notes; both sides are tried so that a
     * lower-case PlayOK move fits. */
    xqn_result_init(&r);
    if (xqn_wxf_read(text, XQ_BLACK, &d, &r))
        bits |= XQN_BIT(XQN_WXF);
    xqn_result_init(&r);
    if (xqn_vi_read(text, &d, &r))
        bits |= XQN_BIT(XQN_VIETNAMESE);
    xqn_result_init(&r);
    if (xqn_cn_read(text, XQ_RED, &d, &r))
        bits |= XQN_BIT(XQN_CHINESE);
    for (int n = XQN_ICCS; n <= XQN_FSF_SAN; n++)
        if (xqn_coord_fits((xqn_notation)n, text))
            bits |= XQN_BIT(n);
    return bits;
}
