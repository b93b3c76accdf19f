#!/bin/sh
# tests/fuzz/run.sh SECONDS [DIR]: run every harness built in DIR (default: ./fuzz, what
# build.sh and seeds.sh filled) for SECONDS each, starting from DIR/seeds/<harness> and
# growing DIR/corpus/<harness>. A crash, leak, timeout or sanitizer report leaves its
# input in DIR/artifacts/<harness>/ and makes the script exit 1 after the other
# harnesses have run. FUZZ_PARALLEL=N runs N harnesses at once (default 1);
# FUZZ_HARNESSES="pgn wxf" runs only those.
# Prints one line per harness: executions, execs/s, corpus entries, coverage (edges).
secs=${1:?usage: run.sh SECONDS [DIR]}
dir=${2:-fuzz}
dir=$(cd "$dir" && pwd) || exit 2
par=${FUZZ_PARALLEL:-1}
harnesses=${FUZZ_HARNESSES:-"pgn wxf article input chess_fen xiangqi_fen san xqn comment_cmd xqf dhtmlxq cbr cbl cbf"}
run_one() {
    h=$1
    mkdir -p "$dir/corpus/$h" "$dir/artifacts/$h"
    # readers get room for real games; the FEN, move and comment parsers small inputs
    case $h in pgn|wxf|article|input|xqf|dhtmlxq|cbr|cbl|cbf) len=65536 ;; *) len=1024 ;; esac
    "$dir/fuzz_$h" -max_total_time="$secs" -max_len=$len -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/$h/" \
        "$dir/corpus/$h" "$dir/seeds/$h" > "$dir/fuzz_$h.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz_$h.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/fuzz_$h.log")
    cov=$(grep -o 'cov: [0-9]*' "$dir/fuzz_$h.log" | tail -1 | cut -d' ' -f2)
    corp=$(ls "$dir/corpus/$h" | wc -l)
    if [ $rc -eq 0 ]; then st=ok; else st="FAILED (rc $rc, see $dir/fuzz_$h.log)"; fi
    printf '%-12s %s: %s execs, %s/s, corpus %s, cov %s edges\n' "$h" "$st" "${execs:-?}" \
        "${rate:-?}" "$corp" "${cov:-?}"
    return $rc
}
status=0
if [ "$par" -le 1 ]; then
    for h in $harnesses; do
        [ -x "$dir/fuzz_$h" ] || { echo "$h: $dir/fuzz_$h not built" >&2; status=1; continue; }
        run_one "$h" || status=1
    done
else
    # N at a time; each result goes to a file so the summary stays whole
    set -- $harnesses
    while [ $# -gt 0 ]; do
        pids=
        i=0
        while [ $i -lt "$par" ] && [ $# -gt 0 ]; do
            ( run_one "$1" > "$dir/fuzz_$1.result"; echo $? > "$dir/fuzz_$1.rc" ) &
            pids="$pids $!"; shift; i=$((i + 1))
        done
        wait
    done
    for h in $harnesses; do
        cat "$dir/fuzz_$h.result"
        [ "$(cat "$dir/fuzz_$h.rc")" = 0 ] || status=1
    done
fi
exit $status
