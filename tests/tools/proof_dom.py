#!/usr/bin/env python3
"""proof_dom.py DOM YAML: check the DOM Chromium rendered from a proof page.

DOM is what `chromium --headless --dump-dom` printed for the page (with the test's
measuring script run); YAML is `arbiter check`'s report of the same input. Prints TAP
lines (no plan) and exits 0; the caller counts them. Checks:
- every finding and claim of the report is on the page exactly once (code, line, column),
  and nothing else is;
- each finding shows the report's suggestions, in order, and a fix where it has one;
- every board is an <svg> inside figure.board whose pieces (data-piece) are those of the
  figure's FEN;
- no element reaches past the right edge of the page (the measuring script's verdict).
"""
import collections
import html.parser
import json
import re
import sys


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.findings = collections.Counter()
        self.shown = {}           # finding key -> [suggestions, has a fix]
        self.current = None       # the finding being read
        self.in_suggestion = False
        self.boards = []          # [fen, pieces seen, svg seen]
        self.meta = {}
        self.stack = []           # open figure.board entries

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "div" and "finding" in cls:
            key = (a.get("data-code"), a.get("data-line"), a.get("data-column"))
            self.findings[key] += 1
            self.current = key
            self.shown[key] = [[], False]
        if self.current and tag == "code" and "suggestion" in cls:
            self.in_suggestion = True
            self.shown[self.current][0].append("")
        if self.current and tag == "p" and "fix" in cls:
            self.shown[self.current][1] = True
        if tag == "figure" and "board" in cls:
            self.boards.append([a.get("data-fen", ""), collections.Counter(), 0])
            self.stack.append(len(self.boards) - 1)
        if self.stack:
            b = self.boards[self.stack[-1]]
            if tag == "svg":
                b[2] += 1
            if "data-piece" in a:
                b[1][a["data-piece"]] += 1
        if tag == "meta" and a.get("name"):
            self.meta[a["name"]] = a.get("content", "")

    def handle_data(self, data):
        if self.in_suggestion:
            self.shown[self.current][0][-1] += data

    def handle_endtag(self, tag):
        if tag == "figure" and self.stack:
            self.stack.pop()
        if tag == "code":
            self.in_suggestion = False


def fen_pieces(fen):
    board = fen.split()[0]
    return collections.Counter(c for c in board if c.isalpha())


def report_findings(path):
    """The findings of a YAML report: a Counter of (code, line, column), and for each
    such key its suggestions (in order) and whether it has a fix."""
    found = collections.Counter()
    extra = {}
    code = line = key = None
    in_suggestions = False
    for text in open(path, encoding="utf-8"):
        m = re.match(r"^- code: (\S+)$", text)
        if m:
            code, line, key = m.group(1), None, None
            continue
        m = re.match(r"^  line: (\d+)$", text)
        if m and code:
            line = m.group(1)
            continue
        m = re.match(r"^  column: (\d+)$", text)
        if m and code and line:
            key = (code, line, m.group(1))
            found[key] += 1
            extra[key] = [[], False]
            code = line = None
            continue
        if key and text.startswith("  suggestions:"):
            in_suggestions = True
            continue
        m = re.match(r'^  - (".*")$', text)
        if key and in_suggestions and m:
            extra[key][0].append(json.loads(m.group(1)))
            continue
        in_suggestions = False
        if key and text.startswith("  fix:"):
            extra[key][1] = True
    return found, extra


def main():
    dom_path, yaml_path, name = sys.argv[1], sys.argv[2], sys.argv[3]
    d = Dom()
    d.feed(open(dom_path, encoding="utf-8").read())
    want, want_extra = report_findings(yaml_path)
    n = 0

    def tap(ok, what, detail=""):
        nonlocal n
        n += 1
        print(("ok" if ok else "not ok"), "-", name + ":", what)
        if not ok and detail:
            for line in detail.splitlines():
                print("#", line)

    missing = want - d.findings
    extra = d.findings - want
    twice = [k for k, v in d.findings.items() if v > 1 and want[k] < v]
    tap(not missing and not extra and not twice,
        "every finding of the report once on the page (%d)" % sum(want.values()),
        "missing %s\nextra %s" % (dict(missing), dict(extra)))
    wrong = ["%s:%s:%s shows %s, the report %s" % (k + (d.shown.get(k), v))
             for k, v in want_extra.items() if d.shown.get(k) != v]
    with_sugg = sum(1 for v in want_extra.values() if v[0])
    tap(not wrong, "each finding shows the report's suggestions and fix (%d with suggestions)"
        % with_sugg, "\n".join(wrong[:5]))
    bad = []
    for fen, seen, svgs in d.boards:
        if svgs != 1 or seen != fen_pieces(fen):
            bad.append("%s: %d svg, pieces %s" % (fen, svgs, dict(seen)))
    tap(d.boards and not bad, "every board an svg with the pieces of its FEN (%d boards)"
        % len(d.boards), "\n".join(bad[:5]))
    tap(d.meta.get("arbiter-overflow") == "0",
        "no element past the page's right edge (%s)" % d.meta.get("arbiter-overflow"),
        d.meta.get("arbiter-overflow-list", ""))
    print("# boards:", len(d.boards), "findings:", sum(d.findings.values()))


main()
