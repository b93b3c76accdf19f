/* db_names_scan.c: the names pre-pass (see db_names.h, db_names_scan): the White,
 * Black, Red, Event and Site tags of the text inputs counted before the games are
 * checked, so that every game's name-variant findings know the whole run; several
 * inputs are read by threads, each into a table of its own, added in input order. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "database/db_names_internal.h"
#include "io/input.h"
#include "reader/reader.h"
#include "record/bytes8.h"
#include "record/xalloc.h"

/* ------------------------------------------------------------------ pre-pass */

/* A tag value as the PGN reader gives it: escapes \" and \\ undone; bytes that are not
 * UTF-8 read as Latin-1. */
static void tag_value(const char *s, size_t n, char *out, size_t size)
{
    char raw[600];
    size_t r = 0;
    for (size_t i = 0; i < n && r + 1 < sizeof raw; i++) {
        if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\'))
            i++;
        raw[r++] = s[i];
    }
    raw[r] = '\0';
    bool utf8 = true;
    for (size_t i = 0; i < r && utf8;) {
        unsigned char c = (unsigned char)raw[i];
        size_t k = c < 0x80 ? 0 : (c >= 0xC2 && c <= 0xDF) ? 1 : (c >= 0xE0 && c <= 0xEF) ? 2
                 : (c >= 0xF0 && c <= 0xF4) ? 3 : 9;
        if (k == 9 || i + k >= r + (k ? 0 : 1)) {
            utf8 = k == 0;
            if (!utf8)
                break;
        }
        for (size_t j = 1; j <= k && utf8; j++)
            utf8 = i + j < r && ((unsigned char)raw[i + j] & 0xC0) == 0x80;
        i += k + 1;
    }
    size_t o = 0;
    for (size_t i = 0; i < r && o + 3 < size; i++) {
        unsigned char c = (unsigned char)raw[i];
        if (utf8 || c < 0x80) {
            out[o++] = (char)c;
        } else {
            out[o++] = (char)(0xC0 | (c >> 6));
            out[o++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[o] = '\0';
}

/* The field of the tag whose name starts at S (N bytes left): White, Black or Red,
 * Event, Site followed by a space or the value's quote, its length in *LEN; else -1.
 * Asked of every tag line of the input: the first letter settles most. */
/* S (N bytes) starts with the tag name LIT (L bytes) and a space or the value's quote;
 * inlined with a constant L, the compare is a load or two, not a call */
static inline bool tag_named(const char *s, size_t n, const char *lit, size_t l)
{
    return n > l && memcmp(s, lit, l) == 0 && (s[l] == ' ' || s[l] == '"');
}

static inline __attribute__((always_inline)) int tag_field_at(const char *s, size_t n, size_t *len)
{
    int field;
    switch (n ? s[0] : 0) {
    case 'W': *len = 5; field = tag_named(s, n, "White", 5) ? DB_NAME_PLAYER : -1; break;
    case 'B': *len = 5; field = tag_named(s, n, "Black", 5) ? DB_NAME_PLAYER : -1; break;
    case 'R': *len = 3; field = tag_named(s, n, "Red", 3) ? DB_NAME_PLAYER : -1; break;
    case 'E': *len = 5; field = tag_named(s, n, "Event", 5) ? DB_NAME_EVENT : -1; break;
    case 'S': *len = 4; field = tag_named(s, n, "Site", 4) ? DB_NAME_SITE : -1; break;
    default: field = -1;
    }
    return field;
}

/* The two players of one game are two people, however alike their names. */
static void add_pair(db_names *t, uint32_t white, uint32_t black)
{
    if (t->npairs + 2 > t->cappairs) {
        size_t old = t->cappairs * sizeof *t->pairs;
        t->cappairs = t->cappairs ? 2 * t->cappairs : 64;
        t->pairs = xalloc_grow(t->pairs, old, t->cappairs * sizeof *t->pairs);
    }
    t->pairs[t->npairs++] = white;
    t->pairs[t->npairs++] = black;
}

/* A player of the tag section counted (entry): the second makes a pair with the first. */
static inline void scan_player(db_names *t, long entry)
{
    if (t->white < 0) {
        t->white = entry;
    } else {
        add_pair(t, (uint32_t)t->white, (uint32_t)entry);
        t->white = -1;
    }
}

/* The rest of a tag line of FIELD after its name: S, N bytes. */
static void scan_value(db_names *t, int field, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '"')
        return;
    size_t v = ++i;
    /* the spelling counted last in the field again (a tournament's Event and Site, game
     * after game): its bytes and the closing quote, with no scan; only a spelling read
     * as plain bytes, as the scan below would read it again */
    long last = t->last[field];
    if (last >= 0 && t->e[last].plain) {
        name_entry *e = &t->e[last];
        if (e->len < n - v && s[v + e->len] == '"' && names_same_bytes(s + v, e->spelling, e->len)) {
            e->count++;
            if (field == DB_NAME_PLAYER)
                scan_player(t, last);
            return;
        }
    }
    bool plain = true;           /* ASCII without escapes: the value is its bytes */
    while (i < n) {
        if (i + 8 <= n) {        /* eight plain bytes a step */
            uint64_t w = bytes8_load(s + i);
            uint64_t f = bytes8_eq(w, '"') | bytes8_eq(w, '\\') | bytes8_zero(w) |
                         (w & BYTES8_HIGHS);
            if (!f) {
                i += 8;
                continue;
            }
            i += bytes8_first(f);
        }
        if (s[i] == '"')
            break;
        if (s[i] == '\\' && i + 1 < n) {
            i++;
            plain = false;
        } else if ((unsigned char)s[i] >= 0x80 || s[i] == '\0')
            plain = false;
        i++;
    }
    if (i >= n)
        return;
    long entry = -1;
    if (plain && i - v < 599) {  /* 599: where tag_value cuts a value */
        if (i > v) {
            entry = db_names_count_use(t, field, s + v, i - v);
            t->e[entry].plain = true;
        }
    } else {
        char value[1200];
        tag_value(s + v, i - v, value, sizeof value);
        if (*value)
            entry = db_names_count_use(t, field, value, strlen(value));
    }
    if (field == DB_NAME_PLAYER && entry >= 0)
        scan_player(t, entry);
}

static void scan_line(db_names *t, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i] != '[')
        return;
    size_t name_len;
    int field = tag_field_at(s + i + 1, n - i - 1, &name_len);
    if (field >= 0)
        scan_value(t, field, s + i + 1 + name_len, n - i - 1 - name_len);
}

