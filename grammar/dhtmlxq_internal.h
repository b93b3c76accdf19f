/* dhtmlxq_internal.h: what the DhtmlXQ scanner and reader share. */
#ifndef ARBITER_GRAMMAR_DHTMLXQ_INTERNAL_H
#define ARBITER_GRAMMAR_DHTMLXQ_INTERNAL_H

#include <stddef.h>

enum { DXQ_END = 0, DXQ_BLOCK_OPEN, DXQ_BLOCK_CLOSE, DXQ_FIELD_OPEN, DXQ_FIELD_CLOSE,
       DXQ_NEWLINE, DXQ_TEXT };

struct dhtmlxq_reader;
size_t dhtmlxq_read_input(struct dhtmlxq_reader *r, char *buf, size_t max);

/* flex's reentrant interface (prefix dxq_) */
typedef void *dxq_scan_t;
int dxq_lex_init_extra(struct dhtmlxq_reader *extra, dxq_scan_t *scanner);
int dxq_lex_destroy(dxq_scan_t scanner);
int dxq_lex(dxq_scan_t scanner);
char *dxq_get_text(dxq_scan_t scanner);
int dxq_get_leng(dxq_scan_t scanner);

#endif
