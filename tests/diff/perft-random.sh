#!/usr/bin/env bash
# perft-random.sh: explore beyond the fixed seed of make check. Runs the differential
# perft test (arbiter against Stockfish / Fairy-Stockfish) with new random seeds.
#
# Usage: tests/diff/perft-random.sh [ROUNDS] [POSITIONS_PER_ROUND]   from the source tree,
# after ./bootstrap build.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
export PERFT_DIFF_COUNT=${2:-100}
export ARBITER=$here/build/arbiter FIXTURES=$here/fixtures TOOLS=$here/build/tests/tools
make -C "$here/build" -s tests/tools/random_positions
fails=0
for r in $(seq 1 "$rounds"); do
    export PERFT_DIFF_SEED=$RANDOM$RANDOM
    echo "round $r, seed $PERFT_DIFF_SEED"
    sh "$here/tests/shell/perft-differential.test" | grep '^not ok' && fails=1
done
[ $fails -eq 0 ] && echo "no disagreement"
exit $fails
