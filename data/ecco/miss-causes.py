#!/usr/bin/env python3
# miss-causes.py: groups the games where arbiter's ECCO code and the test oracle's
# differ by what keeps them apart (a measurement for data/ecco/README.md; nothing
# it prints goes into the table).
#
# usage: miss-causes.py JOINED PGN
#   JOINED: the file ECCO_DIFF_OUT=FILE makes tests/diff/ecco-diff.sh write, one
#           game a line: ours, declared, WXF moves, oracle's code, names
#   PGN:    the same files given to `arbiter convert --to pgn -n iccs` in the same
#           order (its standard-start games with moves are JOINED's games; see the
#           README for the commands)
# A position is the placement and side to move, a position and its mirror image one.
# Causes, for each game the two codes differ on:
#   tag-conflict     the game carries an [ECCO] tag, our code is the tag, the oracle
#                    names another (the tag's tagger and the oracle disagree)
#   tag-other        a tagged game whose tag is neither code
#   on-tagged-path   untagged, but every one of its positions is one that tagged games
#                    pass through, so our code follows those games' tags
#   leaves-at-ply-N  untagged, and its positions are no tagged game's from ply N+1 on:
#                    only a defining line of the published classification past the
#                    point where the tagged games stop would settle it
import collections, re, sys

START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR'


def start_board():
    board = {}
    for r, row in enumerate(START.split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 9 - r)] = ch
                f += 1
    return board


def key(board, side):
    cells = [board.get((f, r), '.') for r in range(10) for f in range(9)]
    mirrored = [board.get((8 - f, r), '.') for r in range(10) for f in range(9)]
    return min(''.join(cells), ''.join(mirrored)) + side


def positions(moves):
    board, out = start_board(), []
    for i, mv in enumerate(moves):
        mv = mv.replace('-', '').lower()
        src = (ord(mv[0]) - 97, int(mv[1]))
        dst = (ord(mv[2]) - 97, int(mv[3]))
        board[dst] = board.pop(src)
        out.append(key(board, 'wb'[(i + 1) % 2]))
    return out


def standard_games(pgn_path):
    """The first 20 plies (ICCS) of each game from the standard start with moves."""
    text = open(pgn_path, encoding='utf-8', errors='replace').read()
    for record in re.split(r'\n(?=\[Game )', text):
        fen = re.search(r'^\[FEN "([^" ]*)', record, re.M)
        body = '\n'.join(l for l in record.split('\n') if not l.startswith('['))
        moves = re.findall(r'\b[A-I][0-9]-[A-I][0-9]\b', body)
        if moves and (fen is None or fen.group(1) == START):
            yield moves[:20]


def main(joined_path, iccs_path):
    joined = [l.rstrip('\n').split('\t') for l in open(joined_path, encoding='utf-8')]
    iccs = list(standard_games(iccs_path))
    if len(joined) != len(iccs):
        sys.exit('miss-causes: %d games in %s, %d in %s' %
                 (len(joined), joined_path, len(iccs), iccs_path))
    paths = [positions(m) for m in iccs]
    tagged = set()
    for j, path in zip(joined, paths):
        if j[1] != '-':
            tagged.update(path)
    causes, pairs, leave_at = collections.Counter(), collections.defaultdict(collections.Counter), collections.Counter()
    for j, path in zip(joined, paths):
        ours, declared, oracle = j[0], j[1], j[3]
        if ours == oracle:
            continue
        if declared != '-':
            cause = 'tag-conflict' if declared == ours else 'tag-other'
        else:
            last = max((i + 1 for i, k in enumerate(path) if k in tagged), default=0)
            if last == len(path):
                cause = 'on-tagged-path'
            else:
                cause = 'leaves-tagged-positions'
                leave_at[last] += 1
        causes[cause] += 1
        pairs[cause][(ours, oracle)] += 1
    n = len(joined)
    agree = sum(1 for j in joined if j[0] == j[3])
    print('games %d, agree %d (%.2f%%), differ %d' % (n, agree, 100.0 * agree / n, n - agree))
    for cause, count in causes.most_common():
        top = ', '.join('%s/%s %d' % (a, b, c) for (a, b), c in pairs[cause].most_common(8))
        print('%-24s %4d  codes (ours/oracle): %d pairs; largest: %s' %
              (cause, count, len(pairs[cause]), top))
    # the code pairs on which the tags and the oracle disagree, in every cause: the
    # games a ruling of the published classification on those pairs would settle
    split = set(pairs['tag-conflict'])
    settled = sum(c for cause in pairs for pair, c in pairs[cause].items() if pair in split)
    print('on the %d code pairs where tags and oracle disagree: %d games' % (len(split), settled))
    if leave_at:
        print('leaves-tagged-positions, by the last ply on a tagged position:',
              ' '.join('%d:%d' % kv for kv in sorted(leave_at.items())))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: miss-causes.py JOINED ICCS')
    main(sys.argv[1], sys.argv[2])
