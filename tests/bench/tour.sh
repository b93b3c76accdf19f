#!/bin/sh
# tour.sh ARBITER [RUNS]: time the horse's tour from all 90 points of the xiangqi board
# (seed 001 reports up to 2 minutes for one start point), and from every point of a few
# other boards. Not a test: prints figures. Goal: the 90 together in under a second.
set -eu
arbiter=${1:?usage: tour.sh ARBITER [RUNS]}
runs=${2:-5}
now() { date +%s.%N; }
for board in 9x10 8x8 10x10 16x16; do
    for mode in open closed; do
        flag=; [ "$mode" = closed ] && flag=--closed
        best=
        for _ in $(seq "$runs"); do
            t0=$(now)
            "$arbiter" tour --board "$board" --all $flag > /tmp/tour-bench.$$ || true
            t1=$(now)
            best=$(awk -v a="$t0" -v b="$t1" -v best="$best" \
                'BEGIN { t = b - a; print (best == "" || t < best) ? t : best }')
        done
        summary=$(tail -1 /tmp/tour-bench.$$)
        found=${summary%% of *}
        nodes=$(echo "$summary" | sed 's/.*; \([0-9]*\) nodes in all/\1/')
        printf '%-6s %-6s %4s tours, %9s nodes, best of %s: %.3f s (whole process)\n' \
            "$board" "$mode" "$found" "$nodes" "$runs" "$best"
    done
done
rm -f /tmp/tour-bench.$$