/* a line that is not a tag ends the tag section */
static void section_end(db_names *t)
{
    t->white = -1;
}

/* The reads the scan is given: a whole input through input_read, or a byte range of a
 * plain file through pread. Both end each read where the input's own reads of BLOCK
 * bytes end (at multiples of BLOCK in the file): the scan drops a line longer than
 * LINE_MAX_KEPT only when it runs over the end of a read, so the same reads give the
 * same counts. */
enum { BLOCK = 1 << 16, LINE_MAX_KEPT = 1024 };
typedef ssize_t (*scan_read_fn)(void *src, char *buf, size_t size);

static ssize_t read_input(void *in, char *buf, size_t size)
{
    return input_read(in, buf, size);
}

/* The newline after P before END, or NULL. A tag line is a few dozen bytes: 32 bytes
 * tested inline, one branch, cost less than a call of memchr, which is left the rest
 * and a read's last bytes (a load must not pass END). */
static inline const char *line_end(const char *p, const char *end)
{
    if (end - p >= 32) {
        uint32_t m = bytes16_eq_mask(p, '\n') | (uint32_t)bytes16_eq_mask(p + 16, '\n') << 16;
        if (m)
            return p + __builtin_ctz(m);
        p += 32;
    }
    return memchr(p, '\n', (size_t)(end - p));
}

/* Count the tag lines of the text read with READ from SRC; false on a read error.
 * Inlined into each caller with its READ: the whole scan is what it was. */
