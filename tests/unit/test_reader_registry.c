/* test_reader_registry.c: the reader registry: every format complete and named once,
 * --from names, sniffing by content, by file name and for binary files (the tiers of
 * reader.h, in the order the formats were told apart before the registry), opening an
 * input through it and reading games through the interface. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include <cmocka.h>

#include "reader/reader.h"

static void test_every_format_complete(void **state)
{
    (void)state;
    size_t n = reader_count();
    assert_true(n >= 7);
    assert_null(reader_at(n));
    for (size_t i = 0; i < n; i++) {
        const reader_format *r = reader_at(i);
        assert_non_null(r->name);
        assert_true(r->format != INPUT_UNKNOWN);
        assert_non_null(r->sniff);
        assert_non_null(r->sniff[0].test);
        for (const reader_sniff_rule *t = r->sniff; t->test; t++) {
            assert_true(t->tier > 0);
            /* no two text formats share a tier: which one a tie gives is nobody's choice */
            for (size_t j = 0; !r->binary && j < i; j++)
                for (const reader_sniff_rule *u = reader_at(j)->sniff;
                     !reader_at(j)->binary && u->test; u++)
                    assert_int_not_equal(u->tier, t->tier);
        }
        assert_non_null(r->open);
        assert_non_null(r->next);
        assert_non_null(r->error);
        assert_non_null(r->close);
        if (r->flags & READER_PIECES) {
            assert_non_null(r->set_start);
            assert_non_null(r->ended_cleanly);
        }
        if (r->flags & READER_WHOLE_FILE)
            assert_non_null(r->decode);
        assert_ptr_equal(reader_for(r->format), r);
        assert_ptr_equal(reader_by_name(r->name), r);
        for (size_t j = 0; j < i; j++) {
            assert_true(reader_at(j)->format != r->format);
            assert_string_not_equal(reader_at(j)->name, r->name);
        }
    }
    assert_int_equal(reader_for(INPUT_UNKNOWN)->format, INPUT_PGN);
}

static void test_from_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        input_format want;
    } cases[] = {
        {"pgn", INPUT_PGN},         {"wxf", INPUT_WXF},   {"article", INPUT_ARTICLE},
        {"tex", INPUT_TEX},         {"latex", INPUT_TEX}, {"markdown", INPUT_WEB},
        {"md", INPUT_WEB},          {"html", INPUT_WEB},  {"xqf", INPUT_XQF},
        {"dhtmlxq", INPUT_DHTMLXQ}, {"cbr", INPUT_CBR},   {"cbl", INPUT_CBL},
        {"cbf", INPUT_CBF},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const reader_format *r = reader_by_name(cases[i].name);
        assert_non_null(r);
        assert_int_equal(r->format, cases[i].want);
    }
    assert_null(reader_by_name("PGN")); /* names are exact */
    assert_null(reader_by_name(""));
    assert_null(reader_by_name("docx"));
}

static void test_sniff_content(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        input_format want;
    } cases[] = {
        {"[Event \"x\"]\n1. e4 *\n", INPUT_PGN},
        {"\xEF\xBB\xBF[Event \"x\"]\n", INPUT_PGN},               /* BOM */
        {"  \n\t1. e4 e5 *", INPUT_PGN},                           /* "1." first */
        {"A note\n[Event \"x\"]\n", INPUT_PGN},                    /* a tag later */
        {"FORMAT WXF\nRED a\n", INPUT_WXF},
        {"FORMAT", INPUT_WXF},
        {"FORMATTED text", INPUT_UNKNOWN},
        {"text START{ 1. C2.5 }END", INPUT_WXF},
        {"hello [Game] 1. C2.5 [/game]", INPUT_ARTICLE},
        /* a tag on the first line beats "[game]" later; "[game]" beats START{ */
        {"[Event \"x\"]\n[game]\n", INPUT_PGN},
        {"[game] START{ }END [/game]", INPUT_ARTICLE},
        /* FORMAT first beats a tag later */
        {"FORMAT WXF\n[Event \"x\"]\n", INPUT_WXF},
        {"\\documentclass{book}\n\\usepackage{skak}\n", INPUT_TEX},
        {"prose \\newchessgame more", INPUT_TEX},
        {"\\documentclass{book} no chess", INPUT_UNKNOWN},
        {"# Post\n\n<pgn>1. e4</pgn>\n", INPUT_WEB},
        {"text\n```pgn\n1. e4\n```\n", INPUT_WEB},
        {"[pgn]1. e4[/pgn]", INPUT_WEB},
        /* a skak command beats a wrapper; a wrapper beats a tag on a later line */
        {"<pgn>\\mainline{1. e4}</pgn>", INPUT_TEX},
        {"<pgn>\n[Event \"x\"]\n</pgn>", INPUT_WEB},
        /* a DhtmlXQ block beats everything by content */
        {"[Event \"x\"]\n[DhtmlXQ]x[/DhtmlXQ]", INPUT_DHTMLXQ},
        {"x [dhtmlxq] y", INPUT_DHTMLXQ},
        {"", INPUT_UNKNOWN},
        {" \n\t ", INPUT_UNKNOWN},
        {"just words", INPUT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        input_format got = reader_sniff(cases[i].text, strlen(cases[i].text), NULL);
        if (got != cases[i].want)
            print_error("case %zu: %s\n", i, cases[i].text);
        assert_int_equal(got, cases[i].want);
    }
}

