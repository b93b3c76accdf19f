/* fuzz_input.c: a whole file through input_open (format sniffing, encoding guess, the
 * GBK/GB18030 and Big5 transcoding stream) and then the reader it chose, every game
 * replayed and written out, as `arbiter check` does. The bytes are put in a memfd so
 * that input_open gets a real path. */
#include <config.h>

#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "io/input.h"
#include "reader/reader.h"
#include "pgn_reader.h"
#include "wxf_reader.h"

static int next_pgn(void *r, rec_game *g, arena *a) { return pgn_reader_next(r, g, a); }
static int next_wxf(void *r, rec_game *g, arena *a) { return wxf_reader_next(r, g, a); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-input", 0);
    if (fd < 0)
        return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    input in;
    char err[512];
    if (reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err)) {
        pgn_reader *pr = NULL;
        wxf_reader *wr = NULL;
        if (in.format == INPUT_WXF || in.format == INPUT_ARTICLE) {
            wr = wxf_reader_open(in.fp, "fuzz",
                                 in.format == INPUT_ARTICLE ? WXF_INPUT_ARTICLE : WXF_INPUT_WXF);
            fuzz_each_game(&(fuzz_games){wr, "fuzz", next_wxf, fuzz_as_xiangqi, NULL});
        } else {
            pr = pgn_reader_open(in.fp, "fuzz");
            fuzz_each_game(&(fuzz_games){pr, "fuzz", next_pgn, fuzz_classify_pgn, NULL});
        }
        if (pr)
            pgn_reader_close(pr);
        if (wr)
            wxf_reader_close(wr);
        input_close(&in);
    }
    close(fd);
    return 0;
}
