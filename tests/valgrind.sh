#!/bin/sh
# tests/valgrind.sh [ARBITER]: the golden tests (tests/shell/golden.test), the seed
# article of tests/shell/xiangqi-corpus.test, the WXF, article and hostile fixtures
# (check, convert and the proof page) and the XQF and DhtmlXQ fixtures (-j 2),
# with every arbiter run under valgrind's memcheck: no invalid access, no use of
# uninitialised memory, no leak (definite, indirect or possible; memory still reachable
# at exit is libc's and libyaml's and is not counted). Exits 1 on any error or leak or
# failed test. ARBITER: a build without sanitizers (default ./arbiter); FIXTURES and
# SHARED as for the shell tests (defaults: the source tree's fixtures/, ../shared).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
real=${1:-${ARBITER:-./arbiter}}
real=$(cd "$(dirname "$real")" && pwd)/$(basename "$real")
: "${FIXTURES:=$src/fixtures}"
: "${SHARED:=$src/../shared}"
export FIXTURES SHARED
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$real" ] || { echo "valgrind.sh: no program at $real" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/logs"
cat >"$work/arbiter" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \\
    --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes \\
    --log-file="$work/logs/vg.%p.log" "$real" "\$@"
WRAP
chmod +x "$work/arbiter"
ARBITER=$work/arbiter
export ARBITER
status=0

echo "# golden.test under valgrind"
sh "$src/tests/shell/golden.test" >"$work/golden.tap" 2>&1 || status=1
grep -v '^ok' "$work/golden.tap" | grep -v '^1\.\.' | head -40
echo "golden.test: $(grep -c '^ok' "$work/golden.tap") ok, $(grep -c '^not ok' "$work/golden.tap") not ok"

echo "# the seed article (xiangqi-corpus.test) under valgrind"
article=$(ls "$SHARED"/seeds/001_*.txt 2>/dev/null | head -n 1)
if [ -n "$article" ]; then
    "$ARBITER" check -q "$article" | sed -e 's|^file: .*|file: "(seed article)"|' -e '/^  seconds: /d' >"$work/seed.yaml"
    if diff -u "$FIXTURES/articles/expected/seed-001.yaml" "$work/seed.yaml" >"$work/diff"; then
        echo "seed article: report as expected"
    else
        echo "seed article: report differs"; head -40 "$work/diff"; status=1
    fi
    "$ARBITER" convert -q -n chinese "$article" >/dev/null
    "$ARBITER" check -q --report html "$article" >/dev/null
else
    echo "seed article: none under $SHARED/seeds (skipped)"
fi

echo "# WXF, article and hostile fixtures under valgrind"
for f in "$FIXTURES"/wxf/*.wxf "$FIXTURES"/wxf/hostile/*.wxf "$FIXTURES"/articles/*.txt \
         "$FIXTURES"/hostile/*.pgn; do
    [ -f "$f" ] || continue
    "$ARBITER" check -q "$f" >/dev/null 2>&1
    "$ARBITER" convert -q "$f" >/dev/null 2>&1
    "$ARBITER" check -q --report html "$f" >/dev/null 2>&1
done

echo "# XQF and DhtmlXQ fixtures under valgrind, read by two worker threads (-j 2)"
set -- "$FIXTURES"/xqdb/*.xqf "$FIXTURES"/xqdb/hostile/*.xqf
"$ARBITER" check -q -j 2 "$@" >/dev/null 2>&1
"$ARBITER" check -q -j 2 --report jsonl "$@" >/dev/null 2>&1
"$ARBITER" convert -q -j 2 "$@" >/dev/null 2>&1
for f in "$FIXTURES"/xqdb/*.html "$FIXTURES"/xqdb/*.txt; do
    "$ARBITER" check -q "$f" >/dev/null 2>&1
    "$ARBITER" convert -q --to xqf -o "$work/one.xqf" "$f" >/dev/null 2>&1
done

runs=$(ls "$work/logs" | wc -l)
bad=0
for l in "$work"/logs/*.log; do
    [ -s "$l" ] || continue   # -q: a clean run writes nothing
    bad=$((bad + 1))
    if [ "$bad" -le 5 ]; then
        echo "--- $(basename "$l")"; head -60 "$l"
    fi
done
echo "valgrind: $runs runs of arbiter, $bad with errors or leaks"
[ "$bad" -eq 0 ] || status=1
exit $status
