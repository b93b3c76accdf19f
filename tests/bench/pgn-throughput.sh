#!/usr/bin/env bash
# pgn-throughput.sh: arbiter check against pgn-extract and cat on the same input, in one
# run. A benchmark, not a test: it prints games/s, MB/s, peak RSS and the ratios and
# asserts nothing about time.
#
# Usage: tests/bench/pgn-throughput.sh [ARBITER] [TARGET_MB]
# The input is ../shared/corpus/chess/bench/*.pgn concatenated (a blank line between
# files) until it reaches TARGET_MB (default 30). The repetition flatters caches.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
target_mb=${2:-30}
corpus=${CORPUS:-$here/../shared/corpus/chess/bench}
PATH=$PATH:/usr/games
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input=$work/bench.pgn
: >"$input"
while [ "$(stat -c %s "$input")" -lt $((target_mb * 1000000)) ]; do
    for f in "$corpus"/*.pgn; do cat "$f"; printf '\n\n'; done >>"$input"
done
bytes=$(stat -c %s "$input")
games=$(grep -c '^\[Event ' "$input")
printf 'input: %s bytes, %s games (bench corpus repeated)\n\n' "$bytes" "$games"

# measure NAME CMD...: wall seconds and peak RSS (KB) into $secs and $rss
measure() {
    local name=$1; shift
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" <"$input" >/dev/null 2>"$work/$name.err" || true
    read -r secs rss <"$work/time"
}

printf '%-22s %9s %12s %9s %10s %14s\n' tool seconds games/s MB/s peak_RSS_MB "vs pgn-extract"
declare -A gps
row() {
    local name=$1 secs=$2 rss=$3
    local g m
    g=$(awk -v s="$secs" -v n="$games" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
    m=$(awk -v s="$secs" -v b="$bytes" 'BEGIN { printf "%.1f", (s > 0 ? b / s / 1e6 : 0) }')
    gps[$name]=$g
    local ratio=-
    [ -n "${gps[pgn-extract]:-}" ] && ratio=$(awk -v a="$g" -v b="${gps[pgn-extract]}" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
    printf '%-22s %9s %12s %9s %10.1f %14s\n' "$name" "$secs" "$g" "$m" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$ratio"
}

measure cat cat; row cat "$secs" "$rss"
measure pgn-extract pgn-extract -r -s; row pgn-extract "$secs" "$rss"
measure arbiter-check "$arbiter" check -q -; row "arbiter check" "$secs" "$rss"
measure arbiter-convert "$arbiter" convert -q -; row "arbiter convert" "$secs" "$rss"
echo
echo "games/s counts the games of the input for every tool; 'vs pgn-extract' is games/s over pgn-extract's."
