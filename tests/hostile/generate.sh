#!/bin/sh
# tests/hostile/generate.sh OUTDIR: write the hostile inputs of tests/shell/hostile.test
# into OUTDIR (never the source tree: the full-size ones are tens of megabytes).
# Sizes: small by default (seconds in CI); HOSTILE_FULL=1 for the sizes of the
# robustness brief (50 MB comment, 100,000-deep variations, 100,000 NAGs, a million
# plies, 10 MB line). HOSTILE_SCALE=N multiplies the small sizes instead (the linearity
# check generates the same inputs at two scales). Every PGN input is followed by the
# same well-formed game, AFTER, which must come through intact; WXF and article inputs
# by a well-formed record or block.
set -e
export LC_ALL=C
out=${1:?usage: generate.sh OUTDIR}
mkdir -p "$out"
if [ "${HOSTILE_FULL:-0}" = 1 ]; then
    comment=50000000 nest=100000 nags=100000 plies=1000000 garbage=10000000 line=10000000
else
    k=${HOSTILE_SCALE:-1}
    comment=$((1200000 * k)) nest=$((5000 * k)) nags=$((5000 * k)) plies=$((20000 * k))
    garbage=$((200000 * k)) line=$((1000000 * k))
fi

# The game every PGN input ends with (6 plies, 1-0, no findings).
after_pgn() {
    printf '\n[Event "after"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "A"]\n'
    printf '[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n'
}
after_wxf() {
    printf '\nFORMAT\tWXF\nGAME\tafter\nSTART{\n1. C2.5 h8+7 2. H2+3 r9.8\n}END\n'
}
after_article() {
    printf '\nText after.\n[game]\nFORMAT\tWXF\nGAME\tafter\nSTART{\n1. C2.5 h8+7 2. H2+3 r9.8\n}END\n[/game]\n'
}
head7() {   # head7 EVENT: a Seven Tag Roster
    printf '[Event "%s"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n' "$1"
}
repeat() {  # repeat TEXT BYTES: TEXT repeated to exactly BYTES bytes
    yes "$1" | tr -d '\n' | head -c "$2"
}

# A comment far over the 1 MiB limit: cut, comment-too-long.
{ head7 comment; printf '\n1. e4 {'; repeat 'abcdefghij ' "$comment"; printf '} e5 *\n'; after_pgn; } > "$out/comment.pgn"

# Variations nested $nest deep, closed: legal, no finding needed.
{ head7 nest; printf '\n1. e4 '
  awk -v n="$nest" 'BEGIN { for (i = 0; i < n; i++) printf "(1. d4 "; for (i = 0; i < n; i++) printf ") "; print "" }'
  printf 'e5 *\n'; after_pgn; } > "$out/nest.pgn"
# ... and never closed: unterminated-variation.
{ head7 nest-open; printf '\n1. e4 '
  awk -v n="$nest" 'BEGIN { for (i = 0; i < n; i++) printf "(1. d4 "; print "" }'
  after_pgn; } > "$out/nest-open.pgn"
# ... and only closed: syntax-error for each ')' (reported up to the limit).
{ head7 close; printf '\n1. e4 '
  awk -v n="$nest" 'BEGIN { for (i = 0; i < n; i++) printf ") "; print "*" }'
  after_pgn; } > "$out/close.pgn"

# $nags comments on one move, then $nags variations of it each followed by a comment
# (each ')' once searched the move's whole comment list: quadratic).
{ head7 comvar; printf '\n1. e4 '
  awk -v n="$nags" 'BEGIN { for (i = 0; i < n; i++) printf "{c} "; for (i = 0; i < n; i++) printf "(1. d4) {after} "; print "" }'
  printf 'e5 *\n'; after_pgn; } > "$out/comvar.pgn"

# Sibling variations after a run of reversible moves: each variation starts with a copy
# of the history since the last irreversible move (repetitions count across the branch),
# which once took 700 MB at 200,000 variations; past a per-game budget the variations
# are replayed for legality only (variations-not-judged). Chess, $nags siblings after
# 24 plies; xiangqi, 4 x $nags siblings after 100 plies.
{ head7 siblings; echo
  awk -v n="$nags" 'BEGIN { for (i = 1; i <= 12; i += 2) printf "%d. Nc3 Nc6 %d. Nb1 Nb8 ", i, i + 1;
      printf "13. e4"; for (i = 0; i < n; i++) printf " (13. d4)"; print " *" }'
  after_pgn; } > "$out/siblings.pgn"
{ printf '[Event "xq-siblings"]\n[Variant "xiangqi"]\n[Format "FSF-UCI"]\n[Result "*"]\n\n'
  awk -v n="$nags" 'BEGIN { for (i = 1; i <= 50; i += 2) printf "%d. h1g3 h10g8 %d. g3h1 g8h10 ", i, i + 1;
      printf "51. b1c3"; for (i = 0; i < 4 * n; i++) printf " (51. b1a3)"; print " *" }'
  after_pgn; } > "$out/xq-siblings.pgn"

# $nags NAGs on one move.
{ head7 nags; printf '\n1. e4 '
  awk -v n="$nags" 'BEGIN { for (i = 0; i < n; i++) printf "$%d ", i % 256; print "" }'
  printf 'e5 *\n'; after_pgn; } > "$out/nags.pgn"

