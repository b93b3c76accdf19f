/* cbr.c: CBR record decoding. See cbr.h and ../shared/reference/database-maintenance.md §4. */
#include <config.h>

#include <string.h>

#include "i18n/i18n.h"
#include "io/cbr.h"
#include "io/ccb.h"

bool cbr_sniff(const unsigned char *bytes, size_t len)
{
    return len >= 16 && memcmp(bytes, CBR_MAGIC, 16) == 0;
}

/* Where the fields of a version are. */
typedef struct layout {
    size_t shift;            /* subtracted from the version 2 string offsets */
    size_t result, position, board, tree;
    bool nibbles;            /* squares as a column and a row nibble (version 1) */
} layout;

static const layout v2 = {0, 2076, 2112, 2120, CBR_V2_TREE, false};
static const layout v1 = {128, 1820, 1856, 1864, CBR_V1_TREE, true};

static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct ctx {
    const unsigned char *data;
    size_t len;
    uint64_t base;
    rec_game *g;
    arena *a;
} ctx;

static rec_span at(const ctx *c, size_t off)
{
    return ccb_at(c->base + off);
}

static void header_tags(ctx *c, const layout *l)
{
    static const struct {
        size_t off, width;
        const char *tag;
    } fields[] = {
        {180, 128, "Title"},   {692, 64, "Event"},     {756, 64, "Round"},
        {820, 32, "Group"},    {852, 32, "Table"},     {884, 64, "Date"},
        {948, 64, "Site"},     {1076, 64, "Red"},      {1140, 64, "RedTeam"},
        {1204, 64, "RedTime"}, {1268, 32, "RedElo"},   {1300, 64, "Black"},
        {1364, 64, "BlackTeam"}, {1428, 64, "BlackTime"}, {1492, 32, "BlackElo"},
        {1524, 64, "Referee"}, {1588, 64, "Recorder"}, {1652, 64, "Remark"},
        {1780, 64, "Author"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        size_t off = fields[i].off - l->shift;
        bool bad;
        char *v = ccb_utf16(c->a, c->data + off, fields[i].width, true, &bad);
        if (bad)
            rec_game_add_finding(c->g, "encoding", REC_WARNING, at(c, off),
                                 _("the %s field is not valid UTF-16 text; bad units became U+FFFD"),
                                 fields[i].tag);
        /* trailing blanks are padding, not data */
        size_t n = strlen(v);
        while (n > 0 && v[n - 1] == ' ')
            v[--n] = '\0';
        if (*v)
            rec_game_add_tag(c->g, fields[i].tag, v, at(c, off));
    }
    unsigned r = c->data[l->result];
    const char *res = ccb_result(r);
    rec_game_add_tag(c->g, "Result", res, at(c, l->result));
    c->g->result = res;
    c->g->result_where = at(c, l->result);
    if (r > 3)
        rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, l->result),
                             _("result code %u has no documented meaning; read as unknown (*)"), r);
}

static void start_position(ctx *c, const layout *l)
{
    uint32_t who = u32(c->data + l->position);
    int side = who == 2 ? 1 : 0;
    if (who != 1 && who != 2)
        rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, l->position),
                             _("side to move code %u is neither 1 (Red) nor 2 (Black); Red "
                               "assumed"), (unsigned)who);
    unsigned number = (unsigned)c->data[l->position + 4] | (unsigned)c->data[l->position + 5] << 8;
    bool bad;
    char *fen = ccb_board_fen(c->a, c->data + l->board, side, number, &bad);
    if (bad)
        rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, l->board),
                             _("the board holds a code that is no piece; that square is left "
                               "empty"));
    if (fen)
        rec_game_add_tag(c->g, "FEN", fen, at(c, l->board));
}

/* A square of a node: row * 9 + column, or -1 off the board. */
static int square(const layout *l, uint8_t b)
{
    if (!l->nibbles)
        return b < 90 ? b : -1;
    int col = b >> 4, row = b & 0x0F;
    return col < 9 && row < 10 ? row * 9 + col : -1;
}

