/* article_writer.c: the article with its blocks normalised. See article_writer.h. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n/i18n.h"
#include "writer/article_writer.h"

struct article_writer {
    FILE *out;
    FILE *in;            /* the original file, read once, front to back */
    const char *path;
    uint64_t at;         /* bytes of the original read so far */
    bool failed;
};

article_writer *article_writer_open(FILE *out, const char *path, char *err, size_t errsize)
{
    article_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errsize, _("out of memory"));
        return NULL;
    }
    w->in = fopen(path, "rb");
    if (!w->in) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        free(w);
        return NULL;
    }
    w->out = out;
    w->path = path;
    return w;
}

/* Copy the original up to byte offset end (exclusive) to out. */
static bool copy_to(article_writer *w, uint64_t end, char *err, size_t errsize)
{
    char buf[65536];
    while (w->at < end) {
        size_t want = end - w->at < sizeof buf ? (size_t)(end - w->at) : sizeof buf;
        size_t got = fread(buf, 1, want, w->in);
        if (got == 0) {
            snprintf(err, errsize, "%s: %s", w->path,
                     ferror(w->in) ? strerror(errno) : _("the file got shorter while being read"));
            return false;
        }
        if (fwrite(buf, 1, got, w->out) != got) {
            snprintf(err, errsize, _("write error: %s"), strerror(errno));
            return false;
        }
        w->at += got;
    }
    return true;
}

/* The last "[/game]" (any case) in buf, or NULL. */
static const char *last_close_tag(const char *buf, size_t len)
{
    for (size_t i = len >= 7 ? len - 7 + 1 : 0; i-- > 0;)
        if (strncasecmp(buf + i, "[/game]", 7) == 0)
            return buf + i;
    return NULL;
}

static bool has_finding(const rec_game *g, const char *code)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            return true;
    return false;
}

bool article_writer_game(article_writer *w, const rec_game *g, const wxf_write_options *opts,
                         bool verbatim, char *err, size_t errsize)
{
    if (w->failed) {
        snprintf(err, errsize, _("an earlier failure"));
        return false;
    }
    uint64_t start = g->start.offset, end = g->end.offset + 1;
    if (start < w->at || end <= start) {
        snprintf(err, errsize, _("%s: game %llu: its place in the file (bytes %llu-%llu) is not "
                 "after the previous block"), w->path, (unsigned long long)g->index,
                 (unsigned long long)start, (unsigned long long)end);
        w->failed = true;
        return false;
    }
    if (!copy_to(w, start, err, errsize)) {
        w->failed = true;
        return false;
    }
    size_t len = (size_t)(end - start);
    char *block = malloc(len + 1);
    if (!block) {
        snprintf(err, errsize, _("out of memory"));
        w->failed = true;
        return false;
    }
    size_t got = fread(block, 1, len, w->in);
    block[got] = '\0';
    w->at += got;
    if (got != len || strncasecmp(block, "[game]", 6) != 0) {
        snprintf(err, errsize, _("%s: game %llu: the file does not hold a [game] tag at byte "
                 "%llu (was it compressed, transcoded or changed while being read?)"), w->path,
                 (unsigned long long)g->index, (unsigned long long)start);
        free(block);
        w->failed = true;
        return false;
    }
    const char *close = last_close_tag(block, len);
    bool ok;
    if (verbatim || !close || has_finding(g, "empty-block")) {
        ok = fwrite(block, 1, len, w->out) == len;
    } else {
        /* what follows "[/game]" inside the game's range is its evaluation */
        const char *tail = close + 7;
        size_t tail_len = len - (size_t)(tail - block);
        wxf_write_options o = *opts;
        o.in_block = true;
        o.game_nag_skip = tail_len > 0 ? 1 : 0;
        /* the record is made in memory: a block written with CR LF gets CR LF */
        char *rec = NULL;
        size_t rec_len = 0;
        FILE *mem = open_memstream(&rec, &rec_len);
        ok = mem && wxf_write_game(mem, g, &o);
        if (mem && fclose(mem) != 0)
            ok = false;
        bool crlf = memmem(block, len, "\r\n", 2) != NULL;
        fputs("[game]", w->out);
        for (size_t i = 0; ok && i < rec_len; i++) {
            if (crlf && rec[i] == '\n')
                fputc('\r', w->out);
            fputc(rec[i], w->out);
        }
        free(rec);
        fputs("[/game]", w->out);
        ok = ok && fwrite(tail, 1, tail_len, w->out) == tail_len;
    }
    free(block);
    if (!ok || ferror(w->out)) {
        snprintf(err, errsize, _("write error: %s"), strerror(errno));
        w->failed = true;
        return false;
    }
    return true;
}

bool article_writer_close(article_writer *w, char *err, size_t errsize)
{
    bool ok = !w->failed;
    if (ok) {
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, w->in)) > 0)
            if (fwrite(buf, 1, got, w->out) != got) {
                snprintf(err, errsize, _("write error: %s"), strerror(errno));
                ok = false;
                break;
            }
        if (ok && ferror(w->in)) {
            snprintf(err, errsize, "%s: %s", w->path, strerror(errno));
            ok = false;
        }
    } else {
        snprintf(err, errsize, _("an earlier failure"));
    }
    fclose(w->in);
    free(w);
    return ok;
}
