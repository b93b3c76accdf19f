/* cbf_writer.c: CBF (CCBridge XML) files. See cbr_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "writer/cbr_writer.h"
#include "writer/writer_common.h"

/* Text as XML character data (the five specials escaped; control characters other
 * than tab and line ends, which XML 1.0 forbids, left out). */
static void xml_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            continue;
        else
            fputc(c, out);
    }
}

/* A comment list as element text: CDATA does not allow "]]>", so text escaped. */
static void comments(FILE *out, const rec_comment *c1, const rec_comment *c2)
{
    bool any = false;
    for (int pass = 0; pass < 2; pass++)
        for (const rec_comment *c = pass ? c2 : c1; c; c = c->next) {
            if (!*c->text)
                continue;
            if (any)
                fputc('\n', out);
            xml_text(out, c->text);
            any = true;
        }
}

/* The moves of the variations hanging on a line, nested ones too (an explicit stack). */
static unsigned variation_moves(const rec_node *first)
{
    unsigned n = 0;
    size_t cap = 16, top = 0;
    const rec_node **stack = malloc(cap * sizeof *stack);
    if (!stack)
        return 0;
    stack[top++] = first;
    while (top) {
        const rec_node *m = stack[--top];
        for (; m; m = m->next)
            for (const rec_line *l = m->variations; l; l = l->next) {
                for (const rec_node *v = l->first; v; v = v->next)
                    n++;
                if (top == cap) {
                    const rec_node **s = realloc(stack, cap * 2 * sizeof *s);
                    if (!s)
                        continue;
                    stack = s;
                    cap *= 2;
                }
                stack[top++] = l->first;
            }
    }
    free(stack);
    return n;
}

static bool has_text(const rec_comment *c)
{
    for (; c; c = c->next)
        if (*c->text)
            return true;
    return false;
}

bool cbf_write_game(FILE *out, const rec_game *g, const cbr_write_options *o, unsigned *dropped,
                    char *err, size_t errsize)
{
    uint8_t board[90];
    int side;
    unsigned number;
    if (!cbr_game_board(g, board, &side, &number, err, errsize))
        return false;
    const char *fen = rec_game_tag(g, "FEN");
    unsigned lost = 0;
    fputs("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<ChineseChessRecord Version=\"1.0\">\n <Head>\n", out);
    static const struct {
        const char *element, *tag, *alt;
    } head[] = {
        {"Name", "Title", NULL},        {"Contest", "Event", "EVENT"}, {"Round", "Round", "ROUND"},
        {"Group", "Group", NULL},       {"Table", "Table", NULL},      {"Date", "Date", "DATE"},
        {"Site", "Site", "PLACE"},      {"TimeRule", "TimeRule", NULL}, {"Red", "Red", "RED"},
        {"RedTeam", "RedTeam", NULL},   {"RedTime", "RedTime", NULL},  {"RedRating", "RedElo", NULL},
        {"Black", "Black", "BLACK"},    {"BlackTeam", "BlackTeam", NULL},
        {"BlackTime", "BlackTime", NULL}, {"BlackRating", "BlackElo", NULL},
        {"Referee", "Referee", NULL},   {"Recorder", "Recorder", NULL},
        {"Commentator", "Annotator", NULL}, {"Creator", "Author", NULL}, {"ECCO", "ECCO", NULL},
        {"URL", "URL", NULL}, {"From", "From", NULL}, {"ContestType", "ContestType", NULL},
        {"CommentatorURL", "CommentatorURL", NULL}, {"CreatorURL", "CreatorURL", NULL},
        {"DateCreated", "DateCreated", NULL}, {"DateModified", "DateModified", NULL},
        {"RecordType", "RecordType", NULL}, {"RecordKind", "RecordKind", NULL},
        {"ResultType", "ResultType", NULL},
    };
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        const char *v = writer_tag_or(g, head[i].tag, head[i].alt);
        if (v && (strcmp(v, "?") == 0 || strcmp(v, "????.??.??") == 0))
            v = NULL;
        if (!v || !*v) {
            fprintf(out, "  <%s />\n", head[i].element);
            continue;
        }
        fprintf(out, "  <%s>", head[i].element);
        xml_text(out, v);
        fprintf(out, "</%s>\n", head[i].element);
    }
    fprintf(out, "  <RecordResult>%d</RecordResult>\n  <FEN>", writer_result_code(g));
    xml_text(out, fen ? fen : "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    fputs("</FEN>\n </Head>\n <MoveList>\n", out);
    /* the root, then the main line; variations have no known CBF form */
    const rec_comment *root = o->strip_comments ? NULL : g->main.comments;
    fputs("  <Move value=\"00-00\"", out);
    const rec_node *last = NULL;
    for (const rec_node *n = g->main.first; n; n = n->next) {
        int f, t;
        if (!writer_node_squares(n, WRITER_SQ_CBR, &f, &t))
            break;
        last = n;
    }
    if (!last)
        fputs(" end=\"1\"", out);
    if (has_text(root)) {
        fputc('>', out);
        comments(out, root, NULL);
        fputs("</Move>\n", out);
    } else {
        fputs(" />\n", out);
    }
    bool past = !last; /* no move writable: the root ends the record */
    for (const rec_node *n = g->main.first; n; n = n->next) {
        if (past) {
            lost++;
            continue;
        }
        int f, t;
        writer_node_squares(n, WRITER_SQ_CBR, &f, &t);
        fprintf(out, "  <Move value=\"%d%d-%d%d\"%s", f % 9, f / 9, t % 9, t / 9,
                n == last ? " end=\"1\"" : "");
        const rec_comment *c = o->strip_comments ? NULL : n->comments;
        if (has_text(c)) {
            fputc('>', out);
            comments(out, c, NULL);
            fputs("</Move>\n", out);
        } else {
            fputs(" />\n", out);
        }
        if (n == last)
            past = true;
    }
    fputs(" </MoveList>\n</ChineseChessRecord>\n", out);
    if (dropped)
        *dropped = lost + (o->strip_variations ? 0 : variation_moves(g->main.first));
    if (ferror(out)) {
        snprintf(err, errsize, _("write error"));
        return false;
    }
    return true;
}
