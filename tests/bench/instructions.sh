#!/bin/sh
# tests/bench/instructions.sh OLD NEW [SHARED]: the instructions (callgrind Ir) two
# arbiter binaries spend on the same work, side by side, with NEW/OLD. Instructions,
# not seconds: they do not drift with the machine's load, so a change to one part can
# be shown to cost the others nothing ("no other cost up", issue 29). Not a test.
#   check    check -q -j1 on the chess slice (the bench corpus, 3.3 MB, 2,475 games)
#   convert  convert -q -j1 -n san of the slice to /dev/null
#   xqf      check -q -j1 of the XQF files of the cchess and eleeye collections
#   latex    check -q -j1 of the LaTeX and Markdown articles of the corpus
#   wxf      check -q -j1 of the seeds (the Vietnamese article and its rule texts)
#   perft    perft --depth 4 from the start (chess) and --depth 3 (xiangqi)
# Needs valgrind. Example: tests/bench/instructions.sh /tmp/arbiter-old build/arbiter
set -eu
old=$1
new=$2
shared=${3:-../shared}
command -v valgrind > /dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$tmp/slice.pgn"
find "$shared/corpus/xiangqi/cchess" "$shared/corpus/xiangqi/eleeye" -type f \
    \( -name '*.xqf' -o -name '*.XQF' \) | sort > "$tmp/xqf.list"
find "$shared/corpus/articles" -type f \( -name '*.tex' -o -name '*.md' \) | sort > "$tmp/art.list"
find "$shared/seeds" -type f -name '*.txt' | sort > "$tmp/seeds.list"

# ir BINARY ARGS...: the instructions of one run (its output thrown away)
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" > /dev/null 2> "$tmp/vg" || true
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p; s/.*refs: *\([0-9,]*\).*/\1/p' "$tmp/vg" |
        tr -d , | tail -n 1
}

row() {
    name=$1
    shift
    a=$(ir "$old" "$@")
    b=$(ir "$new" "$@")
    printf '%-8s %14s %14s %8s\n' "$name" "$a" "$b" "$(echo "scale=4; $b / $a" | bc)"
}

printf '%-8s %14s %14s %8s\n' work old new new/old
row check check -q -j1 "$tmp/slice.pgn"
row convert convert -q -j1 -n san -o /dev/null "$tmp/slice.pgn"
# shellcheck disable=SC2046 # one argument per file
row xqf check -q -j1 $(cat "$tmp/xqf.list")
# shellcheck disable=SC2046
row latex check -q -j1 $(cat "$tmp/art.list")
# shellcheck disable=SC2046
row wxf check -q -j1 $(cat "$tmp/seeds.list")
row perft perft --depth 4
row perft-xq perft --variant xiangqi --depth 3
