/* input.c: format and encoding detection, and transcoding to UTF-8. See input.h. */
#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
/* for ZSTD_createDStream_advanced, in libzstd's exported symbols since 1.0 */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#endif

#include "i18n/i18n.h"
#include "io/input.h"
#include "record/utf8.h"
#include "record/xalloc.h"

#define PEEK_SIZE (64 * 1024)
#define CHUNK 16384
/* The text stream's own buffer: a stream made by fopencookie gets 8 KiB, so a reader
 * asking for 64 KiB cost eight read(2) calls of 8 KiB each. */
#define STREAM_BUF_SIZE (64 * 1024)
#define ZIN_SIZE (128 * 1024)
/* zstd decodes into a room of this size of its own, always from the room's start: how
 * far spoilt data decodes before the error then does not hang on the sizes the callers
 * ask for (a -j1 run and a -j2 one read in other sizes, and must see the same games). */
#define ZOUT_SIZE (128 * 1024)
/* The decompressed texts kept for a second reading (input_keep_text), all together:
 * beyond it a compressed input is decompressed again, as a plain one is read again. */
#define KEPT_MAX ((size_t)64 << 20)
#define KEPT_FIRST ((size_t)1 << 20)

/* A regular file's identity, size and modification time: an edited file is another. */
typedef struct file_id {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
} file_id;

/* The compressed formats recognised by their first bytes (RFC 1952, RFC 8878). */
enum { CODEC_NONE, CODEC_GZIP, CODEC_ZSTD };

struct input_cookie {
    FILE *raw;
    /* Decompression stage, under the transcoding one: the magic bytes read to choose
     * the codec are served to it first. */
    int codec;
    unsigned char head[4];
    size_t head_len, head_pos;
    unsigned char *zin;      /* compressed bytes read, not yet decompressed */
    size_t zin_len, zin_pos;
    bool zin_eof, zend, zfailed;
    bool zmember_done;       /* gzip: a member ended; another may follow */
#ifdef HAVE_ZLIB
    z_stream z;
    bool z_open;
#endif
#ifdef HAVE_ZSTD
    ZSTD_DStream *zs;
    bool zs_mid_frame;       /* a frame began and has not ended */
    char *zout;              /* ZOUT_SIZE bytes: decoded, zout_pos served of zout_len */
    size_t zout_len, zout_pos;
#endif
    /* A text kept from an earlier reading of the same file, served instead of
     * decompressing it again (NULL: none). */
    char *mem;
    size_t mem_len, mem_pos;
    /* The decompressed text being kept as it is read (input_keep_text), in keep_cap
     * bytes counted in kept_bytes; keep_wanted: the text goes to the table at close. */
    char *keep;
    size_t keep_len, keep_cap;
    bool keep_wanted;
    struct ahead_state *ahead; /* decompressing in a thread of its own (NULL: not) */
    bool id_known;           /* a regular file, whose identity is id */
    file_id id;
    uint64_t raw_bytes;      /* bytes read from the file itself */
    bool raw_eof;            /* the file said end: asking again costs a read(2) each */
    char *peek;              /* bytes read ahead, served first */
    size_t peek_len, peek_pos;
    char *stream_buf;        /* the FILE's buffer (STREAM_BUF_SIZE bytes) */
    iconv_t cd;              /* (iconv_t)-1: no transcoding */
    size_t in_len;
    bool eof;
    unsigned long *bad_bytes;
    /* last, and not zeroed: one input per file of a collection of small files (XQF)
     * should not pay for clearing it */
    char in[CHUNK + 8];      /* raw bytes waiting to be transcoded */
};

#ifdef HAVE_ZSTD
/* The decoder's window (the frame's window size, at most: 2 MiB at zstd's default
 * levels, less for a smaller text) is fresh memory that decoding writes through: it is
 * asked for mapped at once (xalloc_prefault), not a page fault each 4 KiB, some 600 of
 * them on the 33 MB bench input. */
static void *zstd_alloc(void *opaque, size_t size)
{
    (void)opaque;
    void *p = malloc(size);
    if (p)
        xalloc_prefault(p, size);
    return p;
}

static void zstd_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

static ZSTD_DStream *zstd_stream_new(void)
{
    return ZSTD_createDStream_advanced((ZSTD_customMem){zstd_alloc, zstd_free, NULL});
}
#endif

/* ------------------------------------------------------------------ kept texts */

static file_id file_id_of(const struct stat *st)
{
    return (file_id){st->st_dev, st->st_ino, st->st_size, st->st_mtim};
}

