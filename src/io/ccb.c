/* ccb.c: the shared part of the CCBridge readers. See ccb.h. */
#include <config.h>

#include <string.h>

#include "io/ccb.h"

static size_t put_utf8(char *o, uint32_t c)
{
    if (c < 0x80) {
        o[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (char)(0xC0 | c >> 6);
        o[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (char)(0xE0 | c >> 12);
        o[1] = (char)(0x80 | (c >> 6 & 0x3F));
        o[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | c >> 18);
    o[1] = (char)(0x80 | (c >> 12 & 0x3F));
    o[2] = (char)(0x80 | (c >> 6 & 0x3F));
    o[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

char *ccb_utf16(arena *a, const unsigned char *s, size_t n, bool to_nul, bool *bad)
{
    size_t units = n / 2;
    /* a unit gives at most 3 bytes; a surrogate pair (2 units) 4 */
    char *out = arena_alloc(a, units * 3 + 1);
    size_t o = 0;
    if (bad)
        *bad = false;
    for (size_t i = 0; i < units; i++) {
        uint32_t c = (uint32_t)s[2 * i] | (uint32_t)s[2 * i + 1] << 8;
        if (c == 0) {
            if (to_nul)
                break;
            continue; /* a stray NUL inside a counted comment: dropped */
        }
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < units) {
            uint32_t d = (uint32_t)s[2 * i + 2] | (uint32_t)s[2 * i + 3] << 8;
            if (d >= 0xDC00 && d < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
                i++;
                o += put_utf8(out + o, c);
                continue;
            }
        }
        if (c >= 0xD800 && c < 0xE000) {
            c = 0xFFFD;
            if (bad)
                *bad = true;
        }
        if (c == '\r' && i + 1 < units && s[2 * i + 2] == '\n' && s[2 * i + 3] == 0)
            continue; /* CR LF: the LF alone */
        o += put_utf8(out + o, c);
    }
    out[o] = '\0';
    return out;
}

char *ccb_board_fen(arena *a, const uint8_t board[90], int side, unsigned move_number, bool *bad)
{
    static const char letters[] = "?RNBAKCP";
    char fen[128];
    size_t n = 0;
    *bad = false;
    for (int row = 0; row < 10; row++) {
        int empty = 0;
        for (int col = 0; col < 9; col++) {
            uint8_t c = board[row * 9 + col];
            unsigned kind = c & 0x0F, colour = c & 0xF0;
            if (c != 0 && (kind < 1 || kind > 7 || (colour != CCB_RED && colour != CCB_BLACK))) {
                *bad = true;
                c = 0;
            }
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            char l = letters[kind];
            fen[n++] = colour == CCB_RED ? l : (char)(l - 'A' + 'a');
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        if (row < 9)
            fen[n++] = '/';
    }
    fen[n] = '\0';
    static const char standard[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    if (side == 0 && move_number <= 1 && strcmp(fen, standard) == 0)
        return NULL;
    return arena_printf(a, "%s %c - - 0 %u", fen, side ? 'b' : 'w', move_number ? move_number : 1);
}

const char *ccb_move_text(arena *a, int from, int to)
{
    if (from < 0 || from > 89 || to < 0 || to > 89)
        return arena_printf(a, "?%d-%d", from, to);
    char *t = arena_alloc(a, 5);
    t[0] = (char)('a' + from % 9);
    t[1] = (char)('0' + 9 - from / 9);
    t[2] = (char)('a' + to % 9);
    t[3] = (char)('0' + 9 - to / 9);
    t[4] = '\0';
    return t;
}

const char *ccb_result(unsigned code)
{
    static const char *const results[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return code < 4 ? results[code] : "*";
}

/* ------------------------------------------------------------------ tree */

void ccb_tree_init(ccb_tree *t, rec_game *g, arena *a)
{
    memset(t, 0, sizeof *t);
    t->g = g;
    t->a = a;
}

static void push(ccb_tree *t, rec_node *anchor)
{
    if (t->depth == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        rec_node **s = arena_alloc(t->a, cap * sizeof *s);
        if (t->depth)
            memcpy(s, t->stack, t->depth * sizeof *s);
        t->stack = s;
        t->cap = cap;
    }
    t->stack[t->depth++] = anchor;
}

/* After a node without a continuation: the next node is the latest pending
 * alternative, or the tree is complete. */
static void pop(ccb_tree *t)
{
    t->parent = NULL;
    if (t->depth == 0) {
        t->done = true;
        return;
    }
    t->anchor = t->stack[--t->depth];
}

void ccb_tree_root(ccb_tree *t, bool child)
{
    if (!child)
        t->done = true;
}

rec_node *ccb_tree_add(ccb_tree *t, const char *text, rec_span where, bool child, bool sibling)
{
    rec_node *n = arena_alloc(t->a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->text = text;
    n->where = where;
    rec_node *own_anchor = n;
    if (t->anchor) {
        rec_line *l = arena_alloc(t->a, sizeof *l);
        memset(l, 0, sizeof *l);
        l->first = n;
        l->where = where;
        rec_line **tail = &t->anchor->variations;
        while (*tail)
            tail = &(*tail)->next;
        *tail = l;
        own_anchor = t->anchor;
        t->variations++;
    } else if (t->parent) {
        t->parent->next = n;
    } else {
        t->g->main.first = n;
        t->g->main.where = where;
    }
    t->moves++;
    t->anchor = NULL;
    if (sibling)
        push(t, own_anchor);
    if (child)
        t->parent = n;
    else
        pop(t);
    return n;
}

void ccb_comment(ccb_tree *t, rec_node *n, const char *text, rec_span where)
{
    if (!text || !*text)
        return;
    rec_comment *c = arena_alloc(t->a, sizeof *c);
    memset(c, 0, sizeof *c);
    c->text = text;
    c->where = where;
    rec_comment_append(n ? &n->comments : &t->g->main.comments, c);
    t->comments++;
}
