#!/bin/sh
# tests/bench/turns.sh OLD NEW FILE [ROUNDS]: two arbiter binaries (e.g. build/arbiter and
# build-pgo/arbiter, the plain and the profile-guided build) take turns at
# `check -q -j1 FILE`, pinned to one core, ROUNDS times each (default 9); prints the best
# and the median CPU time of each in milliseconds (perf stat's task-clock, finer than
# throughput.sh's 10 ms steps) and NEW's best as a share of OLD's. Turns, not one binary
# after the other: this VM's speed drifts. Not a test. Needs perf and taskset (and chrt,
# used when permitted).
set -eu
old=$1
new=$2
file=$3
rounds=${4:-9}
for tool in perf taskset; do
    command -v "$tool" > /dev/null || { echo "turns.sh: $tool is not installed" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Run at a real-time priority when allowed (root, or CAP_SYS_NICE): no other process then
# takes core 1 in the middle of a run and empties its caches; on a busy machine the
# spread between turns fell from about 5% to under 1%.
rt=
chrt -f 50 true 2> /dev/null && rt="chrt -f 50"
# one BINARY: its CPU milliseconds for one run
one() {
    # shellcheck disable=SC2086 # rt is a command and its options, or nothing
    $rt perf stat -x, -e task-clock taskset -c 1 "$1" check -q -j1 -o /dev/null "$file" \
        2>&1 > /dev/null | awk -F, '/task-clock/ {print $1}'
}
i=0
while [ "$i" -lt "$rounds" ]; do
    one "$old" >> "$tmp/old"
    one "$new" >> "$tmp/new"
    i=$((i + 1))
done
# stats LIST: best and median
stats() { sort -n "$1" | awk '{a[NR] = $1} END {printf "best %.1f ms, median %.1f ms", a[1], a[int((NR + 1) / 2)]}'; }
echo "old $old: $(stats "$tmp/old")"
echo "new $new: $(stats "$tmp/new")"
best_old=$(sort -n "$tmp/old" | head -n 1)
best_new=$(sort -n "$tmp/new" | head -n 1)
echo "new / old (best): $(echo "scale=3; $best_new / $best_old" | bc)"
