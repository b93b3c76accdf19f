#!/bin/sh
# articles.sh ARBITER [RUNS]: check a 10,000-line LaTeX book and a 10,000-line Markdown
# page made here (chapters of prose, \mainline calls, xskak variations to place; PGN
# in <pgn> wrappers), and the same games as plain PGN (convert --to pgn), and print the
# times and the ratio article/PGN. Not a test: figures only. Goal (issue 15): an
# article of 10,000 lines in well under a second.
set -eu
arbiter=${1:?usage: articles.sh ARBITER [RUNS]}
runs=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }

# A chapter: 20 lines, one game of 30 moves over four \mainline calls with prose
# between, three variations (one an alternative in the main line, one from the end of
# the last variation, one a threat that cannot be placed).
awk 'BEGIN {
    print "\\documentclass{book}\n\\usepackage{xskak}\n\\begin{document}"
    for (c = 1; c <= 500; c++) {
        print "\\section{Chapter " c "}\n\\newchessgame[id=g" c ", white={A}, black={B}]"
        print "The Ruy Lopez: \\mainline{1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7}"
        print "is the main line; \\variation{5. d3 b5 6. Bb3} is slower,"
        print "and \\variation{6... d6 7. c3} goes on from there."
        print "\\mainline{6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7}"
        print "Prose about the position. \\xskakset{tag=a" c "}"
        print "\\mainline{11. c4 c6 12. c5 Qc7 13. cxd6 Bxd6 14. Bg5 exd4 15. Nxd4}"
        print "threatening \\variation{27... axb2 28. Kb1} (a threat)."
        print "\\mainline{15... Ne5 16. Nd2 Ng6 17. Nf1 Re8 18. Ng3 h6 19. Bxf6 Qxf6}"
        print "% a comment \\mainline{20. a4}"
        print "\\chessboard[setfen=r1b1r1k1/5pp1/p1pb1qnp/1p6/3NP3/1B4NP/PP3PP1/R2QR1K1 w - - 0 20]"
        for (k = 0; k < 8; k++) print "More prose, some of it long enough to look like a paragraph of a book."
    }
    print "\\end{document}"
}' >"$tmp/book.tex"
"$arbiter" convert -q --to pgn "$tmp/book.tex" >"$tmp/book.pgn" 2>/dev/null || true
awk 'BEGIN { print "---\nlayout: post\n---" }
    /^\[Event/ { if (n++) print "</pgn>\n\nSome prose between the games of the page.\n"; print "<pgn>" }
    { print }
    END { print "</pgn>" }' "$tmp/book.pgn" >"$tmp/page.md"
lines=$(wc -l <"$tmp/page.md"); extra=$((10000 - lines))
[ "$extra" -gt 0 ] && awk -v n="$extra" 'BEGIN { for (i = 0; i < n; i++) print "Filler prose line." }' >>"$tmp/page.md"

best_of() { # FILE: best wall time of check -q over RUNS runs
    best=
    for _ in $(seq "$runs"); do
        t0=$(now)
        "$arbiter" check -q -j 1 "$1" >/dev/null 2>&1 || true
        t1=$(now)
        best=$(awk -v a="$t0" -v b="$t1" -v best="$best" \
            'BEGIN { t = b - a; print (best == "" || t < best) ? t : best }')
    done
    echo "$best"
}
games=$("$arbiter" check -q "$tmp/book.tex" 2>/dev/null | sed -n 's/^  games: //p')
plies=$("$arbiter" check -q "$tmp/book.tex" 2>/dev/null | sed -n 's/^  plies: //p')
tex=$(best_of "$tmp/book.tex")
md=$(best_of "$tmp/page.md")
pgn=$(best_of "$tmp/book.pgn")
printf 'LaTeX book:    %6d lines, %4s games, %6s plies: %.3f s\n' "$(wc -l <"$tmp/book.tex")" "$games" "$plies" "$tex"
printf 'Markdown page: %6d lines: %.3f s\n' "$(wc -l <"$tmp/page.md")" "$md"
printf 'the same games as PGN: %.3f s; ratio LaTeX/PGN %.2f, Markdown/PGN %.2f\n' "$pgn" \
    "$(awk -v a="$tex" -v b="$pgn" 'BEGIN { print a / b }')" \
    "$(awk -v a="$md" -v b="$pgn" 'BEGIN { print a / b }')"
