/* xq_chinese.c: Chinese move text (reference section 5), UTF-8.
 *
 * 炮二平五, 马８进７, 馬8進7, 前炮退二, 中兵平四, 一兵平四 (xqbase: four or
 * five pawns, or two doubled files, numbered across the doubled files),
 * 前兵九平八 and 前九平八 (marker with the file kept).  Simplified and
 * traditional characters are read alike; Red numbers are Chinese numerals,
 * Black's ASCII or full-width digits, and the other kind is accepted with a
 * lenient note. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "i18n/i18n.h"
#include "notation/xq_notation_internal.h"

#include <stdio.h>
#include <string.h>

enum tok_kind { T_PIECE, T_OP, T_MARK, T_CN, T_AR, T_OTHER };

typedef struct tok {
    enum tok_kind kind;
    int value;        /* piece type, op char, org, or number */
    bool traditional;
    unsigned cp;
} tok;

static const struct { const char *ch; enum tok_kind kind; int value; bool trad; } lexicon[] = {
    { "帅", T_PIECE, XQ_GENERAL, false }, { "帥", T_PIECE, XQ_GENERAL, true },
    { "将", T_PIECE, XQ_GENERAL, false }, { "將", T_PIECE, XQ_GENERAL, true },
    { "仕", T_PIECE, XQ_ADVISOR, false }, { "士", T_PIECE, XQ_ADVISOR, false },
    { "相", T_PIECE, XQ_ELEPHANT, false }, { "象", T_PIECE, XQ_ELEPHANT, false },
    { "车", T_PIECE, XQ_CHARIOT, false }, { "車", T_PIECE, XQ_CHARIOT, true },
    { "俥", T_PIECE, XQ_CHARIOT, true },
    { "马", T_PIECE, XQ_HORSE, false }, { "馬", T_PIECE, XQ_HORSE, true },
    { "傌", T_PIECE, XQ_HORSE, true },
    { "炮", T_PIECE, XQ_CANNON, false }, { "砲", T_PIECE, XQ_CANNON, true },
    { "包", T_PIECE, XQ_CANNON, false },
    { "兵", T_PIECE, XQ_SOLDIER, false }, { "卒", T_PIECE, XQ_SOLDIER, false },
    { "进", T_OP, '+', false }, { "進", T_OP, '+', true },
    { "退", T_OP, '-', false }, { "平", T_OP, '=', false },
    { "前", T_MARK, XQN_ORG_FRONT, false }, { "中", T_MARK, XQN_ORG_MIDDLE, false },
    { "后", T_MARK, XQN_ORG_REAR, false }, { "後", T_MARK, XQN_ORG_REAR, true },
    { "一", T_CN, 1, false }, { "二", T_CN, 2, false }, { "三", T_CN, 3, false },
    { "四", T_CN, 4, false }, { "五", T_CN, 5, false }, { "六", T_CN, 6, false },
    { "七", T_CN, 7, false }, { "八", T_CN, 8, false }, { "九", T_CN, 9, false },
};

static const char *const red_simplified[8] = { "", "帅", "仕", "相", "马", "车", "炮", "兵" };
static const char *const black_simplified[8] = { "", "将", "士", "象", "马", "车", "炮", "卒" };
static const char *const red_traditional[8] = { "", "帥", "仕", "相", "傌", "俥", "炮", "兵" };
static const char *const black_traditional[8] = { "", "將", "士", "象", "馬", "車", "砲", "卒" };
static const char *const numerals[10] = { "", "一", "二", "三", "四", "五", "六", "七", "八", "九" };
static const char *const wide_digits[10] = { "", "１", "２", "３", "４", "５", "６", "７", "８", "９" };

static void classify(unsigned cp, tok *t)
{
    t->cp = cp;
    t->traditional = false;
    if (cp >= '1' && cp <= '9') {
        t->kind = T_AR;
        t->value = (int)(cp - '0');
        return;
    }
    if (cp >= 0xFF11 && cp <= 0xFF19) {
        t->kind = T_AR;
        t->value = (int)(cp - 0xFF10);
        return;
    }
    unsigned c = 0; /* every lexicon entry is one whole character: always set below */
    for (size_t i = 0; i < sizeof lexicon / sizeof lexicon[0]; i++) {
        xqn_utf8_next((const unsigned char *)lexicon[i].ch, &c);
        if (c == cp) {
            t->kind = lexicon[i].kind;
            t->value = lexicon[i].value;
            t->traditional = lexicon[i].trad;
            return;
        }
    }
    t->kind = T_OTHER;
    t->value = 0;
}

static bool is_number(const tok *t)
{
    return t->kind == T_CN || t->kind == T_AR;
}

