#!/usr/bin/env python3
"""make-table.py: arbiter's ECCO table from the ECCO tags of real game records.

Input (stdin): xiangqi PGN in ICCS notation as `arbiter convert --to pgn -n iccs
--strip comments,variations,nags` writes it, over the tagged corpora (see README.md).
Only games from the standard start with a well-formed [ECCO] tag are read.

Rule: the tagged games are replayed ply by ply over their first 20 plies, each carrying
the code it has reached so far (none at the start). At a position, the games arriving
with code c take the code most of them carry (ties: c if it is among the most, else the
smaller code); positions and their left-right mirror images are one position. A
position is written as a line (with the code most of all the games through it carry)
where some game changes code there; a line "from" c (third column) is written where the
games arriving with c take another code than that. db_ecco.c walks a game the same way:
at a written position, the line from the code it carries, else the position's line if
the game carries no code yet or its code leads there (reach.tsv: the codes the games
move on to from each code, directly or through others). Each line: code, the ICCS moves
of the first game that reached the position, and the code it is "from", if any; the
lines are sorted by their moves.

Defining lines written by hand (defining.tsv, from the published classification, each
with its reason) name their position whatever the tags say: the root of each family (a
short game gets the family's code, where the majority would give the code of the most
played continuation), and deep lines where a tagger stops reading early (the Practical
dataset's tagger gives the shorter code where plies 15-20 decide a deeper one). A deep
line is marked "relabel": a tagged game that passes through it counts, from there on,
for the line's code, if its code is of the line's group (the same letter and first
digit: the published subgroups, C3 中炮过河车互进七兵对屏风马 "not 平炮兑车" against C4
平炮兑车); a game of another group (C31 上士, where 士4进5 came before 炮8平9) keeps
its code.

Names (names.tsv): the Opening and Variation tags written beside the code, the most
frequent spelling of each code.

Output: lines.tsv, names.tsv and reach.tsv in the directory given as the first argument.
Read the games in a fixed order (the file names sorted, README.md): the first line of a
position is the first game's."""
import collections, os, re, sys

START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR'
PLIES = 20


def start_board():
    b = {}
    for i, rank in enumerate(START.split('/')):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
            else:
                b[(f, 9 - i)] = ch
                f += 1
    return b


def games(stream):
    tags, moves = {}, []
    for line in stream:
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            if moves:
                yield tags, moves
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
        else:
            moves += re.findall(r'\b([A-I]\d-[A-I]\d)\b', line)
    if tags or moves:
        yield tags, moves


def positions(moves):
    b, out = start_board(), []
    for i, m in enumerate(moves[:PLIES]):
        fr, to = (ord(m[0]) - 65, int(m[1])), (ord(m[3]) - 65, int(m[4]))
        b[to] = b.pop(fr)
        k1 = tuple(sorted(b.items()))
        k2 = tuple(sorted(((8 - f, r), p) for (f, r), p in b.items()))
        out.append((min(k1, k2), i % 2))
    return out


def defining(path):
    lines = []
    with open(path, encoding='utf-8') as f:
        for row in f:
            if row.startswith('#') or not row.strip():
                continue
            code, moves, relabel, _why = row.rstrip('\n').split('\t')
            moves = moves.upper().split()
            lines.append((code, moves, positions(moves)[-1], relabel == 'relabel'))
    return lines


