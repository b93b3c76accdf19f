#!/bin/sh
# tests/tools/pgo-train.sh ARBITER FIXTURES: the training run of `make pgo`.
# An arbiter built with -fprofile-generate writes, on exit, how often each branch and
# call ran; `make pgo` then compiles again with those counts (-fprofile-use), so that
# the compiler lays out, inlines and unrolls for the paths real records take.
# The training input is the fixtures of the source tree only (shipped in the tarball,
# so every build trains on the same bytes), never the bench corpus the speed is
# measured on. It runs what users run: check with every report and with threads,
# convert to the notations, the article readers. Exit statuses are ignored: many
# fixtures are wrong on purpose, and a finding is not a failed training.
set -u
arbiter=$1
fixtures=$2
[ -x "$arbiter" ] || { echo "pgo-train.sh: no program $arbiter" >&2; exit 2; }
[ -d "$fixtures" ] || { echo "pgo-train.sh: no fixtures directory $fixtures" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
list=$tmp/list
# by kind: chess and xiangqi records, articles (LaTeX, Markdown, HTML, text), databases
find "$fixtures" -type f \( -name '*.pgn' -o -name '*.PGN' \) | sort > "$list.pgn"
find "$fixtures" -type f \( -name '*.wxf' -o -name '*.xqf' -o -name '*.XQF' -o -name '*.cbl' \
    -o -name '*.cbr' -o -name '*.cbf' -o -name '*.dhtml' \) | sort > "$list.xq"
find "$fixtures" -type f \( -name '*.tex' -o -name '*.md' -o -name '*.html' -o -name '*.txt' \) |
    sort > "$list.doc"

# run FILELIST ARGS...: one arbiter process over every file of the list
run() {
    list_file=$1
    shift
    [ -s "$list_file" ] || return 0
    # shellcheck disable=SC2046 # the fixtures' paths have no blanks
    "$arbiter" "$@" $(cat "$list_file") > /dev/null 2>&1 || true
}

# check, the common run, weighs three times as much as each other run
for pass in 1 2 3; do
    run "$list.pgn" check -q -j1
done
run "$list.pgn" check -q -j2
run "$list.pgn" check -q -j1 --report jsonl
run "$list.xq" check -q -j1
run "$list.doc" check -q -j1
for notation in san lan uci figurine; do
    run "$list.pgn" convert -n "$notation"
done
run "$list.xq" convert
run "$list.xq" convert -n chinese
run "$list.doc" convert
exit 0
