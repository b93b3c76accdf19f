/* xq_comment_lines.c: what the comments of a xiangqi line say about its positions:
 * DIAG{ #n COLOR } markers against the move number and side to move, and move
 * sequences written in prose ("Một là 3…X9.1 4. X1-2 …"), replayed from the position
 * their first move number and side name; a move there that does not replay is a
 * comment-line finding at its place in the article, with what was probably meant. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/xiangqi.h"
#include "fixit/fixit.h"
#include "i18n/i18n.h"
#include "notation/xq_notation.h"
#include "referee/xq_comment_lines.h"
#include "referee/xq_referee.h"

bool xq_line_has_comments(const rec_line *line)
{
    if (line->comments)
        return true;
    for (const rec_node *n = line->first; n; n = n->next)
        if (n->comments)
            return true;
    return false;
}


/* Place of byte k of a comment's text in the input: the text starts two columns after
 * the comment's opener ("/" of "/ *"); CR LF and LF end lines; columns count
 * characters. */
static rec_span comment_place(const rec_game *g, const rec_comment *c, size_t k)
{
    rec_span w = rec_game_locate(g, c->where);
    rec_span at = {w.line, w.column + 2, w.offset + 2 + k};
    for (size_t i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)c->text[i];
        if (ch == '\n') {
            at.line++;
            at.column = 1;
        } else if (ch != '\r' && (ch & 0xC0) != 0x80) {
            at.column++;
        }
    }
    return at;
}

/* DIAG{ #n COLOR }: Red (or RED) / Black, BLUE meaning Black (Art. 2.2: with red and
 * blue pieces red counts as White, blue as Black). */
static void check_diagram(rec_game *g, const rec_comment *c, const xq_pos *pos)
{
    unsigned number = 0;
    char color[16] = "";
    if (sscanf(c->text, " #%u %15s", &number, color) != 2) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker '%s' is not of the form '#n RED' or '#n BLACK'"),
                             c->text);
        return;
    }
    int side = strcasecmp(color, "RED") == 0 ? XQ_RED
               : (strcasecmp(color, "BLACK") == 0 || strcasecmp(color, "BLUE") == 0) ? XQ_BLACK
                                                                                       : -1;
    if (side < 0) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker colour '%s' is none of RED, BLACK, BLUE"), color);
    } else if (number != pos->fullmove || side != pos->side) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker says move %u, %s to play, but here it is move %u, "
                             "%s to play"), number, xq_side_name(side), pos->fullmove,
                             xq_side_name(pos->side));
    }
}

/* One whitespace-separated word of a comment, with its byte range. */
typedef struct word {
    size_t start, len;
} comment_word;

static bool next_word(const char *text, size_t *at, comment_word *w)
{
    size_t i = *at;
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
        i++;
    if (!text[i])
        return false;
    w->start = i;
    /* parentheses are words of their own */
    if (text[i] == '(' || text[i] == ')') {
        w->len = 1;
        *at = i + 1;
        return true;
    }
    while (text[i] && text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' &&
           text[i] != '(' && text[i] != ')')
        i++;
    w->len = i - w->start;
    *at = i;
    return true;
}

/* A move number at the start of s: "7." (Red), "3…" / "3..." / "7. …" (Black).
 * Returns the bytes used (0 if none) and sets *number, *black. */
static size_t move_number_at(const char *s, size_t len, unsigned *number, int *black)
{
    size_t i = 0;
    unsigned n = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i < 4)
        n = n * 10 + (unsigned)(s[i++] - '0');
    if (i == 0 || i == len + 1)
        return 0;
    if (i + 3 <= len && memcmp(s + i, "\xe2\x80\xa6", 3) == 0) { /* … */
        *number = n, *black = 1;
        return i + 3;
    }
    if (i + 3 <= len && memcmp(s + i, "...", 3) == 0) {
        *number = n, *black = 1;
        return i + 3;
    }
    if (i < len && s[i] == '.') {
        *number = n, *black = 0;
        return i + 1;
    }
    return 0;
}

static bool is_ellipsis(const char *s, size_t len)
{
    return (len == 3 && memcmp(s, "\xe2\x80\xa6", 3) == 0) || (len == 3 && memcmp(s, "...", 3) == 0);
}

/* Whether a word of a comment is meant as a move: the notation's syntax fits (allowing
 * one stray trailing '.'), or it starts like one (an upper-case piece letter and a digit
 * or tandem mark, as in the typo "M716."), so that a botched move is reported, not
 * taken for prose. */
static bool looks_like_move(const char *word, xqn_notation notation)
{
    if (xqn_syntax_fits(word) & XQN_BIT(notation))
        return true;
    size_t len = strlen(word);
    if (len > 1 && len < 63 && word[len - 1] == '.') {
        char trimmed[64];
        memcpy(trimmed, word, len - 1);
        trimmed[len - 1] = '\0';
        if (xqn_syntax_fits(trimmed) & XQN_BIT(notation))
            return true;
    }
    if (notation != XQN_WXF && notation != XQN_VIETNAMESE)
        return false;
    return word[0] >= 'A' && word[0] <= 'Z' && word[1] &&
           ((word[1] >= '0' && word[1] <= '9') || strchr("tsg+-.=", word[1]));
}

#define COMMENT_NEST_MAX 32

/* Suggestions for a move of a comment line that does not replay; the rest of that
 * line is the moves written after it up to the prose that ends it. */
