/* xqf.c: XQF decoding. See xqf.h and ../shared/reference/xiangqi-databases.md §1. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/gbk.h"
#include "io/xqf.h"

/* The stream key's plain text (§1.5): exactly 32 characters. */
static const char copyright[] = "[(C) Copyright Mr. Dong Shiwei.]";

/* f(k) = 54k^2 + 221, the author's nested expression multiplied out (§1.5). */
static uint8_t key_square(uint8_t k)
{
    return (uint8_t)(54u * k * k + 221u);
}

bool xqf_derive_keys(const unsigned char head[16], xqf_keys *k)
{
    memset(k, 0, sizeof *k);
    k->version = head[2];
    if (head[2] <= 0x0A)
        return true; /* 1.0: no keys, lengths plain, nibble flags */
    uint8_t mask = head[3], sum = head[12], xy = head[13], xyf = head[14], xyt = head[15];
    k->kp = (uint8_t)(key_square(xy) * xy);
    k->kf = (uint8_t)(key_square(xyf) * k->kp); /* chained on KP, not on KeyXYf */
    k->kt = (uint8_t)(key_square(xyt) * k->kf);
    k->kr = (uint16_t)((((unsigned)sum * 256u + xy) % 32000u) + 767u);
    uint8_t b[4] = {(uint8_t)((sum & mask) | head[8]), (uint8_t)((xy & mask) | head[9]),
                    (uint8_t)((xyf & mask) | head[10]), (uint8_t)((xyt & mask) | head[11])};
    for (int i = 0; i < 32; i++)
        k->stream[i] = (uint8_t)copyright[i] & b[i % 4];
    return (uint8_t)(sum + xy + xyf + xyt) == 0;
}

void xqf_piece_squares(const unsigned char *header, const xqf_keys *k, uint8_t squares[32])
{
    for (int i = 0; i < 32; i++) {
        /* from 0x0C the table is rotated by KP as well (0x0B is not: §1.6) */
        int slot = k->version >= 0x0C ? (i + 1 + k->kp) % 32 : i;
        squares[slot] = (uint8_t)(header[0x10 + i] - k->kp);
    }
}

bool xqf_sniff(const unsigned char *bytes, size_t len)
{
    /* a text file may start "XQ"; a version byte never is printable text */
    return len >= 3 && bytes[0] == 'X' && bytes[1] == 'Q' && (bytes[2] < 0x20 || bytes[2] >= 0x7F);
}

/* ------------------------------------------------------------------ header */

static rec_span at(uint64_t off)
{
    rec_span s = {0, 0, off};
    return s;
}

/* A ShortString field: a length byte, then text; clamped to the field (§1.2). */
static const char *header_text(rec_game *g, arena *a, const unsigned char *h, size_t off,
                               size_t width, const char *what)
{
    size_t n = h[off];
    if (n > width - 1)
        n = width - 1;
    while (n > 0 && (h[off + n] == ' ' || h[off + n] == '\0'))
        n--;
    if (n == 0)
        return NULL;
    unsigned st;
    const char *s = gbk_to_utf8(a, h + off + 1, n, &st);
    if (st & GBK_CUT)
        rec_game_add_finding(g, "encoding", REC_WARNING, at(off),
                             _("the %s was cut in the middle of a character; kept without it"), _(what));
    else if (st)
        rec_game_add_finding(g, "encoding", REC_WARNING, at(off),
                             _("the %s is not clean GBK text; bad bytes became U+FFFD"), _(what));
    return *s ? s : NULL;
}

