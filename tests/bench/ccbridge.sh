#!/bin/sh
# tests/bench/ccbridge.sh [ARBITER] [ROUNDS]: CBL library records per second of CPU.
#
# The four libraries of ../shared/corpus/xiangqi/cchess-ccbridge (354 records, the
# compressed one included) are given ROUNDS times (default 40, 14,160 records) to
#   check -j1 --report jsonl   (read, replay every line and variation, report)
#   convert -j1 -n ucci        (read, replay, write PGN)
# pinned to one core, best of three; CPU time is user + system (/usr/bin/time). Peers in
# the same run: the same games as PGN text (written by arbiter once) through the same
# check, and tests/tools/ccb_decode.py (decoding only, no replay) over the libraries.
# The goal (issue 30) is at least 20,000 records/s of CPU for check. A benchmark, not a
# test: never run by make check.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
arbiter=$(cd "$(dirname "$arbiter")" && pwd)/$(basename "$arbiter")
rounds=${2:-40}
shared=${SHARED:-$here/../shared}
src=$shared/corpus/xiangqi/cchess-ccbridge
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for f in "$src"/*.CBL; do
    i=$((i + 1))
    cp "$f" "$tmp/lib$i.cbl"
done
cd "$tmp"
"$arbiter" convert -q -j1 lib*.cbl >games.pgn 2>/dev/null || true
records=$("$arbiter" check -q -j1 --report jsonl lib*.cbl 2>/dev/null | grep -c '"game":')
set --
r=0
while [ $r -lt "$rounds" ]; do
    set -- "$@" lib*.cbl
    r=$((r + 1))
done
pgns=
r=0
while [ $r -lt "$rounds" ]; do
    pgns="$pgns games.pgn"
    r=$((r + 1))
done
total=$((records * rounds))
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
[ -x /usr/bin/time ] || { echo "ccbridge.sh: needs /usr/bin/time" >&2; exit 2; }
cpu_of() { # ARGS...: best CPU seconds (user + system) of three runs
    best=
    for k in 1 2 3; do
        /usr/bin/time -f '%U %S' -o cpu $pin "$@" >/dev/null 2>err || [ $? -le 1 ] ||
            { echo "ccbridge.sh: $* failed:" >&2; head -n 3 err >&2; exit 2; }
        t=$(tail -n 1 cpu | awk '{ print $1 + $2 }')
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}
rate() { echo "$total / $1" | bc -l | awk '{ printf "%.0f", $1 }'; }
check=$(cpu_of "$arbiter" check -q -j1 --report jsonl "$@")
conv=$(cpu_of "$arbiter" convert -q -j1 -n ucci "$@")
# shellcheck disable=SC2086 # the same file ROUNDS times
pgn=$(cpu_of "$arbiter" check -q -j1 --report jsonl $pgns)
echo "records: $records x $rounds rounds = $total"
printf 'check   CBL: %6.2f s CPU, %s records/s\n' "$check" "$(rate "$check")"
printf 'convert CBL: %6.2f s CPU, %s records/s\n' "$conv" "$(rate "$conv")"
printf 'check   PGN: %6.2f s CPU, %s records/s (the same games as text; CBL/PGN %.2fx)\n' \
    "$pgn" "$(rate "$pgn")" "$(echo "$pgn / $check" | bc -l)"
if command -v python3 >/dev/null 2>&1; then
    py=$(cpu_of python3 "$here/tests/tools/ccb_decode.py" --counts lib*.cbl)
    printf 'python decode only (one round): %6.2f s CPU, %.0f records/s; arbiter check %.1fx\n' \
        "$py" "$(echo "$records / $py" | bc -l)" "$(echo "($total / $check) / ($records / $py)" | bc -l)"
fi
