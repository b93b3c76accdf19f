#!/bin/sh
# faults.sh: the page faults of arbiter's runs against the peers' on the same input (not
# a test: it prints figures). A page fault costs some 13 us on this virtual machine
# (1 us a page when many are asked for at once, which xalloc_prefault does), so on the
# 33 MB bench input a thousand of them are 4% of a check's CPU time.
# Usage: tests/bench/faults.sh [ARBITER] [SHARED]
#
# For check -q at -j1 and -j2, on the plain and the zstd-compressed bench input (b10, as
# throughput.sh makes it), convert -j1, pgn-reader's validate (built by throughput.sh,
# when cargo is there) and pgn-extract on the same file: the faults taken (perf's
# page-faults: the traps, what costs) and the pages mapped in all (/usr/bin/time %R: the
# kernel counts a page asked for at once as a fault too); then ours against the peers'.
set -u
arbiter=${1:-build/arbiter}
shared=${2:-../shared}
work=${BENCH_DIR:-/tmp/arbiter-bench}
mkdir -p "$work"
b1="$work/b1.pgn"; b10="$work/b10.pgn"
if [ ! -s "$b10" ]; then
    for f in "$shared"/corpus/chess/bench/*.pgn; do cat "$f"; echo; done > "$b1"
    for _ in $(seq 10); do cat "$b1"; done > "$b10"
fi
[ -s "$b10.zst" ] || zstd -q -3 -f "$b10" -o "$b10.zst"

# faults CMD...: "TRAPS PAGES" of one run (stdout and stderr dropped; TRAPS "-" without
# perf)
faults() {
    /usr/bin/time -f '%R' -o "$work/faults" "$@" > /dev/null 2>&1 || true
    pages=$(tail -n 1 "$work/faults")
    traps=-
    if command -v perf > /dev/null; then
        traps=$(perf stat -x, -e page-faults "$@" 2>&1 > /dev/null | awk -F, '/page-faults/ {print $1}')
    fi
    echo "$traps $pages"
}
# row LABEL "TRAPS PAGES"
row() {
    # shellcheck disable=SC2086 # two fields
    printf '%-34s %8s %8s\n' "$1" $2
}
# ratio A B: A/B of the traps (of the pages without perf)
ratio() {
    a=${1%% *}; b=${2%% *}
    [ "$a" = - ] && { a=${1##* }; b=${2##* }; }
    echo "scale=2; $a / $b" | bc
}

j1=$(faults "$arbiter" check -q -j1 -o /dev/null "$b10")
j2=$(faults "$arbiter" check -q -j2 -o /dev/null "$b10")
z1=$(faults "$arbiter" check -q -j1 -o /dev/null "$b10.zst")
cv=$(faults "$arbiter" convert -j1 -o /dev/null "$b10")
printf '%-34s %8s %8s\n' "run (b10, $(wc -c < "$b10") bytes)" "traps" "pages"
row "arbiter check -q -j1" "$j1"
row "arbiter check -q -j2" "$j2"
row "arbiter check -q -j1 (.zst)" "$z1"
row "arbiter convert -j1" "$cv"
pr=
validate="$work/pgn-reader/release/validate"
if [ -x "$validate" ]; then
    pr=$(faults "$validate" "$b10")
    row "pgn-reader validate" "$pr"
else
    echo "(pgn-reader not measured: run tests/bench/throughput.sh first, with cargo installed)"
fi
pe=
if command -v pgn-extract > /dev/null; then
    pe=$(faults pgn-extract -r -s "$b10")
    row "pgn-extract -r -s" "$pe"
fi
[ -n "$pr" ] && echo "check -j1 against pgn-reader: $(ratio "$j1" "$pr")x the faults"
[ -n "$pe" ] && echo "check -j1 against pgn-extract: $(ratio "$j1" "$pe")x the faults"
echo "-j2 against -j1: $(ratio "$j2" "$j1")x; .zst against plain: $(ratio "$z1" "$j1")x"
