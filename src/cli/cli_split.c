/* cli_split.c: "arbiter split", inputs cut into files of whole games, for a cluster's
 * workers (Dask, Hadoop Streaming, Spark) to check one file each.
 *
 * PGN is cut where -j cuts its pieces (batch_find_cut: the start of a tag section), at
 * the first game start after SIZE bytes of a part, and small inputs are packed into
 * one part. WXF files and articles are packed whole (never cut inside). Every other
 * input (XQF and other binary formats, LaTeX, Markdown, HTML and DhtmlXQ pages, whose
 * games depend on the whole document) becomes a part of its own. Parts hold the text
 * the readers see: decompressed, Chinese encodings as UTF-8. Memory stays a few MiB
 * whatever SIZE is: parts are written as they are read. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch/batch_cut.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "reader/reader.h"

static const char split_usage[] = N_(
    "Usage: arbiter split [OPTIONS] -o DIR [FILE...|-]\n"
    "Cut the inputs into files of whole games in DIR (part-00001.pgn, ...), for\n"
    "cluster workers to check one file each; the names are listed on stdout.\n"
    "PGN is cut at the start of a game's tags after SIZE bytes, as -j cuts its\n"
    "pieces, and small inputs share a part; WXF files and articles go whole into\n"
    "parts; any other input (XQF, LaTeX, Markdown, HTML, DhtmlXQ pages) is a part\n"
    "of its own. Parts are plain UTF-8 text (decompressed, GBK and Big5 transcoded).\n"
    "\n"
    "  -o, --output DIR    the directory of the parts (made when missing; it must\n"
    "                      not hold parts already)\n"
    "  -s, --size SIZE     bytes a part, with K, M or G (powers of 1024; default 64M)\n"
    "      --from FORMAT   pgn, wxf, article, tex, markdown, html, xqf or dhtmlxq\n"
    "                      (default: detected per input)\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 every input split, 2 usage or I/O failure.\n");

enum { OPT_FROM = 256 };

/* Bytes read at a time; a cut is looked for in them. */
#define SPLIT_BLOCK (1024 * 1024)

typedef struct splitter {
    const char *dir;
    uint64_t size;              /* bytes a part */
    unsigned parts;             /* parts made so far */
    FILE *part;                 /* the open part, or NULL */
    char *part_name;
    uint64_t part_len;          /* bytes written to it */
    input_format part_format;   /* what it holds */
    bool part_ends_line;        /* empty or its last byte a '\n' */
    bool failed;
} splitter;

/* --size: digits and an optional K, M or G (powers of 1024); false for anything else. */
static bool parse_size(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*text < '0' || *text > '9')
        return false;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno || n == 0)
        return false;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    if (*end != '\0' || n > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)n << shift;
    return true;
}

/* Make dir when missing; refuse one that holds parts already, which a cluster would
 * take for this run's. */
static bool dir_ready(const char *dir)
{
    if (mkdir(dir, 0777) == 0)
        return true;
    if (errno != EEXIST) {
        cli_error(_("split: cannot make directory %s: %s"), dir, strerror(errno));
        return false;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_error(_("split: %s: %s"), dir, strerror(errno));
        return false;
    }
    struct dirent *e;
    bool clean = true;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "part-", 5) == 0) {
            cli_error(_("split: %s already holds parts (%s): remove them or choose "
                        "another directory"), dir, e->d_name);
            clean = false;
            break;
        }
    }
    closedir(d);
    return clean;
}

static bool part_close(splitter *sp)
{
    if (!sp->part)
        return true;
    bool ok = fclose(sp->part) == 0;
    if (!ok && !sp->failed)
        cli_error(_("split: %s: %s"), sp->part_name, strerror(errno));
    if (ok) {
        puts(sp->part_name);
        fflush(stdout);
    }
    sp->failed |= !ok;
    sp->part = NULL;
    free(sp->part_name);
    sp->part_name = NULL;
    return ok;
}