static bool file_id_same(const file_id *a, const file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/* The decompressed text of a compressed file, kept by input_keep_text for its next
 * opening. */
typedef struct kept_text {
    file_id id;
    int codec;
    char *text;
    size_t len;
    struct kept_text *next;
} kept_text;
static kept_text *kept_list;
/* Bytes held by the table, by the inputs keeping a text and by those reading one */
static size_t kept_bytes;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* Count up to want more bytes kept, at least need, within KEPT_MAX; returns the bytes
 * counted, 0 when need does not fit. */
static size_t kept_reserve(size_t want, size_t need)
{
    pthread_mutex_lock(&kept_lock);
    size_t left = KEPT_MAX - kept_bytes, got = want <= left ? want : need <= left ? left : 0;
    kept_bytes += got;
    pthread_mutex_unlock(&kept_lock);
    return got;
}

static void kept_release(size_t n)
{
    pthread_mutex_lock(&kept_lock);
    kept_bytes -= n;
    pthread_mutex_unlock(&kept_lock);
}

/* The text kept for the file id, off the table (NULL: none). */
static kept_text *kept_take(const file_id *id)
{
    pthread_mutex_lock(&kept_lock);
    kept_text **k = &kept_list;
    while (*k && !file_id_same(&(*k)->id, id))
        k = &(*k)->next;
    kept_text *found = *k;
    if (found)
        *k = found->next;
    pthread_mutex_unlock(&kept_lock);
    return found;
}

/* Keep text (len bytes, counted in kept_bytes) for the file id; a text already kept
 * for it (the same file read twice at once) stays, and this one is freed. */
static void kept_put(const file_id *id, int codec, char *text, size_t len)
{
    kept_text *k = malloc(sizeof *k);
    pthread_mutex_lock(&kept_lock);
    kept_text *old = kept_list;
    while (old && !file_id_same(&old->id, id))
        old = old->next;
    if (k && !old) {
        *k = (kept_text){*id, codec, text, len, kept_list};
        kept_list = k;
        k = NULL;
        text = NULL;
    }
    if (text)
        kept_bytes -= len;
    pthread_mutex_unlock(&kept_lock);
    free(k);
    free(text);
}

void input_kept_free(void)
{
    pthread_mutex_lock(&kept_lock);
    for (kept_text *k = kept_list, *next; k; k = next) {
        next = k->next;
        kept_bytes -= k->len;
        free(k->text);
        free(k);
    }
    kept_list = NULL;
    pthread_mutex_unlock(&kept_lock);
}

/* Room for a text of cap bytes: in huge pages where the system gives them on asking,
 * as a text of 30 MB costs 7,500 page faults in small ones. */
static char *keep_alloc(char *old, size_t cap)
{
    char *p = realloc(old, cap);
    enum { HUGE = 2 << 20 };
    if (p && cap >= 2 * HUGE) {
        uintptr_t from = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
        uintptr_t to = ((uintptr_t)p + cap) & ~(uintptr_t)(HUGE - 1);
        if (to > from)
            madvise((void *)from, to - from, MADV_HUGEPAGE);
    }
    return p;
}

/* Stop keeping the text being read (too big, or read wrong). */
static void keep_drop(input_cookie *c)
{
    free(c->keep);
    kept_release(c->keep_cap);
    c->keep = NULL;
    c->keep_len = c->keep_cap = 0;
}

/* Room for n more bytes in the text being kept; false when it would pass KEPT_MAX. */
static bool keep_room(input_cookie *c, size_t n)
{
    if (n <= c->keep_cap - c->keep_len)
        return true;
    size_t need = c->keep_len + n, want = 2 * c->keep_cap;
    while (want < need)
        want *= 2;
    size_t more = kept_reserve(want - c->keep_cap, need - c->keep_cap);
    char *grown = more ? keep_alloc(c->keep, c->keep_cap + more) : NULL;
    if (!grown) {
        kept_release(more);
        return false;
    }
    c->keep = grown;
    c->keep_cap += more;
    return true;
}

/* Add n decompressed bytes to the text being kept. */
static void keep_append(input_cookie *c, const char *buf, size_t n)
{
    if (!keep_room(c, n)) {
        keep_drop(c); /* decompressed again when read again */
        return;
    }
    memcpy(c->keep + c->keep_len, buf, n);
    c->keep_len += n;
}

/* ------------------------------------------------------------------ ahead */

/* Decompressing ahead (input_keep_text with ahead): a thread of its own calls
 * decode_read for AHEAD_READ bytes at a time, straight into the text kept, and
 * plain_read hands the text out in order, in the sizes its callers ask for, while the
 * reader scans the piece before. */
#define AHEAD_READ ZOUT_SIZE /* zstd's steps go straight into the text kept */

typedef struct ahead_state {
    pthread_t thread;
    pthread_mutex_t mu;      /* over the pieces, and keep when it moves */
    pthread_cond_t cond;
    size_t *ends;            /* where each piece ends in keep (a piece of 0: the end) */
    size_t n, cap;           /* pieces made, room for */
    size_t next, pos;        /* the next piece to hand out, the next byte of it */
    bool done;               /* the thread has ended */
    bool quit;               /* closed before the end: the thread stops */
} ahead_state;

static size_t decode_read(input_cookie *c, char *buf, size_t size);

static void *ahead_main(void *v)
{
    input_cookie *c = v;
    ahead_state *a = c->ahead;
    for (;;) {
        pthread_mutex_lock(&a->mu);
        bool go = !a->quit && keep_room(c, AHEAD_READ);
        if (go && a->n == a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 256;
            size_t *ends = realloc(a->ends, cap * sizeof *ends);
            go = ends != NULL;
            if (go) {
                a->ends = ends;
                a->cap = cap;
            }
        }
        pthread_mutex_unlock(&a->mu);
        if (!go)
            break; /* out of room: the reader goes on without the thread */
        /* keep moves only here, in this thread: no lock while decoding into it */
        size_t n = decode_read(c, c->keep + c->keep_len, AHEAD_READ);
        pthread_mutex_lock(&a->mu);
        c->keep_len += n;
        a->ends[a->n++] = c->keep_len;
        pthread_cond_signal(&a->cond);
        pthread_mutex_unlock(&a->mu);
        if (n == 0)
            break; /* the end of the data, or corrupt data */
    }
    pthread_mutex_lock(&a->mu);
    a->done = true;
    pthread_cond_signal(&a->cond);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* Wait for the thread to end and forget it (quit: stop it first). */
static void ahead_end(input_cookie *c, bool quit)
{
    ahead_state *a = c->ahead;
    pthread_mutex_lock(&a->mu);
    a->quit = quit;
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cond);
    free(a->ends);
    free(a);
    c->ahead = NULL;
}

/* The next piece the thread decompressed, as decode_read would have given it. */
static size_t ahead_read(input_cookie *c, char *buf, size_t size)
{
    ahead_state *a = c->ahead;
    pthread_mutex_lock(&a->mu);
    while (a->next == a->n && !a->done)
        pthread_cond_wait(&a->cond, &a->mu);
    size_t n = 0;
    bool piece = a->next < a->n && a->ends[a->next] > a->pos;
    if (piece) {
        size_t end = a->ends[a->next];
        n = end - a->pos < size ? end - a->pos : size;
        memcpy(buf, c->keep + a->pos, n);
        a->pos += n;
        if (a->pos == end)
            a->next++;
    }
    pthread_mutex_unlock(&a->mu);
    if (piece)
        return n;
    /* a piece of 0 (the end, zend or zfailed set), or the thread out of room */
    ahead_end(c, false);
    if (c->zend || c->zfailed)
        return 0;
    keep_drop(c);
    return decode_read(c, buf, size);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* Start the thread on the text kept so far (the peek); when it cannot start, the text
 * is kept as it is read. */
static void ahead_start(input_cookie *c)
{
    ahead_state *a = calloc(1, sizeof *a);
    if (!a)
        return;
    a->pos = c->keep_len;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cond, NULL);
    c->ahead = a;
    if (pthread_create(&a->thread, NULL, ahead_main, c) != 0) {
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->cond);
        free(a);
        c->ahead = NULL;
        return;
    }
    /* The room the thread decompresses into, faulted in here meanwhile (the bytes are
     * left as they are: the thread may be writing them): the decompression is the
     * pre-pass's longest path, and its page faults were 15% of it (7 ms of the 40 of
     * the bench x10's text). An older kernel says EINVAL: the thread faults them. */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = (uintptr_t)c->keep & ~(page - 1);
    madvise((void *)from, (uintptr_t)c->keep + c->keep_cap - from, MADV_POPULATE_WRITE);
}

