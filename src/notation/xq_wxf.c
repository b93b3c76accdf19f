/* xq_wxf.c: English WXF (AXF) and Vietnamese move text.
 *
 * Both write four units: piece, origin, operator, argument (reference
 * sections 3 and 4).  The readers only cut the text into an xqn_desc; the
 * position is consulted in xqn_resolve_desc (xq_notation.c). */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "i18n/i18n.h"
#include "notation/xq_notation_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char wxf_letters[8] = { '?', 'K', 'A', 'E', 'H', 'R', 'C', 'P' };
static const char *const vi_letters[8] = { "?", "Tg", "S", "T", "M", "X", "P", "B" };

/* A WXF piece letter (either case); *alt for the non-WXF synonyms. */
static int wxf_piece(char c, bool *alt)
{
    *alt = false;
    switch (toupper((unsigned char)c)) {
    case 'K': return XQ_GENERAL;
    case 'A': return XQ_ADVISOR;
    case 'G': *alt = true; return XQ_ADVISOR;   /* ICCS guard */
    case 'E': return XQ_ELEPHANT;
    case 'B': case 'M': *alt = true; return XQ_ELEPHANT;  /* FEN bishop, ICCS minister */
    case 'H': return XQ_HORSE;
    case 'N': *alt = true; return XQ_HORSE;
    case 'R': return XQ_CHARIOT;
    case 'C': return XQ_CANNON;
    case 'P': return XQ_SOLDIER;
    default: return 0;
    }
}

static bool is_digit19(char c)
{
    return c >= '1' && c <= '9';
}

/* What follows a complete move: nothing, remarks, or a stray '.'. */

static bool read_tail(const char *rest, xqn_result *out)
{
    if (!rest[0])
        return true;
    if (strcmp(rest, ".") == 0) {
        xqn_note(out, _("stray trailing '.'"));
        return true;
    }
    size_t n = strspn(rest, "+#!?");
    if (rest[n] == '.' && rest[n + 1] == '\0' && n > 0) {
        xqn_note(out, _("stray trailing '.'"));
        n++;
    }
    if (rest[n] == '\0') {
        out->dialect |= XQN_D_REMARK;
        return true;
    }
    xqn_set_reason(out, XQN_UNREADABLE, _("unexpected \"%s\" after the move"), rest);
    return false;
}


/* The argument after the sign (steps or destination file, 1-9) and what may follow it:
 * the same in English WXF and Vietnamese. */
static bool read_argument(xqn_desc *d, const char *p, xqn_result *out)
{
    if (!is_digit19(p[0])) {
        if (!p[0])
            xqn_set_reason(out, XQN_UNREADABLE, _("incomplete move: the last number is missing"));
        else
            xqn_set_reason(out, XQN_UNREADABLE, _("'%c' where a number 1-9 was expected"), p[0]);
        return false;
    }
    d->arg = p[0] - '0';
    return read_tail(p + 1, out);
}
/* The move text folded into s (full-width forms to ASCII, noted as a dialect), d
 * cleared; false, with the reason, for a text too long or empty. */
static bool read_start(const char *text, char s[48], xqn_desc *d, xqn_result *out)
{
    memset(d, 0, sizeof *d);
    if (!xqn_fold_move_text(text, s, 48, out))
        return false;
    if (!s[0]) {
        xqn_set_reason(out, XQN_UNREADABLE, _("empty move text"));
        return false;
    }
    return true;
}