/* A new part named DIR/part-NNNNN.ext. */
static bool part_open(splitter *sp, input_format format, const char *ext)
{
    if (!part_close(sp))
        return false;
    size_t len = strlen(sp->dir) + strlen(ext) + 32;
    sp->part_name = malloc(len);
    if (!sp->part_name) {
        cli_error(_("split: out of memory"));
        sp->failed = true;
        return false;
    }
    snprintf(sp->part_name, len, "%s/part-%05u%s", sp->dir, ++sp->parts, ext);
    sp->part = fopen(sp->part_name, "wb");
    if (!sp->part) {
        cli_error(_("split: %s: %s"), sp->part_name, strerror(errno));
        free(sp->part_name);
        sp->part_name = NULL;
        sp->failed = true;
        return false;
    }
    sp->part_len = 0;
    sp->part_format = format;
    sp->part_ends_line = true;
    return true;
}

static bool part_write(splitter *sp, const char *s, size_t n)
{
    if (n == 0)
        return true;
    if (fwrite(s, 1, n, sp->part) != n) {
        cli_error(_("split: %s: %s"), sp->part_name, strerror(errno));
        sp->failed = true;
        return false;
    }
    sp->part_len += n;
    sp->part_ends_line = s[n - 1] == '\n';
    return true;
}

/* Fill buf (capacity cap) from in up to SPLIT_BLOCK bytes; *eof at the end, false on a
 * read error (said). */
static bool fill(input *in, const char *path, char *buf, size_t *len, bool *eof)
{
    while (!*eof && *len < SPLIT_BLOCK) {
        ssize_t got = input_read(in, buf + *len, SPLIT_BLOCK - *len);
        if (got < 0) {
            cli_error(_("split: %s: %s"), path,
                      input_failed(in) ? _("corrupt or truncated compressed data")
                                       : strerror(errno));
            return false;
        }
        if (got == 0)
            *eof = true;
        *len += (size_t)got;
    }
    return true;
}

/* How much of buf[0..len) may be written while no cut was found in it: all but the
 * last non-blank complete line and what follows, which the cut of a game starting
 * right after them needs to see (batch_find_cut looks back at the previous non-blank
 * line). All of it when that would keep everything (one line of a MiB or more). */
static size_t writable_head(const char *buf, size_t len)
{
    size_t t = len;
    while (t > 0 && buf[t - 1] != '\n')
        t--; /* the start of the last, maybe partial, line */
    if (t == 0)
        return len;
    size_t keep = t, e = t;
    while (e > 0) {
        size_t s = e - 1; /* e - 1 is the '\n' ending the line before e */
        while (s > 0 && buf[s - 1] != '\n')
            s--;
        size_t i = s;
        while (i < e - 1 && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r'))
            i++;
        if (i < e - 1) {
            keep = s;
            break;
        }
        e = s;
    }
    return keep ? keep : len;
}

static bool skip_bom(char *buf, size_t *len)
{
    if (*len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        memmove(buf, buf + 3, *len - 3);
        *len -= 3;
        return true;
    }
    return false;
}

/* Start or go on with a part of this format: a new one when the open part holds
 * another format or is full. A later input's byte-order mark is dropped and a line
 * end put between inputs. */
static bool part_for(splitter *sp, input_format format, const char *ext, char *buf, size_t *len)
{
    if (sp->part && (sp->part_format != format || sp->part_len >= sp->size))
        if (!part_close(sp))
            return false;
    if (!sp->part)
        return part_open(sp, format, ext);
    skip_bom(buf, len);
    return sp->part_ends_line || part_write(sp, "\n", 1);
}

/* A PGN input: appended to the open part, cut at the first game start after the part's
 * SIZE bytes, as many times as it takes. */
static bool split_pgn(splitter *sp, input *in, const char *path, char *buf)
{
    size_t len = 0;
    bool eof = false;
    if (!fill(in, path, buf, &len, &eof))
        return false;
    if (len == 0)
        return true;
    if (!part_for(sp, INPUT_PGN, ".pgn", buf, &len))
        return false;
    for (;;) {
        if (!sp->part && !part_open(sp, INPUT_PGN, ".pgn"))
            return false;
        uint64_t room = sp->size > sp->part_len ? sp->size - sp->part_len : 0;
        if (room < len) {
            size_t cut = batch_find_cut(buf, len, (size_t)room);
            if (cut) {
                if (!part_write(sp, buf, cut) || !part_close(sp))
                    return false;
                memmove(buf, buf + cut, len - cut);
                len -= cut;
                continue;
            }
        }
        if (eof)
            return part_write(sp, buf, len);
        size_t head = writable_head(buf, len);
        if (!part_write(sp, buf, head))
            return false;
        memmove(buf, buf + head, len - head);
        len -= head;
        if (!fill(in, path, buf, &len, &eof))
            return false;
    }
}

/* Copy the rest of in (buf holds its first len bytes) into the open part. */
static bool copy_rest(splitter *sp, input *in, const char *path, char *buf, size_t len, bool eof)
{
    for (;;) {
        if (!part_write(sp, buf, len))
            return false;
        if (eof)
            return true;
        len = 0;
        if (!fill(in, path, buf, &len, &eof))
            return false;
    }
}

/* The extension a part of its own keeps: the input's, without .gz or .zst (the part is
 * decompressed), or one for the format on standard input. */
static const char *own_extension(const char *path, input_format format, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[256];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot && (strcmp(dot, ".gz") == 0 || strcmp(dot, ".zst") == 0)) {
        *dot = '\0';
        dot = strrchr(name, '.');
    }
    if (strcmp(path, "-") != 0 && dot && dot != name && strlen(dot) < 16) {
        snprintf(out, size, "%s", dot);
        return out;
    }
    switch (format) {
    case INPUT_XQF: return ".xqf";
    case INPUT_TEX: return ".tex";
    case INPUT_WEB: return ".html";
    default: return ".txt";
    }
}

