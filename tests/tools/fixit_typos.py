#!/usr/bin/env python3
"""fixit_typos.py: typo sets from real games, and how well arbiter's suggestions and
`arbiter fix` find the move really played (issue 14's goals).

usage: fixit_typos.py ARBITER CLEAN.pgn NOTATION KIND COUNT SEED WORKDIR

CLEAN.pgn: games in export form that check without errors (arbiter convert --strip
comments,nags,variations [--notation N]). NOTATION: san, wxf, vi, chinese. KIND: one of
the typo kinds of that notation (--list prints them), or "all". One typo per game, in
a random ply; cases where the typo is itself a legal move (no error at that ply) are
dropped. Prints one line: kind, cases, top-1 %, top-3 %, fix restore %.
"""
import json
import os
import random
import re
import subprocess
import sys

CN_DIGITS = "一二三四五六七八九"
FW_DIGITS = "１２３４５６７８９"


def strip(t):
    return t.rstrip("+#!?")


def shift_char(c, alphabet, d):
    i = alphabet.find(c)
    if i < 0 or not 0 <= i + d < len(alphabet):
        return None
    return alphabet[i + d]


def at_positions(t, pred):
    return [i for i, c in enumerate(t) if pred(c)]


# ---- typo kinds: each takes (token, rng) and returns the typo'd token or None

def k_piece(t, r, letters):
    idx = at_positions(t, lambda c: c in letters)
    if not idx:
        return None
    i = r.choice(idx)
    return t[:i] + r.choice([c for c in letters if c != t[i]]) + t[i + 1:]


def k_shift(t, r, alphabet):
    idx = at_positions(t, lambda c: c in alphabet)
    if not idx:
        return None
    i = r.choice(idx)
    c = shift_char(t[i], alphabet, r.choice((-1, 1)))
    return None if c is None else t[:i] + c + t[i + 1:]


def k_swap_chars(t, r):
    b = strip(t)
    if len(b) < 2:
        return None
    i = r.randrange(len(b) - 1)
    if b[i] == b[i + 1]:
        return None
    return b[:i] + b[i + 1] + b[i] + b[i + 2:] + t[len(b):]


def k_drop_disambig(t, r):
    m = re.match(r"^([NBRQK])([a-h1-8])(x?[a-h][1-8].*)$", t)
    return m.group(1) + m.group(3) if m else None


def k_wrong_disambig(t, r):
    m = re.match(r"^([NBRQK])([a-h])(x?[a-h][1-8].*)$", t)
    if not m:
        return None
    return m.group(1) + r.choice([c for c in "abcdefgh" if c != m.group(2)]) + m.group(3)


def k_pawn_push(t, r):
    m = re.match(r"^[a-h]x([a-h][1-8].*)$", t)
    return m.group(1) if m else None


def k_castle(t, r):
    b = strip(t)
    if b == "O-O":
        return "O-O-O"
    if b == "O-O-O":
        return "O-O"
    return None


def k_double(t, r):
    b = strip(t)
    idx = at_positions(b, lambda c: c.isdigit() or c in CN_DIGITS + FW_DIGITS)
    if not idx:
        return None
    i = r.choice(idx)
    return b[:i + 1] + b[i] + b[i + 1:]


def k_sign(t, r, signs):
    idx = at_positions(t, lambda c: c in signs)
    if not idx:
        return None
    i = idx[-1] if len(idx) > 1 and r.random() < 0.7 else r.choice(idx)
    return t[:i] + r.choice([c for c in signs if c != t[i]]) + t[i + 1:]


def k_front_rear(t, r, marks):
    # only a tandem marker: WXF C+.5 (second character), Vietnamese Xs-5, Chinese 前炮
    for i, c in enumerate(t[:2]):
        if c in marks and (i == 1 or marks != "+-"):
            if marks == "+-" and i != 1:
                continue
            return t[:i] + [m for m in marks if m != c][0] + t[i + 1:]
    return None


KINDS = {
    "san": {
        "piece": lambda t, r: k_piece(t, r, "NBRQK"),
        "file": lambda t, r: k_shift(t, r, "abcdefgh"),
        "rank": lambda t, r: k_shift(t, r, "12345678"),
        "swap-chars": k_swap_chars,
        "drop-disambig": k_drop_disambig,
        "wrong-disambig": k_wrong_disambig,
        "pawn-push": k_pawn_push,
        "castle-side": k_castle,
        "doubled-digit": k_double,
        "plies-swapped": None,
    },
    "wxf": {
        "piece": lambda t, r: k_piece(t, r, "KAEHRCP"),
        "digit": lambda t, r: k_shift(t, r, "123456789"),
        "sign": lambda t, r: k_sign(t, r, ".+-"),
        "front-rear": lambda t, r: k_front_rear(t, r, "+-"),
        "swap-chars": k_swap_chars,
        "doubled-digit": k_double,
        "plies-swapped": None,
    },
    "vi": {
        "piece": lambda t, r: k_piece(t, r, "SXMPBT"),
        "digit": lambda t, r: k_shift(t, r, "123456789"),
        "sign": lambda t, r: k_sign(t, r, "./-"),
        "front-rear": lambda t, r: k_front_rear(t, r, "ts"),
        "doubled-digit": k_double,
        "plies-swapped": None,
    },
    "chinese": {
        "piece": lambda t, r: k_piece(t, r, "车马炮相仕兵卒象士"),
        "digit": lambda t, r: k_shift(t, r, CN_DIGITS) or k_shift(t, r, FW_DIGITS),
        "sign": lambda t, r: k_sign(t, r, "进退平"),
        "front-rear": lambda t, r: k_front_rear(t, r, "前后"),
        "doubled-digit": k_double,
        "plies-swapped": None,
    },
}