static void test_sniff_names_and_binary(void **state)
{
    (void)state;
    const char *pgn = "[Event \"x\"]\n1. e4 *\n";
    size_t n = strlen(pgn);
    assert_int_equal(reader_sniff(pgn, n, "book.tex"), INPUT_TEX);
    assert_int_equal(reader_sniff(pgn, n, "dir/BOOK.TEX"), INPUT_TEX);
    assert_int_equal(reader_sniff(pgn, n, "post.md"), INPUT_WEB);
    assert_int_equal(reader_sniff(pgn, n, "post.markdown"), INPUT_WEB);
    assert_int_equal(reader_sniff(pgn, n, "page.HTM"), INPUT_WEB);
    assert_int_equal(reader_sniff(pgn, n, "games.pgn"), INPUT_PGN);
    assert_int_equal(reader_sniff(pgn, n, ".tex"), INPUT_PGN); /* a name, not a suffix */
    assert_int_equal(reader_sniff(pgn, n, "-"), INPUT_PGN);
    /* a page holding DhtmlXQ blocks stays a DhtmlXQ page; a .tex name still wins */
    const char *dxq = "<html>[DhtmlXQ]x[/DhtmlXQ]</html>";
    assert_int_equal(reader_sniff(dxq, strlen(dxq), "page.html"), INPUT_DHTMLXQ);
    assert_int_equal(reader_sniff(dxq, strlen(dxq), "page.tex"), INPUT_TEX);
    /* XQF: the signature and a binary version byte, whatever the name */
    const char xqf[] = {'X', 'Q', 0x12, 0, 0, 0};
    assert_int_equal(reader_sniff(xqf, sizeof xqf, NULL), INPUT_XQF);
    assert_int_equal(reader_sniff(xqf, sizeof xqf, "a.tex"), INPUT_XQF);
    assert_int_equal(reader_sniff("XQ is text", 10, NULL), INPUT_UNKNOWN);
}

/* A temporary file holding text; its name in path (freed by the caller's unlink). */
static void temp_file(char *path, size_t size, const char *suffix, const void *bytes, size_t n)
{
    snprintf(path, size, "/tmp/test_reader_registry_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    close(fd);
}

static void test_open_and_read(void **state)
{
    (void)state;
    const char *text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    char path[64];
    temp_file(path, sizeof path, ".txt", text, strlen(text));
    input in;
    char err[256];
    assert_true(reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err));
    assert_int_equal(in.format, INPUT_PGN);
    const reader_format *fmt = reader_for(in.format);
    void *r = fmt->open(in.fp, path);
    assert_non_null(r);
    arena a;
    arena_init(&a);
    const char *events[2] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, path, (uint64_t)i + 1);
        assert_int_equal(fmt->next(r, &g, &a), 1);
        assert_string_equal(rec_game_tag(&g, "Event"), events[i]);
    }
    rec_game g;
    arena_reset(&a);
    rec_game_init(&g, &a, path, 3);
    assert_int_equal(fmt->next(r, &g, &a), 0);
    fmt->close(r);
    arena_free(&a);
    input_close(&in);

    /* a forced format stands; nothing recognised is PGN */
    assert_true(reader_input_open(&in, path, INPUT_WXF, err, sizeof err));
    assert_int_equal(in.format, INPUT_WXF);
    input_close(&in);
    unlink(path);
    temp_file(path, sizeof path, ".txt", "just words\n", 11);
    assert_true(reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err));
    assert_int_equal(in.format, INPUT_PGN);
    input_close(&in);
    unlink(path);

    /* a binary file is not transcoded: its bytes come through as they are */
    const unsigned char xqf[] = {'X', 'Q', 0x12, 0xB0, 0xA1, 0xFF};
    temp_file(path, sizeof path, ".xqf", xqf, sizeof xqf);
    assert_true(reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err));
    assert_int_equal(in.format, INPUT_XQF);
    assert_int_equal(in.encoding, INPUT_ENC_UTF8);
    unsigned char back[16];
    assert_int_equal(fread(back, 1, sizeof back, in.fp), sizeof xqf);
    assert_memory_equal(back, xqf, sizeof xqf);
    input_close(&in);
    unlink(path);

    assert_false(reader_input_open(&in, "/nonexistent/x.pgn", INPUT_UNKNOWN, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.pgn"));
}

#ifdef HAVE_ZSTD
/* Read the whole text of the input at path (keeping it when keep, decompressed in a
 * thread of its own when ahead) into out, in blocks of 64 KiB; returns its length, -1
 * when the input says its data is corrupt or it does not open. */
static long read_all(const char *path, bool keep, bool ahead, char *out, size_t size,
                     uint64_t *raw)
{
    input in;
    char err[256];
    if (!reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err))
        return -1;
    if (keep)
        input_keep_text(&in, ahead);
    size_t len = 0;
    ssize_t got;
    while ((got = input_read(&in, out + len, size - len < 65536 ? size - len : 65536)) > 0)
        len += (size_t)got;
    bool failed = got < 0 || input_failed(&in);
    *raw = input_bytes_read(&in);
    input_close(&in);
    return failed ? -1 : (long)len;
}

