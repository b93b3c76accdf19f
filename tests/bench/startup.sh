#!/bin/sh
# tests/bench/startup.sh [ARBITER] [SHARED]: the cost of one process, for the user who
# checks files one by one (an editor's save hook, find -exec, a web form): N one-game
# files from the lichess sample of the bench corpus, each checked by a process of its
# own, against pgn-reader's validate (Rust) and pgn-extract run the same way, in turns,
# in the same run; and the instructions of one such process (callgrind). Not a test.
set -eu
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
n=${N:-200}
rounds=${ROUNDS:-3}
work=${BENCH_DIR:-/tmp/arbiter-bench}
mkdir -p "$work"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the first N games, one file each
awk -v dir="$tmp" -v n="$n" '
    /^\[Event / { if (++k > n) exit; f = sprintf("%s/g%04d.pgn", dir, k) }
    k { print > f }' "$shared/corpus/chess/bench/shakmaty-lichess_db_1000k.pgn"

PATH=$PATH:$HOME/.cargo/bin:/usr/games
pr=
if p=$(sh "$shared/peers/pgn-reader/build.sh" "$work/pgn-reader" 2> /dev/null) && [ -x "$p/validate" ]; then
    pr=$p/validate
fi
# SCHED_FIFO when permitted: other processes on the machine wait (see turns.sh)
fifo=
chrt -f 50 true 2> /dev/null && fifo="chrt -f 50"

# each TOOL: seconds for the N processes, best of the rounds
each() {
    tool=$1
    start=$(date +%s.%N)
    for f in "$tmp"/g*.pgn; do
        case $tool in
        arbiter) $fifo "$arbiter" check -q -j1 -o /dev/null "$f" ;;
        pgn-reader) $fifo "$pr" "$f" ;;
        pgn-extract) $fifo pgn-extract -s -r "$f" ;;
        esac > /dev/null 2>&1 || true
    done
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

tools=arbiter
[ -n "$pr" ] && tools="$tools pgn-reader"
command -v pgn-extract > /dev/null && tools="$tools pgn-extract"
for t in $tools; do eval "best_$(echo $t | tr - _)=999"; done
for r in $(seq "$rounds"); do
    for t in $tools; do
        s=$(each "$t")
        v=best_$(echo $t | tr - _)
        eval "b=\$$v"
        [ "$(echo "$s < $b" | bc)" = 1 ] && eval "$v=$s"
    done
done

# ir BINARY ARGS...: the instructions of one process
ir() {
    command -v valgrind > /dev/null || { echo "-"; return; }
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" > /dev/null 2> "$tmp/vg" || true
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/vg" | tail -n 1
}
one="$tmp/g0001.pgn"
printf '%-12s %12s %14s %16s\n' tool "ms/process" "arbiter/tool" "instructions/1"
a=$(echo "$best_arbiter * 1000 / $n" | bc -l)
for t in $tools; do
    v=best_$(echo $t | tr - _)
    eval "s=\$$v"
    ms=$(echo "$s * 1000 / $n" | bc -l)
    case $t in
    arbiter) i=$(ir "$arbiter" check -q -j1 -o /dev/null "$one") ;;
    pgn-reader) i=$(ir "$pr" "$one") ;;
    pgn-extract) i=$(ir pgn-extract -s -r "$one") ;;
    esac
    printf '%-12s %12.2f %13.2fx %16s\n' "$t" "$ms" "$(echo "$a / $ms" | bc -l)" "$i"
done
echo "($n one-game files, best of $rounds rounds; arbiter/tool < 1 means arbiter is faster)"
