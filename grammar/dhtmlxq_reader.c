/* dhtmlxq_reader.c: DhtmlXQ blocks to games. See dhtmlxq_reader.h. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dhtmlxq_internal.h"
#include "dhtmlxq_reader.h"
#include "i18n/i18n.h"
#include "io/article.h"
#include "io/xqf.h"

/* A field of the block being read. */
typedef struct field {
    const char *name;        /* lower case, without "dhtmlxq_" */
    char *value;             /* unescaped, trimmed */
    rec_span where;          /* the opening tag */
} field;

struct dhtmlxq_reader {
    FILE *in;
    const char *name;
    dxq_scan_t scanner;
    src_pos pos;
    bool pending_open;       /* a block opener ended the previous block: starts this one */
    src_pos pending_at;
    bool read_error;
    char error[128];
    char *val;               /* the open field's raw text */
    size_t vlen, vcap;
};

size_t dhtmlxq_read_input(struct dhtmlxq_reader *r, char *buf, size_t max)
{
    size_t got = fread(buf, 1, max, r->in);
    if (got == 0 && ferror(r->in))
        r->read_error = true;
    return got;
}

dhtmlxq_reader *dhtmlxq_reader_open(FILE *in, const char *name)
{
    dhtmlxq_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name;
    r->pos = src_pos_start();
    if (dxq_lex_init_extra(r, &r->scanner) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

void dhtmlxq_reader_close(dhtmlxq_reader *r)
{
    if (!r)
        return;
    dxq_lex_destroy(r->scanner);
    free(r->val);
    free(r);
}

const char *dhtmlxq_reader_error(const dhtmlxq_reader *r)
{
    return r->error;
}

static rec_span span_of(const src_pos *p)
{
    rec_span s = {p->line, src_pos_column(p), p->off};
    return s;
}

static void val_add(dhtmlxq_reader *r, const char *s, size_t n)
{
    if (r->vlen + n + 1 > r->vcap) {
        size_t cap = r->vcap ? r->vcap : 256;
        while (cap < r->vlen + n + 1)
            cap *= 2;
        char *v = realloc(r->val, cap);
        if (!v) {
            fputs(_("arbiter: out of memory\n"), stderr);
            abort();
        }
        r->val = v;
        r->vcap = cap;
    }
    memcpy(r->val + r->vlen, s, n);
    r->vlen += n;
}

/* ------------------------------------------------------------------ values */

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = (unsigned char)s[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
}

/* The viewer's escapes (\uXXXX, _uXXXX, %uXXXX, %25uXXXX) and "||" line breaks decoded,
 * outer blanks trimmed (§2.1). */
static char *clean_value(arena *a, const char *s, size_t n)
{
    char *out = arena_alloc(a, n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t skip = 0;
        if ((s[i] == '\\' || s[i] == '_' || s[i] == '%') && i + 1 < n && s[i + 1] == 'u')
            skip = 2;
        else if (s[i] == '%' && i + 3 < n && memcmp(s + i, "%25u", 4) == 0)
            skip = 4;
        int cp = skip && i + skip + 4 <= n ? hex4(s + i + skip) : -1;
        if (cp > 0 && !(cp >= 0xD800 && cp <= 0xDFFF)) {
            /* at most 3 bytes of UTF-8 for 6 or more bytes of escape */
            o += put_utf8((uint32_t)cp, out + o);
            i += skip + 4;
            continue;
        }
        if (s[i] == '|' && i + 1 < n && s[i + 1] == '|') {
            out[o++] = '\n';
            i += 2;
            continue;
        }
        if (s[i] == '\r') {
            i++;
            continue;
        }
        out[o++] = s[i++];
    }
    out[o] = '\0';
    char *b = out;
    while (*b && isspace((unsigned char)*b))
        b++;
    while (o > 0 && out + o > b && isspace((unsigned char)out[o - 1]))
        out[--o] = '\0';
    return b;
}

/* ------------------------------------------------------------------ the game */

typedef struct branch {
    int id, parent, ply;     /* replaces ply `ply` of branch `parent` (branch 0: ply 1) */
    rec_span where;
    rec_node **nodes;
    int n;
    rec_line *line;
    int state;               /* 0 unresolved, 1 resolved, 2 dropped */
} branch;

static const char default_binit[] =
    "8979695949392919097717866646260600102030405060708012720323436383";

/* A square of two digits (x from the left, y from the top) as 10x + rank; -1 if off. */
static int square_of(char x, char y)
{
    if (x < '0' || x > '8' || y < '0' || y > '9')
        return -1;
    return (x - '0') * 10 + (9 - (y - '0'));
}

/* A node for the move of four DhtmlXQ digits (from and to squares) as UCCI text. */
static rec_node *ucci_node(arena *a, const char *m, rec_span where)
{
    int f = square_of(m[0], m[1]), t = square_of(m[2], m[3]);
    rec_node *node = arena_alloc(a, sizeof *node);
    char *text = arena_alloc(a, 5);
    text[0] = (char)('a' + f / 10);
    text[1] = (char)('0' + f % 10);
    text[2] = (char)('a' + t / 10);
    text[3] = (char)('0' + t % 10);
    node->text = text;
    node->where = where;
    return node;
}

/* The plies of a movelist value; false (with nothing made) when it is not squares. */
static bool read_moves(rec_game *g, arena *a, const char *value, rec_span where, branch *b)
{
    size_t len = strlen(value), digits = 0;
    char *d = arena_alloc(a, len + 1);
    for (size_t i = 0; i < len; i++)
        if (isalnum((unsigned char)value[i]))
            d[digits++] = value[i]; /* the viewer drops everything else */
    bool ok = digits % 4 == 0;
    for (size_t i = 0; ok && i < digits; i++)
        ok = isdigit((unsigned char)d[i]);
    for (size_t i = 0; ok && i < digits; i += 4)
        ok = square_of(d[i], d[i + 1]) >= 0 && square_of(d[i + 2], d[i + 3]) >= 0;
    if (!ok) {
        rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, where,
                             _("the moves of branch %d are not 4-digit squares; the branch is "
                             "left out"), b->id);
        return false;
    }
    b->n = (int)(digits / 4);
    b->nodes = arena_alloc(a, (size_t)(b->n ? b->n : 1) * sizeof *b->nodes);
    for (int k = 0; k < b->n; k++) {
        rec_node *node = ucci_node(a, d + 4 * k, where);
        b->nodes[k] = node;
        if (k)
            b->nodes[k - 1]->next = node;
    }
    return true;
}

/* Where a node of a "version 2" movelist went: its branch and absolute ply. */
typedef struct v2_place {
    int branch, ply;
} v2_place;

/* The old "version 2" movelist (the dpxq viewer's Conv_Ver2; §2.3): the whole tree as
 * one list of nodes. After the letters and digits are kept, a node starts wherever six
 * characters are followed by X, Y or Z; it is 4 digits of squares, 2 characters, the
 * letter, 1 character and the decimal number of the node (counted from 0) it is an
 * alternative to, or its own number when it goes on the line of the node before it. An
 * alternative to node j opens the next branch: a variation of j's branch at j's ply, or,
 * when j opens its own branch, one beside that branch (same parent, same ply). Fills
 * br[0..) (br[0] is the main line) and place[] for the comments; returns the branches
 * made, 0 when nothing could be read. */
static size_t read_v2(rec_game *g, arena *a, const char *d, size_t len, rec_span where,
                      branch *br, v2_place *place, int *nplaced)
{
    size_t *start = arena_alloc(a, (len / 7 + 1) * sizeof *start);
    size_t count = 0;
    for (size_t p = 0; p + 6 < len;) {
        int c = tolower((unsigned char)d[p + 6]);
        if (c == 'x' || c == 'y' || c == 'z') {
            start[count++] = p;
            p += 7;
        } else {
            p++;
        }
    }
    *nplaced = 0;
    if (count == 0) {
        rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, where,
                             _("the movelist is neither 4-digit squares nor the version 2 "
                             "list of nodes; no move is read"));
        return 0;
    }
    if (start[0] != 0)
        rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, where,
                             ngettext("%zu character before the first node of the version 2 "
                                      "movelist; ignored",
                                      "%zu characters before the first node of the version 2 "
                                      "movelist; ignored", start[0]),
                             start[0]);
    size_t nb = 0;
    int ply = 0;
    for (size_t i = 0; i < count; i++) {
        const char *t = d + start[i];
        size_t tl = (i + 1 < count ? start[i + 1] : len) - start[i];
        long j = -1; /* the digits from the 9th character on, as parseInt reads them */
        for (size_t k = 8; k < tl && isdigit((unsigned char)t[k]) && j < 100000000; k++)
            j = (j < 0 ? 0 : j * 10) + (t[k] - '0');
        bool squares = square_of(t[0], t[1]) >= 0 && square_of(t[2], t[3]) >= 0;
        if (!squares || j < 0 || j > (long)i || (i == 0 && j != 0)) {
            rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, where,
                                 _("node %zu of the version 2 movelist (\"%.*s\") %s; it and the "
                                 "nodes after it are left out"), i, (int)(tl < 24 ? tl : 24), t,
                                 !squares ? _("does not start with 4-digit squares")
                                 : j < 0  ? _("has no node number after its 8th character")
                                          : _("names a node that does not come before it"));
            break;
        }
        branch *b;
        if (j == (long)i) { /* goes on the current line */
            if (nb == 0) {
                b = &br[nb++]; /* the main line, set up by the caller */
                b->n = 0;
            } else {
                b = &br[nb - 1];
            }
            ply++;
        } else {
            const v2_place *r = &place[j];
            b = &br[nb];
            memset(b, 0, sizeof *b);
            b->id = (int)nb;
            if (j > 0 && place[j - 1].branch == r->branch) {
                b->parent = r->branch;
                b->ply = r->ply;
            } else if (r->branch == 0) {
                b->parent = 0; /* beside the main line's first move */
                b->ply = 1;
            } else {
                b->parent = br[r->branch].parent;
                b->ply = br[r->branch].ply;
            }
            b->where = where;
            nb++;
            ply = r->ply;
        }
        place[i].branch = b->id;
        place[i].ply = ply;
        (*nplaced)++;
        b->n++;
    }
    /* the nodes, now that each branch's length is known (a branch's nodes are
     * consecutive: a new branch never returns to an older one) */
    for (size_t k = 0; k < nb; k++) {
        br[k].nodes = arena_alloc(a, (size_t)br[k].n * sizeof *br[k].nodes);
        br[k].n = 0;
    }
    for (int i = 0; i < *nplaced; i++) {
        branch *b = &br[place[i].branch];
        rec_node *node = ucci_node(a, d + start[i], where);
        if (b->n)
            b->nodes[b->n - 1]->next = node;
        b->nodes[b->n++] = node;
    }
    return nb;
}