bool xqn_wxf_read(const char *text, int side, xqn_desc *d, xqn_result *out)
{
    char s[48];
    if (!read_start(text, s, d, out))
        return false;
    const char *p = s;
    char marker = 0;
    bool alt;
    if (strchr("+-.=", s[0]) && isalpha((unsigned char)s[1])) {
        marker = s[0];
        p = s + 1;
        out->dialect |= XQN_D_MARKER_FIRST;
    }
    if (!marker && is_digit19(p[0]) && is_digit19(p[1])) {
        /* Fairy-Stockfish: per-file index (1 = front) then the file */
        if (p[0] > '5') {
            xqn_set_reason(out, XQN_UNREADABLE, _("'%c' is not a pawn index (1-5)"), p[0]);
            return false;
        }
        d->type = XQ_SOLDIER;
        d->org = XQN_ORG_FILE_INDEX;
        d->index = p[0] - '0';
        d->file = p[1] - '0';
        out->dialect |= XQN_D_FSF_INDEX;
        p += 2;
    } else {
        d->type = wxf_piece(p[0], &alt);
        if (!d->type) {
            if (isprint((unsigned char)p[0]))
                xqn_set_reason(out, XQN_UNREADABLE,
                               _("'%c' is not a WXF piece letter (K A E H R C P)"), p[0]);
            else
                xqn_set_reason(out, XQN_UNREADABLE, _("not a WXF move"));
            return false;
        }
        if (alt)
            out->dialect |= XQN_D_ALT_LETTER;
        if (islower((unsigned char)p[0])) {
            if (side == XQ_BLACK)
                out->dialect |= XQN_D_LOWER_BLACK;
            else
                xqn_note(out, _("lower-case piece letter for a Red move"));
        }
        p++;
        char o = marker ? marker : p[0];
        if (!marker && is_digit19(o)) {
            d->org = XQN_ORG_FILE;
            d->file = o - '0';
        } else if (o == '+') {
            d->org = XQN_ORG_FRONT;
        } else if (o == '-') {
            d->org = XQN_ORG_REAR;
        } else if (o == '.' || o == '=') {
            d->org = XQN_ORG_MIDDLE;
            if (o == '=')
                out->dialect |= XQN_D_EQUALS;
        } else if (!marker && o >= 'a' && o <= 'e') {
            d->org = XQN_ORG_INDEX;
            d->index = o - 'a' + 1;
            out->dialect |= XQN_D_INDEX_LETTER;
        } else {
            if (!o)
                xqn_set_reason(out, XQN_UNREADABLE, _("incomplete move: the file is missing"));
            else
                xqn_set_reason(out, XQN_UNREADABLE,
                               _("'%c' where a file 1-9 or a marker + - was expected"), o);
            return false;
        }
        if (!marker)
            p++;
    }
    switch (p[0]) {
    case '+': case '-': d->op = p[0]; break;
    case '.': d->op = '='; break;
    case '=': d->op = '='; out->dialect |= XQN_D_EQUALS; break;
    case '\0':
        xqn_set_reason(out, XQN_UNREADABLE, _("incomplete move: the sign + - . is missing"));
        return false;
    default:
        xqn_set_reason(out, XQN_UNREADABLE, _("'%c' where a move sign + - . = was expected"), p[0]);
        return false;
    }
    return read_argument(d, p + 1, out);
}