/* At close: the text kept or read from memory goes to the table for the next opening,
 * when whole (read to the end of the data without error); else it is freed. */
static void keep_close(input_cookie *c)
{
    if (c->ahead)
        ahead_end(c, true); /* closed before the end: the text is not whole */
    if (c->mem) {
        if (c->keep_wanted)
            kept_put(&c->id, c->codec, c->mem, c->mem_len);
        else {
            free(c->mem);
            kept_release(c->mem_len);
        }
    }
    if (!c->keep)
        return;
    if (!c->zend || c->zfailed || ferror(c->raw) || c->keep_len == 0) {
        keep_drop(c);
        return;
    }
    char *text = realloc(c->keep, c->keep_len); /* the room not used back to the count */
    if (!text) {
        keep_drop(c);
        return;
    }
    kept_release(c->keep_cap - c->keep_len);
    kept_put(&c->id, c->codec, text, c->keep_len);
    c->keep = NULL;
    c->keep_len = c->keep_cap = 0;
}

/* The size of the text as the file says it, 0 when it does not: a zstd frame's content
 * size (the first frame's), a gzip file's last four bytes (the last member's, modulo
 * 2^32). Read with pread: the stream's position stays. */
static uint64_t text_size_said(const input_cookie *c)
{
    unsigned char b[18]; /* ZSTD_FRAMEHEADERSIZE_MAX */
    int fd = fileno(c->raw);
#ifdef HAVE_ZSTD
    if (c->codec == CODEC_ZSTD) {
        ssize_t n = pread(fd, b, sizeof b, 0);
        unsigned long long size = n > 0 ? ZSTD_getFrameContentSize(b, (size_t)n)
                                        : ZSTD_CONTENTSIZE_UNKNOWN;
        return size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ? 0 : size;
    }
#endif
    if (c->codec == CODEC_GZIP && c->id.size >= 4 && pread(fd, b, 4, c->id.size - 4) == 4)
        return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
               (uint64_t)b[3] << 24;
    return 0;
}

void input_keep_text(input *in, bool ahead)
{
    input_cookie *c = in->cookie;
    /* the peek is all that was read yet, or the text would not be whole */
    if (!c || c->codec == CODEC_NONE || !c->id_known || c->keep || c->peek_pos > 0 ||
        c->keep_wanted)
        return;
    c->keep_wanted = true;
    if (c->mem)
        return; /* the text read is the kept one: back to the table at close */
    /* a text said to be too big is not begun (it would take KEPT_MAX bytes before
     * being dropped); one said to fit gets its room at once */
    uint64_t said = text_size_said(c);
    if (said > KEPT_MAX)
        return;
    size_t first = said > c->peek_len ? (size_t)said : c->peek_len;
    /* ahead: the thread's last read wants its room too; only untranscoded text, whose
     * reads are the caller's blocks */
    ahead = ahead && said && c->cd == (iconv_t)-1;
    if (ahead)
        first += AHEAD_READ;
    size_t cap = said ? kept_reserve(first, first)
                      : kept_reserve(KEPT_FIRST > first ? KEPT_FIRST : first, first);
    c->keep = cap ? keep_alloc(NULL, cap) : NULL;
    if (!c->keep) {
        kept_release(cap);
        return;
    }
    c->keep_cap = cap;
    memcpy(c->keep, c->peek, c->peek_len);
    c->keep_len = c->peek_len;
    if (ahead)
        ahead_start(c);
    else if (said)
        xalloc_prefault(c->keep, c->keep_cap); /* the text said fills it: mapped at once */
}

