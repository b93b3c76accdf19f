/* cbf.c: CBF decoding with a small XML scanner (elements, attributes, text, CDATA,
 * the five entities and character references: what CBF files use). See cbf.h. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/cbf.h"
#include "io/ccb.h"

static const char root_name[] = "ChineseChessRecord";

bool cbf_sniff(const unsigned char *bytes, size_t len)
{
    size_t n = len < 512 ? len : 512;
    size_t p = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
    while (p < n && (bytes[p] == ' ' || bytes[p] == '\t' || bytes[p] == '\r' || bytes[p] == '\n'))
        p++;
    if (p + 5 <= n && memcmp(bytes + p, "<?xml", 5) == 0) {
        while (p + 1 < n && !(bytes[p] == '?' && bytes[p + 1] == '>'))
            p++;
        p += 2;
        while (p < n && (bytes[p] == ' ' || bytes[p] == '\t' || bytes[p] == '\r' || bytes[p] == '\n'))
            p++;
    }
    return p + 1 + sizeof root_name - 1 <= n && bytes[p] == '<' &&
           memcmp(bytes + p + 1, root_name, sizeof root_name - 1) == 0;
}

/* ------------------------------------------------------------------ scanner */

typedef enum tok_kind { TOK_END, TOK_OPEN, TOK_CLOSE, TOK_TEXT, TOK_BAD } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *name;        /* element name (OPEN, CLOSE) */
    size_t name_len;
    const char *attrs;       /* raw attribute text of an OPEN tag */
    size_t attrs_len;
    bool empty;              /* <x/> */
    size_t at;               /* offset of the token */
} tok;

typedef struct scan {
    const char *s;
    size_t p, len;
} scan;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static const char *find(const scan *sc, size_t from, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = from; i + n <= sc->len; i++)
        if (sc->s[i] == what[0] && memcmp(sc->s + i, what, n) == 0)
            return sc->s + i;
    return NULL;
}

/* The next markup token; text between tags is left to text_until. */
static tok next_tag(scan *sc)
{
    tok t = {TOK_END, NULL, 0, NULL, 0, false, sc->p};
    for (;;) {
        while (sc->p < sc->len && sc->s[sc->p] != '<')
            sc->p++;
        t.at = sc->p;
        if (sc->p >= sc->len)
            return t;
        const char *s = sc->s + sc->p;
        size_t left = sc->len - sc->p;
        const char *stop = NULL;
        if (left >= 4 && memcmp(s, "<!--", 4) == 0)
            stop = find(sc, sc->p + 4, "-->");
        else if (left >= 2 && (s[1] == '?' || s[1] == '!'))
            stop = find(sc, sc->p + 2, ">");
        else
            break;
        if (!stop) {
            t.kind = TOK_BAD;
            return t;
        }
        sc->p = (size_t)(stop - sc->s) + (s[1] == '!' && s[2] == '-' ? 3 : 1);
    }
    const char *gt = find(sc, sc->p, ">");
    if (!gt) {
        t.kind = TOK_BAD;
        return t;
    }
    size_t q = sc->p + 1, end = (size_t)(gt - sc->s);
    bool close = q < end && sc->s[q] == '/';
    if (close)
        q++;
    size_t name_at = q;
    while (q < end && !is_space(sc->s[q]) && sc->s[q] != '/')
        q++;
    t.name = sc->s + name_at;
    t.name_len = q - name_at;
    t.kind = close ? TOK_CLOSE : TOK_OPEN;
    t.empty = end > q && sc->s[end - 1] == '/';
    t.attrs = sc->s + q;
    t.attrs_len = (t.empty ? end - 1 : end) - q;
    sc->p = end + 1;
    if (t.name_len == 0)
        t.kind = TOK_BAD;
    return t;
}

static bool named(const tok *t, const char *name)
{
    return strlen(name) == t->name_len && memcmp(t->name, name, t->name_len) == 0;
}

