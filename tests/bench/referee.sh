#!/usr/bin/env bash
# referee.sh: what the chess referee's claims and dead-position analysis cost. A
# benchmark, not a test: it prints figures and asserts nothing about time.
#
# Usage: tests/bench/referee.sh BEFORE AFTER [INPUT.pgn]
#   BEFORE, AFTER: two arbiter binaries (a build without and one with the referee
#   work), timed in one run on the same input, alternately, best of $RUNS (default 5).
#   A build without the rules: configure with CPPFLAGS=-DARBITER_BENCH_NO_RULES (the
#   chess referee then replays for legality, check markers and mate only: no
#   repetitions, move counters, claims, dead positions or time-forfeit verdicts), e.g.
#     mkdir build-norules && cd build-norules &&
#     ../configure CPPFLAGS=-DARBITER_BENCH_NO_RULES && make arbiter
#   INPUT: default ../shared/corpus/chess/bench/*.pgn concatenated 10 times (33 MB).
# With LIBDIR set to a build directory holding .libs/libarbiter_core.a and config.h (the output
# of /work/devbuild.sh, say), it also times the dead-position analysis per position:
# the quick test run at every game end (dp_is_dead) on the final positions of INPUT, and
# the full question (dp_can_mate) and the default 6.9 check (dp_prove_unwinnable) on the
# CHA and Lichess vectors of ../shared/corpus/rules.
# The cost of the default 6.9 check alone: configure a BEFORE build with
# CPPFLAGS=-DREFEREE_TIMEOUT_PROOF_NODES=0 (material and the static tests only, no
# exhaustive proof, no closure), and count instructions rather than time on a shared
# machine: valgrind --tool=callgrind BIN check -q -j1 INPUT.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
before=${1:?usage: referee.sh BEFORE AFTER [INPUT]}
after=${2:?usage: referee.sh BEFORE AFTER [INPUT]}
runs=${RUNS:-5}
shared=${SHARED:-$here/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

input=${3:-}
if [ -z "$input" ]; then
    input=$work/bench.pgn
    for i in 1 2 3 4 5 6 7 8 9 10; do
        for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; printf '\n\n'; done
    done >"$input"
fi
printf 'input: %s bytes, %s games\n' "$(stat -c %s "$input")" "$(grep -c '^\[Event ' "$input")"

# cpu BIN: user+sys seconds of one `arbiter check` of the input
cpu() {
    /usr/bin/env bash -c 'TIMEFORMAT=%U+%S; time "$1" check -q -o /dev/null "$2" >/dev/null 2>&1 || true' _ "$1" "$input" 2>&1 |
        tail -1 | awk -F+ '{printf "%.3f", $1 + $2}'
}
best_b=999; best_a=999
for r in $(seq "$runs"); do
    b=$(cpu "$before"); a=$(cpu "$after")
    best_b=$(awk -v x="$b" -v y="$best_b" 'BEGIN { print (x < y ? x : y) }')
    best_a=$(awk -v x="$a" -v y="$best_a" 'BEGIN { print (x < y ? x : y) }')
    printf 'run %d: before %ss  after %ss\n' "$r" "$b" "$a"
done
awk -v b="$best_b" -v a="$best_a" 'BEGIN {
    printf "best of runs (CPU seconds): before %.3f  after %.3f  added %+.1f%%\n", b, a, (a - b) * 100 / b }'

# What the referee said about the input (claims, automatic ends, 6.9 verdicts).
{ "$after" check -q "$input" 2>/dev/null || true; } | awk '
    /^- code: (threefold-available|fifty-move-available|fivefold|seventy-five-move|insufficient-material|dead-position|unwinnable-timeout)$/ { n[$3]++ }
    END { for (c in n) printf "  %-22s %d\n", c, n[c] }' | sort || true

[ -n "${LIBDIR:-}" ] || { echo "(set LIBDIR to time the dead-position analysis per position)"; exit 0; }
cat >"$work/dp_bench.c" <<'EOF'
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "referee/dead_position.h"
/* stdin: "quick|FEN", "full|w|FEN" or "proof|w|FEN" lines; prints count, mean, max in
 * microseconds (proof: the default 6.9 check, dp_prove_unwinnable with 2000 nodes) */
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(void) {
    char line[512]; int n[3] = {0, 0, 0}, dec[3] = {0, 0, 0}; double tot[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        int full = strncmp(line, "full|", 5) == 0 ? 1 : strncmp(line, "proof|", 6) == 0 ? 2 : 0;
        char *fen = strchr(line, '|') + 1; int winner = 0;
        if (full) { winner = fen[0] == 'b'; fen += 2; }
        chess_pos pos; char err[200];
        if (!chess_pos_from_fen(&pos, fen, err, sizeof err)) continue;
        double t0 = now();
        dp_verdict v = full == 1 ? dp_can_mate(&pos, winner, 0, NULL)
                     : full == 2 ? dp_prove_unwinnable(&pos, winner, 2000, NULL)
                                 : dp_is_dead(&pos, 2000, NULL);
        double dt = now() - t0;
        n[full]++; tot[full] += dt; if (dt > mx[full]) mx[full] = dt; if (v != DP_UNDETERMINED) dec[full]++;
    }
    static const char *kind[3] = {"quick", "full", "proof"};
    for (int k = 0; k < 3; k++)
        if (n[k]) printf("%-5s %6d positions  mean %8.2f us  max %9.1f us  decided %d\n", kind[k], n[k], tot[k] / n[k], mx[k], dec[k]);
    return 0;
}
EOF
gcc -std=c11 -O2 -I"$LIBDIR" -I"$here/src" "$work/dp_bench.c" "$LIBDIR/.libs/libarbiter_core.a" -lyaml -lpthread -o "$work/dp_bench"
{ "$after" check -q "$input" 2>/dev/null || true; } | sed -n 's/^final_fen: "\(.*\)"$/quick|\1/p' >"$work/pos.txt"
rules=$shared/corpus/rules
grep -v '^#' "$rules/chess-cha-test-vectors-sample.txt" | grep . |
    awk '{ f = $2 " " $3 " " $4 " " $5; print "full|w|" f; print "full|b|" f; print "proof|w|" f; print "proof|b|" f }' >>"$work/pos.txt"
grep -v '^#' "$rules/chess-cha-lichess-unfair-timeouts.txt" | grep . |
    awk '{ w = ($2 == "w") ? "b" : "w"; f = $1 " " $2 " " $3 " " $4 " " $5 " " $6; print "full|" w "|" f; print "proof|" w "|" f }' >>"$work/pos.txt"
echo "dead-position analysis per position (quick: final positions of the input; full and proof: CHA + Lichess vectors,"
echo "full = dp_can_mate as with --timeout-nodes, proof = the default 6.9 check):"
"$work/dp_bench" <"$work/pos.txt"