static int cmp_branch(const void *x, const void *y)
{
    const branch *a = x, *b = y;
    return (a->id > b->id) - (a->id < b->id);
}

static const char *map_result(const char *v, bool *known)
{
    static const struct { const char *text, *result; } results[] = {
        {"红胜", "1-0"}, {"紅勝", "1-0"}, {"红先胜", "1-0"}, {"紅先勝", "1-0"}, {"黑负", "1-0"},
        {"黑負", "1-0"}, {"黑胜", "0-1"}, {"黑勝", "0-1"}, {"红先负", "0-1"}, {"紅先負", "0-1"},
        {"红负", "0-1"}, {"紅負", "0-1"}, {"和棋", "1/2-1/2"}, {"红先和", "1/2-1/2"},
        {"紅先和", "1/2-1/2"}, {"红和", "1/2-1/2"}, {"紅和", "1/2-1/2"}, {"和", "1/2-1/2"},
        {"未知", "*"}, {"1-0", "1-0"}, {"0-1", "0-1"}, {"1/2-1/2", "1/2-1/2"}, {"*", "*"},
    };
    *known = true;
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strcmp(v, results[i].text) == 0)
            return results[i].result;
    *known = false;
    return "*";
}

static void add_comment(arena *a, rec_comment **list, const char *text, rec_span where)
{
    rec_comment *c = arena_alloc(a, sizeof *c);
    c->text = text;
    c->where = where;
    rec_comment_append(list, c);
}

