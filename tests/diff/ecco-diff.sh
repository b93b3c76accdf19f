#!/bin/sh
# ecco-diff.sh: arbiter's ECCO codes against an oracle run as a black box, on xiangqi
# game files (tests/shell/ecco-diff.test).
# usage: ecco-diff.sh ARBITER ORACLE_JS < FILE_LIST (one path a line)
# ORACLE_JS reads one game a line, its moves in WXF (red first), and prints code,
# opening and variation a line (vschess's ecco.js, GPL-3.0, used only as a test oracle).
# Every game from the standard start with at least one move is compared: arbiter's code
# (convert --to wxf --replace-opening) with the oracle's on the first 20 plies of the
# main line as arbiter writes it in WXF. Also counts the games' declared ECCO tags that
# differ from arbiter's code (what check --check-eco reports).
# Prints the disagreements (ours, oracle's, count), then
#   ecco-diff: N games, A agree, D differ (P%)
#   ecco-diff: declared T, other code M (Q%)
# Exit 0 when P >= ${ECCO_MIN_AGREE:-99}, 1 below, 77 when the oracle cannot run.
set -u
arbiter=$1
oracle=$2
tmp=${TMPDIR:-/tmp}/ecco-diff.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
start='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'
# One line a WXF record: code (or -), the record's FEN key, then its first 20 moves.
records() {
    awk -v start="$start" '
    function flush() { if (n) print (code == "" ? "-" : code) "\t" (fen == "" ? "-" : fen) "\t" moves; n = 0 }
    /^FORMAT/ { flush(); n = 1; code = ""; fen = ""; moves = ""; plies = 0; inside = 0; next }
    /^START\{/ { inside = 1; next }
    /^\}END/ { inside = 0; next }
    !inside && /^ECCO / { code = $2; next }
    !inside && /^FEN / { sub(/^FEN +/, ""); fen = substr($0, 1, length(start)) == start ? "-" : "x"; next }
    inside && !/^\/\*/ && !/^DIAG/ {
        for (i = 1; i <= NF && plies < 20; i++) {
            if ($i ~ /^[0-9]+\.$/ || $i == "\342\200\246") continue
            if ($i !~ /^[A-Za-z+-][0-9+.=-][.+=-][0-9]$/) continue
            moves = moves (plies ? " " : "") $i
            plies++
        }
    }
    END { flush() }'
}
tr '\n' '\0' >"$tmp/files"
# xargs runs arbiter on as many files at a time as fit, the same way both times; a file
# arbiter cannot read (status 1) is said on stderr and left out of both
xargs -0 "$arbiter" convert -q --to wxf --replace-opening --strip comments,variations,nags \
    <"$tmp/files" 2>"$tmp/err1" | records >"$tmp/ours"
xargs -0 "$arbiter" convert -q --to wxf --strip comments,variations,nags <"$tmp/files" \
    2>"$tmp/err2" | records >"$tmp/declared"
if [ "$(wc -l <"$tmp/ours")" -ne "$(wc -l <"$tmp/declared")" ]; then
    echo "ecco-diff: the two conversions gave different record counts" >&2
    exit 99
fi
# standard start, at least one move
paste "$tmp/ours" "$tmp/declared" | awk -F '\t' '$2 == "-" && $3 != "" { print $1 "\t" $4 "\t" $3 }' >"$tmp/games"
cut -f3 "$tmp/games" >"$tmp/moves"
if ! node "$oracle" <"$tmp/moves" >"$tmp/oracle" 2>"$tmp/oerr"; then
    head -3 "$tmp/oerr" >&2
    exit 77
fi
if [ "$(wc -l <"$tmp/oracle")" -ne "$(wc -l <"$tmp/games")" ]; then
    echo "ecco-diff: the oracle answered $(wc -l <"$tmp/oracle") of $(wc -l <"$tmp/games") games" >&2
    exit 77
fi
paste "$tmp/games" "$tmp/oracle" >"$tmp/joined"
# ECCO_DIFF_OUT=FILE keeps each game's line: ours, declared, moves, oracle's code, names
[ -n "${ECCO_DIFF_OUT:-}" ] && cp "$tmp/joined" "$ECCO_DIFF_OUT"
awk -F '\t' -v min="${ECCO_MIN_AGREE:-99}" '
{
    n++
    if ($1 == $4) agree++; else differ[$1 " " $4]++
    if ($2 ~ /^[A-E][0-9][0-9]$/) { declared++; if ($2 != $1) other++ }
}
END {
    for (k in differ) printf "differ: %s %d\n", k, differ[k] | "sort -k4,4nr -k2,2"
    close("sort -k4,4nr -k2,2")
    p = n ? 100 * agree / n : 0
    printf "ecco-diff: %d games, %d agree, %d differ (%.2f%%)\n", n, agree, n - agree, p
    printf "ecco-diff: declared %d, other code %d (%.2f%%)\n", declared, other, declared ? 100 * other / declared : 0
    exit p >= min ? 0 : 1
}' "$tmp/joined"
