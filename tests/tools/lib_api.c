/* lib_api.c: libarbiter's C API on the edges lib.test checks (buffer, descriptor, errors,
 * conversion, claims, notations), one line "ok WHAT" or "not ok WHAT" each. Run as
 * lib_api FIXTURES. Everything it opens it frees (lib.test runs it under valgrind). */
#include <arbiter.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failed;

static void check(int cond, const char *what)
{
    printf("%s %s\n", cond ? "ok" : "not ok", what);
    if (!cond)
        failed = 1;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

/* The number of games of a source, and of findings in them; closes it. */
static int count(arbiter_source *s, size_t *findings)
{
    int n = 0;
    arbiter_game *g;
    *findings = 0;
    while (arbiter_next_game(s, &g) == 1) {
        n++;
        *findings += arbiter_game_finding_count(g);
        arbiter_game_free(g);
    }
    arbiter_close(s);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/pgn/illegal.pgn", argv[1]);
    check(strcmp(arbiter_version(), "") != 0, "arbiter_version");

    size_t nf = 0, len = 0;
    arbiter_source *s = arbiter_open_file(path, NULL, NULL);
    check(s && strcmp(arbiter_source_format(s), "pgn") == 0, "open_file: a PGN source");
    int n = s ? count(s, &nf) : 0;
    check(n == 6 && nf == 5, "open_file: 6 games, 5 findings");

    char *data = slurp(path, &len);
    s = data ? arbiter_open_buffer(data, len, "illegal.pgn", NULL, NULL) : NULL;
    size_t nf2 = 0;
    check(s && count(s, &nf2) == 6 && nf2 == 5, "open_buffer: the same games and findings");
    s = arbiter_open_buffer("", 0, NULL, NULL, NULL);
    check(s && count(s, &nf2) == 0, "open_buffer: an empty buffer has no game");
    free(data);

    int fd = open(path, O_RDONLY);
    s = fd >= 0 ? arbiter_open_fd(fd, "illegal.pgn", NULL, NULL) : NULL;
    check(s && count(s, &nf2) == 6, "open_fd: the same games");
    check(fd >= 0 && lseek(fd, 0, SEEK_CUR) >= 0 && close(fd) == 0, "open_fd: the caller's descriptor stays open");

    s = arbiter_open_file("/nonexistent/x.pgn", NULL, NULL);
    check(!s && strstr(arbiter_last_error(), "/nonexistent/x.pgn"), "a missing file: NULL, the error names it");
    s = arbiter_open_file(path, "nosuch", NULL);
    check(!s && strstr(arbiter_last_error(), "nosuch"), "an unknown format: NULL");
    s = arbiter_open_file(path, NULL, "shogi");
    check(!s && strstr(arbiter_last_error(), "shogi"), "an unknown variant: NULL");
    check(strcmp(arbiter_strerror(ARBITER_E_READ), "unknown status") != 0, "arbiter_strerror");

    /* a game read on after its source is closed; notations; conversion; verdicts */
    s = arbiter_open_file(path, NULL, NULL);
    arbiter_game *g = NULL;
    for (int i = 0; i < 6 && s; i++) {
        arbiter_game_free(g);
        g = NULL;
        arbiter_next_game(s, &g);
    }
    arbiter_close(s);
    check(g && arbiter_game_number(g) == 6 && strcmp(arbiter_game_status(g), "ok") == 0,
          "game 6 outlives its source");
    if (g) {
        check(arbiter_game_ply_count(g) == 7 && strcmp(arbiter_game_move(g, 0, NULL), "e4") == 0 &&
                  strcmp(arbiter_game_move(g, 6, "uci"), "h5f7") == 0 &&
                  strcmp(arbiter_game_move(g, 6, "lan"), "Qh5xf7#") == 0,
              "moves in san, uci and lan");
        check(!arbiter_game_move(g, 7, NULL) && !arbiter_game_move(g, 0, "iccs") &&
                  !arbiter_game_move(g, 0, "nosuch"),
              "a ply out of range, a xiangqi notation, an unknown one: NULL");
        check(strcmp(arbiter_game_result(g), "1-0") == 0 &&
                  strcmp(arbiter_game_derived_result(g), "1-0") == 0 &&
                  strcmp(arbiter_game_derived_reason(g), "checkmate") == 0,
              "the result verdict: 1-0 by checkmate");
        check(arbiter_game_tag_count(g) >= 7 && strcmp(arbiter_game_tag_name(g, 0), "Event") == 0 &&
                  arbiter_game_tag(g, "White") && !arbiter_game_tag(g, "Nosuch"),
              "tags");
        char *pgn = arbiter_game_convert(g, NULL, "uci");
        check(pgn && strstr(pgn, "h5f7 1-0"), "convert to PGN in UCI");
        arbiter_free(pgn);
        char *wxf = arbiter_game_convert(g, "wxf", NULL);
        check(!wxf && strstr(arbiter_last_error(), "chess game"), "a chess game is not WXF");
        arbiter_game_free(g);
    }
    return failed;
}
