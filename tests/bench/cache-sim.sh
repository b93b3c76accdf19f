#!/bin/sh
# tests/bench/cache-sim.sh [ARBITER] [SHARED]: where the time goes that instruction
# counts do not show. arbiter check -q -j1 and pgn-reader's validate (Rust, shakmaty;
# main lines only) on the same 3.3 MB chess slice under cachegrind, with the caches of
# this machine's cores (32 KiB 8-way instruction cache, 48 KiB 12-way data cache; the
# last level as cachegrind reads it), and the misses each makes per 1,000 instructions.
# This VM exposes no hardware counters (perf stat says <not supported> for cycles and
# misses), so the simulation is the only view of the caches; it is not a timing. Read it
# with care: checking games in runs of 8 (read 8, replay 8, report 8) cut the simulated
# instruction-cache misses on the slice from 2.28M to 0.82M, yet ran 1.7% slower on the
# bench (more data-cache misses; the real front end hides most instruction misses), so
# a cut here is a lead to time with tests/bench/turns.sh, not a gain. Not a test.
# Needs valgrind; pgn-reader is built from SHARED/peers/pgn-reader when cargo is there.
set -eu
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
work=${BENCH_DIR:-/tmp/arbiter-bench}
command -v valgrind > /dev/null || { echo "cache-sim.sh: valgrind is not installed" >&2; exit 2; }
mkdir -p "$work"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$tmp/slice.pgn"

# sim NAME BINARY ARGS...: one line of counts for one run
sim() {
    name=$1
    shift
    valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=49152,12,64 \
        --cachegrind-out-file=/dev/null "$@" > /dev/null 2> "$tmp/vg" || true
    awk -v name="$name" '
        function num(s) { gsub(",", "", s); return s + 0 }
        /I +refs:/ { ir = num($4) }
        /I1 +misses:/ { i1 = num($4) }
        /D1 +misses:/ { d1 = num($4) }
        /LL misses:/ { ll = num($4) }
        END {
            printf "%-28s %14d %11d %11d %9d   %6.2f %6.2f\n", name, ir, i1, d1, ll,
                   1000 * i1 / ir, 1000 * d1 / ir
        }' "$tmp/vg"
}

printf '%-28s %14s %11s %11s %9s   %6s %6s\n' "" "instructions" "I1 misses" "D1 misses" \
    "LL misses" "I1/k" "D1/k"
sim "arbiter check -q -j1" "$arbiter" check -q -j1 "$tmp/slice.pgn"
PATH=$PATH:$HOME/.cargo/bin
if pr=$(sh "$shared/peers/pgn-reader/build.sh" "$work/pgn-reader" 2> /dev/null) &&
   [ -x "$pr/validate" ]; then
    sim "pgn-reader validate" "$pr/validate" "$tmp/slice.pgn"
else
    echo "(pgn-reader not measured: cargo is not installed)"
fi