/* The names pre-pass keeps a compressed file's text (input_keep_text): the next opening
 * of the same file (identity, size, modification time) reads it from memory, once;
 * data that turns out corrupt is not kept. */
static void test_kept_text(void **state)
{
    (void)state;
    enum { N = 300000 }; /* past the 64 KiB peek */
    char *text = malloc(N), *back = malloc(N + 1);
    for (size_t i = 0; i < N; i++)
        text[i] = (char)(i % 61 == 60 ? '\n' : 'a' + (i * 7 + i / 61) % 26);
    size_t bound = ZSTD_compressBound(N);
    char *z = malloc(bound);
    size_t zlen = ZSTD_compress(z, bound, text, N, 3);
    assert_false(ZSTD_isError(zlen));
    char path[64];
    temp_file(path, sizeof path, ".pgn.zst", z, zlen);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    uint64_t raw;
    assert_int_equal(read_all(path, true, false, back, N + 1, &raw), N);
    assert_memory_equal(back, text, N);

    /* the file's bytes made corrupt, its size and time as they were: the second
     * opening reads the kept text, whole, and the whole file as read */
    z[zlen / 2] ^= 0x5A;
    z[zlen / 2 + 1] ^= 0xA5;
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fwrite(z, 1, zlen, f), zlen);
    fclose(f);
    const struct timespec times[2] = {st.st_atim, st.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    memset(back, 0, N);
    assert_int_equal(read_all(path, false, false, back, N + 1, &raw), N);
    assert_memory_equal(back, text, N);
    assert_int_equal(raw, zlen);
    /* taken once: the third opening decompresses the file as it now is */
    assert_int_equal(read_all(path, true, false, back, N + 1, &raw), -1);
    /* and corrupt data was not kept */
    assert_int_equal(read_all(path, false, false, back, N + 1, &raw), -1);
    unlink(path);

    /* a file cut short: not kept, said corrupt each time */
    temp_file(path, sizeof path, ".pgn.zst", z, zlen / 3);
    assert_int_equal(read_all(path, true, false, back, N + 1, &raw), -1);
    assert_int_equal(read_all(path, false, false, back, N + 1, &raw), -1);
    /* decompressed ahead, the same: the text cut short, then said corrupt */
    assert_int_equal(read_all(path, true, true, back, N + 1, &raw), -1);
    unlink(path);

    /* decompressed ahead and kept: the text, then the same from memory */
    assert_int_equal(ZSTD_compress(z, bound, text, N, 3), zlen);
    temp_file(path, sizeof path, ".pgn.zst", z, zlen);
    memset(back, 0, N);
    assert_int_equal(read_all(path, true, true, back, N + 1, &raw), N);
    assert_memory_equal(back, text, N);
    memset(back, 0, N);
    assert_int_equal(read_all(path, false, false, back, N + 1, &raw), N);
    assert_memory_equal(back, text, N);
    assert_int_equal(raw, zlen);
    unlink(path);
    input_kept_free();
    free(z);
    free(back);
    free(text);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_format_complete),
        cmocka_unit_test(test_from_names),
        cmocka_unit_test(test_sniff_content),
        cmocka_unit_test(test_sniff_names_and_binary),
        cmocka_unit_test(test_open_and_read),
#ifdef HAVE_ZSTD
        cmocka_unit_test(test_kept_text),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
