#!/usr/bin/env python3
"""lib_compare.py: the Python binding against the command line, one input.

    lib_compare.py ARBITER FILE [--from F]

Prints one line "ok WHAT" or "not ok WHAT: why" per comparison (python.test turns
them into TAP):
  - the games, their variant, status, tags, plies, result verdict, findings and claims
    (code, severity, line, column or offset, ply, move, message, suggestions) equal
    those of "arbiter check -j 1 --no-names --no-twins --report jsonl";
  - the text of convert("pgn", N) for every game, concatenated, equals "arbiter convert
    -j 1 -n N" (for chess san and uci, for xiangqi wxf and iccs), and the same for
    convert("wxf") against "--to wxf" when every game is xiangqi;
  - moves(N) of every game without an error equal the main line of "arbiter convert
    --strip comments,nags,variations -n N".
"""

import json
import re
import subprocess
import sys

import arbiter


def cli(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return r.stdout.decode("utf-8", "replace")


def finding_of_json(f):
    return (f["code"], f["severity"], f.get("line", 0), f.get("column", 0),
            f.get("offset") if "line" not in f else None, f.get("ply", 0), f.get("move"),
            f["message"], tuple(f.get("suggestions", ())))


def finding_of_lib(f):
    return (f.code, f.severity, f.line, f.column, f.offset if f.line == 0 else None, f.ply,
            f.move, f.message, f.suggestions)


def movetext_moves(text):
    """The moves of each game of a stripped PGN export (no comments, NAGs, variations)."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        lines = [l for l in block.split("\n") if not l.startswith("[")]
        toks = " ".join(lines).split()
        moves = [t for t in toks if not re.match(r"^\d+\.+$", t)
                 and t not in ("1-0", "0-1", "1/2-1/2", "*")]
        moves = [re.sub(r"^\d+\.+", "", t) for t in moves]
        games.append([m for m in moves if m])
    return games


def main():
    exe, path = sys.argv[1], sys.argv[2]
    from_ = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--from" else None
    extra = ["--from", from_] if from_ else []
    name = path.rsplit("/", 1)[-1]
    games = list(arbiter.read(path, from_=from_))
    report = [json.loads(l) for l in cli([exe, "check", "-j", "1", "--no-names", "--no-twins",
                                          "--report", "jsonl", "-q"] + extra + [path]).splitlines()
              if l.startswith("{\"file\"")]

    def say(ok, what, why=""):
        print(("ok " if ok else "not ok ") + name + ": " + what + ("" if ok else ": " + why))

    say(len(games) == len(report), "%d games" % len(report), "the binding read %d" % len(games))
    diffs = []
    for g, j in zip(games, report):
        mine = {
            "game": g.number, "variant": g.variant, "status": g.status, "tags": g.tags,
            "plies": g.plies,
            "result": {"declared": g.result, "derived": g.derived_result,
                       "reason": g.derived_reason},
            "final_fen": g.final_fen,
            "findings": [finding_of_lib(f) for f in g.findings],
            "claims": [finding_of_lib(f) for f in g.claims],
        }
        theirs = {
            "game": j["game"], "variant": j["variant"], "status": j["status"], "tags": j["tags"],
            "plies": j["plies"], "result": j["result"], "final_fen": j.get("final_fen"),
            "findings": [finding_of_json(f) for f in j["findings"]],
            "claims": [finding_of_json(f) for f in j["claims"]],
        }
        for k in mine:
            if mine[k] != theirs[k]:
                diffs.append("game %d %s: %r != %r" % (j["game"], k, mine[k], theirs[k]))
    nf = sum(len(g.findings) + len(g.claims) for g in games)
    say(not diffs, "games, tags, verdicts and %d findings and claims equal check's" % nf,
        "; ".join(diffs[:3]))

    kinds = {g.variant for g in games}
    notations = []
    if "chess" in kinds:
        notations += ["san", "uci"]
    if "xiangqi" in kinds:
        notations += ["wxf", "iccs"]
    for n in notations:
        mine = "".join(g.convert("pgn", n) for g in games)
        theirs = cli([exe, "convert", "-q", "-j", "1", "-n", n] + extra + [path])
        say(mine == theirs, "convert('pgn', %s) is 'arbiter convert -n %s'" % (n, n),
            "%d bytes against %d" % (len(mine), len(theirs)))
        stripped = movetext_moves(cli([exe, "convert", "-q", "-j", "1", "-n", n, "--strip",
                                       "comments,nags,variations"] + extra + [path]))
        bad = []
        for g, m in zip(games, stripped):
            # games with an error, or not replayed (a comment keeps them as written)
            if (g.status == "errors" or any(t.startswith("{") for t in m)
                    or (g.variant == "chess") != (n in ("san", "uci"))):
                continue
            if g.moves(n) != m:
                bad.append("game %d: %r != %r" % (g.number, g.moves(n)[:6], m[:6]))
        say(not bad, "moves(%s) are the main lines convert writes" % n, "; ".join(bad[:2]))
    if games and kinds == {"xiangqi"}:
        mine = "".join(g.convert("wxf") for g in games)
        theirs = cli([exe, "convert", "-q", "-j", "1", "--to", "wxf"] + extra + [path])
        say(mine == theirs, "convert('wxf') is 'arbiter convert --to wxf'",
            "%d bytes against %d" % (len(mine), len(theirs)))


main()