/* Append n bytes to a growing buffer in the arena (rebuilt when it must grow). */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void put(arena *a, buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *d = arena_alloc(a, cap);
        if (b->n)
            memcpy(d, b->s, b->n);
        b->s = d;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

/* Decode entities of text into b. */
static void put_text(arena *a, buf *b, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != '&' && s[j] != '\r')
            j++;
        put(a, b, s + i, j - i);
        if (j >= n)
            break;
        if (s[j] == '\r') { /* XML line ends: CR LF and CR become LF */
            put(a, b, "\n", 1);
            i = j + 1 < n && s[j + 1] == '\n' ? j + 2 : j + 1;
            continue;
        }
        static const struct {
            const char *ent, *ch;
        } ents[] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}};
        bool done = false;
        for (size_t k = 0; k < 5 && !done; k++) {
            size_t l = strlen(ents[k].ent);
            if (n - j >= l && memcmp(s + j, ents[k].ent, l) == 0) {
                put(a, b, ents[k].ch, 1);
                i = j + l;
                done = true;
            }
        }
        if (!done && n - j >= 4 && s[j + 1] == '#') {
            size_t k = j + 2;
            int base = 10;
            if (k < n && (s[k] == 'x' || s[k] == 'X')) {
                base = 16;
                k++;
            }
            unsigned long c = 0;
            size_t digits = 0;
            while (k < n && digits < 8) {
                char d = s[k];
                int v = d >= '0' && d <= '9' ? d - '0'
                        : base == 16 && d >= 'a' && d <= 'f' ? d - 'a' + 10
                        : base == 16 && d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
                if (v < 0)
                    break;
                c = c * (unsigned long)base + (unsigned long)v;
                k++;
                digits++;
            }
            if (digits && k < n && s[k] == ';' && c > 0 && c < 0x110000 &&
                !(c >= 0xD800 && c < 0xE000)) {
                char o[4];
                size_t m;
                if (c < 0x80) {
                    o[0] = (char)c;
                    m = 1;
                } else if (c < 0x800) {
                    o[0] = (char)(0xC0 | c >> 6);
                    o[1] = (char)(0x80 | (c & 0x3F));
                    m = 2;
                } else if (c < 0x10000) {
                    o[0] = (char)(0xE0 | c >> 12);
                    o[1] = (char)(0x80 | (c >> 6 & 0x3F));
                    o[2] = (char)(0x80 | (c & 0x3F));
                    m = 3;
                } else {
                    o[0] = (char)(0xF0 | c >> 18);
                    o[1] = (char)(0x80 | (c >> 12 & 0x3F));
                    o[2] = (char)(0x80 | (c >> 6 & 0x3F));
                    o[3] = (char)(0x80 | (c & 0x3F));
                    m = 4;
                }
                put(a, b, o, m);
                i = k + 1;
                done = true;
            }
        }
        if (!done) { /* a lone '&': kept as written */
            put(a, b, "&", 1);
            i = j + 1;
        }
    }
}

/* The text content up to the next tag (CDATA sections included), trimmed; sc->p ends
 * at the '<' of that tag. NULL when a CDATA section is not closed. */
static const char *text_until(scan *sc, arena *a)
{
    buf b = {NULL, 0, 0};
    put(a, &b, "", 0);
    while (sc->p < sc->len) {
        const char *s = sc->s + sc->p;
        size_t left = sc->len - sc->p;
        if (left >= 9 && memcmp(s, "<![CDATA[", 9) == 0) {
            const char *e = find(sc, sc->p + 9, "]]>");
            if (!e)
                return NULL;
            size_t n = (size_t)(e - s) - 9;
            /* CDATA is literal, but its line ends are still XML line ends */
            for (size_t i = 0; i < n; i++) {
                if (s[9 + i] == '\r') {
                    put(a, &b, "\n", 1);
                    if (i + 1 < n && s[10 + i] == '\n')
                        i++;
                } else {
                    put(a, &b, s + 9 + i, 1);
                }
            }
            sc->p = (size_t)(e - sc->s) + 3;
            continue;
        }
        if (*s == '<')
            break;
        size_t j = sc->p;
        while (j < sc->len && sc->s[j] != '<')
            j++;
        put_text(a, &b, s, j - sc->p);
        sc->p = j;
    }
    char *t = b.s;
    while (*t && is_space(*t))
        t++;
    size_t n = strlen(t);
    while (n > 0 && is_space(t[n - 1]))
        t[--n] = '\0';
    /* full-width spaces that open a comment are indentation */
    while (strncmp(t, "\xE3\x80\x80", 3) == 0)
        t += 3;
    return t;
}