const char *input_encoding_name(input_encoding e)
{
    switch (e) {
    case INPUT_ENC_GB18030: return "GB18030";
    case INPUT_ENC_BIG5: return "BIG5";
    default: return "UTF-8";
    }
}

/* Whether bytes are valid UTF-8, allowing a sequence cut at the end of the sample. */
static bool valid_utf8(const unsigned char *s, size_t len)
{
    size_t ok = utf8_valid_prefix(s, len);
    return ok == len || len - ok < 4; /* the sample may end inside a character */
}

/* How much a decoded sample looks like a xiangqi record in Chinese: the characters
 * of pieces and moves, simplified or traditional. Zero for anything else (a Latin-1
 * chess file may decode as GBK without error, but never to these). */
static int xiangqi_score(const char *utf8)
{
    static const char marks[][4] = {"炮", "砲", "車", "车", "俥", "馬", "马", "傌", "進",
                                    "进", "退", "平", "兵", "卒", "帥", "帅", "將", "将",
                                    "仕", "士", "相", "象", "紅", "红", "黑"};
    /* one pass: every mark is a three-byte character led by 0xE4..0xE9, a byte that
     * only starts a character, so the occurrences are those of the lead bytes */
    int score = 0;
    for (const unsigned char *p = (const unsigned char *)utf8; *p; p++) {
        if (*p < 0xE4 || *p > 0xE9 || !p[1] || !p[2])
            continue;
        for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
            if (memcmp(p, marks[i], 3) == 0) {
                score++;
                p += 2;
                break;
            }
    }
    return score;
}

/* Decode a sample from charset to UTF-8; returns the xiangqi score, or -1 when the
 * sample does not decode (a cut sequence at the very end is fine; up to ALLOWED bytes
 * that do not decode are skipped). */
static int decode_score(const char *charset, const char *bytes, size_t len, size_t allowed)
{
    iconv_t cd = iconv_open("UTF-8", charset);
    if (cd == (iconv_t)-1)
        return -1;
    size_t out_size = len * 4 + 1;
    char *out = malloc(out_size);
    if (!out) {
        iconv_close(cd);
        return -1;
    }
    char *inp = (char *)bytes, *outp = out;
    size_t in_left = len, out_left = out_size - 1;
    int score = -1;
    /* A damaged file (a character cut in half, a stray byte) is still that encoding: a
     * few bytes that do not decode are skipped, as the reader later turns them into
     * U+FFFD; more than one in 256 (and 2) and the sample is not this charset. */
    size_t skipped = 0;
    size_t rc;
    while ((rc = iconv(cd, &inp, &in_left, &outp, &out_left)) == (size_t)-1 &&
           errno == EILSEQ && in_left > 0 && skipped < allowed) {
        inp++;
        in_left--;
        skipped++;
    }
    if (rc != (size_t)-1 || errno == EINVAL) {
        *outp = '\0';
        score = xiangqi_score(out);
    }
    free(out);
    iconv_close(cd);
    return score;
}

/* The lines of the sample (LEN bytes at BYTES) that hold a byte of 0x80 or more, copied
 * to OUT: a Chinese character can only be on those. A line of ASCII decodes to itself in
 * GB18030 and Big5 (a newline is never a second byte there), so decoding just these
 * lines scores the same as the sample and costs little for a Latin-1 chess file. */
static size_t high_lines(const char *bytes, size_t len, char *out)
{
    size_t o = 0;
    for (size_t start = 0; start < len;) {
        const char *nl = memchr(bytes + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - bytes) + 1 : len;
        for (size_t i = start; i < end; i++)
            if ((unsigned char)bytes[i] >= 0x80) {
                memcpy(out + o, bytes + start, end - start);
                o += end - start;
                break;
            }
        start = end;
    }
    return o;
}

/* The GB18030 and Big5-HKSCS codes of the xiangqi_score marks: every one is a two-byte
 * code (listed by decoding every pair of bytes with glibc's iconv), so a sample without
 * any of these pairs scores zero in both and needs no decoding; a Latin-1 chess file
 * then does not load the iconv modules (a quarter of a megabyte resident). */
static const uint16_t mark_codes[] = {
    /* GB18030 */
    0x8265, 0x82D8, 0x8CA2, 0x8E9B, 0xB1F8, 0xB368, 0xB3B5, 0xBADA, 0xBAEC, 0xBC74, 0xBDAB,
    0xBDF8, 0xC2ED, 0xC5DA, 0xC6BD, 0xCABF, 0xCACB, 0xCBA7, 0xCDCB, 0xCFE0, 0xCFF3, 0xD7E4,
    0xDC87, 0xDF4D, 0xF152,
    /* Big5-HKSCS */
    0x897C, 0x89C6, 0x92AC, 0xA468, 0xA54B, 0xA5AD, 0xA74C, 0xA8AE, 0xA8F2, 0xABD3, 0xACB6,
    0xACDB, 0xACF5, 0xAFA5, 0xB068, 0xB0A8, 0xB14E, 0xB648, 0xB669, 0xB6C2, 0xD858};

