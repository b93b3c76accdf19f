#!/usr/bin/env python3
"""xqf_decode.py: an independent XQF decoder for the tests (not the C code under test).

Written from ../shared/reference/xiangqi-databases.md section 1 alone. For each file
it prints one line: the file name, a TAB, the start placement (FEN board part), a TAB,
and the move tree as UCCI moves with variations in parentheses after the move they
replace (PGN order), or "ERROR <why>" when the file does not decode.
"""
import sys

COPY = b"[(C) Copyright Mr. Dong Shiwei.]"
LETTERS = "RNBAKABNRCCPPPPPrnbakabnrccppppp"


def keys(h):
    ver = h[2]
    if ver <= 10:
        return dict(kp=0, kf=0, kt=0, kr=0, stream=bytes(32), old=True, ver=ver)
    mask, s, xy, xyf, xyt = h[3], h[12], h[13], h[14], h[15]
    if (s + xy + xyf + xyt) % 256:
        raise ValueError("key sum")
    f = lambda k: (((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8)  # the nested form
    kp = (f(xy) * xy) % 256
    kf = (f(xyf) * kp) % 256
    kt = (f(xyt) * kf) % 256
    kr = ((s * 256 + xy) % 32000) + 767
    b = [(s & mask) | h[8], (xy & mask) | h[9], (xyf & mask) | h[10], (xyt & mask) | h[11]]
    stream = bytes(COPY[i] & b[i % 4] for i in range(32))
    return dict(kp=kp, kf=kf, kt=kt, kr=kr, stream=stream, old=False, ver=ver)


def board(h, k):
    sq = [0] * 32
    for i in range(32):
        slot = (i + 1 + k["kp"]) % 32 if k["ver"] >= 12 else i
        sq[slot] = (h[16 + i] - k["kp"]) % 256
    rows = []
    grid = {}
    for i, v in enumerate(sq):
        if v <= 89 and (v // 10, v % 10) not in grid:
            grid[(v // 10, v % 10)] = LETTERS[i]
    for y in range(9, -1, -1):
        row, empty = "", 0
        for x in range(9):
            c = grid.get((x, y))
            if c is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + c
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def sq_name(v):
    return "?" if v > 89 else "abcdefghi"[v // 10] + str(v % 10)


def tree(d, k):
    p = 1024
    plain = lambda i: (d[i] - k["stream"][i % 32]) % 256
    nodes = []  # (move, child, sibling) in file order
    while True:
        if p + 4 > len(d):
            raise ValueError("overrun")
        fr = (plain(p) - 0x18 - k["kf"]) % 256
        to = (plain(p + 1) - 0x20 - k["kt"]) % 256
        tag = plain(p + 2)
        p += 4
        if k["old"]:
            child, sib, com = tag & 0xF0, tag & 0x0F, True
        else:
            child, sib, com = tag & 0x80, tag & 0x40, tag & 0x20
        if com:
            n = int.from_bytes(bytes(plain(p + i) for i in range(4)), "little", signed=True)
            p += 4
            if not k["old"] and n > 0:
                n -= k["kr"]
            if n < 0 or p + n > len(d):
                raise ValueError("comment length")
            p += n
        nodes.append((sq_name(fr) + sq_name(to), bool(child), bool(sib)))
        # the tree ends when no open sibling remains after a childless node
        if not child:
            open_sibs = 0
            # count pending siblings: recomputed below by a recursive parse
            pass
        if not child and pending(nodes) == 0:
            break
    if p != len(d):
        raise ValueError("trailing bytes")
    return nodes


def pending(nodes):
    # siblings announced minus siblings delivered, in DFS order
    stack = 0
    for i, (_, child, sib) in enumerate(nodes):
        if i > 0 and sib:
            stack += 1
        if not child and i < len(nodes) - 1:
            stack -= 1
    return stack


def render(nodes):
    """Rebuild the tree recursively and print it in PGN order."""
    pos = [1]  # skip the root

    def line():
        # a line: nodes linked by the child flag; each node's siblings come after its subtree
        out = []
        while True:
            i = pos[0]
            move, child, sib = nodes[i]
            pos[0] += 1
            rest = line() if child else []
            alts = []
            while sib:
                j = pos[0]
                alts.append(nodes[j])
                alt = line_from(j)
                out_alt = alt
                alts[-1] = out_alt
                sib = nodes[j][2]
            out.append((move, alts))
            out.extend(rest)
            return out

    def line_from(j):
        # the sibling node j heads a variation; its own sibling is read by the caller
        pos[0] = j
        move, child, _ = nodes[j]
        pos[0] += 1
        rest = line() if child else []
        return [(move, [])] + rest

    if len(nodes) < 2 or not nodes[0][1]:
        return []
    return line()


def text(l):
    out = []
    for move, alts in l:
        out.append(move)
        for a in alts:
            out.append("(" + " ".join(text(a)) + ")")
    return out


def main():
    for path in sys.argv[1:]:
        d = open(path, "rb").read()
        try:
            if d[:2] != b"XQ" or len(d) < 1024 or d[2] > 18:
                raise ValueError("header")
            k = keys(d)
            b = board(d, k)
            nodes = tree(d, k)
            print("%s\t%s\t%s" % (path, b, " ".join(text(render(nodes)))))
        except (ValueError, IndexError) as e:
            print("%s\tERROR %s" % (path, e))


if __name__ == "__main__":
    main()
