#!/bin/sh
# tests/fuzz/seeds.sh OUTDIR: build the seed corpora of the fuzz harnesses from the
# fixtures (and, when SHARED names the shared workspace, a sample of its corpus) into
# OUTDIR/seeds/<harness>/, never into the source tree. Idempotent: reruns rebuild.
set -e
out=${1:?usage: seeds.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
fx=$src/fixtures
s=$out/seeds
rm -rf "$s"
for h in pgn wxf article input chess_fen xiangqi_fen san xqn comment_cmd xqf dhtmlxq cbr cbl cbf; do mkdir -p "$s/$h"; done
put() {   # put HARNESS: stdin becomes one seed file
    cat > "$(mktemp "$s/$1/seed.XXXXXXXX")"
}
copy() {  # copy HARNESS FILE...
    h=$1; shift
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$s/$h/$(echo "$f" | sed 's|.*/fixtures/||; s|/|_|g')"; done
    true
}

# PGN: every fixture whole, then each game of the plain fixtures alone (libFuzzer likes
# small inputs), and a few files of the shared corpus when there is one.
copy pgn "$fx"/pgn/*.pgn "$fx"/pgn/hostile/*.pgn "$fx"/hostile/*.pgn
for f in "$fx"/pgn/*.pgn; do
    awk -v dir="$s/pgn" -v base="$(basename "$f" .pgn)" '
        /^\[/ && !intags { k++; intags = 1 }
        !/^\[/ { intags = 0 }
        k { print > (dir "/" base "-game" k) }' "$f"
done
# WXF files and articles.
copy wxf "$fx"/wxf/*.wxf "$fx"/wxf/hostile/*.wxf "$fx"/hostile/*.wxf
copy article "$fx"/articles/*.txt "$fx"/hostile/*.txt
if [ -n "${SHARED:-}" ] && [ -d "$SHARED" ]; then
    copy article "$SHARED"/seeds/*.txt
    find "$SHARED/corpus" -name '*.wxf' | while read -r f; do cp "$f" "$s/wxf/shared-$(basename "$f")"; done
    # a handful of xiangqi and chess PGN files of the corpus, the smallest of each folder
    find "$SHARED/corpus" -iname '*.pgn' -size -8k | awk -F/ '!seen[$(NF-1)]++' | head -20 |
        while read -r f; do cp "$f" "$s/pgn/shared-$(echo "$f" | cksum | cut -d' ' -f1).pgn"; done
fi

# XQF: the fixtures (hostile ones too) and the smallest corpus files; DhtmlXQ: the web
# pages and text records of the fixtures (version 2 movelists, fen) and wukong's UBB
# (the vschess file is too big for a seed).
copy xqf "$fx"/xqdb/*.xqf "$fx"/xqdb/hostile/*.xqf
copy dhtmlxq "$fx"/xqdb/*.html "$fx"/xqdb/*.txt
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/corpus/xiangqi" ]; then
    find "$SHARED/corpus/xiangqi/cchess" "$SHARED/corpus/xiangqi/eleeye" -iname '*.xqf' -size -4k |
        while read -r f; do cp "$f" "$s/xqf/shared-$(echo "$f" | cksum | cut -d' ' -f1).xqf"; done
    cp "$SHARED/corpus/xiangqi/wukong-xiangqi/game.ubb" "$s/dhtmlxq/shared-game.ubb" 2>/dev/null || true
fi
# CCBridge: the sample records after a first byte 0x00 ("the rest as it is"); the
# compressed library's inflated data for the compressed mode of fuzz_cbl (first byte 2)
ccb=${SHARED:-}/corpus/xiangqi/cchess-ccbridge
if [ -n "${SHARED:-}" ] && [ -d "$ccb" ]; then
    for f in test.cbr test2.cbr test2-old.cbr; do { printf '\000'; cat "$ccb/$f"; } >"$s/cbr/shared-$f"; done
    for f in test.cbf test2.cbf; do { printf '\000'; cat "$ccb/$f"; } >"$s/cbf/shared-$f"; done
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, zlib; d = open(sys.argv[1], "rb").read(); sys.stdout.buffer.write(b"\x02" + zlib.decompress(d[20:])[:60000])' \
            "$ccb/残局的生死棋型.CBL" >"$s/cbl/shared-packed" 2>/dev/null || true
    fi
fi

# Whole files of every kind for the sniffing and transcoding harness, with the GBK and
# Big5 files of the corpus (smallest first) when there is one.
cp "$s"/pgn/* "$s"/wxf/* "$s"/article/* "$s/input/"
if [ -n "${SHARED:-}" ] && [ -d "$SHARED/corpus/xiangqi" ]; then
    for d in eleeye cchess Chinese-Chess-Practical-Dataset; do
        find "$SHARED/corpus/xiangqi/$d" -iname '*.pgn' -size -4k | head -5
    done | while read -r f; do cp "$f" "$s/input/shared-$(echo "$f" | cksum | cut -d' ' -f1).pgn"; done
fi

# FENs: the perft suites and the bad-FEN table.
grep -v '^#' "$fx/perft/chess.epd" | sed 's/ *;.*//' | while read -r l; do printf '%s' "$l" | put chess_fen; done
grep -v '^#' "$fx/perft/xiangqi.epd" | sed 's/ *;.*//' | while read -r l; do printf '%s' "$l" | put xiangqi_fen; done
grep -v '^#' "$fx/fen/bad.tsv" | while IFS='	' read -r v fen _; do
    case $v in chess) printf '%s' "$fen" | put chess_fen ;; xiangqi) printf '%s' "$fen" | put xiangqi_fen ;; esac