static bool may_hold_marks(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] < 0x81)
            continue;
        uint16_t code = (uint16_t)(s[i] << 8 | s[i + 1]);
        for (size_t k = 0; k < sizeof mark_codes / sizeof mark_codes[0]; k++)
            if (mark_codes[k] == code)
                return true;
    }
    return false;
}

input_encoding input_guess_encoding(const char *bytes, size_t len)
{
    if (valid_utf8((const unsigned char *)bytes, len))
        return INPUT_ENC_UTF8;
    if (!may_hold_marks((const unsigned char *)bytes, len))
        return INPUT_ENC_UTF8; /* both scores would be zero */
    char *lines = malloc(len ? len : 1);
    if (!lines)
        return INPUT_ENC_UTF8;
    size_t n = high_lines(bytes, len, lines);
    /* one in 256 of the whole sample (and 2), as before the ASCII lines were left out */
    size_t allowed = len / 256 > 2 ? len / 256 : 2;
    int gb = decode_score("GB18030", lines, n, allowed);
    int big5 = decode_score("BIG5-HKSCS", lines, n, allowed);
    free(lines);
    if (gb <= 0 && big5 <= 0)
        return INPUT_ENC_UTF8; /* not Chinese: Latin-1 and the like, left to the readers */
    return big5 > gb ? INPUT_ENC_BIG5 : INPUT_ENC_GB18030;
}

/* Bytes of the file: the magic bytes read ahead first, then the rest. */
static size_t file_read(input_cookie *c, void *buf, size_t size)
{
    if (c->head_pos < c->head_len) {
        size_t n = c->head_len - c->head_pos;
        if (n > size)
            n = size;
        memcpy(buf, c->head + c->head_pos, n);
        c->head_pos += n;
        return n;
    }
    if (c->raw_eof)
        return 0;
    size_t got = fread(buf, 1, size, c->raw);
    c->raw_bytes += got;
    if (got < size && feof(c->raw))
        c->raw_eof = true; /* a collection of small files: one read less for each */
    return got;
}

#if defined(HAVE_ZLIB) || defined(HAVE_ZSTD)
/* Refill the compressed buffer when it is empty; false at the end of the file. */
static bool zin_fill(input_cookie *c)
{
    if (c->zin_pos < c->zin_len)
        return true;
    if (c->zin_eof)
        return false;
    c->zin_len = file_read(c, c->zin, ZIN_SIZE);
    c->zin_pos = 0;
    if (c->zin_len == 0)
        c->zin_eof = true;
    return c->zin_len > 0;
}
#endif

#ifdef HAVE_ZSTD
/* One step of zstd into dst, ZOUT_SIZE bytes of room: the bytes decoded, 0 at the end
 * of the data (zend) or on spoilt data (zfailed too). */
static size_t zstd_step(input_cookie *c, char *dst)
{
    ZSTD_outBuffer out = {dst, ZOUT_SIZE, 0};
    while (out.pos == 0) {
        if (!zin_fill(c)) {
            if (c->zs_mid_frame)
                c->zfailed = true;
            c->zend = true;
            break;
        }
        ZSTD_inBuffer in = {c->zin, c->zin_len, c->zin_pos};
        size_t rc = ZSTD_decompressStream(c->zs, &out, &in);
        c->zin_pos = in.pos;
        if (ZSTD_isError(rc)) {
            c->zfailed = true;
            break;
        }
        c->zs_mid_frame = rc != 0;
    }
    return out.pos;
}

/* Decoded bytes for the caller, from the steps of zstd_step: straight into a caller's
 * buffer of ZOUT_SIZE or more, else through zout. Either way the steps are the same. */
static size_t zstd_read(input_cookie *c, char *buf, size_t size)
{
    if (c->zout_pos == c->zout_len) {
        if (c->zend || c->zfailed)
            return 0;
        if (size >= ZOUT_SIZE)
            return zstd_step(c, buf);
        c->zout_len = zstd_step(c, c->zout);
        c->zout_pos = 0;
    }
    size_t n = c->zout_len - c->zout_pos < size ? c->zout_len - c->zout_pos : size;
    memcpy(buf, c->zout + c->zout_pos, n);
    c->zout_pos += n;
    return n;
}
#endif

/* Decompressed bytes (or the file's own bytes); 0 at the end, and on corrupt or
 * truncated compressed data with zfailed set. */