static inline __attribute__((always_inline)) bool scan_text(db_names *t, scan_read_fn read,
                                                            void *src)
{
    char *buf = xalloc_realloc(NULL, BLOCK + LINE_MAX_KEPT);
    size_t have = 0;
    ssize_t got;
    while ((got = read(src, buf + have, BLOCK)) > 0) {
        size_t len = have + (size_t)got, start = 0; /* start: of a line not yet read */
        /* Only a line whose first byte after blanks is '[' matters: jump from one '[' to
         * the next (movetext seldom holds one), and tell by the newlines between whether
         * other lines came between two tag lines (they end a tag section). */
        for (;;) {
            /* in a tag section the next line starts with its '[': no call */
            const char *br = start < len && buf[start] == '[' ? buf + start
                                                              : memchr(buf + start, '[', len - start);
            size_t to = br ? (size_t)(br - buf) : len;
            const char *nl;
            if (to > start && (nl = memrchr(buf + start, '\n', to - start))) {
                /* whole lines without a '[' before it: not tag lines */
                if (t->white >= 0)
                    section_end(t);
                start = (size_t)(nl - buf) + 1;
            }
            if (!br)
                break;
            size_t k = start; /* the '[' line's start is start: blanks before '[' only? */
            while (k < to && (buf[k] == ' ' || buf[k] == '\t'))
                k++;
            const char *end = line_end(br, buf + len);
            if (!end)
                break; /* the line goes on in the next block */
            size_t name_len;
            int field;
            if (k == to) { /* most tags are no name: told here, without a call */
                field = tag_field_at(br + 1, (size_t)(end - br) - 1, &name_len);
                if (field >= 0)
                    scan_value(t, field, br + 1 + name_len, (size_t)(end - br) - 1 - name_len);
            } else if (t->white >= 0)
                section_end(t);
            start = (size_t)(end - buf) + 1;
        }
        have = len - start;
        if (have > LINE_MAX_KEPT)
            have = 0;                /* a very long line: not a tag */
        else
            memmove(buf, buf + start, have);
    }
    if (have)
        scan_line(t, buf, have);
    section_end(t);
    free(buf);
    return got == 0;
}

/* Add the uses and pairs counted in table S to T (before grouping). */
static void merge_counts(db_names *t, const db_names *s)
{
    uint32_t *to = xalloc_realloc(NULL, (s->count ? s->count : 1) * sizeof *to);
    for (size_t i = 0; i < s->count; i++) {
        const name_entry *e = &s->e[i];
        long k = db_names_count_use(t, e->field, e->spelling, e->len);
        t->e[k].count += e->count - 1;
        to[i] = (uint32_t)k;
    }
    for (size_t i = 0; i + 1 < s->npairs; i += 2)
        add_pair(t, to[s->pairs[i]], to[s->pairs[i + 1]]);
    free(to);
}

/* ------------------------------------------------------------------ parts
 *
 * One plain file with cores to spare is scanned in parts, each part's byte range by a
 * thread into a table of its own, the tables added in file order: the uses and pairs
 * of scanning it whole (as merge_counts adds the tables of several files). A part
 * starts at a tag line after a line without a '[': the whole scan reaches that line
 * with its tag section ended and its start in hand, as a part's scan starts. */

/* Below this a file is scanned whole: a thread costs more than it saves. */
#define PART_MIN ((uint64_t)1 << 20)
#define PARTS_MAX 8
/* How far past a wanted boundary a part's start is looked for. */
#define PART_SEEK_MAX ((size_t)1 << 20)

typedef struct part_source {
    int fd;
    uint64_t pos, to;
    bool failed;
} part_source;

/* A read of a part: up to the next multiple of BLOCK, as the whole scan reads. */
static ssize_t read_part(void *v, char *buf, size_t size)
{
    part_source *p = v;
    uint64_t n = BLOCK - p->pos % BLOCK;
    if (n > p->to - p->pos)
        n = p->to - p->pos;
    if (n > size)
        n = size;
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(p->fd, buf + got, n - got, (off_t)(p->pos + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            p->failed = r < 0 || got == 0; /* the file shrank: not what was planned */
            break;
        }
        got += (size_t)r;
    }
    p->pos += got;
    return p->failed ? -1 : (ssize_t)got;
}

