#!/bin/sh
# openings-diff.sh ARBITER TSV_DIR PGN...: arbiter's chess opening for every game
# against the chess.js oracle (openings-oracle.js, the table's rule written
# independently). Prints each disagreement and a last line
# "openings-diff: N games, N agree, N differ, N skipped (why)"; exit 1 on a difference,
# 77 when the oracle cannot run.
set -u
arbiter=$1 tsv=$2
shift 2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CHESSJS=${CHESSJS:-$HOME/.cache/arbiter/npm/node_modules/chess.js}
export CHESSJS
node "$here/openings-oracle.js" "$tsv" "$@" >"$tmp/oracle" 2>"$tmp/oracle.err" || {
    cat "$tmp/oracle.err" >&2
    exit 77
}
# the games in input order (-j 1): number, ECO and name, or "-"
"$arbiter" check -q -j 1 --report jsonl "$@" >"$tmp/report"
[ $? -le 1 ] || exit 2
python3 - "$tmp/report" "$tmp/oracle" <<'PY'
import json, sys
ours = []
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    if "game" not in o:  # the summary and the name-variant table
        continue
    op = o.get("opening")
    ours.append(f"{op['eco']}\t{op['name']}" if op else "-")
agree = differ = skipped = 0
why = {}
oracle = [l.rstrip("\n").split("\t", 1) for l in open(sys.argv[2], encoding="utf-8")]
if len(oracle) != len(ours):
    print(f"openings-diff: arbiter read {len(ours)} games, the oracle {len(oracle)}")
    sys.exit(1)
for i, ((n, theirs), mine) in enumerate(zip(oracle, ours), 1):
    if theirs.startswith("skip\t"):
        skipped += 1
        reason = theirs.split("\t", 1)[1][:40]
        why[reason] = why.get(reason, 0) + 1
        continue
    if theirs == mine:
        agree += 1
    else:
        differ += 1
        print(f"game {i}: oracle {theirs!r}, arbiter {mine!r}")
reasons = ", ".join(f"{k}: {v}" for k, v in sorted(why.items()))
print(f"openings-diff: {len(ours)} games, {agree} agree, {differ} differ, {skipped} skipped"
      + (f" ({reasons})" if reasons else ""))
sys.exit(1 if differ else 0)
PY