static size_t decode_read(input_cookie *c, char *buf, size_t size)
{
    if (c->codec == CODEC_NONE)
        return file_read(c, buf, size);
#ifdef HAVE_ZSTD
    if (c->codec == CODEC_ZSTD)
        return zstd_read(c, buf, size); /* what zout holds is served after the end too */
#endif
    if (c->zend || c->zfailed)
        return 0;
#ifdef HAVE_ZLIB
    if (c->codec == CODEC_GZIP) {
        c->z.next_out = (Bytef *)buf;
        c->z.avail_out = (uInt)size;
        while (c->z.avail_out == size) {
            if (!zin_fill(c)) {
                if (!c->zmember_done)
                    c->zfailed = true; /* the stream stops inside a member */
                c->zend = true;
                break;
            }
            if (c->zmember_done) {
                /* concatenated members (gzip a b > ab.gz) read as one stream */
                inflateReset(&c->z);
                c->zmember_done = false;
            }
            c->z.next_in = c->zin + c->zin_pos;
            c->z.avail_in = (uInt)(c->zin_len - c->zin_pos);
            int rc = inflate(&c->z, Z_NO_FLUSH);
            c->zin_pos = c->zin_len - c->z.avail_in;
            if (rc == Z_STREAM_END) {
                c->zmember_done = true;
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                c->zfailed = true;
                break;
            }
        }
        return size - c->z.avail_out;
    }
#endif
    c->zfailed = true;
    return 0;
}

/* The text kept from an earlier reading of the file, in place of decompressing it. */
static size_t mem_read(input_cookie *c, char *buf, size_t size)
{
    size_t n = c->mem_len - c->mem_pos < size ? c->mem_len - c->mem_pos : size;
    memcpy(buf, c->mem + c->mem_pos, n);
    c->mem_pos += n;
    /* as far into the file as into its text, for the progress line: the whole file
     * at the end, as when decompressing */
    c->raw_bytes = c->mem_pos == c->mem_len
                       ? (uint64_t)c->id.size
                       : (uint64_t)((double)c->id.size * (double)c->mem_pos / (double)c->mem_len);
    if (n == 0)
        c->zend = true;
    return n;
}

/* Decompressed bytes, or the file's: from memory when kept, kept when asked. */
static size_t plain_read(input_cookie *c, char *buf, size_t size)
{
    if (c->mem)
        return mem_read(c, buf, size);
    if (c->ahead)
        return ahead_read(c, buf, size);
    size_t n = decode_read(c, buf, size);
    if (c->keep && n)
        keep_append(c, buf, n);
    return n;
}

/* Text bytes before transcoding: the peeked ones first, then the stream. */
static size_t raw_read(input_cookie *c, char *buf, size_t size)
{
    if (c->peek_pos < c->peek_len) {
        size_t n = c->peek_len - c->peek_pos;
        if (n > size)
            n = size;
        memcpy(buf, c->peek + c->peek_pos, n);
        c->peek_pos += n;
        return n;
    }
    return plain_read(c, buf, size);
}

/* Fill buf as far as the stream goes (the peek wants PEEK_SIZE bytes or the end). */
static size_t plain_read_full(input_cookie *c, char *buf, size_t size)
{
    size_t got = 0;
    while (got < size) {
        size_t n = plain_read(c, buf + got, size - got);
        if (n == 0)
            break;
        got += n;
    }
    return got;
}

static ssize_t cookie_read(void *v, char *buf, size_t size)
{
    input_cookie *c = v;
    if (c->cd == (iconv_t)-1) {
        size_t n = raw_read(c, buf, size);
        if (n == 0 && c->zfailed) {
            errno = EIO;
            return -1;
        }
        return (ssize_t)n;
    }
    char *outp = buf;
    size_t out_left = size;
    for (;;) {
        if (!c->eof && c->in_len < CHUNK) {
            size_t got = raw_read(c, c->in + c->in_len, CHUNK - c->in_len);
            c->eof = got == 0;
            c->in_len += got;
        }
        if (c->in_len == 0) {
            if (c->zfailed && outp == buf) {
                errno = EIO;
                return -1;
            }
            break; /* end of input */
        }
        char *inp = c->in;
        size_t in_left = c->in_len;
        bool full = false;
        if (iconv(c->cd, &inp, &in_left, &outp, &out_left) == (size_t)-1) {
            if (errno == E2BIG) {
                full = true;
            } else if (errno == EILSEQ) {
                /* a byte outside the charset: skip it, write U+FFFD */
                if (out_left < 3) {
                    full = true;
                } else {
                    memcpy(outp, "\xEF\xBF\xBD", 3);
                    outp += 3;
                    out_left -= 3;
                    inp++;
                    in_left--;
                    (*c->bad_bytes)++;
                }
            } else if (errno == EINVAL && c->eof) {
                in_left = 0; /* a sequence cut by the end of the file */
                (*c->bad_bytes)++;
            }
        }
        memmove(c->in, inp, in_left);
        c->in_len = in_left;
        if (full || outp != buf)
            break;
    }
    return (ssize_t)(size - out_left);
}

static int cookie_close(void *v)
{
    input_cookie *c = v;
    keep_close(c);
    if (c->cd != (iconv_t)-1)
        iconv_close(c->cd);
#ifdef HAVE_ZLIB
    if (c->z_open)
        inflateEnd(&c->z);
#endif
#ifdef HAVE_ZSTD
    if (c->zs)
        ZSTD_freeDStream(c->zs);
    free(c->zout);
#endif
    free(c->zin);
    free(c->peek);
    /* the stream no longer reads into it: fclose calls this last */
    free(c->stream_buf);
    free(c);
    return 0;
}

/* Choose the codec by the first bytes of the file; false (with a message) when the
 * data is compressed in a way this build cannot read. */