# Tag values: 1,000,000 bytes (kept whole) and 2 MiB (cut, comment-too-long).
{ printf '[Event "tag-1mb"]\n[Annotator "'; repeat 'x' 1000000; printf '"]\n\n1. e4 *\n'; after_pgn; } > "$out/tag-1mb.pgn"
{ printf '[Event "tag-2mib"]\n[Annotator "'; repeat 'x' 2097152; printf '"]\n\n1. e4 *\n'; after_pgn; } > "$out/tag-2mib.pgn"

# A legal game of $plies plies: knights out and back. Repetition ends it by rule
# (threefold claimable, fivefold automatic), so it has findings either way.
{ head7 plies; echo
  awk -v n="$plies" 'BEGIN { m[0] = "Nf3"; m[1] = "Nf6"; m[2] = "Ng1"; m[3] = "Ng8";
      for (i = 0; i < n; i++) { if (i % 2 == 0) printf "%d. ", i / 2 + 1; printf "%s ", m[i % 4];
          if (i % 16 == 15) printf "\n" } print "*" }'
  after_pgn; } > "$out/plies.pgn"

# Binary garbage (deterministic), then a newline and AFTER.
awk -v n="$garbage" 'BEGIN { srand(7); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }' \
    > "$out/garbage.bin" 2>/dev/null || true
{ cat "$out/garbage.bin"; printf '\n'; after_pgn; } > "$out/garbage.pgn"
rm -f "$out/garbage.bin"

# NUL bytes in a tag, in the movetext and in a comment.
{ printf '[Event "n\000ul"]\n\n1. e4 \000 e5 {a\000b} 2. Nf3 *\n'; after_pgn; } > "$out/nul.pgn"

# Truncated UTF-8: a lead byte without its continuation in a tag, a comment, at EOF of a line.
{ printf '[Event "utf8 \344\270"]\n\n1. e4 {caf\303} e5 {\360\237\230} *\n'; after_pgn; } > "$out/utf8.pgn"

# Truncated GBK: a xiangqi PGN in GBK whose comment ends in half a character.
{ printf '[Game "Chinese Chess"]\n[Event "gbk"]\n[Red "\320\355\322\370\264\250"]\n'
  printf '[Black "\302\300\274\316\304\301"]\n[Format "Chinese"]\n\n'
  printf '1. \305\332\266\376\306\275\316\345 {\272\303\305 \305} \302\355\260\313\275\370\306\337 *\n'
  printf '\n[Game "Chinese Chess"]\n[Event "after"]\n[Red "\320\355"]\n[Format "Chinese"]\n\n'
  printf '1. \305\332\266\376\306\275\316\345 \302\355\260\313\275\370\306\337 *\n'; } > "$out/gbk.pgn"

# A line of $line bytes: junk letters with no blank, then AFTER.
{ head7 line; echo; repeat 'abcdefghijklmnopqrstuvwxyz' "$line"; printf '\n*\n'; after_pgn; } > "$out/line.pgn"
# ... and in an article, outside the blocks.
{ repeat 'article text ' "$line"; after_article; } > "$out/line.txt"

# A FEN of 1,000 characters: bad-fen.
{ printf '[Event "fen"]\n[SetUp "1"]\n[FEN "'; repeat 'rnbqkbnr/' 1000; printf '"]\n\n1. e4 *\n'; after_pgn; } > "$out/fen.pgn"
{ printf 'FORMAT\tWXF\nGAME\tfen\nFEN\t'; repeat 'rnbakabnr/' 1000; printf '\nSTART{\n1. C2.5\n}END\n'; after_wxf; } > "$out/fen.wxf"

# START{ without }END, followed by the next record.
{ printf 'FORMAT\tWXF\nGAME\topen\nSTART{\n1. C2.5 h8+7\n2. H2+3\n'; after_wxf; } > "$out/start.wxf"
# [game] without [/game], followed by the next block.
{ printf 'Text.\n[game]\nFORMAT\tWXF\nGAME\topen\nSTART{\n1. C2.5 h8+7\n}END\n'; after_article; } > "$out/block.txt"
# An unbalanced /* in a WXF record.
{ printf 'FORMAT\tWXF\nGAME\tcomment\nSTART{\n1. C2.5 /* never closed h8+7\n}END\n'; after_wxf; } > "$out/comment.wxf"

# Files that end mid-token (no newline at the end): in a tag string, a comment, a NAG,
# a move, a WXF header, a WXF move block, an article block.
printf '[Event "ends in a str' > "$out/eof-tag.pgn"
printf '[Event "eof"]\n\n1. e4 {ends in a comm' > "$out/eof-comment.pgn"
printf '[Event "eof"]\n\n1. e4 $' > "$out/eof-nag.pgn"
printf '[Event "eof"]\n\n1. e4 e5 2. N' > "$out/eof-move.pgn"
printf 'FORMAT\tWXF\nGAME\tends in a val' > "$out/eof-header.wxf"
printf 'FORMAT\tWXF\nGAME\teof\nSTART{\n1. C2.5 h8+' > "$out/eof-move.wxf"
printf 'Text.\n[game]\nFORMAT\tWXF\nSTART{\n1. C2.5 h8+7\n}END\n[/ga' > "$out/eof-block.txt"

# Empty inputs.
: > "$out/empty.pgn"
: > "$out/empty.wxf"
: > "$out/empty.txt"
echo "hostile inputs in $out (comment $comment, nest $nest, nags $nags, plies $plies, garbage $garbage, line $line)"
