#!/usr/bin/env bash
# perft.sh: perft speed of arbiter against Stockfish (chess) and Fairy-Stockfish
# (xiangqi), on the same positions in the same run. A benchmark, not a test: it prints
# nodes per second and the ratio, and asserts nothing about time.
#
# Usage: tests/bench/perft.sh [ARBITER]   (default build/arbiter)
set -euo pipefail
arbiter=${1:-build/arbiter}
PATH=$PATH:/usr/games

# nps_of SECONDS NODES
nps_of() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }'; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# time_cmd CMD...: run it with its output in $work/out; prints the wall seconds.
time_cmd() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >"$work/out"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

engine_perft() { # ENGINE SETUP FEN DEPTH
    printf 'uci\n%sposition fen %s\ngo perft %s\nquit\n' "$2" "$3" "$4" | "$1" | sed -n 's/^Nodes searched: //p'
}

printf '%-8s %-58s %2s %12s %14s %14s %7s\n' variant position d nodes arbiter_nps engine_nps ratio
bench() { # VARIANT ENGINE SETUP FEN DEPTH
    local variant=$1 engine=$2 setup=$3 fen=$4 depth=$5 ta te ours theirs
    ta=$(time_cmd "$arbiter" perft --variant "$variant" --fen "$fen" --depth "$depth")
    ours=$(sed -n 's/^nodes //p' "$work/out")
    te=$(time_cmd engine_perft "$engine" "$setup" "$fen" "$depth")
    theirs=$(cat "$work/out")
    [ "$ours" = "$theirs" ] || echo "MISMATCH: arbiter $ours, $engine $theirs" >&2
    local na ne
    na=$(nps_of "$ta" "$ours"); ne=$(nps_of "$te" "$theirs")
    printf '%-8s %-58.58s %2s %12s %14s %14s %7s\n' "$variant" "$fen" "$depth" "$ours" "$na" "$ne" \
        "$(awk -v a="$na" -v e="$ne" 'BEGIN { printf "%.2f", (e > 0 ? a / e : 0) }')"
}

xq='setoption name UCI_Variant value xiangqi
'
bench chess stockfish '' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 6
bench chess stockfish '' 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 5
bench chess stockfish '' '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' 7
bench chess stockfish '' 'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1' 5
bench xiangqi fairy-stockfish "$xq" 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' 5
bench xiangqi fairy-stockfish "$xq" 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1' 4
bench xiangqi fairy-stockfish "$xq" '1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1' 4
echo "ratio = arbiter nodes/s divided by the engine's (above 1: arbiter is faster)."
echo "Engine times include process start-up (and Stockfish's network load); depths are chosen so that this is small."
