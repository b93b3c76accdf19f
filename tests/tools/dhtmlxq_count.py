#!/usr/bin/env python3
"""dhtmlxq_count.py FILE: an independent count of a DhtmlXQ file's plies and branches.

Counts the 4-digit plies of every movelist and move_P_I_B field (the viewer's rule:
everything that is not a letter or digit is dropped) and the branch fields, and prints
"plies N branches N". Written from the reference (xiangqi-databases.md §2.3) alone.
"""
import re
import sys

raw = open(sys.argv[1], "rb").read()
for enc in ("utf-8-sig", "gb18030", "big5"):
    try:
        text = raw.decode(enc)
        break
    except UnicodeDecodeError:
        continue
plies = branches = 0
for m in re.finditer(r"\[DhtmlXQ_(movelist|move_\d+_\d+_\d+)\](.*?)\[/DhtmlXQ_\1\]", text, re.S | re.I):
    plies += len(re.sub(r"[^0-9A-Za-z]", "", m.group(2))) // 4
    branches += m.group(1).lower() != "movelist"
print("plies %d branches %d" % (plies, branches))
