#!/bin/sh
# fixit-cost.sh: what suggestions cost `check`, in callgrind instructions (issue 14:
# at most 5% on the bench). A benchmark, not a test: it prints, asserts nothing.
#
# usage: tests/bench/fixit-cost.sh [ARBITER] [SHARED]
#
# Two inputs: the bench corpus as it is (../shared/corpus/chess/bench/*.pgn, real files
# with their own few errors), and the worst case, games with a typo in every one (the
# typo sets of tests/tools/fixit_typos.py made from pychess-dortmund, every kind).
# For each: all instructions, and those inside fixit_chess/fixit_xq (inclusive), which
# run only on a bad move; the share is what suggestions add.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
shared=${2:-$here/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "${FIXIT_COST_KEEP:-}" ] || { trap - EXIT; echo "work: $work"; }

cat "$shared"/corpus/chess/bench/*.pgn >"$work/bench.pgn"
"$arbiter" convert -q --strip comments,nags,variations \
    "$shared/corpus/chess/bench/pychess-dortmund.pgn" >"$work/clean.pgn" 2>/dev/null || true
python3 "$here/tests/tools/fixit_typos.py" "$arbiter" "$work/clean.pgn" san all 100 7 \
    "$work/typos" >/dev/null
cat "$work"/typos/san-*.typo.pgn >"$work/typos.pgn"

for input in bench typos; do
    valgrind --tool=callgrind --callgrind-out-file="$work/$input.out" \
        "$arbiter" check -q -j1 -o /dev/null "$work/$input.pgn" >/dev/null 2>&1 || true
    callgrind_annotate --inclusive=yes "$work/$input.out" >"$work/$input.txt" 2>/dev/null
    total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$work/$input.txt")
    fixit=$(awk '/:fixit_(chess|xq) \[/ && !/=>/ { gsub(",", "", $1); s += $1 } END { print s + 0 }' \
        "$work/$input.txt")
    games=$(grep -c '^\[Event ' "$work/$input.pgn" || true)
    errors=$("$arbiter" check -q --report jsonl "$work/$input.pgn" 2>/dev/null |
        grep -o '"code":"\(illegal\|unreadable\|ambiguous\)-move"' | wc -l)
    awk -v n="$input" -v t="$total" -v f="$fixit" -v g="$games" -v e="$errors" 'BEGIN {
        printf "%-6s %6d games %5d move errors  %12.0f instructions  fixit %11.0f (%.2f%%)",
               n, g, e, t, f, t ? 100 * f / t : 0
        if (e) printf "  per error %.0f = %.2f games of check", f / e, (f / e) / ((t - f) / g)
        printf "\n" }'
done