static void comment_suggestions(rec_game *g, rec_finding *f, const char *text, size_t at,
                                const xq_pos *pos, xqn_notation notation, const char *written,
                                size_t written_len)
{
    const char *rest[64];
    char store[64][24];
    int nrest = 0;
    comment_word w;
    while (nrest < 64 && next_word(text, &at, &w)) {
        const char *s = text + w.start;
        size_t len = w.len;
        unsigned number;
        int black;
        size_t used = move_number_at(s, len, &number, &black);
        if (used == len || is_ellipsis(s, len))
            continue;
        s += used, len -= used;
        while (len > 0 && (s[len - 1] == ',' || s[len - 1] == ';' || s[len - 1] == ':'))
            len--;
        if (len == 0 || len >= sizeof store[0])
            break;
        memcpy(store[nrest], s, len);
        store[nrest][len] = '\0';
        if (!looks_like_move(store[nrest], notation))
            break;
        rest[nrest] = store[nrest];
        nrest++;
    }
    fixit_result fr;
    fixit_xq(pos, notation, written, rest, nrest, &fr);
    if (fr.count > 0 && fr.cand[0].kind == FIXIT_SWAP)
        fr.full = false; /* a swap inside prose is only suggested */
    fixit_attach(g, f, &fr, NULL, (uint32_t)written_len);
}

/* Replay the move sequences written in comment c, from the positions of its line. */
static void replay_comment_lines(rec_game *g, const rec_comment *c,
                                 const xq_line_positions *lp, xqn_notation notation)
{
    const char *text = c->text;
    size_t at = 0;
    comment_word w;
    bool active = false;          /* inside a sequence */
    bool broken = false;          /* the sequence hit a move that does not replay: its
                                   * later moves cannot be checked, until prose ends it */
    xq_pos pos, before_last;      /* the sequence's position; before its last move */
    bool have_last = false;
    xq_pos stack[COMMENT_NEST_MAX];
    int depth = 0;
    char wordbuf[64];

    while (next_word(text, &at, &w)) {
        const char *s = text + w.start;
        size_t len = w.len;
        if (len == 1 && s[0] == '(') {
            if (active && have_last && depth < COMMENT_NEST_MAX) {
                stack[depth++] = pos;   /* an alternative to the last move */
                pos = before_last;
                have_last = false;
            }
            continue;
        }
        if (len == 1 && s[0] == ')') {
            if (depth > 0) {
                pos = stack[--depth];
                have_last = false;
            }
            continue;
        }
        unsigned number;
        int black;
        size_t used = move_number_at(s, len, &number, &black);
        if (used && broken)
            continue;
        if (used) {
            /* "7." then "…" means Black */
            if (!black && used == len) {
                size_t save = at;
                comment_word peek;
                if (next_word(text, &save, &peek) && is_ellipsis(text + peek.start, peek.len)) {
                    black = 1;
                    at = save;
                }
            }
            int side = black ? XQ_BLACK : XQ_RED;
            if (!active) {
                /* a new sequence: from the line's position with that number and side */
                int k = 0;
                while (k < lp->count && !(lp->at[k].fullmove == number && lp->at[k].side == side))
                    k++;
                if (k == lp->count) {
                    rec_span where = comment_place(g, c, w.start);
                    rec_game_add_finding(g, "comment-line", REC_WARNING, where,
                                         _("the line in this comment starts at move %u (%s), "
                                         "which its game line does not reach"), number,
                                         xq_side_name(side));
                    active = false;
                    continue;
                }
                pos = lp->at[k];
                active = true;
                have_last = false;
            } else if (number != pos.fullmove || side != pos.side) {
                rec_span where = comment_place(g, c, w.start);
                rec_game_add_finding(g, "comment-line", REC_WARNING, where,
                                     _("move number %u (%s) in this comment should be %u (%s)"),
                                     number, xq_side_name(side), pos.fullmove, xq_side_name(pos.side));
            }
            if (used == len)
                continue;
            s += used, len -= used;         /* "3…X9.1": the move follows, glued */
        }
        if (!active && !broken)
            continue;
        /* trailing punctuation of the prose around the move */
        while (len > 0 && (s[len - 1] == ',' || s[len - 1] == ';' || s[len - 1] == ':'))
            len--;
        if (len == 0 || len >= sizeof wordbuf)
            continue;
        memcpy(wordbuf, s, len);
        wordbuf[len] = '\0';
        if (!looks_like_move(wordbuf, notation)) {
            /* prose: inside parentheses words like "hoặc" (or) are skipped; outside
             * they end the sequence */
            if (depth == 0)
                active = broken = false;
            continue;
        }
        if (broken)
            continue;
        xqn_result res;
        xqn_parse(&pos, notation, wordbuf, &res);
        if (res.status != XQN_OK) {
            rec_span where = comment_place(g, c, (size_t)(s - text));
            char fen[XQ_FEN_MAX];
            xq_fen_of(&pos, fen);
            rec_finding *f = rec_game_add_finding(
                g, "comment-line", REC_WARNING, where,
                _("%s %s in this comment does not replay: %s"), xq_side_name(pos.side), wordbuf,
                res.reason);
            f->move_text = arena_strdup(g->arena, wordbuf);
            f->fen = arena_strdup(g->arena, fen);
            comment_suggestions(g, f, text, at, &pos, notation, wordbuf, len);
            active = false;
            broken = true;
            depth = 0;
            continue;
        }
        before_last = pos;
        have_last = true;
        xq_undo undo;
        xq_make(&pos, res.move, &undo);
    }
}

void xq_check_line_comments(rec_game *g, const rec_line *line, const xq_line_positions *lp,
                            xqn_notation notation)
{
    int k = 0;
    const rec_comment *c = line->comments;
    const rec_node *n = line->first;
    for (;;) {
        for (; c; c = c->next) {
            if (k >= lp->count)
                return; /* after a bad move: the position is unknown */
            if (c->diagram)
                check_diagram(g, c, &lp->at[k]);
            else
                replay_comment_lines(g, c, lp, notation);
        }
        if (!n)
            return;
        c = n->comments;
        n = n->next;
        k++;
    }
}
