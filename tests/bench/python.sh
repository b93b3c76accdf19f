#!/bin/sh
# python.sh: the Python binding against the program, reading and validating the same
# PGN file on one core (not a test: it prints figures).
#   tests/bench/python.sh [BUILD] [SHARED]      (BUILD: build/, SHARED: ../shared)
#
# The issue's goal compared the binding with python-chess reading and validating the
# same file (>= 50x faster). python-chess is not packaged in Debian 12 and this project
# installs nothing with pip, so it is not measured: the binding is measured against
# "arbiter check -j1 --report jsonl" instead, on the chess bench corpus repeated to
# about 33 MB (the file of throughput.sh). The binding's run reads every game and
# takes its status, tags and findings (code, severity, line, column, message) into
# Python objects, the work of a script that validates a file; check writes them as
# JSON Lines to /dev/null. Both pinned to one core (taskset), ROUNDS rounds (default
# 3) taking turns; the best user+sys CPU seconds of each and their ratio are printed.
set -u
build=${1:-build}
shared=${2:-../shared}
here=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${ROUNDS:-3}
work=${BENCH_DIR:-/tmp/arbiter-bench}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
mkdir -p "$work"
b1="$work/b1.pgn"; b10="$work/b10.pgn"
if [ ! -s "$b10" ]; then
    for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$b1"
    for i in $(seq 10); do cat "$b1"; done > "$b10"
fi
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
ARBITER_LIB=$(cd "$build" && pwd)/.libs/libarbiter.so.0
PYTHONPATH=$here/python
export ARBITER_LIB PYTHONPATH
cat >"$work/validate.py" <<'PY'
import sys
import arbiter
games = findings = 0
for g in arbiter.read(sys.argv[1]):
    games += 1
    status, tags = g.status, g.tags
    for f in g.findings:
        findings += 1
        (f.code, f.severity, f.line, f.column, f.message)
print(games, findings)
PY
# cpu SECONDS-FILE CMD...: user+sys of CMD into the file (GNU time, else bash's times)
cpu() {
    out=$1; shift
    /usr/bin/time -f '%U %S' -o "$work/t" "$@" >/dev/null 2>"$work/err" || true
    tail -n 1 "$work/t" | awk '{printf "%.3f\n", $1 + $2}' >>"$out"
}
rm -f "$work/py.s" "$work/cli.s"
size=$(wc -c <"$b10")
echo "input: $b10 ($size bytes, $(grep -c '^\[Event ' "$b10") games)"
echo "binding: $("$py" "$work/validate.py" "$b10") (games, findings)"
for r in $(seq "$rounds"); do
    cpu "$work/py.s" $pin "$py" "$work/validate.py" "$b10"
    cpu "$work/cli.s" $pin "$build/arbiter" check -q -j1 --report jsonl -o /dev/null "$b10"
done
best() { sort -n "$1" | head -n 1; }
p=$(best "$work/py.s"); c=$(best "$work/cli.s")
echo "python3 + libarbiter (read, validate, findings into Python): $p s CPU"
echo "arbiter check -j1 --report jsonl:                           $c s CPU"
awk -v p="$p" -v c="$c" 'BEGIN {printf "binding / check: %.2fx the CPU time\n", p / c}'
echo "python-chess: not packaged in Debian 12 (no pip here), not measured"
