/* input.c: format and encoding detection, and transcoding to UTF-8. See input.h. */
#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/input.h"

#define PEEK_SIZE (64 * 1024)
#define CHUNK 16384

struct input_cookie {
    FILE *raw;
    char *peek;              /* bytes read ahead, served first */
    size_t peek_len, peek_pos;
    iconv_t cd;              /* (iconv_t)-1: no transcoding */
    char in[CHUNK + 8];      /* raw bytes waiting to be transcoded */
    size_t in_len;
    bool eof;
    unsigned long *bad_bytes;
};

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
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                                     : (c & 0xF8) == 0xF0 ? 3 : 9;
        if (need == 9 || (need == 1 && c < 0xC2))
            return false;
        for (size_t k = 1; k <= need; k++) {
            if (i + k >= len)
                return true; /* cut by the sample */
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
        }
        i += need + 1;
    }
    return true;
}

/* How much a decoded sample looks like a xiangqi record in Chinese: the characters
 * of pieces and moves, simplified or traditional. Zero for anything else (a Latin-1
 * chess file may decode as GBK without error, but never to these). */
static int xiangqi_score(const char *utf8)
{
    static const char *const marks[] = {"炮", "砲", "車", "车", "俥", "馬", "马", "傌", "進",
                                        "进", "退", "平", "兵", "卒", "帥", "帅", "將", "将",
                                        "仕", "士", "相", "象", "紅", "红", "黑"};
    int score = 0;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        for (const char *p = utf8; (p = strstr(p, marks[i])) != NULL; p += strlen(marks[i]))
            score++;
    return score;
}

/* Decode a sample from charset to UTF-8; returns the xiangqi score, or -1 when the
 * sample does not decode (a cut sequence at the very end is fine). */
static int decode_score(const char *charset, const char *bytes, size_t len)
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
    size_t rc = iconv(cd, &inp, &in_left, &outp, &out_left);
    if (rc != (size_t)-1 || errno == EINVAL) {
        *outp = '\0';
        score = xiangqi_score(out);
    }
    free(out);
    iconv_close(cd);
    return score;
}

input_encoding input_guess_encoding(const char *bytes, size_t len)
{
    if (valid_utf8((const unsigned char *)bytes, len))
        return INPUT_ENC_UTF8;
    int gb = decode_score("GB18030", bytes, len);
    int big5 = decode_score("BIG5-HKSCS", bytes, len);
    if (gb <= 0 && big5 <= 0)
        return INPUT_ENC_UTF8; /* not Chinese: Latin-1 and the like, left to the readers */
    return big5 > gb ? INPUT_ENC_BIG5 : INPUT_ENC_GB18030;
}

/* Raw bytes: the peeked ones first, then the file. */
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
    return fread(buf, 1, size, c->raw);
}

static ssize_t cookie_read(void *v, char *buf, size_t size)
{
    input_cookie *c = v;
    if (c->cd == (iconv_t)-1)
        return (ssize_t)raw_read(c, buf, size);
    char *outp = buf;
    size_t out_left = size;
    for (;;) {
        if (!c->eof && c->in_len < CHUNK) {
            size_t got = raw_read(c, c->in + c->in_len, CHUNK - c->in_len);
            c->eof = got == 0;
            c->in_len += got;
        }
        if (c->in_len == 0)
            break; /* end of input */
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
    if (c->cd != (iconv_t)-1)
        iconv_close(c->cd);
    free(c->peek);
    free(c);
    return 0;
}

bool input_open(input *in, const char *path, input_format forced, char *err, size_t errsize)
{
    memset(in, 0, sizeof *in);
    if (strcmp(path, "-") == 0) {
        in->raw = stdin;
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(err, errsize, "%s: is a directory", path);
            return false;
        }
        in->raw = fopen(path, "rb");
        if (!in->raw) {
            snprintf(err, errsize, "%s: %s", path, strerror(errno));
            return false;
        }
    }
    input_cookie *c = calloc(1, sizeof *c);
    char *peek = malloc(PEEK_SIZE);
    if (!c || !peek) {
        free(c);
        free(peek);
        snprintf(err, errsize, "%s: out of memory", path);
        input_close(in);
        return false;
    }
    c->raw = in->raw;
    c->peek = peek;
    c->peek_len = fread(peek, 1, PEEK_SIZE, in->raw);
    if (ferror(in->raw)) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        free(peek);
        free(c);
        input_close(in);
        return false;
    }
    c->cd = (iconv_t)-1;
    c->bad_bytes = &in->bad_bytes;
    in->encoding = input_guess_encoding(peek, c->peek_len);
    if (in->encoding != INPUT_ENC_UTF8)
        c->cd = iconv_open("UTF-8", in->encoding == INPUT_ENC_BIG5 ? "BIG5-HKSCS" : "GB18030");

    in->format = forced;
    if (forced == INPUT_UNKNOWN) {
        /* the markers sniffed for ([Tag ", FORMAT, [game]) are ASCII in every encoding */
        in->format = input_sniff(peek, c->peek_len);
        if (in->format == INPUT_UNKNOWN)
            in->format = INPUT_PGN; /* the readers report what does not fit */
    }
    cookie_io_functions_t io = {.read = cookie_read, .close = cookie_close};
    in->fp = fopencookie(c, "r", io);
    if (!in->fp) {
        cookie_close(c);
        snprintf(err, errsize, "%s: cannot open a stream", path);
        input_close(in);
        return false;
    }
    in->cookie = c;
    return true;
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
