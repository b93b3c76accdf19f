/* fuzz_comment_cmd.c: rec_comment_commands on arbitrary comment text. The commands it
 * returns must be well formed: a name and arguments, at most REC_CMD_MAX_MARKS marks
 * on real squares, and the prose no longer than the text. Any failure aborts. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"
#include "record/arena.h"
#include "record/comment_cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    size_t len = strlen(text);   /* a comment never holds a NUL: the reader refuses it */
    arena a;
    arena_init(&a);
    const char *prose = NULL;
    for (rec_command *c = rec_comment_commands(&a, text, &prose); c; c = c->next) {
        if (!c->name || !c->args)
            abort();
        if (c->mark_count < 0 || c->mark_count > REC_CMD_MAX_MARKS)
            abort();
        for (int i = 0; i < c->mark_count; i++)
            if (c->marks[i].from < 0 || c->marks[i].from > 63 || c->marks[i].to < -1 ||
                c->marks[i].to > 63)
                abort();
    }
    if (!prose || strlen(prose) > len)
        abort();
    arena_free(&a);
    free(text);
    return 0;
}