/* The value of attribute name in a tag's attribute text, in the arena, or NULL. */
static const char *attr(arena *a, const tok *t, const char *name)
{
    size_t n = strlen(name);
    const char *s = t->attrs, *end = t->attrs + t->attrs_len;
    while (s < end) {
        while (s < end && is_space(*s))
            s++;
        const char *k = s;
        while (s < end && *s != '=' && !is_space(*s))
            s++;
        size_t kl = (size_t)(s - k);
        while (s < end && is_space(*s))
            s++;
        if (s >= end || *s != '=')
            return NULL;
        s++;
        while (s < end && is_space(*s))
            s++;
        if (s >= end || (*s != '"' && *s != '\''))
            return NULL;
        char q = *s++;
        const char *v = s;
        while (s < end && *s != q)
            s++;
        if (s >= end)
            return NULL;
        if (kl == n && memcmp(k, name, n) == 0) {
            buf b = {NULL, 0, 0};
            put(a, &b, "", 0);
            put_text(a, &b, v, (size_t)(s - v));
            return b.s;
        }
        s++;
    }
    return NULL;
}

/* ------------------------------------------------------------------ the record */

static const struct {
    const char *element, *tag;
} renames[] = {
    {"Name", "Title"}, {"Contest", "Event"}, {"RedRating", "RedElo"},
    {"BlackRating", "BlackElo"}, {"Commentator", "Annotator"},
};

