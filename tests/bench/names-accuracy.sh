#!/bin/sh
# names-accuracy.sh [ARBITER]: the name-variant groups arbiter finds in the four shared
# bench collections merged, against the labels of tests/bench/names-labels.txt:
# labelled groups found whole, and merges of two labelled-apart people (goal: >= 90%, 0).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${1:-$here/build/arbiter}
bench=${SHARED:-$here/../shared}/corpus/chess/bench
"$arbiter" check -q --report jsonl "$bench"/pychess-world_matches.pgn "$bench"/pychess-dortmund.pgn \
    "$bench"/shakmaty-twic1599_1000k.pgn "$bench"/shakmaty-lichess_db_1000k.pgn 2>/dev/null |
    grep '^{"name_variants"' >"${TMPDIR:-/tmp}/names-groups.json" || true
python3 - "$here/tests/bench/names-labels.txt" "${TMPDIR:-/tmp}/names-groups.json" <<'PY'
import json, sys
labels, apart = [], []
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    if line.startswith("apart: "):
        apart.append([s.strip() for s in line[7:].split(" | ")])
    else:
        labels.append({s.strip() for s in line.split(" | ")})
groups = []
for l in open(sys.argv[2], encoding="utf-8"):
    for g in json.loads(l)["name_variants"]:
        if g["field"] == "player":
            groups.append({s["spelling"] for s in g["spellings"]})
found = sum(1 for lab in labels if any(lab <= g for g in groups))
merges = sum(1 for a, b in apart if any(a in g and b in g for g in groups))
extra = [sorted(g) for g in groups if not any(g <= lab for lab in labels)]
print(f"labelled groups found: {found} of {len(labels)} ({100.0 * found / max(1, len(labels)):.0f}%)")
print(f"groups found: {len(groups)}; not in the labels: {len(extra)} {extra}")
print(f"merges of two labelled-apart people: {merges} of {len(apart)} pairs")
PY
