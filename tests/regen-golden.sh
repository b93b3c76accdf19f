#!/bin/sh
# regen-golden.sh: rewrite fixtures/pgn/expected/ from the current build. Review the
# diff (git diff fixtures/) before committing: the golden files are the specification.
set -eu
# the goldens are English: the messages as written in the source
export LC_ALL=C
unset LANGUAGE
here=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$here/build/arbiter}
cd "$here/fixtures"
mkdir -p pgn/expected
for input in pgn/*.pgn pgn/hostile/*.pgn; do
    [ -f "$input" ] || continue
    name=$(echo "${input#pgn/}" | tr / _)
    name=${name%.pgn}
    "$arbiter" check -q "$input" | sed '/^  seconds: /d' >"pgn/expected/$name.yaml" || true
    "$arbiter" convert -q "$input" >"pgn/expected/$name.pgn" || true
done
# LaTeX documents: report, diagnostics, PGN; the mistakes of the shared LaTeX book
mkdir -p tex/expected
for input in tex/*.tex; do
    name=$(basename "$input" .tex)
    "$arbiter" check -q "$input" >"tex/expected/$name.yaml" 2>/dev/null || true
    "$arbiter" check "$input" 2>"tex/expected/$name.diag" >/dev/null || true
    "$arbiter" convert -q --to pgn "$input" >"tex/expected/$name.pgn" 2>/dev/null || true
done
for name in go-on commands; do
    cp "tex/$name.tex" "tex/expected/$name.fixed.tex"
    "$arbiter" fix -q "tex/expected/$name.fixed.tex" || true
done
book=${SHARED:-$here/../shared}/corpus/articles/theory-of-chess/chess-openings
if [ -d "$book" ]; then
    (cd "$book" && "$arbiter" check -v src/*.tex chess-openings.tex 2>"$here/fixtures/tex/expected/theory-of-chess.diag" >/dev/null) || true
fi
# Markdown and HTML articles; the findings in the shared JekyllChess posts
mkdir -p web/expected
cp web/go-on.md web/expected/go-on.fixed.md
"$arbiter" fix -q web/expected/go-on.fixed.md || true
for input in web/*.md web/*.html; do
    [ -f "$input" ] || continue
    name=$(basename "$input")
    "$arbiter" check -q "$input" >"web/expected/$name.yaml" 2>/dev/null || true
    "$arbiter" check "$input" 2>"web/expected/$name.diag" >/dev/null || true
    "$arbiter" convert -q --to pgn "$input" >"web/expected/$name.pgn" 2>/dev/null || true
done
posts=${SHARED:-$here/../shared}/corpus/articles/jekyllchess/_posts
if [ -d "$posts" ]; then
    (cd "$posts" && "$arbiter" check -v ./*.md 2>"$here/fixtures/web/expected/jekyllchess.diag" >/dev/null) || true
fi

# XQF and DhtmlXQ (tests/shell/xq-db-golden.test): fixtures/xqdb, and corpus samples
mkdir -p xqdb/expected
for input in xqdb/*.xqf xqdb/*.html xqdb/v2-tree.txt xqdb/v2-bad.txt xqdb/fen.txt xqdb/hostile/*.xqf; do
    name=$(echo "${input#xqdb/}" | tr / _)
    name=${name%.*}
    (cd xqdb && "$arbiter" check -q "${input#xqdb/}" >"expected/$name.yaml") || true
    (cd xqdb && "$arbiter" convert -q "${input#xqdb/}" >"expected/$name.pgn") || true
done
shared=${SHARED:-$here/../shared}
if [ -d "$shared/corpus/xiangqi" ]; then
    for f in eleeye/XQFTOOLS/SAMPLE.XQF eleeye/XQFTOOLS/XQFEXAMA.XQF eleeye/XQFTOOLS/XQFEXAMB.XQF \
        cchess/game_varations.xqf cchess/test_5_variations.xqf wukong-xiangqi/game.ubb; do
        name=$(echo "$f" | tr / _)
        name=${name%.*}
        (cd "$shared/corpus/xiangqi" && "$arbiter" check -q "$f") >"xqdb/expected/$name.yaml" || true
        (cd "$shared/corpus/xiangqi" && "$arbiter" convert -q "$f") >"xqdb/expected/$name.pgn" || true
    done
fi
# CCBridge samples (tests/shell/ccbridge.test): one of each kind
ccb=$shared/corpus/xiangqi/cchess-ccbridge
if [ -d "$ccb" ]; then
    mkdir -p ccbridge/expected
    for pair in test-cbr:test.cbr test2-old-cbr:test2-old.cbr test-cbf:test.cbf \
        linxingrong-cbl:专辑林兴荣.CBL longhua-cbl:1989年龙化杯象棋名师邀请赛35局.CBL \
        canju-packed-cbl:残局的生死棋型.CBL; do
        (cd "$ccb" && "$arbiter" check -q "${pair#*:}") >"ccbridge/expected/${pair%%:*}.yaml" || true
        (cd "$ccb" && "$arbiter" convert -q "${pair#*:}") >"ccbridge/expected/${pair%%:*}.pgn" || true
    done
fi
