/* document.c: one interface over the kinds of documents (see document.h). */
#include <config.h>

#include "document.h"

#include <stdlib.h>

#include "doc_kind.h"

struct doc_reader {
    const doc_kind_ops *ops;
    void *impl;
};

doc_reader *doc_reader_open(FILE *in, const char *name, doc_kind kind)
{
    doc_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->ops = kind == DOC_LATEX ? &tex_document_ops : &web_document_ops;
    r->impl = r->ops->open(in, name);
    if (!r->impl) {
        free(r);
        return NULL;
    }
    return r;
}

int doc_reader_next(doc_reader *r, rec_game *g, arena *a)
{
    return r->ops->next(r->impl, g, a);
}

void doc_reader_name_places(const doc_reader *r, rec_game *g)
{
    r->ops->name_places(r->impl, g);
}

const char *doc_reader_error(const doc_reader *r)
{
    return r->ops->error(r->impl);
}

void doc_reader_close(doc_reader *r)
{
    if (!r)
        return;
    r->ops->close(r->impl);
    free(r);
}

void doc_reader_trace(doc_reader *r, FILE *trace)
{
    r->ops->trace(r->impl, trace);
}