static void header_tags(rec_game *g, arena *a, const unsigned char *h)
{
    static const struct {
        size_t off, width;
        const char *tag, *what;
    } fields[] = {
        {0xD0, 64, "Event", N_("event")},       {0x120, 16, "Site", N_("site")},
        {0x110, 16, "Date", N_("date")},        {0x130, 16, "Red", N_("Red player")},
        {0x140, 16, "Black", N_("Black player")}, {0x50, 64, "Title", N_("title")},
        {0x90, 64, "Subtitle", N_("second title")}, {0x150, 64, "TimeRule", N_("time rule")},
        {0x190, 16, "RedTime", N_("Red's time")}, {0x1A0, 16, "BlackTime", N_("Black's time")},
        {0x1D0, 16, "Annotator", N_("annotator")}, {0x1E0, 16, "Author", N_("author")},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *v = header_text(g, a, h, fields[i].off, fields[i].width, fields[i].what);
        if (v)
            rec_game_add_tag(g, fields[i].tag, v, at(fields[i].off));
    }
    static const char *const results[] = {"*", "1-0", "0-1", "1/2-1/2"};
    uint8_t r = h[0x33];
    rec_game_add_tag(g, "Result", r < 4 ? results[r] : "*", at(0x33));
    g->result = r < 4 ? results[r] : "*"; /* what the record declares, as WXF's RESULT */
    g->result_where = at(0x33);
    if (r >= 4)
        rec_game_add_finding(g, "bad-xqf", REC_WARNING, at(0x33),
                             _("result code %u has no documented meaning; read as unknown (*)"), r);
    static const char *const types[] = {"full", "opening", "middlegame", "endgame"};
    unsigned type = (unsigned)h[0x40] | (unsigned)h[0x41] << 8;
    if (type < 4)
        rec_game_add_tag(g, "XQFType", types[type], at(0x40));
}