/* The letter on a point of a FEN's board (files a-i, ranks 0-9 from Red's side), or 0. */
static char fen_letter(const char *board, int file, int rank)
{
    int r = 9, f = 0;
    for (const char *p = board; *p && *p != ' '; p++) {
        if (*p == '/') {
            r--;
            f = 0;
        } else if (*p >= '1' && *p <= '9') {
            f += *p - '0';
        } else {
            if (r == rank && f == file)
                return *p;
            f++;
        }
    }
    return 0;
}

static const char standard_board[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/* [DhtmlXQ_fen] (vschess writes it beside binit and reads it first): a FEN, or only
 * its board. The first move decides the side to move, as for binit and XQF; a FEN that
 * says otherwise gets a warning. The FEN itself is checked by the replay (bad-fen). */
static void start_from_fen(rec_game *g, arena *a, const char *fen, rec_span at, int first_from,
                           const uint8_t *binit_sq, rec_span binit_at)
{
    size_t blen = strcspn(fen, " ");
    const char *rest = fen + blen;
    while (*rest == ' ')
        rest++;
    char said = *rest == 'w' || *rest == 'r' ? 'w' : *rest == 'b' ? 'b' : 0;
    const char *after = said ? rest + 1 : rest; /* castling, en passant, clocks */
    while (*after == ' ')
        after++;
    char side = said ? said : 'w';
    if (first_from >= 0) {
        char c = fen_letter(fen, first_from / 10, first_from % 10);
        char mover = c >= 'A' && c <= 'Z' ? 'w' : c >= 'a' && c <= 'z' ? 'b' : 0;
        if (mover && said && mover != said)
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, at,
                                 _("the fen says %s to move, but the first move is %s's"),
                                 said == 'b' ? _("Black") : _("Red"),
                                 mover == 'b' ? _("Black") : _("Red"));
        if (mover)
            side = mover;
    }
    if (binit_sq) {
        bool clash;
        const char *b = xqf_table_fen(a, binit_sq, 0, &clash);
        const char *bb = b ? b : standard_board;
        size_t bl = strcspn(bb, " ");
        if (bl != blen || strncmp(bb, fen, blen) != 0)
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, binit_at,
                                 _("binit and fen give different boards; the fen is used"));
    }
    if (side == 'w' && blen == sizeof standard_board - 1 &&
        strncmp(fen, standard_board, blen) == 0 && (!*after || strcmp(after, "- - 0 1") == 0))
        return; /* the standard start, as binit leaves it out */
    rec_game_add_tag(g, "FEN",
                     arena_printf(a, "%.*s %c %s", (int)blen, fen, side, *after ? after : "- - 0 1"),
                     at);
}

