#!/bin/sh
# dp_cases.sh RULES_DIR: the labelled 6.9 questions of ../shared/corpus/rules as input
# for dp_selfcheck, one a line: FEN<TAB>WINNER<TAB>TRUTH (yes: the winner can still
# mate; no: it cannot; ?: unknown).
#   chess-cha-test-vectors-sample.txt  LABEL FEN4: both sides (W/B: yes, -: no)
#   chess-cha-hard-undetermined.txt    LABEL FEN4 WHO: the side named
#   chess-cha-lichess-unfair-timeouts.txt  FEN6 ID: the side not to move cannot mate
#   chess-dead-unwinnable-examples.txt "fen: FEN | can X (...) still mate? | yes/no"
set -eu
r=${1:?usage: dp_cases.sh RULES_DIR}
tab=$(printf '\t')
grep -v '^#' "$r/chess-cha-test-vectors-sample.txt" | grep . |
while read -r label f1 f2 f3 f4; do
    w=yes; [ "$(echo "$label" | cut -c1)" = - ] && w=no
    b=yes; [ "$(echo "$label" | cut -c2)" = - ] && b=no
    printf '%s 0 1\tw\t%s\n%s 0 1\tb\t%s\n' "$f1 $f2 $f3 $f4" $w "$f1 $f2 $f3 $f4" $b
done
grep -v '^#' "$r/chess-cha-hard-undetermined.txt" | grep . |
while read -r label f1 f2 f3 f4 who; do
    i=1; [ "$who" = black ] && i=2
    t=yes; [ "$(echo "$label" | cut -c$i)" = - ] && t=no
    printf '%s 0 1\t%s\t%s\n' "$f1 $f2 $f3 $f4" "$(echo "$who" | cut -c1)" $t
done
grep -v '^#' "$r/chess-cha-lichess-unfair-timeouts.txt" | grep . |
while read -r f1 f2 f3 f4 f5 f6 id; do
    w=w; [ "$f2" = w ] && w=b
    printf '%s\t%s\tno\n' "$f1 $f2 $f3 $f4 $f5 $f6" $w
done
grep '^fen: ' "$r/chess-dead-unwinnable-examples.txt" | sed 's/^fen: //' |
while IFS='|' read -r fen q ans; do
    case $q in *White*) w=w ;; *Black*) w=b ;; *) continue ;; esac
    case $ans in " yes"*) t=yes ;; " no"*) t=no ;; *) t='?' ;; esac
    printf '%s\t%s\t%s\n' "${fen% }" $w "$t"
done
