#!/bin/sh
# puzzle-planted.sh: planted puzzle faults of issue 26 (not a test: it prints figures).
# Usage: tests/bench/puzzle-planted.sh [ARBITER] [SHARED] [STOCKFISH] [DEPTH]
#
# Independent of arbiter's own mate search, the set is built with Stockfish: from the
# games of the chess bench corpus that end in mate, the positions 1, 3 and 5 plies
# before the end; Stockfish (MultiPV 5, fixed depth, one thread) gives each its mate
# in M (M <= 3; positions it sees no mate in are dropped) and its other moves, at each
# solver move of its line but the last (the moves arbiter asks for a second solution).
#   right:   a puzzle "mate in M" whose solution is Stockfish's line, when no other
#            move mates there at all (expected: no puzzle finding);
#   cook:    the same when another move mates in as few or fewer too (a second
#            solution found in real games; expected: puzzle-cook); a position where
#            another move mates only later at that depth is dropped, as the mate it
#            found may not be the shortest;
#   claim:   a planted false claim, "mate in M-1" with the line cut to it (M >= 2;
#            expected: puzzle-unsound);
#   key:     a planted wrong solution, "mate in M" whose key is Stockfish's best
#            move that does not mate (expected: puzzle-unsound).
# Then arbiter check (no engine: these are short mates) and prints found/planted per
# kind and the right puzzles flagged (PLANTED_DIR=DIR keeps the set in DIR). Exits 77 saying why when Stockfish is missing.
set -u
ARBITER=${1:-build/arbiter}
SHARED=${2:-../shared}
SF=${3:-$(command -v stockfish || echo /usr/games/stockfish)}
DEPTH=${4:-14}
if [ ! -x "$SF" ]; then
    echo "skip: no Stockfish at '$SF' (Debian package stockfish; ./bootstrap check installs it):" \
         "the planted set is built with it, so that it does not rest on arbiter's mate search"
    exit 77
fi
if [ -n "${PLANTED_DIR:-}" ]; then   # keep the set there
    tmp=$PLANTED_DIR; mkdir -p "$tmp"
else
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fi
bench=$SHARED/corpus/chess/bench
python3 - "$bench/shakmaty-lichess_db_1000k.pgn" "$bench/shakmaty-twic1599_1000k.pgn" \
    >"$tmp/mated.pgn" <<'PY'
import re, sys
for f in sys.argv[1:]:
    for g in re.split(r'\n\n(?=\[Event )', open(f, encoding='utf-8', errors='replace').read()):
        head, _, moves = g.partition('\n\n')
        if re.search(r'#\s*(\{[^}]*\}\s*)?(1-0|0-1)\s*$', moves.strip()):
            print(head.strip() + '\n\n' + moves.strip() + '\n')
PY
"$ARBITER" convert -q --notation uci "$tmp/mated.pgn" >"$tmp/mated-uci.pgn" 2>/dev/null
python3 - "$tmp/mated-uci.pgn" "$SF" "$DEPTH" "$tmp" <<'PY'
import re, subprocess, sys
src, sf, depth, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
p = subprocess.Popen([sf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + '\n'); p.stdin.flush()
def until(word):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit('stockfish died')
        lines.append(l.strip())
        if l.startswith(word): return lines
send('uci'); until('uciok')
send('setoption name Threads value 1'); send('setoption name MultiPV value 5')
send('isready'); until('readyok')
def analyse(moves):
    send('ucinewgame'); send('position startpos moves ' + ' '.join(moves)); send('d')
    fen = [l for l in until('Checkers') if l.startswith('Fen:')][0][5:].strip()
    send('go depth %d' % depth)
    lines = {}
    for l in until('bestmove'):
        m = re.match(r'info depth (\d+) .*multipv (\d+) score (cp|mate) (-?\d+).* pv (.*)', l)
        if m and int(m.group(1)) == depth:
            lines[int(m.group(2))] = (m.group(3), int(m.group(4)), m.group(5).split())
    return fen, [lines[k] for k in sorted(lines)]
games = re.split(r'\n\n(?=\[)', open(src).read())
pgn = {k: [] for k in ('right', 'cook', 'claim', 'key')}
seen = set()
def puzzle(kind, fen, m, line):
    num = fen.split()[-1]
    black = fen.split()[1] == 'b'
    body = (num + '... ' if black else num + '. ') + ' '.join(line)
    pgn[kind].append('[Event "Puzzle: mate in %d"]\n[SetUp "1"]\n[FEN "%s"]\n[Result "*"]\n\n%s *\n'
                     % (m, fen, body))
for g in games:
    head, _, body = g.partition('\n\n')
    if not body: continue
    body = re.sub(r'\{[^}]*\}', ' ', body)
    moves = [t for t in body.split() if re.fullmatch(r'[a-h][1-8][a-h][1-8][qrbn]?', t)]
    for back in (1, 3, 5):
        if len(moves) <= back: continue
        fen, lines = analyse(moves[:len(moves) - back])
        if fen in seen or not lines: continue
        seen.add(fen)
        kind, m, pv = lines[0]
        if kind != 'mate' or not 1 <= m <= 3 or len(pv) < 2 * m - 1: continue
        # every solver move but the last is judged for a second solution: ask each
        verdict = 'right'
        for k in ([0] if m == 1 else range(0, 2 * m - 2, 2)):
            ls = lines if k == 0 else analyse(moves[:len(moves) - back] + pv[:k])[1]
            if not ls or ls[0][0] != 'mate' or ls[0][2][0] != pv[k]: verdict = 'drop'; break
            other = [n for t, n, _ in ls[1:] if t == 'mate' and n > 0]
            if any(n <= m - k // 2 for n in other): verdict = 'cook'; break
            if other: verdict = 'drop'; break   # a longer mate at this depth may be as short
        if verdict == 'drop': continue
        puzzle(verdict, fen, m, pv[:2 * m - 1])
        if verdict == 'cook': continue
        if m >= 2:
            puzzle('claim', fen, m - 1, pv[:2 * m - 3])
        wrong = [l for l in lines[1:] if l[0] != 'mate']
        if wrong:
            puzzle('key', fen, m, wrong[0][2][:1])
send('quit')
for k, v in pgn.items():
    open('%s/%s.pgn' % (out, k), 'w').write('\n'.join(v))
    print(k, len(v))
PY
printf '%-6s %8s %6s\n' kind puzzles found
for k in right cook claim key; do
    n=$(grep -c '^\[Event' "$tmp/$k.pgn")
    case $k in right) code=puzzle- ;; cook) code=puzzle-cook ;; *) code=puzzle-unsound ;; esac
    found=$("$ARBITER" check -q --report jsonl "$tmp/$k.pgn" 2>/dev/null |
        grep -c "\"code\":\"$code")
    printf '%-6s %8s %6s\n' "$k" "$n" "$found"
done