static void build_game(rec_game *g, arena *a, field *f, size_t nf)
{
    static const struct { const char *field, *tag; } tags[] = {
        {"title", "Title"}, {"event", "Event"}, {"date", "Date"}, {"place", "Site"},
        {"round", "Round"}, {"red", "Red"}, {"black", "Black"}, {"open", "Opening"},
        {"remark", "Annotator"}, {"author", "Author"},
        {"redtime", "RedTime"}, {"blacktime", "BlackTime"}, {"timerule", "TimeRule"},
        {"xqftype", "XQFType"}, /* ours: an XQF record type through DhtmlXQ */
    };
    char binit[65];
    memcpy(binit, default_binit, sizeof binit);
    rec_span binit_at = g->start;
    size_t nb = 1;
    bool have_branches = false;
    for (size_t i = 0; i < nf; i++)
        if (strncmp(f[i].name, "move_", 5) == 0) {
            nb++;
            have_branches = true;
        } else if (strcmp(f[i].name, "movelist") == 0) {
            nb += strlen(f[i].value) / 7; /* a version 2 list: a branch a node at most */
        }
    branch *br = arena_alloc(a, nb * sizeof *br);
    br[0].id = 0;
    br[0].ply = 1;
    br[0].parent = -1;
    br[0].where = g->start;
    br[0].state = 1;
    br[0].line = &g->main;
    nb = 1;
    bool have_movelist = false;
    v2_place *v2 = NULL; /* a version 2 movelist: where each node went */
    int v2_nodes = 0;
    const char *fen = NULL;
    rec_span fen_at = g->start;
    bool have_binit = false;
    for (size_t i = 0; i < nf; i++) {
        const char *name = f[i].name, *v = f[i].value;
        if (strcmp(name, "binit") == 0) {
            /* the viewer: non-digits are 9, a short binit is filled from the default */
            size_t k = 0;
            for (; v[k] && k < 64; k++)
                binit[k] = isdigit((unsigned char)v[k]) ? v[k] : '9';
            binit_at = f[i].where;
            have_binit = true;
        } else if (strcmp(name, "fen") == 0) {
            if (*v) {
                fen = v; /* preferred to binit, as vschess does (§2.3) */
                fen_at = f[i].where;
            }
        } else if (strcmp(name, "movelist") == 0) {
            if (have_movelist) {
                rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                     _("a second movelist; the first is kept"));
                continue;
            }
            size_t len = strlen(v), n = 0;
            char *d = arena_alloc(a, len + 1);
            bool letters = false;
            for (size_t k = 0; k < len; k++)
                if (isalnum((unsigned char)v[k])) {
                    d[n++] = v[k];
                    letters |= !isdigit((unsigned char)v[k]);
                }
            d[n] = '\0';
            /* the viewer converts a list with letters only when there are no move_
             * fields (the version 2 list holds the whole tree) */
            if (letters && !have_branches) {
                v2 = arena_alloc(a, (n / 7 + 1) * sizeof *v2);
                size_t made = read_v2(g, a, d, n, f[i].where, br, v2, &v2_nodes);
                have_movelist = made > 0;
                if (made > 0)
                    nb = made;
            } else if (read_moves(g, a, v, f[i].where, &br[0])) {
                have_movelist = true;
            }
        } else if (strncmp(name, "move_", 5) == 0) {
            int p, ply, id;
            char extra;
            if (sscanf(name + 5, "%d_%d_%d%c", &p, &ply, &id, &extra) != 3 || id < 1 || ply < 1 ||
                p < 0) {
                rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                     _("a field named move_%s is not move_P_I_B; ignored"), name + 5);
                continue;
            }
            branch *b = &br[nb];
            memset(b, 0, sizeof *b);
            b->id = id;
            b->parent = p;
            b->ply = ply;
            b->where = f[i].where;
            if (read_moves(g, a, v, f[i].where, b) && b->n > 0)
                nb++;
        } else if (strcmp(name, "result") == 0 && *v) {
            bool known;
            g->result = map_result(v, &known); /* what the record declares */
            g->result_where = f[i].where;
            rec_game_add_tag(g, "Result", g->result, f[i].where);
            if (!known)
                rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                     _("the result \"%s\" is none of the texts read (红胜, 黑胜, "
                                     "和棋, 未知, ...); read as unknown (*)"), v);
        } else if (strncmp(name, "comment", 7) == 0 || strcmp(name, "ver") == 0 ||
                   strcmp(name, "init") == 0) {
            continue; /* comments below; ver and init are the viewer's */
        } else if (*v) {
            const char *tag = name;
            for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++)
                if (strcmp(name, tags[k].field) == 0)
                    tag = tags[k].tag;
            rec_game_add_tag(g, tag, v, f[i].where);
        }
    }
    /* branches in id order, so alternatives to one move come in that order; resolve
     * parents in passes, since a branch may come before its parent (§2.3) */
    qsort(br + 1, nb - 1, sizeof *br, cmp_branch);
    for (size_t i = 2; i < nb; i++)
        if (br[i].id == br[i - 1].id) {
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, br[i].where,
                                 _("branch %d is given twice; the first is kept"), br[i].id);
            br[i].state = 2;
        }
    /* the node each branch replaces */
    rec_node **anchor = arena_alloc(a, nb * sizeof *anchor);
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t i = 1; i < nb; i++) {
            branch *b = &br[i];
            if (b->state != 0)
                continue;
            branch *pa = NULL;
            for (size_t k = 0; k < nb && !pa; k++)
                if (br[k].id == b->parent && br[k].state == 1)
                    pa = &br[k];
            if (!pa)
                continue;
            int idx = b->ply - pa->ply;
            if (idx < 0 || idx >= pa->n) {
                rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, b->where,
                                     _("branch %d replaces ply %d of branch %d, which has no such "
                                     "ply; the branch is left out"), b->id, b->ply, b->parent);
                b->state = 2;
                continue;
            }
            anchor[i] = pa->nodes[idx];
            b->state = 1;
            progress = true;
        }
    }
    for (size_t i = 1; i < nb; i++) {
        branch *b = &br[i];
        if (b->state == 0) {
            rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, b->where,
                                 _("branch %d hangs on branch %d, which is not in the record; "
                                 "the branch is left out"), b->id, b->parent);
            continue;
        }
        if (b->state != 1)
            continue;
        rec_line *l = arena_alloc(a, sizeof *l);
        l->first = b->nodes[0];
        l->where = b->where;
        rec_line **tail = &anchor[i]->variations;
        while (*tail)
            tail = &(*tail)->next;
        *tail = l;
        b->line = l;
    }
    if (br[0].n)
        g->main.first = br[0].nodes[0];
    g->main.where = g->start;
    /* comments: commentB_N after ply N of branch B, commentN of branch 0 */
    for (size_t i = 0; i < nf; i++) {
        const char *name = f[i].name;
        if (strncmp(name, "comment", 7) != 0 || !*f[i].value)
            continue;
        int b = 0, n;
        char extra;
        if (sscanf(name + 7, "%d_%d%c", &b, &n, &extra) != 2) {
            b = 0;
            if (sscanf(name + 7, "%d%c", &n, &extra) != 1) {
                rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                     _("a field named comment%s is not commentB_N; ignored"),
                                     name + 7);
                continue;
            }
            if (v2 && n >= 1 && n <= v2_nodes) {
                /* version 2: commentN is on node N of the list (Conv_Ver2) */
                b = v2[n - 1].branch;
                n = v2[n - 1].ply;
            }
        }
        branch *bb = NULL;
        for (size_t k = 0; k < nb && !bb; k++)
            if (br[k].id == b && br[k].state == 1)
                bb = &br[k];
        if (!bb) {
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                 _("a comment on branch %d, which is not in the record; ignored"), b);
            continue;
        }
        int idx = n - bb->ply;
        if (idx >= 0 && idx < bb->n)
            add_comment(a, &bb->nodes[idx]->comments, f[i].value, f[i].where);
        else if (idx == -1)
            add_comment(a, &bb->line->comments, f[i].value, f[i].where);
        else
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, f[i].where,
                                 _("a comment after ply %d of branch %d, which has no such ply; "
                                 "ignored"), n, b);
    }
    /* the start position: binit in XQF slot order */
    uint8_t sq[32];
    for (int i = 0; i < 32; i++) {
        int s = square_of(binit[2 * i], binit[2 * i + 1]);
        sq[i] = s < 0 ? 0xFF : (uint8_t)s;
    }
    int first_from = -1;
    if (br[0].n) {
        const char *t = br[0].nodes[0]->text;
        first_from = (t[0] - 'a') * 10 + (t[1] - '0');
    }
    bool clash;
    if (fen) {
        start_from_fen(g, a, fen, fen_at, first_from, have_binit ? sq : NULL, binit_at);
    } else {
        int side = xqf_side_of(sq, first_from);
        const char *start = xqf_table_fen(a, sq, side < 0 ? 0 : side, &clash);
        if (clash)
            rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, binit_at,
                                 _("binit puts two pieces on one square; the first is kept"));
        if (start)
            rec_game_add_tag(g, "FEN", start, binit_at);
    }
    rec_game_add_tag(g, "Format", "UCCI", g->start);
}

