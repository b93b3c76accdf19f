/* batch_replay.c: from a read game to a judged one. See batch_replay.h. */
#include <config.h>

#include <strings.h>

#include "batch/batch_replay.h"
#include "database/db_tags.h"
#include "engine/annot_check.h"
#include "notation/xq_notation.h"

/* The tags that say xiangqi: the first Game and Variant (as rec_game_tag), any Red or
 * RedTeam. */
typedef struct kind_tags {
    const char *game, *variant;
    bool red;
} kind_tags;

static void kind_tags_of(const rec_game *g, kind_tags *k)
{
    k->game = rec_game_known_value(g, REC_TAG_GAME);
    k->variant = rec_game_known_value(g, REC_TAG_VARIANT);
    k->red = g->tag_known & (1u << REC_TAG_RED | 1u << REC_TAG_RED_TEAM);
}

void batch_classify_by_tags(rec_game *g, int forced)
{
    kind_tags k;
    kind_tags_of(g, &k);
    if (forced >= 0)
        g->kind = (rec_game_kind)forced;
    else if ((k.game && strcasecmp(k.game, "Chinese Chess") == 0) ||
             (k.variant && strcasecmp(k.variant, "xiangqi") == 0) || k.red)
        g->kind = REC_XIANGQI;
    if (g->kind == REC_XIANGQI && !g->result)
        /* xiangqi PGN writers often end a record without a result token (wukong): that is
         * their format, not damage */
        rec_game_set_severity(g, "missing-result", REC_INFO);
}

void batch_replay(rec_game *g, const reader_format *fmt, const batch_options *opts)
{
    bool tags = fmt->flags & READER_TAGS_NAME_VARIANT;
    if (tags)
        batch_classify_by_tags(g, opts->variant);
    /* moves made from squares (XQF, DhtmlXQ) are UCCI texts: there is no notation to
     * detect (and no trial replays to pay for) */
    if (g->kind == REC_XIANGQI && (fmt->flags & READER_SQUARE_MOVES) &&
        opts->referee.xq_notation < 0) {
        referee_options o = opts->referee;
        o.xq_notation = XQN_UCCI;
        referee_xiangqi_game(g, &o);
    } else if (g->kind == REC_XIANGQI)
        referee_xiangqi_game(g, &opts->referee);
    else
        referee_chess_game(g, &opts->referee);
    annot_check_game(g);
    db_tags_check(g, tags);
    rec_game_sort_findings(g);
}
