#!/usr/bin/env python3
"""xqf_compare.py DECODED PGN: compare xqf_decode.py's trees with arbiter's PGN output.

DECODED is xqf_decode.py's output for the files, PGN is `arbiter convert -n ucci
--strip comments,nags` of the same files in the same order (one game per file). A
move not replayed by arbiter is kept in a "{not replayed: ...}" comment: its text is
compared as well. Prints one line per disagreement and a last line "N files, N agree".
"""
import re
import sys

STD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def games(pgn):
    chunks = re.split(r'(?=^\[Game "Chinese Chess"\])', pgn, flags=re.M)
    return [c for c in chunks if c.strip()]


def tokens(game):
    fen = re.search(r'^\[FEN "([^ "]+)', game, re.M)
    body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
    body = body.replace("{not replayed:", " ").replace("}", " ")
    body = body.replace("(", " ( ").replace(")", " ) ")
    out = []
    for t in body.split():
        if re.fullmatch(r"\d+\.(\.\.)?", t) or t in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        out.append(t)
    return (fen.group(1) if fen else STD), " ".join(out).replace("( ", "(").replace(" )", ")")


def main():
    decoded = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
    got = games(open(sys.argv[2], encoding="utf-8").read())
    agree = 0
    if len(got) != len(decoded):
        print("game count: %d decoded, %d from arbiter" % (len(decoded), len(got)))
    for d, g in zip(decoded, got):
        if len(d) < 3:
            print("%s: %s" % (d[0], d[1] if len(d) > 1 else "?"))
            continue
        board, moves = tokens(g)
        if board != d[1]:
            print("%s: board %s, expected %s" % (d[0], board, d[1]))
        elif moves != d[2]:
            print("%s: moves differ\n  arbiter: %s\n  decoder: %s" % (d[0], moves, d[2]))
        else:
            agree += 1
    print("%d files, %d agree" % (len(decoded), agree))


if __name__ == "__main__":
    main()
