/* xiangqi_fen.c: xiangqi FEN reading (with validation) and writing.
 *
 * The reader checks everything a record could get wrong and says what, in one
 * line, instead of trusting its input: a referee replaying from a bad FEN tag
 * would otherwise judge moves on an impossible board. */
#include <config.h>

#include "core/xiangqi_internal.h"
#include "i18n/i18n.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const color_name[2] = { N_("Red"), N_("Black") };
static const char *const type_name[8] = { "", N_("general"), N_("advisor"), N_("elephant"),
                                          N_("horse"), N_("chariot"), N_("cannon"), N_("soldier") };

static bool fail(char *err, size_t errsize, const char *fmt, ...)
{
    if (err && errsize > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsize, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Both letter sets: K A B/E N/H R C P (xqbase, UCCI) and E/H (WXF, PlayOK). */
static int type_of_letter(int c)
{
    switch (toupper(c)) {
    case 'K': return XQ_GENERAL;
    case 'A': return XQ_ADVISOR;
    case 'B': case 'E': return XQ_ELEPHANT;
    case 'N': case 'H': return XQ_HORSE;
    case 'R': return XQ_CHARIOT;
    case 'C': return XQ_CANNON;
    case 'P': return XQ_SOLDIER;
    default: return 0;
    }
}

static void sq_name(int sq, char out[3])
{
    out[0] = (char)('a' + XQ_FILE(sq));
    out[1] = (char)('0' + XQ_RANK(sq));
    out[2] = '\0';
}

/* Could a piece of this type and colour ever stand on sq? (Art. 3 starting
 * points plus Art. 4.3 movement.) Returns NULL if so, else why not. */
static const char *unreachable(int type, int color, int sq)
{
    int f = XQ_FILE(sq);
    int r = color == XQ_RED ? XQ_RANK(sq) : 9 - XQ_RANK(sq);  /* from own side */
    switch (type) {
    case XQ_GENERAL:
        return xq_in_palace(sq, color) ? NULL : _("is outside its palace");
    case XQ_ADVISOR:
        /* Art. 4.3b: palace corners and centre only */
        if (xq_in_palace(sq, color) && (f + r) % 2 == 1)
            return NULL;
        return _("is on a point an advisor can never reach (palace corners and centre only)");
    case XQ_ELEPHANT:
        /* Art. 4.3c: the seven points two diagonal steps apart on its own half */
        if (r <= 4 && f % 2 == 0 && r % 2 == 0 && (f / 2 + r / 2) % 2 == 1)
            return NULL;
        return _("is on a point an elephant can never reach");
    case XQ_SOLDIER:
        /* Art. 4.3h: never backward, sideways only across the river */
        if (r < 3)
            return _("is on a point a soldier can never reach (behind its starting rank)");
        if (r <= 4 && f % 2 == 1)
            return _("is on a point a soldier can never reach (off its file before the river)");
        return NULL;
    default:
        return NULL;
    }
}

/* Skip blanks; return the start of the next token and its length. */
static const char *next_token(const char *s, size_t *len)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\t')
        n++;
    *len = n;
    return s;
}

static bool parse_uint(const char *s, size_t len, unsigned long max, unsigned long *out)
{
    unsigned long v = 0;
    if (len == 0 || len > 9)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_board(xq_pos *pos, const char *fen, const char **end, char *err,
                        size_t errsize)
{
    const char *s = fen;
    int rank = 9, file = 0, row = 1;  /* row: FEN row, 1 = Black's back rank */

    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return fail(err, errsize, _("empty FEN"));
    for (; *s && *s != ' ' && *s != '\t'; s++) {
        int col = (int)(s - fen) + 1;
        unsigned char c = (unsigned char)*s;
        if (c == '/') {
            if (file < XQ_FILES)
                return fail(err, errsize, _("FEN row %d (rank %d) is too short: %d points, need 9"),
                            row, rank, file);
            if (rank == 0)
                return fail(err, errsize, _("too many ranks at column %d (need 10)"), col);
            rank--;
            row++;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > XQ_FILES)
                return fail(err, errsize, _("FEN row %d (rank %d) is too long at column %d: more than 9 points"),
                            row, rank, col);
        } else if (type_of_letter(c)) {
            if (file >= XQ_FILES)
                return fail(err, errsize, _("FEN row %d (rank %d) is too long at column %d: more than 9 points"),
                            row, rank, col);
            int color = isupper(c) ? XQ_RED : XQ_BLACK;
            pos->board[XQ_SQ(file, rank)] = (uint8_t)XQ_PIECE(type_of_letter(c), color);
            file++;
        } else if (isgraph(c)) {
            return fail(err, errsize, _("bad piece letter '%c' at column %d"), c, col);
        } else {
            return fail(err, errsize, _("bad piece letter (byte 0x%02x) at column %d"), c, col);
        }
    }
    if (file < XQ_FILES)
        return fail(err, errsize, _("FEN row %d (rank %d) is too short: %d points, need 9"), row,
                    rank, file);
    if (rank > 0)
        return fail(err, errsize, _("too few ranks: %d, need 10"), row);
    *end = s;
    return true;
}

/* Art. 2.2: each side has one general, two each of advisors, elephants, horses,
 * chariots and cannons, and five soldiers; none can be added. */
static bool validate(const xq_pos *pos, char *err, size_t errsize)
{
    static const int max_count[8] = { 0, 1, 2, 2, 2, 2, 2, 5 };
    int count[2][8] = { { 0 } };
    char name[3];

    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq])
            count[XQ_COLOR(pos->board[sq])][XQ_TYPE(pos->board[sq])]++;
    for (int c = 0; c < 2; c++)
        if (count[c][XQ_GENERAL] != 1)
            return fail(err, errsize, _("%s has %d generals: need exactly one general each"),
                        _(color_name[c]), count[c][XQ_GENERAL]);
    for (int c = 0; c < 2; c++)
        for (int t = XQ_ADVISOR; t <= XQ_SOLDIER; t++)
            if (count[c][t] > max_count[t])
                return fail(err, errsize, _("too many pieces: %s has %d %ss (at most %d)"),
                            _(color_name[c]), count[c][t], _(type_name[t]), max_count[t]);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int p = pos->board[sq];
        const char *why = p ? unreachable(XQ_TYPE(p), XQ_COLOR(p), sq) : NULL;
        if (why) {
            sq_name(sq, name);
            return fail(err, errsize, _("%s %s on %s %s"), _(color_name[XQ_COLOR(p)]),
                        _(type_name[XQ_TYPE(p)]), name, why);
        }
    }
    /* Art. 4.3a: the generals may never face each other on an open file. */
    int rg = pos->general[XQ_RED], bg = pos->general[XQ_BLACK];
    if (XQ_FILE(rg) == XQ_FILE(bg)) {
        int sq = rg + XQ_FILES;
        while (sq < bg && !pos->board[sq])
            sq += XQ_FILES;
        if (sq == bg)
            return fail(err, errsize, _("the generals face each other on the open %c file"),
                        'a' + XQ_FILE(rg));
    }
    /* Art. 6: the side that just moved cannot have left its general attacked. */
    int other = pos->side ^ 1;
    if (xq_general_attacked(pos, other))
        return fail(err, errsize, _("%s is in check but it is %s to move"),
                    _(color_name[other]), _(color_name[pos->side]));
    return true;
}