def main():
    outdir = sys.argv[1]
    forced = {p: (code, moves, relabel)
              for code, moves, p, relabel in defining(os.path.join(outdir, 'defining.tsv'))}
    count = collections.defaultdict(collections.Counter)
    first_line = {}
    names = collections.defaultdict(collections.Counter)
    tagged, tagged_code = [], []
    for tags, moves in games(sys.stdin):
        code = tags.get('ECCO', '')
        fen = tags.get('FEN')
        if not re.fullmatch(r'[A-E]\d\d', code) or (fen and not fen.startswith(START + ' w')):
            continue
        if not moves:
            continue
        if tags.get('Opening'):
            names[code][(tags['Opening'], tags.get('Variation', ''))] += 1
        pos = positions(moves)
        tagged.append(pos)
        tagged_code.append([])
        for i, p in enumerate(pos):
            if p in forced and forced[p][2] and code[:2] == forced[p][0][:2]:
                code = forced[p][0]
            count[p][code] += 1
            tagged_code[-1].append(code)
            first_line.setdefault(p, moves[:i + 1])
    label = {p: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for p, c in count.items()}
    for p, (code, moves, _) in forced.items():
        label[p] = code
        first_line[p] = moves
    # The move order: replayed ply by ply, each game carries the code it has reached so
    # far; a position then names, for the games arriving with code c, the code most of
    # those games carry (ties: c itself if it is among the most, else the smaller code).
    # Where games reach one position by orders that name different codes (C45 and C46,
    # C65 and C67, ...), the code they arrive with keeps them apart.
    out = {}
    cur = [None] * len(tagged)
    for ply in range(PLIES):
        here = collections.defaultdict(collections.Counter)
        for g, pos in enumerate(tagged):
            if ply < len(pos):
                p = pos[ply]
                code = tagged_code[g][ply]
                here[(p, cur[g])][code] += 1
        for (p, c_in), c in here.items():
            if (p, c_in) in out:
                continue
            if p in forced and not (forced[p][2] and c_in and c_in[:2] != forced[p][0][:2]):
                out[(p, c_in)] = forced[p][0]
                continue
            top = max(c.values())
            best = sorted(k for k, v in c.items() if v == top)
            out[(p, c_in)] = c_in if c_in in best else best[0]
        for g, pos in enumerate(tagged):
            if ply < len(pos):
                cur[g] = out[(pos[ply], cur[g])]
    # a position is written (its code: the majority's) where some game changes code
    # there; a line "from" a code is written where the games arriving with that code
    # take another code than the position's
    keep = set(forced)
    keep.update(p for (p, c_in), c_out in out.items() if c_out != c_in)
    rows = set()
    for p in keep:
        rows.add((' '.join(first_line[p]).lower(), label[p], ''))
    for (p, c_in), c_out in out.items():
        if p in keep and c_out != label[p]:
            rows.add((' '.join(first_line[p]).lower(), c_out, c_in or '-'))
    # the codes a game moves on to from each code (directly, or through others), as the
    # tagged games do
    reach = collections.defaultdict(set)
    for (p, c_in), c_out in out.items():
        if c_in and c_out != c_in:
            reach[c_in].add(c_out)
    changed = True
    while changed:
        changed = False
        for c in list(reach):
            more = set().union(*(reach.get(d, set()) for d in reach[c])) - reach[c] - {c}
            if more:
                reach[c] |= more
                changed = True
    with open(os.path.join(outdir, 'reach.tsv'), 'w', encoding='utf-8') as f:
        f.write('# ECCO code, the codes a tagged game moves on to from it (make-table.py)\n')
        for c in sorted(reach):
            f.write('%s\t%s\n' % (c, ' '.join(sorted(reach[c]))))
    # sorted by moves, so that db_ecco.c replays each line from where it departs from the
    # line before
    rows = sorted(rows)
    with open(os.path.join(outdir, 'lines.tsv'), 'w', encoding='utf-8') as f:
        f.write('# ECCO code, ICCS moves from the standard start (made by make-table.py)\n')
        for line, code, c_in in rows:
            f.write('%s\t%s%s\n' % (code, line, '\t' + c_in if c_in else ''))
    with open(os.path.join(outdir, 'names.tsv'), 'w', encoding='utf-8') as f:
        f.write('# ECCO code, opening, variation, games carrying that spelling (make-table.py)\n')
        for code in sorted(names):
            (op, var), n = min(names[code].items(), key=lambda kv: (-kv[1], kv[0]))
            f.write('%s\t%s\t%s\t%d\n' % (code, op, var, n))
    print('make-table: %d tagged games, %d positions, %d lines, %d codes, %d named'
          % (len(tagged), len(count), len(rows), len(set(r[1] for r in rows)), len(names)),
          file=sys.stderr)


main()