char *xqf_table_fen(arena *a, const uint8_t sq[32], int side, bool *clash)
{
    static const char letters[] = "RNBAKABNRCCPPPPPrnbakabnrccppppp";
    char board[10][9];
    memset(board, 0, sizeof board);
    *clash = false;
    for (int i = 0; i < 32; i++) {
        if (sq[i] > 89)
            continue;
        int x = sq[i] / 10, y = sq[i] % 10;
        if (board[y][x]) {
            *clash = true;
            continue;
        }
        board[y][x] = letters[i];
    }
    char fen[128];
    size_t n = 0;
    for (int y = 9; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < 9; x++) {
            if (!board[y][x]) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = board[y][x];
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        if (y)
            fen[n++] = '/';
    }
    fen[n] = '\0';
    static const char standard[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    if (side == 0 && strcmp(fen, standard) == 0)
        return NULL;
    return arena_printf(a, "%s %c - - 0 1", fen, side ? 'b' : 'w');
}

int xqf_side_of(const uint8_t sq[32], int from)
{
    if (from < 0 || from > 89)
        return -1;
    for (int i = 0; i < 32; i++)
        if (sq[i] == from)
            return i < 16 ? 0 : 1;
    return -1;
}

/* The start position from the piece table; side from the first move (§1.4). */
static void start_position(rec_game *g, arena *a, const unsigned char *h, const uint8_t sq[32],
                           int first_from)
{
    int side = xqf_side_of(sq, first_from);
    int who = h[0x32] ? 1 : 0;
    if (side < 0)
        side = who;
    else if (side != who)
        rec_game_add_finding(g, "bad-xqf", REC_WARNING, at(0x32),
                             _("the header says %s to move, but the first move is %s's"),
                             who ? _("Black") : _("Red"), side ? _("Black") : _("Red"));
    bool clash;
    const char *fen = xqf_table_fen(a, sq, side, &clash);
    if (clash)
        rec_game_add_finding(g, "bad-xqf", REC_WARNING, at(0x10),
                             _("two pieces of the piece table stand on one square; the first is kept"));
    if (fen)
        rec_game_add_tag(g, "FEN", fen, at(0x10));
}

/* ------------------------------------------------------------------ tree */

typedef struct walk {
    const unsigned char *data;
    size_t len;
    const xqf_keys *k;
    rec_game *g;
    arena *a;
    size_t p;                /* next byte */
    rec_node **stack;        /* anchors of pending siblings */
    size_t depth, cap;
} walk;

static inline uint8_t plain(const walk *w, size_t p)
{
    return (uint8_t)(w->data[p] - w->k->stream[p & 31]);
}

static void push(walk *w, rec_node *anchor)
{
    if (w->depth == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        rec_node **s = arena_alloc(w->a, cap * sizeof *s);
        if (w->depth)
            memcpy(s, w->stack, w->depth * sizeof *s);
        w->stack = s;
        w->cap = cap;
    }
    w->stack[w->depth++] = anchor;
}

/* A comment of n bytes at w->p: GBK, CRLF lines (§1.7). */
static rec_comment *read_comment(walk *w, size_t n)
{
    unsigned char small[512];
    unsigned char *buf = n <= sizeof small ? small : arena_alloc(w->a, n);
    for (size_t i = 0; i < n; i++)
        buf[i] = plain(w, w->p + i);
    rec_span where = at(w->p);
    w->p += n;
    while (n > 0 && buf[n - 1] == '\0')
        n--; /* some writers leave a NUL */
    if (n == 0)
        return NULL;
    unsigned st;
    char *text = gbk_to_utf8(w->a, buf, n, &st);
    if (st)
        rec_game_add_finding(w->g, "encoding", REC_WARNING, where,
                             _("a comment is not clean GBK text; bad bytes became U+FFFD"));
    char *o = text;
    for (const char *s = text; *s; s++)
        if (!(s[0] == '\r' && s[1] == '\n'))
            *o++ = *s;
    *o = '\0';
    rec_comment *c = arena_alloc(w->a, sizeof *c);
    c->text = text;
    c->where = where;
    return c;
}

static const char *move_text(arena *a, int from, int to)
{
    if (from > 89 || to > 89)
        return arena_printf(a, "?%02x%02x", from, to);
    char *t = arena_alloc(a, 5);
    t[0] = (char)('a' + from / 10);
    t[1] = (char)('0' + from % 10);
    t[2] = (char)('a' + to / 10);
    t[3] = (char)('0' + to % 10);
    return t;
}

/* Walk the depth-first tree (§1.7). Returns nodes read; *first_from is the first main
 * move's from-square or -1. */
static uint32_t read_tree(walk *w, int *first_from)
{
    rec_game *g = w->g;
    const xqf_keys *k = w->k;
    bool old = k->version <= 0x0A;
    rec_node *parent = NULL; /* NULL: the next child is the main line's first move */
    rec_node *anchor = NULL; /* non-NULL: the next node is a sibling of this one */
    bool root = true;
    uint32_t nodes = 0;
    *first_from = -1;
    for (;;) {
        size_t at_node = w->p;
        if (w->len - w->p < 4) {
            rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(w->p),
                                 ngettext("the move tree runs past the end of the file (%zu "
                                          "byte left for a 4-byte node); the moves read are kept",
                                          "the move tree runs past the end of the file (%zu "
                                          "bytes left for a 4-byte node); the moves read are kept",
                                          w->len - w->p),
                                 w->len - w->p);
            return nodes;
        }
        int from = (uint8_t)(plain(w, w->p) - 0x18 - k->kf);
        int to = (uint8_t)(plain(w, w->p + 1) - 0x20 - k->kt);
        uint8_t tag = plain(w, w->p + 2);
        w->p += 4;
        bool child, sibling, comment;
        if (old) {
            child = tag & 0xF0;
            sibling = tag & 0x0F;
            comment = true;
        } else {
            child = tag & 0x80;
            sibling = tag & 0x40;
            comment = tag & 0x20;
        }
        rec_comment *c = NULL;
        if (comment) {
            if (w->len - w->p < 4) {
                rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(w->p),
                                     _("the file ends inside a comment length; the moves read "
                                     "are kept"));
                return nodes;
            }
            int32_t n = (int32_t)((uint32_t)plain(w, w->p) | (uint32_t)plain(w, w->p + 1) << 8 |
                                  (uint32_t)plain(w, w->p + 2) << 16 |
                                  (uint32_t)plain(w, w->p + 3) << 24);
            size_t len_at = w->p;
            w->p += 4;
            if (!old && n > 0)
                n -= k->kr;
            if (n < 0 || (size_t)n > w->len - w->p) {
                rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(len_at),
                                     _("a comment length (%ld) runs past the end of the file; "
                                     "the moves read are kept"), (long)n);
                return nodes;
            }
            c = read_comment(w, (size_t)n);
        }
        nodes++;
        if (root) {
            root = false;
            if (c)
                rec_comment_append(&g->main.comments, c);
            if (sibling)
                rec_game_add_finding(g, "bad-xqf", REC_WARNING, at(at_node),
                                     _("the root node says an alternative follows; ignored"));
        } else {
            rec_node *n = arena_alloc(w->a, sizeof *n);
            n->text = move_text(w->a, from, to);
            n->where = at(at_node);
            if (c)
                rec_comment_append(&n->comments, c);
            rec_node *own_anchor = n;
            if (anchor) {
                rec_line *l = arena_alloc(w->a, sizeof *l);
                l->first = n;
                l->where = n->where;
                rec_line **tail = &anchor->variations;
                while (*tail)
                    tail = &(*tail)->next;
                *tail = l;
                own_anchor = anchor;
            } else if (parent) {
                parent->next = n;
            } else {
                g->main.first = n;
                g->main.where = n->where;
                *first_from = from;
            }
            if (sibling)
                push(w, own_anchor);
            parent = n;
        }
        anchor = NULL;
        if (child)
            continue; /* parent is this node (NULL after the root: the main line) */
        if (w->depth == 0)
            return nodes;
        anchor = w->stack[--w->depth];
        parent = NULL;
    }
}

