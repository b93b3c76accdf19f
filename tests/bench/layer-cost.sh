#!/bin/sh
# layer-cost.sh: what the database layer (issue 25: twins, names, openings, tags) adds to
# `check -q -j1`, in instructions (callgrind), on the shared chess bench (the four bench
# files, 3.3 MB, 2,475 games). Not a test: it prints figures (arbiter-check(1) states them).
#
# Twins and names have switches (--no-twins, --no-names): their cost is the difference.
# Openings and tags have none: their costs are the inclusive counts of
# db_openings_classify and db_tags_check (kept out of line for this). The layer's share is its instructions over
# those of the check without it.
# Usage: tests/bench/layer-cost.sh [ARBITER] [SHARED]
set -u
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
command -v valgrind >/dev/null || { echo "layer-cost: valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
in=$tmp/b1.pgn
for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$in"

# total Ir of one run with options "$2", callgrind file $tmp/$1.cg
measure() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.cg" "$arbiter" check -q -j1 $2 "$in" \
        >/dev/null 2>&1
    callgrind_annotate "$tmp/$1.cg" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}'
}
all=$(measure all "")
no_twins=$(measure twins --no-twins)
no_names=$(measure names --no-names)
neither=$(measure neither "--no-twins --no-names")
openings=$(callgrind_annotate --inclusive=yes --threshold=100 "$tmp/all.cg" |
    awk '/db_openings.c:db_openings_classify/ && !/=>/ {gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0} END {print m + 0}')
tags=$(callgrind_annotate --inclusive=yes --threshold=100 "$tmp/all.cg" |
    awk '/db_tags.c:db_tags_check/ && !/=>/ {gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0} END {print m + 0}')
awk -v all="$all" -v nt="$no_twins" -v nn="$no_names" -v ne="$neither" -v o="${openings:-0}" \
    -v t="$tags" 'BEGIN {
    base = ne - o - t
    printf "check -q -j1, all on:        %6.1fM instructions\n", all / 1e6
    printf "twins:    %5.1fM  %4.1f%%  (--no-twins %.1fM)\n", (all - nt) / 1e6, 100 * (all - nt) / nt, nt / 1e6
    printf "names:    %5.1fM  %4.1f%%  (--no-names %.1fM)\n", (all - nn) / 1e6, 100 * (all - nn) / nn, nn / 1e6
    printf "openings: %5.1fM\n", o / 1e6
    printf "tags:     %5.1fM\n", t / 1e6
    printf "layer:    %5.1fM over %.1fM without it: %.1f%% (goal <= 10%%)\n", (all - base) / 1e6, base / 1e6,
        100 * (all - base) / base
}'