/* ------------------------------------------------------------------ reading */

/* The name in "[dhtmlxq_NAME]" or "[/dhtmlxq_NAME]", lower case, in the arena. */
static const char *tag_name(arena *a, const char *text, size_t len)
{
    size_t skip = text[1] == '/' ? 10 : 9;
    char *n = arena_strndup(a, text + skip, len - skip - 1);
    for (char *p = n; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return n;
}

/* A field of the block, closed (by its tag or by the next one) with the value read so
 * far, appended to the block's fields (*nf of *capf, grown in the arena). */
static void keep_field(const dhtmlxq_reader *r, arena *a, field **fields, size_t *nf,
                       size_t *capf, const char *name, rec_span where)
{
    if (*nf == *capf) {
        size_t cap = *capf ? *capf * 2 : 32;
        field *grown = arena_alloc(a, cap * sizeof *grown);
        if (*nf)
            memcpy(grown, *fields, *nf * sizeof *grown);
        *fields = grown;
        *capf = cap;
    }
    field *f = &(*fields)[(*nf)++];
    f->name = name;
    f->value = clean_value(a, r->val ? r->val : "", r->vlen);
    f->where = where;
}

int dhtmlxq_reader_next(dhtmlxq_reader *r, rec_game *g, arena *a)
{
    bool in_block = r->pending_open;
    if (in_block) {
        g->start = span_of(&r->pending_at);
        r->pending_open = false;
    }
    field *fields = NULL;
    size_t nf = 0, capf = 0;
    const char *open_name = NULL;
    rec_span open_at = {0, 0, 0};
    bool closed = false;
    for (;;) {
        int tok = dxq_lex(r->scanner);
        if (r->read_error) {
            snprintf(r->error, sizeof r->error, _("read error"));
            return -1;
        }
        src_pos before = r->pos;
        const char *text = tok ? dxq_get_text(r->scanner) : "";
        size_t len = tok ? (size_t)dxq_get_leng(r->scanner) : 0;
        src_pos_advance(&r->pos, text, len);
        if (!in_block) {
            if (tok == DXQ_END)
                return 0;
            if (tok == DXQ_BLOCK_OPEN) {
                in_block = true;
                g->start = span_of(&before);
            }
            continue;
        }
        if (tok == DXQ_BLOCK_OPEN) {
            /* a new block before this one closed: it starts the next game */
            r->pending_open = true;
            r->pending_at = before;
            tok = DXQ_END;
        }
        if (tok == DXQ_END || tok == DXQ_BLOCK_CLOSE || tok == DXQ_FIELD_OPEN) {
            if (open_name) {
                if (tok != DXQ_BLOCK_CLOSE || r->vlen)
                    rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, open_at,
                                         _("[DhtmlXQ_%s] has no closing tag; its value ends at "
                                         "the next tag"), open_name);
                keep_field(r, a, &fields, &nf, &capf, open_name, open_at);
                open_name = NULL;
            }
        }
        if (tok == DXQ_END || tok == DXQ_BLOCK_CLOSE) {
            closed = tok == DXQ_BLOCK_CLOSE;
            g->end = span_of(&before);
            break;
        }
        switch (tok) {
        case DXQ_FIELD_OPEN:
            open_name = tag_name(a, text, len);
            open_at = span_of(&before);
            r->vlen = 0;
            break;
        case DXQ_FIELD_CLOSE: {
            const char *name = tag_name(a, text, len);
            if (open_name && strcmp(name, open_name) == 0) {
                keep_field(r, a, &fields, &nf, &capf, open_name, open_at);
                open_name = NULL;
            } else {
                rec_game_add_finding(g, "bad-dhtmlxq", REC_WARNING, span_of(&before),
                                     _("[/DhtmlXQ_%s] closes no open field%s%s; skipped"), name,
                                     open_name ? _(": the open one is ") : "",
                                     open_name ? open_name : "");
            }
            break;
        }
        default: /* text and line breaks: the open field's value, or nothing */
            if (open_name)
                val_add(r, text, len);
            break;
        }
    }
    if (!closed)
        rec_game_add_finding(g, "bad-dhtmlxq", REC_ERROR, g->start,
                             _("[DhtmlXQ] without [/DhtmlXQ]; the block ends at %s"),
                             r->pending_open ? _("the next block") : _("the end of the input"));
    g->kind = REC_XIANGQI;
    build_game(g, a, fields, nf);
    return 1;
}
