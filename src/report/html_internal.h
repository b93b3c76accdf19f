/* html_internal.h: what the proof page's two modules share (report/ only): the page's
 * state, filled game by game by html_game.c and written out at the end by
 * html_report.c, and the small writing helpers. */
#ifndef ARBITER_REPORT_HTML_INTERNAL_H
#define ARBITER_REPORT_HTML_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"
#include "report/html_report.h"

enum { ST_OK, ST_WARNINGS, ST_ERRORS };
extern const char *const html_status_class[3];   /* by ST_* */
extern const char *const html_sev_class[3];      /* by rec_severity */

#define INDEX_MAX 1000     /* findings listed in the index at the top */
#define MAX_DEPTH 40       /* variations nested deeper are not drawn */

/* Something shown under a line of an article: a finding or a diagram, as HTML. */
typedef struct html_item {
    uint32_t line, column;
    uint64_t seq;
    int severity;          /* for the marker in the line; -1: a diagram */
    char anchor[48];
    char *html;
} html_item;

/* The lines of one record inside an article. */
typedef struct html_range {
    uint32_t first, last;
    uint64_t game;
    int status;
} html_range;

typedef struct html_file {
    char *path;
    int article;           /* -1: not known yet */
    html_item *items;
    size_t n_items, cap_items;
    html_range *ranges;
    size_t n_ranges, cap_ranges;
} html_file;

typedef struct html_row {
    uint64_t game;
    size_t file;
    int status;
    uint32_t errors, warnings, infos, plies;
    bool section;          /* its section is on the page */
    char *label;
    char *result;
} html_row;

typedef struct html_ref {
    char anchor[48];
    char *code;
    int severity;
    size_t file;
    uint32_t line, column;
    uint64_t game;
} html_ref;

struct html_report {
    FILE *out;
    FILE *sections;        /* the games' sections, in order */
    html_file *files;
    size_t n_files, cap_files;
    html_row *rows;
    size_t n_rows, cap_rows;
    html_ref *refs;        /* the index: errors and warnings first met, INDEX_MAX at most */
    size_t n_refs;
    uint64_t refs_dropped;
    struct { char *code; char anchor[48]; } first[64];  /* first finding of each code */
    int n_first;
    size_t n_sections;
    int svg_count;
    uint64_t seq;
    bool failed;
    char status_badge[3][64];  /* icon and word, in the user's language */
    char sev_badge[3][64];
};

/* p grown (doubled) to hold more than n elements of size bytes; aborts when out of
 * memory. */
void *html_grow(void *p, size_t *cap, size_t n, size_t size);

/* A copy of s ("" for NULL); aborts when out of memory. */
char *html_dup(const char *s);

/* Text (at most n bytes, up to a NUL) with the HTML special characters escaped. */
void html_esc_n(FILE *o, const char *s, size_t n);

/* Text with the HTML special characters escaped; NULL writes nothing. */
void html_esc(FILE *o, const char *s);

/* A translated sentence with one "%s": its text escaped, arg in the place of %s (as
 * markup, or escaped too). The markup stays out of the catalogue. */
void html_fill(FILE *o, const char *format, const char *arg, bool markup);

/* ST_ERRORS, ST_WARNINGS or ST_OK by g's findings. */
int html_game_status(const rec_game *g);

#endif