static bool split_input(splitter *sp, const char *path, input_format forced, char *buf)
{
    input in;
    char err[512];
    if (!reader_input_open(&in, path, forced, err, sizeof err)) {
        cli_error("%s", err);
        return false;
    }
    bool ok;
    size_t len = 0;
    bool eof = false;
    if (in.format == INPUT_PGN) {
        ok = split_pgn(sp, &in, path, buf);
    } else if (!fill(&in, path, buf, &len, &eof)) {
        ok = false;
    } else if (len == 0) {
        ok = true;
    } else if (in.format == INPUT_WXF || in.format == INPUT_ARTICLE) {
        ok = part_for(sp, in.format, in.format == INPUT_WXF ? ".wxf" : ".txt", buf, &len) &&
             copy_rest(sp, &in, path, buf, len, eof);
    } else {
        char ext[32];
        ok = part_open(sp, in.format, own_extension(path, in.format, ext, sizeof ext)) &&
             copy_rest(sp, &in, path, buf, len, eof) && part_close(sp);
    }
    input_close(&in);
    return ok;
}

int cli_split(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"size", required_argument, NULL, 's'},
        {"from", required_argument, NULL, OPT_FROM},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    splitter sp = {.size = UINT64_C(64) << 20};
    input_format forced = INPUT_UNKNOWN;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":o:s:h", options, NULL)) != -1) {
        switch (opt) {
        case 'o': sp.dir = optarg; break;
        case 's':
            if (!parse_size(optarg, &sp.size)) {
                cli_error(_("split: --size takes a number of bytes with K, M or G, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_FROM:
            if (!cli_parse_format(optarg, &forced)) {
                cli_error(_("split: unknown format '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'h': fputs(_(split_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("split: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("split: unknown option '%s' (try 'arbiter split --help')"),
                      argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    if (!sp.dir) {
        cli_error(_("split: -o DIR is required (try 'arbiter split --help')"));
        return CLI_EXIT_USAGE;
    }
    char **paths = argv + optind;
    int count = argc - optind;
    static char *stdin_only[] = {"-"};
    if (count == 0) {
        paths = stdin_only;
        count = 1;
    }
    if (!cli_some_input_readable(paths, count) || !dir_ready(sp.dir))
        return CLI_EXIT_USAGE;
    /* a block, room to read it whole, and the line kept from the one before */
    char *buf = malloc(2 * SPLIT_BLOCK);
    if (!buf) {
        cli_error(_("split: out of memory"));
        return CLI_EXIT_USAGE;
    }
    bool ok = true;
    for (int i = 0; i < count && !sp.failed; i++)
        ok &= split_input(&sp, paths[i], forced, buf);
    ok &= part_close(&sp);
    free(buf);
    return ok && !sp.failed ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