done

# Chess move text: the tokens of the PGN fixtures that look like moves, each with a
# position-selector byte in front (fuzz_san.c: byte 0 picks the position).
cat "$fx"/pgn/*.pgn | grep -av '^\[' | tr -s ' \t\r' '\n\n\n' | sed 's/^[0-9]*\.*//' |
    grep -aE '^[KQRBNPa-hO0o-][^{}();]*$' | sort -u | head -300 | while read -r t; do
    for p in 0 1 2 3 4; do printf "\\$(printf %03o "$p")%s" "$t" | put san; done
done
for t in O-O O-O-O 0-0 e8=Q exd6e.p. Nbd7 Ng1f3 e2e4 e7e8q -- Z0 "♘f3" "N:f3" Qa1e1 Nb5d4 Pxd5 "e8(Q)"; do
    for p in 0 1 2 3 4 5 6 7 8; do printf "\\$(printf %03o "$p")%s" "$t" | put san; done
done

# Xiangqi move text: tokens of the WXF fixtures and one move in each notation, with a
# position byte and a notation byte in front (fuzz_xqn.c).
{ cat "$fx"/wxf/*.wxf | sed -n '/START{/,/}END/p' | tr -s ' \t\r' '\n\n\n' | sed 's/^[0-9]*[.…]*//' |
    grep -aE '^[A-Za-z+.=-][A-Za-z0-9+.=-]{2,4}$' | sort -u
  printf '%s\n' C2.5 C2=5 H8+7 R1+1 C+.5 +C.5 P+.1 P..1 Pa+1 15=6 X1-2 Xs-5 Pt.2 Bg-6 \
    炮二平五 马８进７ 馬8進7 前炮退二 一兵平四 前兵九平八 H2-E2 h2e2 h3e3 Che2 Hg7 c4 axa3 Che3 Pc5 \
    Ｃ２＝５ ＋Ｐ＋１; } | while read -r t; do
    for p in 0 2 3; do for nt in 0 1 2 3 4 5 6 7; do
        printf "\\$(printf %03o "$p")\\$(printf %03o "$nt")%s" "$t" | put xqn
    done; done
done

# Comment commands: the comments of the fixtures, and one of each command.
cat "$fx"/pgn/*.pgn "$fx"/pgn/hostile/*.pgn | tr -d '\n' | grep -ao '{[^}]*}' | tr -d '{}' | head -100 |
    while IFS= read -r c; do printf '%s' "$c" | put comment_cmd; done
for c in '[%clk 1:05:23.4] main line' '[%emt 0:00:12]' '[%eval -1.25]' '[%eval #-3,20]' \
    '[%csl Ra1,Gb2,Yh8]' '[%cal Ge2e4,Rd7d5]' '[%unknown a b c] text [%clk 0:00:01]' '[%' '[%clk' \
    '[%cal Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4,Ge2e4]'; do
    printf '%s' "$c" | put comment_cmd
done
for h in pgn wxf article input chess_fen xiangqi_fen san xqn comment_cmd xqf dhtmlxq cbr cbl cbf; do
    echo "$h: $(ls "$s/$h" | wc -l) seeds"
done
