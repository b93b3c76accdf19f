#!/bin/sh
# tests/bench/peer-instructions.sh [ARBITER] [SHARED]: issue 29's instruction goal, measured:
# the instructions (callgrind Ir) of arbiter check -q -j1 and of pgn-reader's validate
# (Rust, shakmaty; main lines only) on the same 3.3 MB chess slice, their ratio, and
# where arbiter's go, by part (inclusive counts of the functions that do each part).
# Instructions, not seconds: they do not drift with the machine's load. Not a test.
# Needs valgrind; pgn-reader is built from SHARED/peers/pgn-reader when cargo is there.
set -eu
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
work=${BENCH_DIR:-/tmp/arbiter-bench}
command -v valgrind > /dev/null || { echo "peer-instructions.sh: valgrind is not installed" >&2; exit 2; }
mkdir -p "$work"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$tmp/slice.pgn"

# ir OUT BINARY ARGS...: the instructions of one run, its profile in OUT
ir() {
    out=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" > /dev/null 2> "$tmp/vg" || true
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/vg" | tail -n 1
}

ours=$(ir "$tmp/arbiter.cg" "$arbiter" check -q -j1 "$tmp/slice.pgn")
PATH=$PATH:$HOME/.cargo/bin
peer=
if pr=$(sh "$shared/peers/pgn-reader/build.sh" "$work/pgn-reader" 2> /dev/null) &&
   [ -x "$pr/validate" ]; then
    peer=$(ir /dev/null "$pr/validate" "$tmp/slice.pgn")
fi

printf '%-44s %14s\n' "arbiter check -q -j1 (instructions)" "$ours"
if [ -n "$peer" ]; then
    printf '%-44s %14s\n' "pgn-reader validate" "$peer"
    echo "ratio arbiter / pgn-reader: $(echo "scale=3; $ours / $peer" | bc)x (goal <= 1.0x)"
else
    echo "(pgn-reader not measured: cargo is not installed)"
fi

# The largest inclusive count of a function (LTO may list it under several names: the
# source file's and the object's), with its share of the total
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/arbiter.cg" 2> /dev/null \
    > "$tmp/incl.txt" || true
# part NAME FUNCTION...: the sum of those counts, for a part done by several functions
part() {
    name=$1
    shift
    n=0
    for f in "$@"; do
        c=$(grep -E "[:/]$f(\.|\s|\[|$)" "$tmp/incl.txt" | awk '{gsub(",", "", $1); print $1}' |
            sort -n | tail -n 1)
        n=$((n + ${c:-0}))
    done
    printf '  %-42s %14s %6s%%\n' "$name" "$n" "$(echo "scale=1; 100 * $n / $ours" | bc)"
}
echo "arbiter by part (inclusive; the parts overlap where one calls another):"
part "reading (the PGN reader)" pgn_reader_next
part "replay (the referee, all below)" referee_chess_game
part "  SAN to move (the usual move; the rest)" chess_san_quick chess_san_parse_shaped
part "  making moves" chess_make
part "  ends of lines (dead position, claims)" line_end
part "annotation claims" annot_check_game
part "per-game findings and report" check_game
part "  YAML report" yaml_report_game
part "  database keys" db_keys_of_game
part "names pre-pass: the scan" scan_file
part "names pre-pass: the grouping" db_names_group