NUMBER = re.compile(r"^\d+\.(\.\.)?$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def split_games(text):
    """[(headers, [move tokens])] of an export-format file."""
    games = []
    for chunk in re.split(r"\n\n(?=\[)", text.strip("\n")):
        head, _, body = chunk.partition("\n\n")
        toks = [t for t in body.split() if not NUMBER.match(t) and t not in RESULTS]
        games.append((head, toks))
    return games


def write_game(head, toks):
    out, line = [], ""
    for i, t in enumerate(toks):
        w = (f"{i // 2 + 1}. " if i % 2 == 0 else "") + t
        if len(line) + len(w) + 1 > 79:
            out.append(line)
            line = w
        else:
            line = w if not line else line + " " + w
    m = re.search(r'\[Result "([^"]*)"\]', head)
    result = m.group(1) if m and m.group(1) in RESULTS else "*"
    out.append((line + " " + result).strip())
    return head + "\n\n" + "\n".join(out) + "\n"


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        for n, ks in KINDS.items():
            print(n, " ".join(ks))
        return 0
    arbiter, clean, notation, kind, count, seed, work = sys.argv[1:8]
    count, rng = int(count), random.Random(int(seed))
    games = split_games(open(clean, encoding="utf-8").read())
    kinds = list(KINDS[notation]) if kind == "all" else [kind]
    os.makedirs(work, exist_ok=True)
    for k in kinds:
        fn = KINDS[notation][k]
        cases = []  # (game text original, typo text, ply, original token)
        order = list(range(len(games)))
        rng.shuffle(order)
        for gi in order:
            if len(cases) >= count * 2:
                break
            head, toks = games[gi]
            if len(toks) < 4:
                continue
            for _ in range(12):
                p = rng.randrange(len(toks) - 1)
                typo = toks[:]
                if k == "plies-swapped":
                    if strip(toks[p]) == strip(toks[p + 1]):
                        continue
                    typo[p], typo[p + 1] = toks[p + 1], toks[p]
                else:
                    new = fn(toks[p], rng)
                    if not new or strip(new) == strip(toks[p]):
                        continue
                    typo[p] = new
                cases.append((write_game(head, toks), write_game(head, typo), p + 1, toks[p]))
                break
        base = os.path.join(work, f"{notation}-{k}")
        with open(base + ".orig.pgn", "w", encoding="utf-8") as f:
            f.write("\n".join(c[0] for c in cases))
        with open(base + ".typo.pgn", "w", encoding="utf-8") as f:
            f.write("\n".join(c[1] for c in cases))
        rep = subprocess.run([arbiter, "check", "--report", "jsonl", base + ".typo.pgn"],
                             capture_output=True, text=True).stdout.splitlines()
        docs = [json.loads(l) for l in rep if l.startswith('{"file"')]
        for name in ("orig", "typo"):
            subprocess.run([arbiter, "fix", "-q", "-o", f"{base}.{name}.fixed.pgn",
                            f"{base}.{name}.pgn"], capture_output=True)
        fixed_o = split_games(open(base + ".orig.fixed.pgn", encoding="utf-8").read())
        fixed_t = split_games(open(base + ".typo.fixed.pgn", encoding="utf-8").read())
        typo_games = split_games(open(base + ".typo.pgn", encoding="utf-8").read())
        n = top1 = top3 = restored = wrong = 0
        for i, (orig, typo, ply, tok) in enumerate(cases):
            if n == count or i >= len(docs):
                break
            errs = [f for f in docs[i]["findings"] if f["severity"] == "error"]
            if not errs or errs[0].get("ply") != ply or errs[0]["code"] not in (
                    "illegal-move", "unreadable-move", "ambiguous-move"):
                continue  # the typo is a legal move, or not the first error
            n += 1
            sugg = [strip(s) for s in errs[0].get("suggestions", [])]
            top1 += bool(sugg) and sugg[0] == strip(tok)
            top3 += strip(tok) in sugg[:3]
            ok = i < len(fixed_t) and i < len(fixed_o) and fixed_t[i] == fixed_o[i]
            restored += ok
            # a repair that is not the move played: fix must never do this
            bad = not ok and i < len(fixed_t) and fixed_t[i] != typo_games[i]
            wrong += bad
            if bad and os.environ.get("FIXIT_TYPOS_VERBOSE"):
                diff = [(j, x, y) for j, (x, y) in enumerate(zip(fixed_o[i][1], fixed_t[i][1]))
                        if x != y]
                print("  wrong:", ply, tok, errs[0]["move"], sugg, diff[:3], file=sys.stderr)
        pct = (lambda x: 100.0 * x / n if n else 0.0)
        print(f"{notation:8} {k:15} cases {n:4}  top-1 {pct(top1):5.1f}%  top-3 {pct(top3):5.1f}%"
              f"  fix {pct(restored):5.1f}%  wrong fixes {wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