bool xqn_cn_read(const char *text, int side, xqn_desc *d, xqn_result *out)
{
    tok toks[8];
    int n = 0;
    const unsigned char *s = (const unsigned char *)text;
    memset(d, 0, sizeof *d);
    /* skip leading blanks */
    while (*s == ' ' || *s == '\t')
        s++;
    unsigned cp;
    while (xqn_utf8_take(&s, &cp)) {
        if (cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == 0x3000) {
            /* only trailing blanks are allowed */
            const unsigned char *q = s;
            while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
                q++;
            if (*q) {
                xqn_set_reason(out, XQN_UNREADABLE, _("a blank inside a Chinese move"));
                return false;
            }
            break;
        }
        if (n == 8) {
            xqn_set_reason(out, XQN_UNREADABLE, _("too long for a Chinese move"));
            return false;
        }
        classify(cp, &toks[n++]);
    }
    /* meaningful part */
    int used;
    const tok *num_file = NULL;
    if (n >= 4 && toks[0].kind == T_PIECE && is_number(&toks[1]) && toks[2].kind == T_OP) {
        d->type = toks[0].value;
        d->org = XQN_ORG_FILE;
        d->file = toks[1].value;
        num_file = &toks[1];
        used = 3;
    } else if (n >= 4 && toks[0].kind == T_MARK && toks[1].kind == T_PIECE &&
               toks[2].kind == T_OP) {
        d->type = toks[1].value;
        d->org = (enum xqn_origin)toks[0].value;
        used = 3;
    } else if (n >= 5 && toks[0].kind == T_MARK && toks[1].kind == T_PIECE &&
               is_number(&toks[2]) && toks[3].kind == T_OP) {
        d->type = toks[1].value;
        d->org = (enum xqn_origin)toks[0].value;
        d->file = toks[2].value;
        num_file = &toks[2];
        out->dialect |= XQN_D_CN_FILE_MARK;
        used = 4;
    } else if (n >= 4 && toks[0].kind == T_MARK && is_number(&toks[1]) &&
               toks[2].kind == T_OP) {
        d->type = XQ_SOLDIER;
        d->org = (enum xqn_origin)toks[0].value;
        d->file = toks[1].value;
        num_file = &toks[1];
        out->dialect |= XQN_D_CN_FILE_MARK;
        used = 3;
    } else if (n >= 4 && is_number(&toks[0]) && toks[1].kind == T_PIECE &&
               toks[2].kind == T_OP) {
        if (toks[0].value > 5) {
            xqn_set_reason(out, XQN_UNREADABLE, _("a piece index is 1 to 5"));
            return false;
        }
        d->type = toks[1].value;
        d->org = XQN_ORG_INDEX;
        d->index = toks[0].value;
        used = 3;
    } else {
        bool any = false;
        for (int i = 0; i < n; i++)
            any |= toks[i].kind != T_OTHER;
        xqn_set_reason(out, XQN_UNREADABLE, any ? _("not a complete Chinese move (piece, file, "
                       "进/退/平, number)") : _("not a Chinese move"));
        return false;
    }
    d->op = (char)toks[used - 1].value;
    if (!is_number(&toks[used])) {
        xqn_set_reason(out, XQN_UNREADABLE, _("a number must follow 进, 退 or 平"));
        return false;
    }
    d->arg = toks[used].value;
    const tok *num_arg = &toks[used];
    used++;
    for (int i = 0; i < used; i++)
        if (toks[i].traditional)
            out->dialect |= XQN_D_TRADITIONAL;
    /* tail: remarks or a stray full stop */
    for (int i = used; i < n; i++) {
        unsigned c = toks[i].cp;
        if (c == '+' || c == '#' || c == '!' || c == '?' || c == 0xFF01 || c == 0xFF1F ||
            c == 0xFF0B) {
            out->dialect |= XQN_D_REMARK;
        } else if ((c == '.' || c == 0x3002) && i == n - 1) {
            xqn_note(out, _("stray trailing full stop"));
        } else {
            xqn_set_reason(out, XQN_UNREADABLE, _("unexpected text after the move"));
            return false;
        }
    }
    /* numeral kind: Red 一…九, Black digits */
    int want = side == XQ_RED ? T_CN : T_AR;
    const tok *nums[2] = { num_file, num_arg };
    for (int i = 0; i < 2; i++)
        if (nums[i] && (int)nums[i]->kind != want) {
            xqn_note(out, side == XQ_RED ? _("Arabic digits in a Red move")
                                         : _("Chinese numerals in a Black move"));
            break;
        }
    return true;
}

int xqn_cn_format(const xq_pos *pos, xq_move m, unsigned style, char *buf, size_t size)
{
    xqn_desc d;
    xqn_describe(pos, m, &d);
    int side = XQ_COLOR(xq_piece_at(pos, xq_move_from(m)));
    bool trad = (style & XQN_STYLE_TRADITIONAL) != 0;
    const char *const *names = side == XQ_RED ? (trad ? red_traditional : red_simplified)
                                              : (trad ? black_traditional : black_simplified);
    const char *const *digits = side == XQ_RED ? numerals : wide_digits;
    const char *op = d.op == '+' ? (trad ? "進" : "进") : d.op == '-' ? "退" : "平";
    switch (d.org) {
    case XQN_ORG_FRONT: case XQN_ORG_MIDDLE: case XQN_ORG_REAR: {
        const char *mark = d.org == XQN_ORG_FRONT ? "前" : d.org == XQN_ORG_MIDDLE ? "中"
                         : trad ? "後" : "后";
        return snprintf(buf, size, "%s%s%s%s", mark, names[d.type], op, digits[d.arg]);
    }
    case XQN_ORG_INDEX:
        return snprintf(buf, size, "%s%s%s%s", numerals[d.index], names[d.type], op,
                        digits[d.arg]);
    default:
        return snprintf(buf, size, "%s%s%s%s", names[d.type], digits[d.file], op,
                        digits[d.arg]);
    }
}
