/* ccb_reader.c: the stream reader of the CCBridge formats. See ccb_reader.h. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/cbf.h"
#include "io/cbl.h"
#include "io/cbr.h"
#include "io/ccb_reader.h"

ccb_kind ccb_sniff(const unsigned char *bytes, size_t len)
{
    if (cbr_sniff(bytes, len))
        return CCB_CBR;
    if (cbl_sniff(bytes, len))
        return CCB_CBL;
    if (cbf_sniff(bytes, len))
        return CCB_CBF;
    return CCB_SNIFF;
}

struct ccb_reader {
    FILE *in;
    ccb_kind kind;
    bool loaded;
    unsigned char *buf;
    size_t len;
    cbl_library *lib;
    size_t next;             /* the next game */
    char error[128];
};

ccb_reader *ccb_reader_open(FILE *in, const char *name, ccb_kind kind)
{
    (void)name;
    ccb_reader *r = calloc(1, sizeof *r);
    if (r) {
        r->in = in;
        r->kind = kind;
    }
    return r;
}

static bool load(ccb_reader *r)
{
    size_t cap = 0;
    for (;;) {
        if (r->len == cap) {
            size_t c = cap ? cap * 2 : 64 * 1024;
            unsigned char *b = realloc(r->buf, c);
            if (!b) {
                snprintf(r->error, sizeof r->error, _("out of memory"));
                return false;
            }
            r->buf = b;
            cap = c;
        }
        size_t got = fread(r->buf + r->len, 1, cap - r->len, r->in);
        r->len += got;
        if (got == 0)
            break;
    }
    if (ferror(r->in)) {
        snprintf(r->error, sizeof r->error, _("read error"));
        return false;
    }
    if (r->kind == CCB_SNIFF)
        r->kind = ccb_sniff(r->buf, r->len);
    if (r->kind == CCB_SNIFF)
        r->kind = CCB_CBR;
    if (r->kind == CCB_CBL) {
        r->lib = cbl_open(r->buf, r->len);
        if (!r->lib) {
            snprintf(r->error, sizeof r->error, _("out of memory"));
            return false;
        }
    }
    return true;
}

int ccb_reader_next(ccb_reader *r, rec_game *g, arena *a)
{
    if (!r->loaded) {
        r->loaded = true;
        if (!load(r))
            return -1;
    }
    if (r->kind == CCB_CBL) {
        if (r->next >= cbl_count(r->lib))
            return 0;
        cbl_game(r->lib, r->next++, g, a, NULL);
        return 1;
    }
    if (r->next++ > 0)
        return 0;
    if (r->kind == CCB_CBF)
        cbf_decode(r->buf, r->len, g, a, NULL);
    else
        cbr_decode(r->buf, r->len, 0, false, g, a, NULL);
    return 1;
}

const char *ccb_reader_error(const ccb_reader *r)
{
    return r->error;
}

void ccb_reader_close(ccb_reader *r)
{
    if (!r)
        return;
    cbl_close(r->lib);
    free(r->buf);
    free(r);
}