static void read_tree(ctx *c, const layout *l, bool in_library, cbr_counts *out)
{
    const char *where_end = in_library ? _("its record") : _("the file");
    ccb_tree t;
    ccb_tree_init(&t, c->g, c->a);
    size_t p = l->tree;
    bool root = true, odd_flags = false;
    while (!t.done) {
        size_t node_at = p;
        if (c->len - p < 4) {
            rec_game_add_finding(c->g, "bad-cbr", REC_ERROR, at(c, p),
                                 _("the move tree runs past the end of %s (%zu bytes left for a "
                                   "4-byte node); the moves read are kept"),
                                 where_end, c->len - p);
            break;
        }
        uint8_t flags = c->data[p];
        int from = square(l, c->data[p + 2]), to = square(l, c->data[p + 3]);
        p += 4;
        if ((flags & ~7u) && !odd_flags) {
            odd_flags = true;
            rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, node_at),
                                 _("a node has flag bits 0x%02X that have no known meaning; "
                                   "ignored"), flags & ~7u);
        }
        const char *comment = NULL;
        size_t comment_at = p;
        if (flags & 4) {
            if (c->len - p < 4) {
                rec_game_add_finding(c->g, "bad-cbr", REC_ERROR, at(c, p),
                                     _("%s ends inside a comment length; the moves read are "
                                       "kept"), where_end);
                break;
            }
            uint32_t n = u32(c->data + p);
            if (n > c->len - p - 4) {
                rec_game_add_finding(c->g, "bad-cbr", REC_ERROR, at(c, p),
                                     _("a comment length (%lu) runs past the end of %s; the "
                                       "moves read are kept"), (unsigned long)n, where_end);
                break;
            }
            p += 4;
            comment_at = p;
            bool bad;
            comment = ccb_utf16(c->a, c->data + p, n, false, &bad);
            if (bad)
                rec_game_add_finding(c->g, "encoding", REC_WARNING, at(c, p),
                                     _("a comment is not valid UTF-16 text; bad units became "
                                       "U+FFFD"));
            p += n;
        }
        bool child = !(flags & 1), sibling = flags & 2;
        if (root) {
            root = false;
            if (from != 0 || to != 0)
                rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, node_at),
                                     _("the root node names a move; ignored"));
            if (sibling)
                rec_game_add_finding(c->g, "bad-cbr", REC_WARNING, at(c, node_at),
                                     _("the root node says an alternative follows; ignored"));
            ccb_comment(&t, NULL, comment, at(c, comment_at));
            ccb_tree_root(&t, child);
            continue;
        }
        rec_node *n = ccb_tree_add(&t, ccb_move_text(c->a, from, to), at(c, node_at), child,
                                   sibling);
        ccb_comment(&t, n, comment, at(c, comment_at));
    }
    if (t.done && p < c->len)
        rec_game_add_finding(c->g, "bad-cbr", REC_ERROR, at(c, p),
                             ngettext("the move tree ends at offset %zu, but %zu more byte "
                                      "follows",
                                      "the move tree ends at offset %zu, but %zu more bytes "
                                      "follow", c->len - p),
                             (size_t)(c->base + p), c->len - p);
    if (out) {
        out->moves = t.moves;
        out->variations = t.variations;
        out->comments = t.comments;
        out->end = p;
        out->complete = t.done;
    }
}

void cbr_decode(const unsigned char *data, size_t len, uint64_t base, bool in_library,
                rec_game *g, arena *a, cbr_counts *counts)
{
    ctx c = {data, len, base, g, a};
    g->kind = REC_XIANGQI;
    g->start = ccb_at(base);
    g->end = ccb_at(base + (len ? len - 1 : 0));
    if (counts)
        memset(counts, 0, sizeof *counts);
    if (!cbr_sniff(data, len)) {
        rec_game_add_finding(g, "bad-cbr", REC_ERROR, ccb_at(base),
                             _("not a CBR record: it does not start with \"CCBridge Record\""));
        return;
    }
    const layout *l;
    if (len > 19 && data[19] == 2)
        l = &v2;
    else if (len > 19 && data[19] == 1)
        l = &v1;
    else {
        rec_game_add_finding(g, "bad-cbr", REC_ERROR, ccb_at(base + 19),
                             _("CBR version %u is unknown (1 and 2 are read)"),
                             len > 19 ? data[19] : 0u);
        return;
    }
    if (len < l->tree) {
        rec_game_add_finding(g, "bad-cbr", REC_ERROR, ccb_at(base + len),
                             _("the record ends at byte %zu, inside its %zu-byte header"), len,
                             l->tree);
        return;
    }
    header_tags(&c, l);
    rec_game_add_tag(g, "Format", "UCCI", ccb_at(base));
    read_tree(&c, l, in_library, counts);
    /* a heading record of a library: no moves on an empty board, so no position */
    static const uint8_t empty[90];
    if (g->main.first || memcmp(data + l->board, empty, sizeof empty) != 0)
        start_position(&c, l);
}
