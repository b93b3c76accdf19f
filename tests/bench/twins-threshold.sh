#!/bin/sh
# twins-threshold.sh: how many plies two unrelated games share from the start, in the
# shared chess and xiangqi collections, to choose duplicate-moves' length threshold
# (issue 25 part 1; arbiter-check(1) gives the result).
#
# For each collection set, the games' main lines (SAN or UCCI tokens: comments, NAGs,
# variations and move numbers left out) are compared with every other game's of another
# pairing (White/Black or Red/Black differ as written): for N = 10, 14, ... the number of
# games whose first N plies are those of a game by other players, excluding games whose
# whole main line is another's (copies, the thing to find). A threshold is safe where
# that count falls to nothing.
# Usage: tests/bench/twins-threshold.sh [SHARED_DIR]   (default ../shared)
shared=${1:-../shared}
[ -d "$shared/corpus" ] || { echo "twins-threshold.sh: no $shared/corpus" >&2; exit 2; }
exec python3 - "$shared" <<'PY'
import re, sys, glob, collections
shared = sys.argv[1]
sets = {
    'chess (bench: world matches, Dortmund, TWIC 1599, lichess)': sorted(glob.glob(shared + '/corpus/chess/bench/*.pgn')),
    'xiangqi (wukong: Hu Ronghua, Liu Dahua, xqdb)': sorted(glob.glob(shared + '/corpus/xiangqi/wukong-xiangqi/*.pgn')),
}
def games(path):
    text = open(path, encoding='latin-1').read().replace('\r\n', '\n')
    for g in re.split(r'\n\s*\n(?=\[)', text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', g, re.M))
        body = re.sub(r'^\[.*\]\s*$', '', g, flags=re.M)
        body = re.sub(r'\{[^}]*\}', ' ', body)
        body = re.sub(r';[^\n]*', ' ', body)
        while re.search(r'\([^()]*\)', body):
            body = re.sub(r'\([^()]*\)', ' ', body)
        toks = [t for t in body.split() if not re.match(r'^(\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*)$', t)]
        toks = [re.sub(r'^\d+\.+', '', t) for t in toks]
        toks = [re.sub(r'[!?+#]+$', '', t) for t in toks if t]
        white = tags.get('White', tags.get('Red', '?'))
        yield (white, tags.get('Black', '?')), tuple(toks)
for name, files in sets.items():
    gs = [g for f in files for g in games(f)]
    whole = collections.Counter(m for _, m in gs)
    print('%s: %d games' % (name, len(gs)))
    print('  N plies  games sharing their first N plies with a game of other players')
    for n in range(10, 62, 4):
        by = collections.defaultdict(set)
        for p, m in gs:
            if len(m) >= n and whole[m] == 1:
                by[m[:n]].add(p)
        shared_games = sum(len(v) for v in by.values() if len(v) > 1)
        print('  %7d  %d' % (n, shared_games))
PY