/* The first part start at or after FROM (before SIZE): the start of a line that opens
 * with '[' after a whole line (seen from its start) without one; 0 when there is none
 * within PART_SEEK_MAX bytes. Read a block at a time, as far as the start: it is most
 * often in the first, and the megabyte read at once cost more than the rest of the
 * split (its fresh pages: 4 ms of a 16 ms pre-pass of the bench at -j2, in the calling
 * thread before the parts start). */
static uint64_t part_start_after(int fd, uint64_t from, uint64_t size)
{
    size_t want = size - from < PART_SEEK_MAX ? (size_t)(size - from) : PART_SEEK_MAX;
    char *buf = NULL;
    part_source src = {fd, from, from + want, false};
    size_t len = 0, cap = 0;
    const char *nl = NULL;   /* the newline before the line being looked at */
    uint64_t found = 0;
    while (!found && len < want) {
        if (cap < len + BLOCK) {
            size_t off = nl ? (size_t)(nl - buf) : 0;
            cap = cap ? 2 * cap : BLOCK;
            buf = xalloc_realloc(buf, cap);
            nl = nl ? buf + off : NULL;
        }
        ssize_t got = read_part(&src, buf + len, cap - len < want - len ? cap - len : want - len);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (!nl && !(nl = memchr(buf, '\n', len))) /* the line before it: seen whole */
            continue;
        for (;;) {
            const char *line = nl + 1;
            const char *next = memchr(line, '\n', len - (size_t)(line - buf));
            if (!next || (size_t)(next + 1 - buf) >= len)
                break; /* told by the bytes still to read */
            if (next[1] == '[' && !memchr(line, '[', (size_t)(next - line))) {
                found = from + (uint64_t)(next + 1 - buf);
                break;
            }
            nl = next;
        }
    }
    free(buf);
    return found;
}

typedef struct part_job {
    db_names *table;
    part_source src;
    pthread_t thread;
    bool started;
    bool ok;
} part_job;

static void *part_main(void *v)
{
    part_job *j = v;
    j->ok = scan_text(j->table, read_part, &j->src) && !j->src.failed;
    return NULL;
}

/* Scan the plain file open on FD (SIZE bytes) in parts that start at or after the N
 * offsets WANT (ascending) and add them to T in file order; returns the parts, 0 (T
 * unchanged) when one could not be read. */
static int scan_parts(db_names *t, int fd, uint64_t size, const uint64_t *want, int n)
{
    uint64_t starts[PARTS_MAX + 1];
    int parts = 1;
    starts[0] = 0;
    for (int i = 0; i < n && parts < PARTS_MAX; i++) {
        if (want[i] <= starts[parts - 1] || want[i] >= size)
            continue;
        uint64_t at = part_start_after(fd, want[i], size);
        if (at > starts[parts - 1])
            starts[parts++] = at;
    }
    starts[parts] = size;
    part_job jobs[PARTS_MAX];
    for (int i = 0; i < parts; i++) {
        jobs[i] = (part_job){.table = db_names_new(), .src = {fd, starts[i], starts[i + 1], false}};
        /* the calling thread scans the first part */
        jobs[i].started = i > 0 && pthread_create(&jobs[i].thread, NULL, part_main, &jobs[i]) == 0;
    }
    bool ok = true;
    for (int i = 0; i < parts; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        else
            part_main(&jobs[i]);
        ok = ok && jobs[i].ok;
    }
    for (int i = 0; i < parts; i++) {
        if (ok)
            merge_counts(t, jobs[i].table);
        db_names_free(jobs[i].table);
    }
    return ok ? parts : 0;
}

/* Scan the input IN (SIZE bytes) in up to PARTS parts when it is a plain file big
 * enough; false when it was not (nothing counted). Not inlined: the whole scan's loop
 * stays as lean as it was. */
