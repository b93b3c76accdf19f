#!/usr/bin/env bash
# pgn-throughput.sh: arbiter check against pgn-extract and cat on the same input, in one
# run. A benchmark, not a test: it prints games/s, MB/s, peak RSS and the ratios and
# asserts nothing about time.
#
# Usage: tests/bench/pgn-throughput.sh [ARBITER] [TARGET_MB]
# The input is ../shared/corpus/chess/bench/*.pgn concatenated (a blank line between
# files) until it reaches TARGET_MB (default 30). The repetition flatters caches.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
target_mb=${2:-30}
corpus=${CORPUS:-$here/../shared/corpus/chess/bench}
PATH=$PATH:/usr/games
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input=$work/bench.pgn
: >"$input"
while [ "$(stat -c %s "$input")" -lt $((target_mb * 1000000)) ]; do
    for f in "$corpus"/*.pgn; do cat "$f"; printf '\n\n'; done >>"$input"
done
bytes=$(stat -c %s "$input")
games=$(grep -c '^\[Event ' "$input")
printf 'input: %s bytes, %s games (bench corpus repeated)\n\n' "$bytes" "$games"

# measure NAME CMD...: wall seconds and peak RSS (KB) into $secs and $rss
measure() {
    local name=$1; shift
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" <"$input" >/dev/null 2>"$work/$name.err" || true
    # the last line: time says "Command exited with non-zero status 1" first when
    # arbiter found errors, which is not a failure here
    read -r secs rss < <(tail -n 1 "$work/time")
}

printf '%-26s %9s %12s %9s %10s %14s\n' tool seconds games/s MB/s peak_RSS_MB "vs pgn-extract"
declare -A gps
row() {
    local name=$1 secs=$2 rss=$3
    local g m
    g=$(awk -v s="$secs" -v n="$games" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
    m=$(awk -v s="$secs" -v b="$bytes" 'BEGIN { printf "%.1f", (s > 0 ? b / s / 1e6 : 0) }')
    gps[$name]=$g
    local ratio=-
    [ -n "${gps[pgn-extract]:-}" ] && ratio=$(awk -v a="$g" -v b="${gps[pgn-extract]}" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
    printf '%-26s %9s %12s %9s %10.1f %14s\n' "$name" "$secs" "$g" "$m" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$ratio"
}

measure cat cat; row cat "$secs" "$rss"
measure pgn-extract pgn-extract -r -s; row pgn-extract "$secs" "$rss"
measure arbiter-check "$arbiter" check -q -j 1 -; row "arbiter check -j1" "$secs" "$rss"
measure arbiter-convert "$arbiter" convert -q -j 1 -; row "arbiter convert -j1" "$secs" "$rss"
measure arbiter-check-all "$arbiter" check -q -; row "arbiter check (all cores)" "$secs" "$rss"
echo
echo "games/s counts the games of the input for every tool; 'vs pgn-extract' is games/s over pgn-extract's."

# With LIBDIR set to a build directory holding .libs/libarbiter_core.a and config.h (the output of
# /work/devbuild.sh, say): the reader alone (flex scanner, bison parser, record tree; no
# replay, no report), on the same input, for the share of check that parsing costs.
[ -n "${LIBDIR:-}" ] || { echo "(set LIBDIR to time the reader alone)"; exit 0; }
cat >"$work/read_only.c" <<'CEOF'
#include <config.h>
#include <stdio.h>
#include <time.h>
#include "pgn_reader.h"
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 2;
    pgn_reader *r = pgn_reader_open(f, argv[1]);
    arena a;
    arena_init(&a);
    rec_game g;
    long n = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    while (pgn_reader_next(r, &g, &a) == 1) {
        n++;
        arena_reset(&a);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("reader alone: %ld games in %.3f s CPU\n", n,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
CEOF
libs="-lyaml -lpthread"
for l in z zstd jansson; do [ -e "/usr/lib/x86_64-linux-gnu/lib$l.so" ] && libs="$libs -l$l"; done
gcc -std=c11 -O2 -I"$LIBDIR" -I"$here/src" -I"$here/grammar" "$work/read_only.c" \
    "$LIBDIR/.libs/libarbiter_core.a" $libs -o "$work/read_only"
"$work/read_only" "$input"
