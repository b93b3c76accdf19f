#!/bin/sh
# fixit_sets.sh: every typo set of fixit_typos.py, on seen and on held-out games.
#
# usage: fixit_sets.sh ARBITER SHARED COUNT WORKDIR [seen|unseen|both]
#
# "seen" games are the ones the ranking was tuned on (chess: pychess-world_matches,
# xiangqi: wukong Liu Dahua); "unseen" games were only ever measured (chess:
# shakmaty-twic1599, xiangqi: wukong Hu Ronghua). Keep it that way: tune on seen only.
# Prints one fixit_typos.py line per set, prefixed with the split.
set -eu
arbiter=$1 shared=$2 count=$3 work=$4 which=${5:-both}
tools=$(dirname "$0")
mkdir -p "$work"
chess_seen=$shared/corpus/chess/bench/pychess-world_matches.pgn
chess_unseen=$shared/corpus/chess/bench/shakmaty-twic1599_1000k.pgn
xq_seen=$shared/corpus/xiangqi/wukong-xiangqi/Liu_Dahua_1125_UCI_games.pgn
xq_unseen=$shared/corpus/xiangqi/wukong-xiangqi/Hu_Ronghua_1391_UCI_games.pgn
for split in seen unseen; do
    [ "$which" = both ] || [ "$which" = "$split" ] || continue
    eval chess=\$chess_$split xq=\$xq_$split
    d=$work/$split
    mkdir -p "$d"
    "$arbiter" convert -q --strip comments,nags,variations "$chess" >"$d/san.pgn" 2>/dev/null || true
    for n in wxf vi chinese; do
        "$arbiter" convert -q --strip comments,nags,variations -n "$n" "$xq" >"$d/$n.pgn" 2>/dev/null || true
    done
    for n in san wxf vi chinese; do
        python3 "$tools/fixit_typos.py" "$arbiter" "$d/$n.pgn" "$n" all "$count" 7 "$d/typos" |
            sed "s/^/$split /"
    done
done
