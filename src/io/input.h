/* input.h: open an input for the readers: peek at its start to tell its format (asking
 * the reader registry) and its encoding, and hand out a stream of UTF-8 text.
 *
 * Chinese records come in GBK/GB18030 (xqbase, eleeye, cchess) and Big5 (the practical
 * dataset); they are transcoded with iconv on the fly, so the readers only ever see
 * UTF-8. Line numbers and columns (characters) are the same in both encodings; byte
 * offsets are those of the UTF-8 text. Latin-1 chess files are left alone: the PGN
 * reader converts their strings and reports it. Works on pipes: the peeked bytes are
 * served again before the rest.
 *
 * Compressed input (gzip, zstd) is recognised by its magic bytes, on files and on
 * stdin alike, and decompressed under the transcoding: positions are those of the
 * decompressed text. A build without zlib or libzstd says so when given such input. */
#ifndef ARBITER_IO_INPUT_H
#define ARBITER_IO_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "io/article.h"

typedef enum input_encoding {
    INPUT_ENC_UTF8,          /* UTF-8 or ASCII (or bytes the readers handle, Latin-1) */
    INPUT_ENC_GB18030,       /* GBK / GB2312 / GB18030 */
    INPUT_ENC_BIG5
} input_encoding;

typedef struct input_cookie input_cookie;

typedef struct input {
    FILE *fp;                /* the UTF-8 stream the readers read */
    input_format format;     /* sniffed (or forced) */
    input_encoding encoding;
    unsigned long bad_bytes; /* bytes that did not transcode (replaced by U+FFFD) */
    bool compressed;         /* gzip or zstd: offsets are not those of the file */
    FILE *raw;               /* the file itself (stdin for "-") */
    input_cookie *cookie;    /* the stream's state when fp is not raw */
} input;

/* Which format an input is, from its first bytes (peek), its name and the format the
 * user forced (INPUT_UNKNOWN: none); *binary: a binary format, read untranscoded. The
 * reader registry's (reader/reader.h): io knows no format's reader. */
typedef input_format (*input_detect_fn)(const char *peek, size_t len, const char *path,
                                        input_format forced, bool *binary);

/* Open path ("-" for stdin), its format told by detect. On failure returns false with
 * a message in err (not a file, cannot read, ...). reader_input_open() is this with
 * the registry's detector. */
bool input_open(input *in, const char *path, input_format forced, input_detect_fn detect,
                char *err, size_t errsize);
/* input_open on a stream already open (a buffer through fmemopen, a descriptor through
 * fdopen), named name in messages and for sniffing by suffix; the input owns raw from
 * then on, and closes it, even on failure. */
bool input_open_stream(input *in, FILE *raw, const char *name, input_format forced,
                       input_detect_fn detect, char *err, size_t errsize);
void input_close(input *in);

/* Read up to size bytes of the text straight into buf, not through in->fp's buffer
 * (for a plain file, large reads go from the kernel into buf): for a caller that
 * reads the whole input in big blocks and never reads in->fp itself. in is const as
 * for a read of in->fp: only the stream behind it moves on. Returns the bytes read, 0
 * at the end, -1 on a read error (compressed data: see input_failed). */
ssize_t input_read(const input *in, char *buf, size_t size);

/* Keep the decompressed text of a compressed regular file as it is read, for the next
 * input_open of the same file (its identity, size and modification time) to read
 * instead of decompressing it again: check reads every input twice, its names
 * pre-pass and then its games. Kept at input_close when read to the end of the data
 * without error (corrupt data is decompressed again, and said the same); the texts
 * kept and not yet taken, 64 MiB together at most (beyond, decompressed again). Call
 * before reading the input; nothing for a plain file. ahead: decompress in a thread
 * of its own meanwhile, for a caller that reads untranscoded text with input_read in
 * blocks of 64 KiB (it is given the pieces its own reads would have given). */
void input_keep_text(input *in, bool ahead);
/* Free the texts kept and not taken. */
void input_kept_free(void);

/* Bytes read so far from the file itself (compressed bytes for compressed input). */
uint64_t input_bytes_read(const input *in);
/* Whether compressed data turned out corrupt or truncated (the stream then ended
 * with a read error). */
bool input_failed(const input *in);

const char *input_encoding_name(input_encoding e);

/* Whether a sample is binary data rather than text (one byte in sixteen of its first
 * 4 KiB a control character or NUL), with what it looks like in what (a sniffed input
 * that is binary and no format read is refused with it; exposed for tests). */
bool input_binary(const unsigned char *bytes, size_t len, char *what, size_t whatsize);

/* Guess the encoding of a sample (exposed for tests). */
input_encoding input_guess_encoding(const char *bytes, size_t len);

#endif