static bool codec_open(input_cookie *c, const char *path, char *err, size_t errsize)
{
    c->head_len = fread(c->head, 1, sizeof c->head, c->raw);
    c->raw_bytes = c->head_len;
    const unsigned char *h = c->head;
    if (c->head_len >= 2 && h[0] == 0x1F && h[1] == 0x8B)
        c->codec = CODEC_GZIP;
    else if (c->head_len >= 4 && h[0] == 0x28 && h[1] == 0xB5 && h[2] == 0x2F && h[3] == 0xFD)
        c->codec = CODEC_ZSTD;
    else
        return true;
    const char *what = c->codec == CODEC_GZIP ? "gzip" : "zstd";
    bool supported = false;
#ifdef HAVE_ZLIB
    if (c->codec == CODEC_GZIP) {
        supported = true;
        if (inflateInit2(&c->z, 15 + 32) != Z_OK) { /* 32: gzip header */
            snprintf(err, errsize, _("%s: cannot start the gzip decoder"), path);
            return false;
        }
        c->z_open = true;
    }
#endif
#ifdef HAVE_ZSTD
    if (c->codec == CODEC_ZSTD) {
        supported = true;
        c->zs = zstd_stream_new();
        c->zout = malloc(ZOUT_SIZE);
        if (!c->zs || !c->zout || ZSTD_isError(ZSTD_initDStream(c->zs))) {
            snprintf(err, errsize, _("%s: cannot start the zstd decoder"), path);
            return false;
        }
    }
#endif
    if (!supported) {
        snprintf(err, errsize,
                 _("%s: %s-compressed input, but this arbiter was built without %s support "
                 "(install %s and rebuild, or decompress it first)"), path, what, what,
                 c->codec == CODEC_GZIP ? "zlib1g-dev" : "libzstd-dev");
        return false;
    }
    c->zin = malloc(ZIN_SIZE);
    if (!c->zin) {
        snprintf(err, errsize, _("%s: out of memory"), path);
        return false;
    }
    return true;
}