uint32_t xqf_decode(const unsigned char *data, size_t len, rec_game *g, arena *a)
{
    g->kind = REC_XIANGQI;
    g->start = at(0);
    g->end = at(len ? len - 1 : 0);
    if (len < 3 || data[0] != 'X' || data[1] != 'Q') {
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(0),
                             _("not an XQF file: it does not start with the signature \"XQ\""));
        return 0;
    }
    if (data[2] > XQF_MAX_VERSION) {
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(2),
                             _("XQF version 0x%02X is above 0x%02X, the last one XQStudio writes"),
                             data[2], XQF_MAX_VERSION);
        return 0;
    }
    if (len < XQF_HEADER_SIZE) {
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(len),
                             _("the file ends at byte %zu, inside the 1024-byte header"), len);
        return 0;
    }
    xqf_keys k;
    if (!xqf_derive_keys(data, &k)) {
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(0x0C),
                             _("the key check fails (KeysSum + KeyXY + KeyXYf + KeyXYt is not 0 "
                             "mod 256): XQStudio rejects this file"));
        return 0;
    }
    header_tags(g, a, data);
    uint8_t sq[32];
    xqf_piece_squares(data, &k, sq);
    rec_game_add_tag(g, "Format", "UCCI", at(0));
    walk w = {.data = data, .len = len, .k = &k, .g = g, .a = a, .p = XQF_HEADER_SIZE};
    int first_from = -1;
    uint32_t nodes = 0;
    if (len == XQF_HEADER_SIZE)
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(len),
                             _("the file has a header and no move tree (not even its root)"));
    else
        nodes = read_tree(&w, &first_from);
    if (nodes && w.p < len && !g->error_count)
        rec_game_add_finding(g, "bad-xqf", REC_ERROR, at(w.p),
                             ngettext("the move tree ends at offset %zu, but %zu more byte "
                                      "follow",
                                      "the move tree ends at offset %zu, but %zu more bytes "
                                      "follow", len - w.p),
                             w.p, len - w.p);
    start_position(g, a, data, sq, first_from);
    return nodes;
}

/* ------------------------------------------------------------------ reader */

struct xqf_reader {
    FILE *in;
    const char *name;
    bool done;
    unsigned char *buf;
    size_t cap;
    char error[128];
};

xqf_reader *xqf_reader_open(FILE *in, const char *name)
{
    xqf_reader *r = calloc(1, sizeof *r);
    if (r) {
        r->in = in;
        r->name = name;
    }
    return r;
}

int xqf_reader_next(xqf_reader *r, rec_game *g, arena *a)
{
    if (r->done)
        return 0;
    r->done = true;
    size_t len = 0;
    for (;;) {
        if (len == r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 16 * 1024; /* most files are 1-4 KiB */
            unsigned char *b = realloc(r->buf, cap);
            if (!b) {
                snprintf(r->error, sizeof r->error, _("out of memory"));
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        size_t got = fread(r->buf + len, 1, r->cap - len, r->in);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(r->in)) {
        snprintf(r->error, sizeof r->error, _("read error"));
        return -1;
    }
    xqf_decode(r->buf, len, g, a);
    return 1;
}

const char *xqf_reader_error(const xqf_reader *r)
{
    return r->error;
}

void xqf_reader_close(xqf_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r);
}
