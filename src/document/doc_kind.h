/* doc_kind.h: what each kind of document reader gives document.c (one table each:
 * tex_document.c, web_document.c). */
#ifndef ARBITER_DOCUMENT_DOC_KIND_H
#define ARBITER_DOCUMENT_DOC_KIND_H

#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef struct doc_kind_ops {
    void *(*open)(FILE *in, const char *name);
    int (*next)(void *r, rec_game *g, arena *a);
    void (*name_places)(const void *r, rec_game *g);
    const char *(*error)(const void *r);
    void (*close)(void *r);
    void (*trace)(void *r, FILE *trace);
} doc_kind_ops;

extern const doc_kind_ops tex_document_ops;   /* LaTeX: tex_document.h */
extern const doc_kind_ops web_document_ops;   /* Markdown and HTML: web_document.h */

#endif