bool input_binary(const unsigned char *b, size_t len, char *what, size_t whatsize)
{
    size_t n = len < 4096 ? len : 4096;
    if (n == 0)
        return false;
    size_t control = 0;
    for (size_t i = 0; i < n; i++)
        if (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' && b[i] != '\f' &&
            b[i] != '\v' && b[i] != 0x1A && b[i] != 0x1B)
            control++;
    /* text in any 8-bit encoding has few control characters (a stray NUL in a damaged
     * PGN file is still text); random bytes have one in ten */
    if (control * 16 < n)
        return false;
    static const struct {
        const char *magic;
        size_t len;
        const char *name;
    } kinds[] = {
        {"PK\3\4", 4, N_("a ZIP archive")},     {"%PDF", 4, N_("a PDF document")},
        {"\x89PNG", 4, N_("a PNG image")},       {"\xFF\xD8\xFF", 3, N_("a JPEG image")},
        {"GIF8", 4, N_("a GIF image")},          {"\x7F" "ELF", 4, N_("an executable")},
        {"SQLite format 3", 15, N_("an SQLite database")},
        {"\xFF\xFE", 2, N_("UTF-16 text: convert it to UTF-8 first")},
        {"\xFE\xFF", 2, N_("UTF-16 text: convert it to UTF-8 first")},
        {"Rar!", 4, N_("a RAR archive")},         {"7z\xBC\xAF", 4, N_("a 7-Zip archive")},
        {"\xD0\xCF\x11\xE0", 4, N_("an old Microsoft Office document")},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (len >= kinds[k].len && memcmp(b, kinds[k].magic, kinds[k].len) == 0) {
            snprintf(what, whatsize, "%s", _(kinds[k].name));
            return true;
        }
    char hex[3 * 8 + 1] = "";
    for (size_t i = 0, o = 0; i < 8 && i < len; i++)
        o += (size_t)snprintf(hex + o, sizeof hex - o, "%s%02X", i ? " " : "", b[i]);
    snprintf(what, whatsize,
             _("it starts with %s, which is none of the formats read (PGN, WXF, XQF, DhtmlXQ, "
               "CBR, CBL, CBF, LaTeX, Markdown, HTML)"), hex);
    return true;
}

static bool input_open_raw(input *in, const char *path, const struct stat *st,
                           input_format forced, input_detect_fn detect, char *err,
                           size_t errsize);

/* A file's encoding guess, kept for its next open: check reads a file twice (the names
 * pre-pass, then its games), and a guess that is not plain UTF-8 decodes a 64 KiB
 * sample in two charsets. Kept by the file's identity, size and modification time, so
 * an edited file is guessed anew; a few dozen files, the last ones opened. */
#define GUESS_MEMOS 64
typedef struct guess_memo {
    file_id id;
    input_encoding encoding;
    bool used;
} guess_memo;
static guess_memo guess_memos[GUESS_MEMOS];
static pthread_mutex_t guess_lock = PTHREAD_MUTEX_INITIALIZER;

static guess_memo *guess_slot(const file_id *id)
{
    return &guess_memos[((uint64_t)id->ino * 31u + (uint64_t)id->dev) % GUESS_MEMOS];
}

static bool guess_recall(const file_id *id, input_encoding *encoding)
{
    bool found = false;
    pthread_mutex_lock(&guess_lock);
    const guess_memo *m = guess_slot(id);
    if (m->used && file_id_same(&m->id, id)) {
        *encoding = m->encoding;
        found = true;
    }
    pthread_mutex_unlock(&guess_lock);
    return found;
}

static void guess_keep(const file_id *id, input_encoding encoding)
{
    pthread_mutex_lock(&guess_lock);
    *guess_slot(id) = (guess_memo){*id, encoding, true};
    pthread_mutex_unlock(&guess_lock);
}

bool input_open(input *in, const char *path, input_format forced, input_detect_fn detect,
                char *err, size_t errsize)
{
    memset(in, 0, sizeof *in);
    struct stat st;
    bool known = false; /* st is a regular file's */
    if (strcmp(path, "-") == 0) {
        in->raw = stdin;
    } else {
        in->raw = fopen(path, "rb");
        if (!in->raw) {
            snprintf(err, errsize, "%s: %s", path, strerror(errno));
            return false;
        }
        /* asked of the open file, not of the name: one system call less a file */
        if (fstat(fileno(in->raw), &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                snprintf(err, errsize, _("%s: is a directory"), path);
                input_close(in);
                return false;
            }
            known = S_ISREG(st.st_mode);
        }
    }
    return input_open_raw(in, path, known ? &st : NULL, forced, detect, err, errsize);
}

bool input_open_stream(input *in, FILE *raw, const char *name, input_format forced,
                       input_detect_fn detect, char *err, size_t errsize)
{
    memset(in, 0, sizeof *in);
    in->raw = raw;
    return input_open_raw(in, name, NULL, forced, detect, err, errsize);
}

/* The rest of input_open, on in->raw; st: the file's status, or NULL (a stream). */
static bool input_open_raw(input *in, const char *path, const struct stat *st,
                           input_format forced, input_detect_fn detect, char *err,
                           size_t errsize)
{
    input_cookie *c = malloc(sizeof *c);
    if (c)
        memset(c, 0, offsetof(input_cookie, in));
    char *peek = malloc(PEEK_SIZE);
    if (!c || !peek) {
        free(c);
        free(peek);
        snprintf(err, errsize, _("%s: out of memory"), path);
        input_close(in);
        return false;
    }
    c->raw = in->raw;
    c->peek = peek;
    c->cd = (iconv_t)-1;
    if (st) {
        c->id_known = true;
        c->id = file_id_of(st);
        /* read before and its text kept: no need to decompress it again */
        kept_text *k = kept_take(&c->id);
        if (k) {
            c->codec = k->codec;
            c->mem = k->text;
            c->mem_len = k->len;
            free(k);
        }
    }
    if (!c->mem && !codec_open(c, path, err, errsize)) {
        cookie_close(c);
        input_close(in);
        return false;
    }
    in->compressed = c->codec != CODEC_NONE;
    c->peek_len = plain_read_full(c, peek, PEEK_SIZE);
    if (c->zfailed) {
        snprintf(err, errsize, _("%s: corrupt or truncated %s data"), path,
                 c->codec == CODEC_GZIP ? "gzip" : "zstd");
        cookie_close(c);
        input_close(in);
        return false;
    }
    if (ferror(in->raw)) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        cookie_close(c);
        input_close(in);
        return false;
    }
    c->cd = (iconv_t)-1;
    c->bad_bytes = &in->bad_bytes;
    /* the format first: a binary format is read as bytes, its reader decodes its own
     * strings */
    bool binary = false;
    in->format = detect(peek, c->peek_len, path, forced, &binary);
    in->encoding = INPUT_ENC_UTF8;
    if (!binary && !(st && guess_recall(&c->id, &in->encoding))) {
        in->encoding = input_guess_encoding(peek, c->peek_len);
        if (st)
            guess_keep(&c->id, in->encoding);
    }
    if (in->encoding != INPUT_ENC_UTF8)
        c->cd = iconv_open("UTF-8", in->encoding == INPUT_ENC_BIG5 ? "BIG5-HKSCS" : "GB18030");
    char what[200];
    if (forced == INPUT_UNKNOWN && !binary &&
        input_binary((const unsigned char *)peek, c->peek_len, what, sizeof what)) {
        /* one clear sentence rather than a syntax error per line of garbage (--from
         * still reads such a file as asked) */
        snprintf(err, errsize, _("%s: binary data, not a game record: %s"), path, what);
        cookie_close(c);
        input_close(in);
        return false;
    }
    cookie_io_functions_t io = {.read = cookie_read, .close = cookie_close};
    in->fp = fopencookie(c, "r", io);
    c->stream_buf = in->fp ? malloc(STREAM_BUF_SIZE) : NULL;
    if (!in->fp || !c->stream_buf) {
        if (in->fp)
            fclose(in->fp); /* frees the cookie */
        else
            cookie_close(c);
        in->fp = NULL;
        snprintf(err, errsize, _("%s: cannot open a stream"), path);
        input_close(in);
        return false;
    }
    setvbuf(in->fp, c->stream_buf, _IOFBF, STREAM_BUF_SIZE);
    in->cookie = c;
    return true;
}

ssize_t input_read(const input *in, char *buf, size_t size)
{
    if (!in->cookie)
        return -1;
    return cookie_read(in->cookie, buf, size);
}

uint64_t input_bytes_read(const input *in)
{
    return in->cookie ? in->cookie->raw_bytes : 0;
}

bool input_failed(const input *in)
{
    return in->cookie && in->cookie->zfailed;
}

void input_close(input *in)
{
    if (in->fp)
        fclose(in->fp); /* frees the cookie */
    if (in->raw && in->raw != stdin)
        fclose(in->raw);
    in->fp = NULL;
    in->raw = NULL;
    in->cookie = NULL;
}
