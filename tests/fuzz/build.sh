#!/bin/bash
# tests/fuzz/build.sh OUTDIR: build the libFuzzer harnesses of tests/fuzz/*.c into OUTDIR
# with clang. The library sources (src/** but the build-time generators gen_*.c and
# chess_tables.c, whose tables are made and compiled instead; grammar/*.c, the generated
# bison/flex parsers) are compiled with -fsanitize=fuzzer-no-link,address,undefined so libFuzzer
# sees their coverage; each harness is linked with -fsanitize=fuzzer,address,undefined.
# Needs clang and libclang-rt-14-dev (Debian 12), bison, flex, libyaml.
# Environment: CC (default clang), FUZZ_CFLAGS (extra flags for every compile),
# FUZZ_LIBS (extra libraries for the link, e.g. -lz -lzstd when input.c uses them).
set -e
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
CC=${CC:-clang}
command -v "$CC" >/dev/null || { echo "build.sh: no $CC (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
cd "$out/obj"
# libFuzzer's runtime comes with compiler-rt (Debian: libclang-rt-14-dev)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > probe.c
$CC -fsanitize=fuzzer,address,undefined probe.c -o probe 2>/dev/null ||
    { echo "build.sh: $CC cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev)" >&2; exit 1; }
rm -f probe probe.c
# The same config.h the autotools build makes, reduced to what the sources use.
printf '#define _GNU_SOURCE 1\n#define PACKAGE_NAME "arbiter"\n#define PACKAGE_VERSION "fuzz"\n#define PACKAGE_STRING "arbiter fuzz"\n' > config.h
for g in pgn wxf; do
    bison -d -o ${g}_parse.c "$src/grammar/${g}_parse.y"
    flex -o ${g}_scan.c "$src/grammar/${g}_scan.l"
done
for s in dhtmlxq tex; do flex -o ${s}_scan.c "$src/grammar/${s}_scan.l"; done
# zlib when it is there (gzip input, the compressed CBL kind)
if echo '#include <zlib.h>' | $CC -E - >/dev/null 2>&1; then
    printf '#define HAVE_ZLIB 1\n' >> config.h
    FUZZ_LIBS="${FUZZ_LIBS:-} -lz"
fi
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CF="-std=c11 -O1 -g -I. -I$src/src -I$src/grammar $SAN ${FUZZ_CFLAGS:-}"
# the chess core's tables as the autotools build makes them: chess_tables.c is the
# program that writes them (chess_tables.h), not a part of the library
$CC -std=c11 -O1 -I. -I"$src/src" -DCHESS_TABLES_GENERATOR "$src/src/core/chess_tables.c" \
    -o gen_chess_tables
./gen_chess_tables > chess_tables_data.c
rm -f *.o libarbiter-fuzz.a
for f in $(find "$src/src" -name '*.c' ! -path '*/cli/main.c' ! -path '*/tests/*' ! -name 'gen_*.c' \
               ! -path '*/core/chess_tables.c') \
         "$src"/grammar/*.c pgn_parse.c pgn_scan.c wxf_parse.c wxf_scan.c dhtmlxq_scan.c tex_scan.c \
         chess_tables_data.c; do
    o=$(echo "$f" | sed 's|/|_|g; s|^_||'); o=${o%.c}.o
    $CC $CF -fsanitize=fuzzer-no-link -w -c "$f" -o "$o" &
    # two at a time: the machine has two cores
    [ "$(jobs -rp | wc -l)" -lt 2 ] || wait -n
done
wait
ar cr libarbiter-fuzz.a *.o
for h in "$here"/fuzz_*.c; do
    n=$(basename "$h" .c)
    $CC $CF -Wall -Wextra -fsanitize=fuzzer "$h" libarbiter-fuzz.a -lyaml -lpthread ${FUZZ_LIBS:-} -o "$out/$n"
    echo "built $out/$n"
done
