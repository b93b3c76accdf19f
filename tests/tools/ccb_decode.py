#!/usr/bin/env python3
"""ccb_decode.py [--counts] FILE...: an independent CCBridge decoder for the tests (not
the C code under test), written from ../shared/reference/database-maintenance.md §4 and,
for the compressed library, from the layout described at the top of src/io/cbl_packed.c.

For each game (one per CBR/CBF file, one per used index entry or record of a CBL
library) it prints a line: the file name and game number, a TAB, the start placement
(FEN board part), a TAB, and the move tree as UCCI moves with variations in
parentheses after the move they replace (PGN order). With --counts it prints instead,
per file: "NAME games G moves M branches B comments C" (comments: non-empty ones,
the game comment included).
"""
import re
import struct
import sys
import zlib

LETTERS = "?RNBAKCP"
STD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def fen_board(board):
    rows = []
    for r in range(10):
        s, e = "", 0
        for c in range(9):
            v = board[r * 9 + c]
            if not v:
                e += 1
                continue
            if e:
                s += str(e)
            e = 0
            l = LETTERS[v & 15]
            s += l if v & 0x10 else l.lower()
        if e:
            s += str(e)
        rows.append(s)
    return "/".join(rows)


def ucci(f, t):
    return "%s%d%s%d" % ("abcdefghi"[f % 9], 9 - f // 9, "abcdefghi"[t % 9], 9 - t // 9)


class Node:
    def __init__(self, move, comment):
        self.move, self.comment, self.next, self.alts = move, comment, None, []


def render(first):
    """PGN order: a move, its alternatives in parentheses, then the continuation."""
    out = []
    n = first
    while n:
        out.append(n.move)
        for a in n.alts:
            out.append("(" + " ".join(render(a)) + ")")
        n = n.next
    return out


def count(first):
    moves = branches = comments = 0
    stack = [first] if first else []
    while stack:
        n = stack.pop()
        while n:
            moves += 1
            comments += bool(n.comment)
            for a in n.alts:
                branches += 1
                stack.append(a)
            n = n.next
    return moves, branches, comments


def cbr(d):
    """A CBR version 2 record: (board, first node, root comment)."""
    if d[:16] != b"CCBridge Record\0" or d[19] != 2:
        raise ValueError("not a version 2 CBR record")
    board = fen_board(d[2120:2210])
    p = 2214
    # the tree: (flags, 0, from, to), flag 4 comment, 1 no continuation, 2 alternative
    first = None
    root_comment = ""
    parent = None   # node whose continuation comes next
    anchor = None   # node whose alternative comes next
    pending = []
    root = True
    while True:
        flags, _, f, t = d[p:p + 4]
        p += 4
        comment = ""
        if flags & 4:
            (n,) = struct.unpack_from("<I", d, p)
            comment = d[p + 4:p + 4 + n].decode("utf-16le").replace("\0", "")
            p += 4 + n
        if root:
            root = False
            root_comment = comment
            if flags & 1:
                break
            continue
        node = Node(ucci(f, t), comment.strip())
        if anchor:
            anchor.alts.append(node)
            owner = anchor
        elif parent:
            parent.next = node
            owner = node
        else:
            first = node
            owner = node
        anchor = None
        if flags & 2:
            pending.append(owner)
        if not flags & 1:
            parent = node
            continue
        if not pending:
            break
        anchor = pending.pop()
        parent = None
    return board, first, root_comment.strip(), p


def cbl(d):
    if d[:16] == b"CCBridgeLibrary\0":
        (cap,) = struct.unpack_from("<I", d, 60)
        base = 66624 + 276 * cap
        slot = 0
        for i in range(cap):
            typ, _, slots, length = struct.unpack_from("<4I", d, 66624 + 276 * i)
            if typ == 0:
                continue
            off = base + 4096 * slot
            slot += slots
            board, first, rc, end = cbr(d[off:off + length])
            if end != length:
                raise ValueError("tree ends at %d of %d" % (end, length))
            yield board, first, rc
        return
    if d[:8] != b"CCBridge":
        raise ValueError("not a library")
    u = zlib.decompress(d[20:])
    p = 0

    def text():
        nonlocal p
        (n,) = struct.unpack_from("<I", u, p)
        s = u[p + 4:p + 4 + n]
        p += 4 + n
        return s

    text()
    for _ in range(4):
        text()
    p += 38
    p += 4
    text()
    while p < len(u):
        (length,) = struct.unpack_from("<I", u, p)
        r, q0 = u[p:p + length], p
        p += length
        sq = r[4:36]
        board = [0] * 90
        kinds = [1, 2, 3, 4, 5, 4, 3, 2, 1, 6, 6, 7, 7, 7, 7, 7]
        for i, v in enumerate(sq):
            if v:
                board[((v & 15) - 1) * 9 + (v >> 4) - 1] = (0x10 if i < 16 else 0x20) | kinds[i % 16]
        q = 48
        for _ in range(7):
            (n,) = struct.unpack_from("<I", r, q)
            q += 4 + n
        q += 4
        for _ in range(4):
            (n,) = struct.unpack_from("<I", r, q)
            q += 4 + n
        (n,) = struct.unpack_from("<I", r, q)
        remark = r[q + 4:q + 4 + n].decode("gbk")
        q += 4 + n + 1 + 38
        (count_,) = struct.unpack_from("<I", r, q)
        q += 4
        nodes = []
        for i in range(count_):
            ply, f, t = struct.unpack_from("<HBB", r, q + 6 * i)
            nodes.append((ply, (f & 15) * 9 + (f >> 4), (t & 15) * 9 + (t >> 4)))
        q += 6 * count_
        comments = r[q:].split(b"\r\n")
        first, path = None, {}
        for i, (ply, f, t) in enumerate(nodes):
            node = Node(ucci(f, t), comments[i].decode("gbk").strip())
            if ply == 1 and first is None:
                first = node
            elif ply in path:
                # an alternative to the move at that ply on the current line
                owner = path[ply]
                while getattr(owner, "owner", None):
                    owner = owner.owner
                owner.alts.append(node)
                node.owner = owner
            else:
                path[ply - 1].next = node
            path[ply] = node
            for k in [k for k in path if k > ply]:
                del path[k]
        yield fen_board(board), first, remark.strip()


def cbf(d):
    s = d.decode("utf-8-sig")
    moves = re.findall(r'<Move value="(\d)(\d)-(\d)(\d)"[^>]*?(?:/>|>(.*?)</Move>)', s, re.S)
    fen = re.search(r"<FEN>([^ <]+)", s)
    first = parent = None
    root_comment = ""
    for i, (c1, r1, c2, r2, body) in enumerate(moves):
        cm = re.sub(r"<!\[CDATA\[(.*?)\]\]>", r"\1", body or "", flags=re.S).strip()
        if i == 0:
            root_comment = cm
            continue
        node = Node(ucci(int(r1) * 9 + int(c1), int(r2) * 9 + int(c2)), cm)
        if parent:
            parent.next = node
        else:
            first = node
        parent = node
    yield (fen.group(1) if fen else STD), first, root_comment


def games(path):
    d = open(path, "rb").read()
    if d[:16] == b"CCBridge Record\0":
        b, f, rc, _ = cbr(d)
        return [(b, f, rc)]
    if d[:8] == b"CCBridge":
        return list(cbl(d))
    return list(cbf(d))


def main():
    args = sys.argv[1:]
    counts = args and args[0] == "--counts"
    if counts:
        args = args[1:]
    for path in args:
        gs = games(path)
        if counts:
            m = b = c = 0
            for _, first, rc in gs:
                x = count(first)
                m, b, c = m + x[0], b + x[1], c + x[2] + bool(rc)
            print("%s games %d moves %d branches %d comments %d" % (path.split("/")[-1], len(gs), m, b, c))
            continue
        for k, (board, first, _) in enumerate(gs, 1):
            if board == "9/9/9/9/9/9/9/9/9/9" and first is None:
                board = STD  # a library's heading record: no position at all
            print("%s#%d\t%s\t%s" % (path, k, board, " ".join(render(first))))


if __name__ == "__main__":
    main()
