/* dhtmlxq_writer.c: DhtmlXQ blocks. See dhtmlxq_writer.h. */
#include <config.h>

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "i18n/i18n.h"
#include "writer/dhtmlxq_writer.h"
#include "writer/writer_common.h"
#include "writer/xqf_writer.h"

/* A value: '[' escaped so that it cannot close the field, line breaks as "||". */
static void put_value(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '[')
            fputs("\\u005B", out);
        else if (*s == '\n')
            fputs("||", out);
        else if (*s != '\r')
            fputc(*s, out);
    }
}

static void put_field(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[DhtmlXQ_%s]", name);
    put_value(out, value);
    fprintf(out, "[/DhtmlXQ_%s]\n", name);
}

static void put_comments(FILE *out, int branch, int ply, const rec_comment *c)
{
    if (!c)
        return;
    fprintf(out, "[DhtmlXQ_comment%d_%d]", branch, ply);
    for (bool first = true; c; c = c->next, first = false) {
        if (!first)
            fputs("||", out);
        put_value(out, c->text);
    }
    fprintf(out, "[/DhtmlXQ_comment%d_%d]\n", branch, ply);
}

/* A line waiting to be written: its first node, branch id, parent and first ply. */
typedef struct pending {
    const rec_line *line;
    int id, parent, ply;
} pending;

static void put_squares(FILE *out, int from, int to)
{
    fprintf(out, "%d%d%d%d", from / 10, 9 - from % 10, to / 10, 9 - to % 10);
}

bool dhtmlxq_write_game(FILE *out, const rec_game *g, const dhtmlxq_write_options *o,
                        unsigned *dropped, char *err, size_t errsize)
{
    if (g->kind != REC_XIANGQI) {
        snprintf(err, errsize, _("a chess game cannot be written as DhtmlXQ"));
        return false;
    }
    uint8_t sq[32];
    int side;
    const char *fen = rec_game_tag(g, "FEN");
    if (!xqf_table_from_fen(fen, sq, &side, err, errsize))
        return false;
    static const struct { const char *tag, *field; } names[] = {
        {"Title", "title"}, {"Event", "event"}, {"Date", "date"}, {"Site", "place"},
        {"Round", "round"}, {"Red", "red"}, {"Black", "black"}, {"Opening", "open"},
        {"Annotator", "remark"}, {"Author", "author"}, {"XQFType", "xqftype"},
        {"RedTime", "redtime"}, {"BlackTime", "blacktime"}, {"TimeRule", "timerule"},
        {"TimeControl", "timerule"},
        {"EVENT", "event"}, {"DATE", "date"}, {"PLACE", "place"}, {"ROUND", "round"},
        {"RED", "red"}, {"BLACK", "black"},
    };
    fputs("[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n", out);
    bool done[sizeof names / sizeof names[0]] = {false};
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (!*t->value || strcmp(t->value, "?") == 0 || strcmp(t->value, "????.??.??") == 0 ||
            rec_game_tag(g, t->name) != t->value)
            continue;
        const char *field = NULL;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(t->name, names[i].tag) == 0)
                field = names[i].field;
        if (field) {
            size_t k = 0;
            while (strcmp(names[k].field, field) != 0)
                k++;
            if (done[k])
                continue; /* Red and RED: once */
            done[k] = true;
            put_field(out, field, t->value);
            continue;
        }
        /* every other tag under its own name when that is a field name; the roster's
         * structural tags say what the block itself says */
        static const char *const skipped[] = {"Result", "RESULT", "FEN", "Format", "FORMAT",
                                              "Game", "Variant", "SetUp"};
        bool skip = false;
        for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
            skip = skip || strcmp(t->name, skipped[i]) == 0;
        for (const char *p = t->name; !skip && *p; p++)
            skip = !(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_');
        if (!skip && strncmp(t->name, "move", 4) != 0 && strncmp(t->name, "comment", 7) != 0 &&
            strcmp(t->name, "binit") != 0 && strcmp(t->name, "movelist") != 0)
            put_field(out, t->name, t->value);
    }
    const char *result = g->result;
    if (!result || strcmp(result, "*") == 0)
        result = rec_game_tag(g, "Result");
    if (!result)
        result = rec_game_tag(g, "RESULT");
    put_field(out, "result", !result ? "未知" : strcmp(result, "1-0") == 0 ? "红胜"
                             : strcmp(result, "0-1") == 0 ? "黑胜"
                             : strcmp(result, "1/2-1/2") == 0 ? "和棋" : "未知");
    if (fen) {
        fputs("[DhtmlXQ_binit]", out);
        for (int i = 0; i < 32; i++) {
            if (sq[i] > 89)
                fputs("99", out);
            else
                fprintf(out, "%d%d", sq[i] / 10, 9 - sq[i] % 10);
        }
        fputs("[/DhtmlXQ_binit]\n", out);
    }
    /* branches breadth first: each variation gets the next id when its move is met */
    size_t cap = 16, head = 0, tail = 0;
    pending *q = arena_alloc(g->arena, cap * sizeof *q);
    q[tail++] = (pending){&g->main, 0, 0, 1};
    int next_id = 1;
    unsigned lost = 0;
    while (head < tail) {
        pending p = q[head++];
        if (p.id == 0)
            fputs("[DhtmlXQ_movelist]", out);
        else
            fprintf(out, "[DhtmlXQ_move_%d_%d_%d]", p.parent, p.ply, p.id);
        int ply = p.ply;
        const rec_node *n = p.line->first;
        for (; n; n = n->next, ply++) {
            int f, t;
            if (!writer_node_squares(n, WRITER_SQ_XQF, &f, &t))
                break;
            put_squares(out, f, t);
            if (o->strip_variations)
                continue;
            for (const rec_line *v = n->variations; v; v = v->next) {
                int vf, vt;
                if (!v->first || !writer_node_squares(v->first, WRITER_SQ_XQF, &vf, &vt)) {
                    lost += v->first ? 1 : 0;
                    continue;
                }
                if (tail == cap) {
                    pending *nq = arena_alloc(g->arena, cap * 2 * sizeof *nq);
                    memcpy(nq, q, cap * sizeof *nq);
                    q = nq;
                    cap *= 2;
                }
                q[tail++] = (pending){v, next_id++, p.id, ply};
            }
        }
        for (; n; n = n->next)
            lost++;
        fputs(p.id == 0 ? "[/DhtmlXQ_movelist]\n" : "", out);
        if (p.id)
            fprintf(out, "[/DhtmlXQ_move_%d_%d_%d]\n", p.parent, p.ply, p.id);
    }
    if (!o->strip_comments) {
        for (size_t i = 0; i < tail; i++) {
            put_comments(out, q[i].id, q[i].ply - 1, q[i].line->comments);
            int ply = q[i].ply;
            for (const rec_node *n = q[i].line->first; n; n = n->next, ply++) {
                int f, t;
                if (!writer_node_squares(n, WRITER_SQ_XQF, &f, &t))
                    break;
                put_comments(out, q[i].id, ply, n->comments);
            }
        }
    }
    fputs("[/DhtmlXQ]\n", out);
    if (dropped)
        *dropped = lost;
    if (ferror(out)) {
        snprintf(err, errsize, _("write error"));
        return false;
    }
    return true;
}
