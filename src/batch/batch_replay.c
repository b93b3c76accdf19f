/* batch_replay.c: from a read game to a judged one. See batch_replay.h. */
#include <config.h>

#include <strings.h>

#include "batch/batch_replay.h"
#include "database/db_tags.h"
#include "engine/annot_check.h"
#include "notation/xq_notation.h"

void batch_classify_by_tags(rec_game *g, int forced)
{
    const char *game = rec_game_tag(g, "Game");
    const char *variant = rec_game_tag(g, "Variant");
    if (forced >= 0)
        g->kind = (rec_game_kind)forced;
    else if ((game && strcasecmp(game, "Chinese Chess") == 0) ||
             (variant && strcasecmp(variant, "xiangqi") == 0) || rec_game_tag(g, "Red") ||
             rec_game_tag(g, "RedTeam"))
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