bool xq_pos_from_fen(xq_pos *pos, const char *fen, char *err, size_t errsize)
{
    const char *s = fen, *tok;
    size_t len;
    unsigned long v;

    xq_tables_init();
    memset(pos, 0, sizeof *pos);
    if (err && errsize > 0)
        err[0] = '\0';
    if (!fen)
        return fail(err, errsize, _("no FEN"));
    if (!parse_board(pos, fen, &s, err, errsize))
        return false;

    tok = next_token(s, &len);
    if (len == 0)
        return fail(err, errsize, _("missing side to move (w, r or b)"));
    if (len == 1 && (*tok == 'w' || *tok == 'r'))
        pos->side = XQ_RED;
    else if (len == 1 && *tok == 'b')
        pos->side = XQ_BLACK;
    else if (isgraph((unsigned char)*tok))
        return fail(err, errsize, _("bad side to move '%.*s' at column %d (want w, r or b)"),
                    (int)(len > 8 ? 8 : len), tok, (int)(tok - fen) + 1);
    else
        return fail(err, errsize, _("bad side to move (byte 0x%02x) at column %d (want w, r or b)"),
                    (unsigned char)*tok, (int)(tok - fen) + 1);
    s = tok + len;

    /* fields 3-4 (castling, en passant in chess) are "-" in xiangqi, optional */
    for (int i = 0; i < 2; i++) {
        tok = next_token(s, &len);
        if (len == 1 && *tok == '-')
            s = tok + len;
    }
    pos->fullmove = 1;
    tok = next_token(s, &len);
    if (len > 0) {
        if (!parse_uint(tok, len, UINT16_MAX, &v))
            return fail(err, errsize, _("bad halfmove clock at column %d"), (int)(tok - fen) + 1);
        pos->halfmove = (uint16_t)v;
        s = tok + len;
        tok = next_token(s, &len);
        if (len > 0) {
            if (!parse_uint(tok, len, 99999999, &v))
                return fail(err, errsize, _("bad move number at column %d"), (int)(tok - fen) + 1);
            pos->fullmove = v ? (uint32_t)v : 1;  /* some writers start at 0 */
            s = tok + len;
        }
    }
    tok = next_token(s, &len);
    if (len > 0)
        return fail(err, errsize, _("trailing garbage at column %d"), (int)(tok - fen) + 1);

    /* rebuild needs at most 16 pieces a side; the count check below catches more,
     * but validate() counts from the board, so the list is only used afterwards */
    xq_pos_rebuild(pos);
    if (!validate(pos, err, errsize))
        return false;
    return true;
}

void xq_pos_to_fen(const xq_pos *pos, char *buf, size_t size)
{
    static const char letters[8] = { '?', 'K', 'A', 'B', 'N', 'R', 'C', 'P' };
    char tmp[XQ_FEN_MAX];
    size_t n = 0;

    if (!buf || size == 0)
        return;
    for (int rank = 9; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < XQ_FILES; file++) {
            int p = pos->board[XQ_SQ(file, rank)];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            char c = letters[XQ_TYPE(p)];
            tmp[n++] = XQ_COLOR(p) == XQ_RED ? c : (char)tolower((unsigned char)c);
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (rank > 0)
            tmp[n++] = '/';
    }
    snprintf(tmp + n, sizeof tmp - n, " %c - - %u %lu", pos->side == XQ_BLACK ? 'b' : 'w',
             (unsigned)pos->halfmove, (unsigned long)pos->fullmove);
    snprintf(buf, size, "%s", tmp);
}