static void head_field(rec_game *g, arena *a, const tok *t, const char *value)
{
    if (!*value)
        return;
    char *name = arena_strndup(a, t->name, t->name_len);
    if (strcmp(name, "RecordResult") == 0) {
        char *e;
        long r = strtol(value, &e, 10);
        if (*e || r < 0 || r > 3)
            rec_game_add_finding(g, "bad-cbf", REC_WARNING, ccb_at(t->at),
                                 _("result code '%s' has no documented meaning; read as unknown "
                                   "(*)"), value);
        const char *res = ccb_result(*e || r < 0 ? 9u : (unsigned)r);
        rec_game_add_tag(g, "Result", res, ccb_at(t->at));
        g->result = res;
        g->result_where = ccb_at(t->at);
        return;
    }
    if (strcmp(name, "FEN") == 0) {
        static const char start[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        if (strncmp(value, start, sizeof start - 1) == 0 &&
            (value[sizeof start - 1] == '\0' || value[sizeof start - 1] == ' '))
            return;
    }
    for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
        if (strcmp(name, renames[i].element) == 0)
            name = (char *)renames[i].tag;
    rec_game_add_tag(g, name, value, ccb_at(t->at));
}

/* "cr-cr" into two squares; false when it is not that. */
static bool move_value(const char *v, int *from, int *to)
{
    if (!v || strlen(v) != 5 || v[2] != '-')
        return false;
    int d[4] = {v[0] - '0', v[1] - '0', v[3] - '0', v[4] - '0'};
    for (int i = 0; i < 4; i++)
        if (d[i] < 0 || d[i] > 9)
            return false;
    if (d[0] > 8 || d[2] > 8)
        return false;
    *from = d[1] * 9 + d[0];
    *to = d[3] * 9 + d[2];
    return true;
}

static void bad(rec_game *g, size_t at, const char *what)
{
    rec_game_add_finding(g, "bad-cbf", REC_ERROR, ccb_at(at), "%s", what);
}

void cbf_decode(const unsigned char *data, size_t len, rec_game *g, arena *a, cbr_counts *c)
{
    g->kind = REC_XIANGQI;
    g->start = ccb_at(0);
    g->end = ccb_at(len ? len - 1 : 0);
    if (c)
        memset(c, 0, sizeof *c);
    scan sc = {(const char *)data, 0, len};
    enum { OUTSIDE, ROOT, HEAD, MOVES } where = OUTSIDE;
    bool seen_root = false, ended = false, root_move = true, format = false;
    ccb_tree t;
    ccb_tree_init(&t, g, a);
    rec_node *last = NULL;
    for (;;) {
        tok k = next_tag(&sc);
        if (k.kind == TOK_END)
            break;
        if (k.kind == TOK_BAD) {
            bad(g, k.at, _("a tag is not closed (no '>' follows); the rest of the file is not "
                           "read"));
            break;
        }
        if (where == OUTSIDE) {
            if (k.kind == TOK_OPEN && named(&k, root_name) && !seen_root) {
                seen_root = true;
                where = ROOT;
                if (k.empty)
                    where = OUTSIDE;
            } else if (k.kind == TOK_OPEN) {
                bad(g, k.at, seen_root ? _("an element follows the end of the record; not read")
                                       : _("the root element is not ChineseChessRecord: not a CBF "
                                           "record"));
                break;
            }
            continue;
        }
        if (k.kind == TOK_CLOSE) {
            if (where == ROOT && named(&k, root_name))
                where = OUTSIDE;
            else if ((where == HEAD && named(&k, "Head")) || (where == MOVES && named(&k, "MoveList")))
                where = ROOT;
            continue;
        }
        if (where == ROOT) {
            if (named(&k, "Head") && !k.empty)
                where = HEAD;
            else if (named(&k, "MoveList") && !k.empty)
                where = MOVES;
            continue;
        }
        if (where == HEAD) {
            const char *v = "";
            if (!k.empty) {
                v = text_until(&sc, a);
                if (!v) {
                    bad(g, k.at, _("a CDATA section is not closed; the rest of the file is not "
                                   "read"));
                    break;
                }
            }
            head_field(g, a, &k, v);
            continue;
        }
        /* where == MOVES */
        if (!named(&k, "Move")) {
            rec_game_add_finding(g, "bad-cbf", REC_WARNING, ccb_at(k.at),
                                 _("an element other than Move in the move list; ignored"));
            continue;
        }
        const char *value = attr(a, &k, "value");
        const char *end = attr(a, &k, "end");
        const char *comment = "";
        size_t comment_at = sc.p;
        if (!k.empty) {
            comment = text_until(&sc, a);
            if (!comment) {
                bad(g, k.at, _("a CDATA section is not closed; the rest of the file is not "
                               "read"));
                break;
            }
        }
        if (!format) {
            rec_game_add_tag(g, "Format", "UCCI", ccb_at(k.at));
            format = true;
        }
        int from, to;
        if (!move_value(value, &from, &to)) {
            rec_game_add_finding(g, "bad-cbf", REC_ERROR, ccb_at(k.at),
                                 _("a move value '%s' is not column-row-column-row (\"77-47\"); "
                                   "the moves from here on are not read"), value ? value : "");
            break;
        }
        if (root_move) {
            root_move = false;
            if (from != 0 || to != 0) {
                /* no root: this is already the first move */
                rec_game_add_finding(g, "bad-cbf", REC_WARNING, ccb_at(k.at),
                                     _("the move list does not start with the root \"00-00\"; "
                                       "its first entry is read as a move"));
            } else {
                ccb_comment(&t, NULL, comment, ccb_at(comment_at));
                if (end && strcmp(end, "1") == 0)
                    ended = true;
                continue;
            }
        }
        if (ended) {
            rec_game_add_finding(g, "bad-cbf", REC_ERROR, ccb_at(k.at),
                                 _("moves follow the end of the line (end=\"1\"); how CBF places "
                                   "them in the tree is not known, so they are not read"));
            break;
        }
        last = ccb_tree_add(&t, ccb_move_text(a, from, to), ccb_at(k.at), true, false);
        ccb_comment(&t, last, comment, ccb_at(comment_at));
        if (end && strcmp(end, "1") == 0)
            ended = true;
    }
    if (!seen_root && g->error_count == 0)
        bad(g, 0, _("no ChineseChessRecord element: not a CBF record"));
    if (!format && seen_root)
        rec_game_add_tag(g, "Format", "UCCI", ccb_at(0));
    if (!g->result) {
        g->result = "*";
        rec_game_add_tag(g, "Result", "*", ccb_at(0));
    }
    if (c) {
        c->moves = t.moves;
        c->variations = t.variations;
        c->comments = t.comments;
        c->end = sc.p;
        c->complete = g->error_count == 0;
    }
}
