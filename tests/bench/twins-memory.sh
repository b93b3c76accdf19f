#!/bin/sh
# twins-memory.sh: the twin keys' memory per game on generated games (issue 25 part 1;
# arbiter-check(1) states the figure). N games (default 1,000,000) of 48 plies made of
# knight moves in a random order (each game its own main line), 2,000 players, are
# checked with --timing, which says how many bytes the twin index holds; the peak RSS
# with and without twins (--no-twins) is shown next to it.
# Usage: tests/bench/twins-memory.sh [ARBITER] [N]
arbiter=${1:-build/arbiter}
n=${2:-1000000}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
python3 - "$n" >"$tmp/g.pgn" <<'PY'
import random, sys
n = int(sys.argv[1])
rnd = random.Random(25)
quads = [("Nf3", "Nf6", "Ng1", "Ng8"), ("Nc3", "Nc6", "Nb1", "Nb8"),
         ("Nh3", "Nh6", "Ng1", "Ng8"), ("Na3", "Na6", "Nb1", "Nb8")]
out = sys.stdout
for i in range(n):
    moves = []
    for q in range(12):
        moves.extend(quads[rnd.randrange(4)])
    text = " ".join("%d. %s %s" % (k // 2 + 1, moves[k], moves[k + 1]) for k in range(0, 48, 2))
    out.write('[Event "Gen"]\n[Site "?"]\n[Date "2024.01.01"]\n[Round "%d"]\n'
              '[White "P%d, A"]\n[Black "Q%d, B"]\n[Result "*"]\n\n%s *\n\n'
              % (i + 1, rnd.randrange(2000), rnd.randrange(2000), text))
PY
echo "games: $n ($(wc -c <"$tmp/g.pgn") bytes)"
for opt in "" --no-twins; do
    /usr/bin/time -f "peak RSS ${opt:-with twins}: %M KiB, %e s" \
        "$arbiter" check -q -j 1 --no-names --timing $opt "$tmp/g.pgn" >/dev/null
done
