#!/bin/sh
# throughput.sh: arbiter check against cat, scid, pgn-extract and pgn-reader on the same
# input, in one run (not a test: it prints figures).
# Usage: tests/bench/throughput.sh [ARBITER] [SHARED]
#
# Inputs: the chess bench corpus repeated to about 33 MB (b10), that file repeated to
# about 165 MB (b45), and the lichess sample of the bench corpus repeated 33 times (l33,
# 33 MB of short online games with clock comments). For each: cat, scid's import pinned to one core (when tkscid is installed:
# apt-get install scid; tests/bench/scid-import.tcl), pgn-extract -r -s, arbiter check
# -q -j1 (pinned to one core as well), -j2, -j2 on the zstd-compressed file, and convert
# -j1 against pgn-extract -s -o FILE, taking turns round by round (ROUNDS, default 5;
# SIZES="b10" for the 33 MB file alone; default "b10 b45 l33").
# Prints each one's best seconds (to the millisecond, see timed), games/s, MB/s and peak
# RSS (/usr/bin/time %M), then the
# ratios against the goals (-j1 >= 1.3x scid and >= 4x
# pgn-extract, convert >= 4x pgn-extract, -j1 >= 1.0x pgn-reader, -j2 >= 1.9x -j1, .zst
# >= 90% of plain at -j1 and at -j2), and the machine's own ceiling for -j2: two -j1 runs
# at once, one on each core (arbiter-j1-twice).
set -u
PATH=$PATH:/usr/games
here=$(cd "$(dirname "$0")" && pwd)
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
work=${BENCH_DIR:-/tmp/arbiter-bench}
mkdir -p "$work"
b1="$work/b1.pgn"; b10="$work/b10.pgn"; b45="$work/b45.pgn"; l33="$work/l33.pgn"
if [ ! -s "$b10" ]; then
    for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$b1"
    for i in $(seq 10); do cat "$b1"; done > "$b10"
fi
[ -s "$b45" ] || for i in 1 2 3 4 5; do cat "$b10"; done > "$b45"   # ~165 MB
[ -s "$l33" ] || for i in $(seq 33); do
    cat "$shared/corpus/chess/bench/shakmaty-lichess_db_1000k.pgn"; echo
done > "$l33"
for f in "$b10" "$b45" "$l33"; do
    [ -s "$f.zst" ] || zstd -q -3 -f "$f" -o "$f.zst"
done

# timed CMD...: run it once, its seconds and peak RSS (KB) into $work/time. The seconds
# to the millisecond, from date's nanoseconds around the run less what the same
# measurement of "true" takes (the starts of date and /usr/bin/time, some 4 ms here,
# $overhead_ns): /usr/bin/time's own %e has 10 ms steps, several percent of a 0.1-0.3 s
# run.
overhead_ns=0
timed() {
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    # the last line (time says "Command exited with non-zero status 1" first when
    # arbiter found errors, which is not a failure here)
    awk -v a="$t0" -v b="$t1" -v o="$overhead_ns" -v m="$(tail -n 1 "$work/rss")" \
        'BEGIN { printf "%.3f %s\n", (b - a - o) / 1e9, m }' > "$work/time"
}
# the overhead: the least of seven measurements of a command that does nothing
best_ns=
for i in 1 2 3 4 5 6 7; do
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$work/rss" true > /dev/null 2>&1
    t1=$(date +%s%N)
    ns=$((t1 - t0))
    if [ -z "$best_ns" ] || [ "$ns" -lt "$best_ns" ]; then best_ns=$ns; fi
done
overhead_ns=$best_ns

# One command of the comparison, by label, on file $f.
run_one() {
    case $1 in
    cat) timed cat "$f" ;;
    scid-1core) timed taskset -c 0 tkscid "$here/scid-import.tcl" "$work/scid" "$f" ;;
    pgn-extract) timed pgn-extract -r -s "$f" ;;
    pgn-extract-o) timed pgn-extract -s -o "$work/pe-out.pgn" "$f" ;;
    pgn-reader-1core) timed taskset -c 0 "$pgn_reader/validate" "$f" ;;
    arbiter-j1) timed taskset -c 0 "$arbiter" check -q -j 1 "$f" ;;
    convert-j1) timed taskset -c 0 "$arbiter" convert -q -j 1 -o "$work/arb-out.pgn" "$f" ;;
    arbiter-j2) timed "$arbiter" check -q -j 2 "$f" ;;
    arbiter-j2-zst) timed "$arbiter" check -q -j 2 "$f.zst" ;;
    arbiter-j1-zst) timed taskset -c 0 "$arbiter" check -q -j 1 "$f.zst" ;;
    arbiter-j1-twice) timed sh -c 'taskset -c 0 "$1" check -q -j 1 "$2" & taskset -c 1 "$1" check -q -j 1 "$2" & wait' \
        sh "$arbiter" "$f" ;;
    esac
}