bool xqn_vi_read(const char *text, xqn_desc *d, xqn_result *out)
{
    char s[48];
    if (!read_start(text, s, d, out))
        return false;
    const char *p = s;
    char c = (char)toupper((unsigned char)s[0]);
    if (c == 'T' && (s[1] == 'g' || s[1] == 'G') && is_digit19(s[2])) {
        d->type = XQ_GENERAL;
        p += 2;
    } else {
        switch (c) {
        case 'S': d->type = XQ_ADVISOR; break;
        case 'T': d->type = XQ_ELEPHANT; break;
        case 'V': d->type = XQ_ELEPHANT; out->dialect |= XQN_D_ALT_LETTER; break;
        case 'X': d->type = XQ_CHARIOT; break;
        case 'M': d->type = XQ_HORSE; break;
        case 'P': d->type = XQ_CANNON; break;
        case 'B': d->type = XQ_SOLDIER; break;
        case 'C': d->type = XQ_SOLDIER; out->dialect |= XQN_D_ALT_LETTER; break;
        default:
            if (isprint((unsigned char)s[0]))
                xqn_set_reason(out, XQN_UNREADABLE,
                               _("'%c' is not a Vietnamese piece letter (Tg S T X M P B)"), s[0]);
            else
                xqn_set_reason(out, XQN_UNREADABLE, _("not a Vietnamese move"));
            return false;
        }
        p++;
    }
    if (islower((unsigned char)s[0]))
        xqn_note(out, _("lower-case piece letter"));
    char o = p[0];
    if (is_digit19(o)) {
        d->org = XQN_ORG_FILE;
        d->file = o - '0';
    } else if (o == 't') {
        d->org = XQN_ORG_FRONT;
    } else if (o == 's') {
        d->org = XQN_ORG_REAR;
    } else if (o == 'g') {
        d->org = XQN_ORG_MIDDLE;
    } else if (o >= 'a' && o <= 'e') {
        d->org = XQN_ORG_INDEX;
        d->index = o - 'a' + 1;
        out->dialect |= XQN_D_INDEX_LETTER;
    } else {
        if (!o)
            xqn_set_reason(out, XQN_UNREADABLE, _("incomplete move: the file is missing"));
        else
            xqn_set_reason(out, XQN_UNREADABLE,
                           _("'%c' where a file 1-9 or t s g was expected"), o);
        return false;
    }
    p++;
    switch (p[0]) {
    case '.': d->op = '+'; break;
    case '/': d->op = '-'; break;
    case '-': d->op = '='; break;
    case '\0':
        xqn_set_reason(out, XQN_UNREADABLE, _("incomplete move: the sign . / - is missing"));
        return false;
    default:
        xqn_set_reason(out, XQN_UNREADABLE, _("'%c' where a move sign . / - was expected"), p[0]);
        return false;
    }
    return read_argument(d, p + 1, out);
}

/* ------------------------------------------------------------------ */
/* writing                                                              */

static int emit(const char *t, unsigned style, char *buf, size_t size)
{
    char w[XQN_FORMAT_BUFSIZE];
    if (style & XQN_STYLE_FULL_WIDTH) {
        size_t n = 0;
        for (const char *p = t; *p && n + 3 < sizeof w; p++) {
            unsigned cp = 0xFF00u + (unsigned char)*p - 0x20u;
            w[n++] = (char)(0xE0 | (cp >> 12));
            w[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            w[n++] = (char)(0x80 | (cp & 0x3F));
        }
        w[n] = '\0';
        t = w;
    }
    return snprintf(buf, size, "%s", t);
}

static bool on_board(int f, int r)
{
    return f >= 0 && f < 9 && r >= 0 && r < 10;
}

/* May a piece of this type and side stand on (f, r)?  Fairy-Stockfish's
 * mobility regions: palace for general and advisor, own half for elephant. */
static bool in_region(int type, int side, int f, int r)
{
    if (!on_board(f, r))
        return false;
    if (type == XQ_GENERAL || type == XQ_ADVISOR)
        return f >= 3 && f <= 5 && (side == XQ_RED ? r <= 2 : r >= 7);
    if (type == XQ_ELEPHANT)
        return side == XQ_RED ? r <= 4 : r >= 5;
    return true;
}

/* Fairy-Stockfish's NOTATION_XIANGQI_WXF as ffish 0.7.10 writes it
 * (checked move by move against ffish over random play): the per-file index
 * replaces the letter when 3+ of a type share the file, or 2+ when another
 * file also holds 2+; +/- replaces the file only for exactly two on the file
 * when the other piece could make the same displacement (inside its
 * region); no check suffix. */
static int fsf_format(const xq_pos *pos, xq_move m, unsigned style, char *buf, size_t size)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    int p = xq_piece_at(pos, from), side = XQ_COLOR(p), type = XQ_TYPE(p);
    int f = XQ_FILE(from), df = XQ_FILE(to) - f, dr = XQ_RANK(to) - XQ_RANK(from);
    int on_file = 0, ahead = 0, other = -1;
    for (int r = 0; r < 10; r++) {
        int sq = XQ_SQ(f, r);
        if (xq_piece_at(pos, sq) != p)
            continue;
        on_file++;
        if (sq != from) {
            other = sq;
            if (xqn_advance(side, sq) > xqn_advance(side, from))
                ahead++;
        }
    }
    /* other files holding two or more of the type ("multi tandem") */
    int doubled_files = 0;
    for (int file = 0; file < 9; file++) {
        int k = 0;
        for (int r = 0; r < 10; r++)
            k += xq_piece_at(pos, XQ_SQ(file, r)) == p;
        doubled_files += k >= 2;
    }
    bool index_form = on_file >= 3 - (doubled_files > 1);
    char t[16];
    int n = 0;
    if (index_form)
        t[n++] = (char)('1' + ahead);
    else
        t[n++] = wxf_letters[type];
    if (!index_form && on_file == 2 &&
        in_region(type, side, XQ_FILE(other) + df, XQ_RANK(other) + dr))
        t[n++] = ahead ? '-' : '+';
    else
        t[n++] = (char)('0' + xqn_own_file(side, f));
    if (dr == 0)
        t[n++] = '=';
    else
        t[n++] = xqn_advance(side, to) > xqn_advance(side, from) ? '+' : '-';
    if (df == 0)
        t[n++] = (char)('0' + (dr < 0 ? -dr : dr));
    else
        t[n++] = (char)('0' + xqn_own_file(side, XQ_FILE(to)));
    t[n] = '\0';   /* ffish 0.7.10 writes no check suffix in WXF */
    return emit(t, style & XQN_STYLE_FULL_WIDTH, buf, size);
}

