#!/bin/sh
# regen-golden.sh: rewrite fixtures/pgn/expected/ from the current build. Review the
# diff (git diff fixtures/) before committing: the golden files are the specification.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$here/build/arbiter}
cd "$here/fixtures"
mkdir -p pgn/expected
for input in pgn/*.pgn pgn/hostile/*.pgn; do
    [ -f "$input" ] || continue
    name=$(echo "${input#pgn/}" | tr / _)
    name=${name%.pgn}
    "$arbiter" check -q "$input" | sed '/^  seconds: /d' >"pgn/expected/$name.yaml" || true
    "$arbiter" convert -q "$input" >"pgn/expected/$name.pgn" || true
done