# The commands take turns, one run each per round, ROUNDS rounds (default 5), and each
# keeps its best seconds and that run's peak RSS (KB): on a shared machine the speed
# drifts over minutes, and a ratio is only fair between runs made at about the same time.
rounds=${ROUNDS:-5}
labels="cat"
command -v tkscid > /dev/null && labels="$labels scid-1core"
command -v pgn-extract > /dev/null && labels="$labels pgn-extract pgn-extract-o"
# the Rust peer, built once into the bench folder (cargo --offline: its crates are vendored)
pgn_reader=
if command -v cargo > /dev/null || [ -x "$HOME/.cargo/bin/cargo" ]; then
    PATH=$PATH:$HOME/.cargo/bin
    pgn_reader=$(sh "$shared/peers/pgn-reader/build.sh" "$work/pgn-reader" 2> /dev/null) || pgn_reader=
    [ -x "$pgn_reader/validate" ] && labels="$labels pgn-reader-1core" || pgn_reader=
fi
[ -n "$pgn_reader" ] || echo "(pgn-reader not measured: cargo is not installed)"
labels="$labels arbiter-j1 convert-j1 arbiter-j2 arbiter-j2-zst arbiter-j1-zst arbiter-j1-twice"

for size in ${SIZES:-b10 b45 l33}; do
    f="$work/$size.pgn"
    games=$(grep -c '^\[Event ' "$f")
    mb=$(echo "scale=1; $(stat -c %s "$f") / 1000000" | bc)
    echo "== $(basename "$f"): $mb MB, $games games, best of $rounds rounds taking turns"
    : > "$work/results"
    r=0
    while [ "$r" -lt "$rounds" ]; do
        for label in $labels; do
            run_one "$label"
            read -r s m < "$work/time"
            echo "$label $s $m" >> "$work/results"
        done
        r=$((r + 1))
    done
    # best run of each label, in the order run
    for label in $labels; do
        awk -v l="$label" '$1 == l && (best == "" || $2 < best) { best = $2; rss = $3 }
            END { print l, best, rss }' "$work/results"
    done > "$work/best"
    mv "$work/best" "$work/results"
    printf '%-16s %8s %12s %9s %9s\n' what seconds games/s MB/s "RSS MB"
    while read -r label s m; do
        printf '%-16s %8s %12s %9s %9s\n' "$label" "$s" \
            "$(echo "$games / $s" | bc 2>/dev/null)" "$(echo "scale=1; $mb / $s" | bc 2>/dev/null)" \
            "$(echo "scale=1; $m / 1024" | bc)"
    done < "$work/results"
    t() { awk -v l="$1" '$1 == l {print $2}' "$work/results"; }
    pe=$(t pgn-extract); peo=$(t pgn-extract-o); sc=$(t scid-1core); pr=$(t pgn-reader-1core)
    j1=$(t arbiter-j1); j2=$(t arbiter-j2); z=$(t arbiter-j2-zst); cv=$(t convert-j1)
    z1=$(t arbiter-j1-zst); tw=$(t arbiter-j1-twice)
    [ -n "$sc" ] && echo "ratio -j1 vs scid import (one core): $(echo "scale=2; $sc / $j1" | bc)x (goal 1.3x)"
    [ -n "$pe" ] && echo "ratio -j1 vs pgn-extract: $(echo "scale=2; $pe / $j1" | bc)x (goal 4x)"
    [ -n "$pr" ] && echo "ratio -j1 vs pgn-reader validate (one core): $(echo "scale=2; $pr / $j1" | bc)x (goal 1.0x)"
    [ -n "$peo" ] && echo "ratio convert -j1 vs pgn-extract -s -o: $(echo "scale=2; $peo / $cv" | bc)x (goal 4x)"
    echo "ratio -j2 vs -j1: $(echo "scale=2; $j1 / $j2" | bc)x (goal 1.9x)"
    # what this machine's two cores give at best: two independent -j1 runs at once (no
    # work shared, nothing to wait for) against one alone; -j2 cannot beat it
    echo "the machine's ceiling for -j2: two arbiter -j1 runs at once do $(echo "scale=2; 2 * $j1 / $tw" | bc)x the work of one"
    echo "ratio .zst vs plain (-j2): $(echo "scale=0; 100 * $j2 / $z" | bc)% (goal 90%)"
    echo "ratio .zst vs plain (-j1, one core): $(echo "scale=0; 100 * $j1 / $z1" | bc)% (goal 90%)"
done