int xqn_wxf_format(const xq_pos *pos, xq_move m, unsigned style, char *buf, size_t size)
{
    if (style & XQN_STYLE_FSF)
        return fsf_format(pos, m, style, buf, size);
    xqn_desc d;
    xqn_describe(pos, m, &d);
    int side = XQ_COLOR(xq_piece_at(pos, xq_move_from(m)));
    char trav = (style & XQN_STYLE_EQUALS) ? '=' : '.';
    char letter = wxf_letters[d.type];
    if ((style & XQN_STYLE_LOWER_BLACK) && side == XQ_BLACK)
        letter = (char)tolower((unsigned char)letter);
    char origin;
    switch (d.org) {
    case XQN_ORG_FRONT: origin = '+'; break;
    case XQN_ORG_REAR: origin = '-'; break;
    case XQN_ORG_MIDDLE: origin = trav; break;
    case XQN_ORG_INDEX: origin = (char)('a' + d.index - 1); break;
    default: origin = (char)('0' + d.file); break;
    }
    char t[8];
    bool marker = d.org == XQN_ORG_FRONT || d.org == XQN_ORG_REAR || d.org == XQN_ORG_MIDDLE;
    if (marker && (style & XQN_STYLE_MARKER_FIRST)) {
        t[0] = origin;
        t[1] = letter;
    } else {
        t[0] = letter;
        t[1] = origin;
    }
    t[2] = d.op == '=' ? trav : d.op;
    t[3] = (char)('0' + d.arg);
    t[4] = '\0';
    return emit(t, style, buf, size);
}

int xqn_vi_format(const xq_pos *pos, xq_move m, char *buf, size_t size)
{
    xqn_desc d;
    xqn_describe(pos, m, &d);
    char origin;
    switch (d.org) {
    case XQN_ORG_FRONT: origin = 't'; break;
    case XQN_ORG_REAR: origin = 's'; break;
    case XQN_ORG_MIDDLE: origin = 'g'; break;
    case XQN_ORG_INDEX: origin = (char)('a' + d.index - 1); break;
    default: origin = (char)('0' + d.file); break;
    }
    char op = d.op == '+' ? '.' : d.op == '-' ? '/' : '-';
    return snprintf(buf, size, "%s%c%c%c", vi_letters[d.type], origin, op, '0' + d.arg);
}
