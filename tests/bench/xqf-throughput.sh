#!/bin/sh
# tests/bench/xqf-throughput.sh [ARBITER] [ROUNDS]: XQF files per second on one core.
#
# Copies the corpus XQF files (../shared/corpus/xiangqi: cchess, eleeye, the cchess
# collection, 409 files) to a scratch folder under short names and has arbiter read
# each of them ROUNDS times (default 50, about 20,000 files) pinned to one core:
#   check   --report jsonl (read, replay every line and variation, report)
#   convert -n ucci        (read, replay, write PGN)
# Prints files/s for each, of wall time and of CPU time (user + system, with
# /usr/bin/time); the goal (issue 13) is at least 20,000 files/s. A benchmark,
# not a test: never run by make check.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
arbiter=$(cd "$(dirname "$arbiter")" && pwd)/$(basename "$arbiter")
rounds=${2:-50}
shared=${SHARED:-$here/../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmp.err" "$tmp.cpu"' EXIT
i=0
find "$shared/corpus/xiangqi/cchess" "$shared/corpus/xiangqi/eleeye" \
    "$shared/corpus/xiangqi/cchess-collections" -type f \( -name '*.xqf' -o -name '*.XQF' \) |
    sort | while IFS= read -r f; do
        i=$((i + 1))
        cp "$f" "$tmp/$(printf 'f%04d.xqf' "$i")"
    done
cd "$tmp"
set --
r=0
while [ $r -lt "$rounds" ]; do
    set -- "$@" f*.xqf
    r=$((r + 1))
done
files=$#
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
cpu=""
[ -x /usr/bin/time ] && cpu=/usr/bin/time
run() { # NAME ARGS...: best of three, wall time and (with /usr/bin/time) CPU time
    name=$1
    shift
    best=
    bestcpu=
    for k in 1 2 3; do
        t0=$(date +%s.%N)
        st=0
        if [ -n "$cpu" ]; then
            $cpu -f '%U %S' -o "$tmp.cpu" $pin "$arbiter" "$@" >/dev/null 2>"$tmp.err" || st=$?
        else
            $pin "$arbiter" "$@" >/dev/null 2>"$tmp.err" || st=$?
        fi
        if [ $st -gt 1 ]; then
            echo "xqf-throughput: arbiter $1 failed ($st):" >&2
            head -n 3 "$tmp.err" >&2
            exit 2
        fi
        t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
        if [ -n "$cpu" ]; then
            c=$(tail -n 1 "$tmp.cpu" | awk '{ print $1 + $2 }')
            if [ -z "$bestcpu" ] || [ "$(echo "$c < $bestcpu" | bc -l)" = 1 ]; then bestcpu=$c; fi
        fi
    done
    printf '%-28s %6d files in %6.3f s: %8.0f files/s' "$name" "$files" "$best" \
        "$(echo "$files / $best" | bc -l)"
    # on a shared machine the wall time waits for the CPU; the CPU time does not
    [ -n "$bestcpu" ] && [ "$(echo "$bestcpu > 0" | bc -l)" = 1 ] &&
        printf '; CPU %6.3f s: %8.0f files/s' "$bestcpu" "$(echo "$files / $bestcpu" | bc -l)"
    printf '\n'
}
set -- "$@"
run "check --report jsonl -j1" check -q -j1 --report jsonl "$@"
run "convert -n ucci -j1" convert -q -j1 -n ucci "$@"
