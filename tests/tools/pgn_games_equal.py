#!/usr/bin/env python3
"""pgn_games_equal.py A B [--skip-broken]: compare two PGN streams game by game.

Prints "N games, N equal" (and the first differences). With --skip-broken a game whose
text in A holds "{not replayed:" (a record with an error, whose tail PGN can only keep
as a comment) is not counted.
"""
import re
import sys


def games(path):
    text = open(path, encoding="utf-8").read()
    return [c for c in re.split(r'(?=^\[Game "Chinese Chess"\])', text, flags=re.M) if c.strip()]


a, b = games(sys.argv[1]), games(sys.argv[2])
skip = "--skip-broken" in sys.argv
n = equal = 0
shown = 0
for i, (x, y) in enumerate(zip(a, b)):
    if skip and "{not replayed:" in x:
        continue
    n += 1
    if x == y:
        equal += 1
    elif shown < 3:
        shown += 1
        print("game %d differs:\n  %s\n  %s" % (i + 1, x[:300].replace("\n", " "), y[:300].replace("\n", " ")))
if len(a) != len(b):
    print("game counts differ: %d and %d" % (len(a), len(b)))
    n += 1
print("%d games, %d equal" % (n, equal))