static __attribute__((noinline)) bool scan_file_in_parts(db_names *t, input *in, uint64_t size,
                                                         int parts)
{
    if (parts > PARTS_MAX)
        parts = PARTS_MAX;
    if ((uint64_t)parts * PART_MIN > size)
        parts = (int)(size / PART_MIN);
    if (parts < 2 || in->compressed || in->encoding != INPUT_ENC_UTF8)
        return false; /* else the file's bytes are the text the scan reads */
    uint64_t want[PARTS_MAX];
    for (int i = 1; i < parts; i++)
        want[i - 1] = size / (uint64_t)parts * (uint64_t)i;
    return scan_parts(t, fileno(in->raw), size, want, parts - 1) > 0;
}

/* db_names_scan; keep: a compressed input's text is kept for the games' pass, and
 * decompressed in a thread of its own when ahead (see input_keep_text); parts: a plain
 * file of PART_MIN bytes or more is scanned in up to that many parts, by threads. */
static bool scan_file(db_names *t, const char *path, bool keep, bool ahead, int parts)
{
    if (t->grouped || !path || strcmp(path, "-") == 0)
        return false;
    /* only a regular file can be read twice: a pipe (a FIFO, "<(zcat f)") read here
     * would leave nothing for the games, and the run would wait on it for ever */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    input in;
    char err[256];
    if (!reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err))
        return false;
    if (in.format == INPUT_XQF || in.format == INPUT_CBR || in.format == INPUT_CBL ||
        in.format == INPUT_CBF) { /* binary: no tag lines to scan */
        input_close(&in);
        return false;
    }
    if (parts > 1 && scan_file_in_parts(t, &in, (uint64_t)st.st_size, parts)) {
        input_close(&in);
        return true;
    }
    if (keep)
        input_keep_text(&in, ahead);
    bool ok = scan_text(t, read_input, &in);
    input_close(&in);
    return ok;
}

int db_names_scan_parts(db_names *t, const char *path, const uint64_t *want, int n)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    int parts = fstat(fd, &st) == 0 ? scan_parts(t, fd, (uint64_t)st.st_size, want, n) : 0;
    close(fd);
    return parts;
}

bool db_names_scan(db_names *t, const char *path)
{
    return scan_file(t, path, false, false, 1);
}

/* Several inputs, read by threads: each file is counted into a table of its own, and
 * the tables are added to the run's in input order, as scanning them one after another
 * would count (the same uses, the same pairs). The pre-pass runs before the workers of
 * the check start: with two inputs or more it need not take one core only. */
typedef struct scan_batch {
    char *const *paths;
    db_names **tables;
    int n;
    atomic_int next;
} scan_batch;

static void *scan_worker(void *v)
{
    scan_batch *b = v;
    for (int i; (i = atomic_fetch_add(&b->next, 1)) < b->n;) {
        b->tables[i] = db_names_new();
        scan_file(b->tables[i], b->paths[i], true, false, 1);
    }
    return NULL;
}

void db_names_scan_all(db_names *t, char *const *paths, int n, int jobs)
{
    if (jobs <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    }
    if (jobs < 2 || n < 2 || t->grouped) {
        /* one file with cores to spare: it is decompressed while it is scanned, or
         * scanned in parts when plain */
        for (int i = 0; i < n; i++)
            scan_file(t, paths[i], true, jobs >= 2, n == 1 ? jobs : 1);
        return;
    }
    /* a window of files at a time: the tables of a window wait for their merge */
    enum { WINDOW = 32 };
    db_names *tables[WINDOW];
    pthread_t threads[WINDOW];
    for (int from = 0; from < n; from += WINDOW) {
        scan_batch b = {.paths = paths + from, .tables = tables,
                        .n = n - from < WINDOW ? n - from : WINDOW};
        atomic_init(&b.next, 0);
        int started = 0;
        for (int k = 1; k < jobs && k < b.n; k++)
            if (pthread_create(&threads[started], NULL, scan_worker, &b) == 0)
                started++;
        scan_worker(&b);  /* the calling thread too (and alone if none started) */
        for (int k = 0; k < started; k++)
            pthread_join(threads[k], NULL);
        for (int i = 0; i < b.n; i++) {
            merge_counts(t, tables[i]);
            db_names_free(tables[i]);
        }
    }
}

