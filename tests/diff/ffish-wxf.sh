#!/bin/sh
# ffish-wxf.sh ARBITER [FILE[:N]...]: arbiter's WXF in Fairy-Stockfish's dialect against
# ffish (Fairy-Stockfish 230826 in WASM, npm ffish@0.7.10), move for move.
#
# For every game of the inputs (FILE:N takes the first N games of FILE), arbiter writes
# the record twice with `convert --to wxf --strip comments,nags,variations`: in UCCI
# (-n ucci) and in WXF with --xq-style fsf. ffish replays the UCCI moves (ranks shifted
# to Fairy-Stockfish's 1-10) and writes them with
# board.variationSan(moves, ffish.Notation.XIANGQI_WXF, true); both lists must be equal,
# string for string. Moves that differ only by a check suffix ("+"/"#": Fairy-Stockfish's
# source adds one in every non-shogi notation, the ffish 0.7.10 build writes none in
# WXF) are counted apart, to tell that dialect question from a real difference.
# Default inputs: the 15 games of wukong's bulk_games_uci.pgn and the first 50 of
# Hu_Ronghua_1391_UCI_games.pgn (SHARED, default ../shared, names the corpus).
#
# ffish is looked up under FFISH_DIR (a folder with node_modules/ffish; default
# $HOME/.cache/arbiter/npm). Install it there with
#     npm install --prefix "$HOME/.cache/arbiter/npm" ffish@0.7.10
# Prints one line per differing move and a summary; exit 0 when all agree, 1 when not,
# 77 when node or ffish is missing, 2 on a usage or I/O failure.
set -u
arbiter=${1:?usage: ffish-wxf.sh ARBITER [FILE[:N]...]}
shift
shared=${SHARED:-$(dirname "$0")/../../../shared}
ffish_dir=${FFISH_DIR:-$HOME/.cache/arbiter/npm}
if [ $# -eq 0 ]; then
    set -- "$shared/corpus/xiangqi/wukong-xiangqi/bulk_games_uci.pgn" \
        "$shared/corpus/xiangqi/wukong-xiangqi/Hu_Ronghua_1391_UCI_games.pgn:50"
fi
command -v node >/dev/null 2>&1 || { echo "ffish-wxf: node not found" >&2; exit 77; }
[ -f "$ffish_dir/node_modules/ffish/package.json" ] ||
    { echo "ffish-wxf: no ffish under $ffish_dir/node_modules" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/games.pgn"
for spec in "$@"; do
    file=${spec%:*}
    count=
    [ "$file" != "$spec" ] && count=${spec##*:}
    [ -f "$file" ] || { echo "ffish-wxf: $file: no such file" >&2; exit 2; }
    if [ -n "$count" ]; then
        # the first N games: up to the (N+1)-th tag section
        awk -v n="$count" '/^\[/ && !intag { games++; intag = 1 } !/^\[/ { intag = 0 }
                           games > n { exit } { print }' "$file" >>"$tmp/games.pgn"
    else
        cat "$file" >>"$tmp/games.pgn"
    fi
    echo >>"$tmp/games.pgn"
done

strip="--strip comments,nags,variations"
"$arbiter" convert -q --to wxf -n ucci $strip "$tmp/games.pgn" >"$tmp/ucci.wxf" 2>"$tmp/err1"
"$arbiter" convert -q --to wxf -n wxf --xq-style fsf $strip "$tmp/games.pgn" >"$tmp/fsf.wxf" \
    2>"$tmp/err2"
[ -s "$tmp/ucci.wxf" ] || { echo "ffish-wxf: arbiter wrote nothing" >&2; cat "$tmp/err1" >&2; exit 2; }

cat >"$tmp/compare.js" <<'JS'
// Compare arbiter's FSF-style WXF with ffish's, record by record.
globalThis.fetch = undefined;        // the WASM loader must not fetch a file path
const fs = require('fs');
const ffish = require(process.argv[2] + '/node_modules/ffish');

// The records of a WXF file: FEN key (if any) and the moves of START{ }END.
function records(text) {
    const out = [];
    let cur = null, inMoves = false;
    for (const line of text.split('\n')) {
        if (/^FORMAT\b/.test(line)) { cur = { fen: null, moves: [] }; out.push(cur); inMoves = false; continue; }
        if (!cur) continue;
        if (!inMoves && /^FEN\s/.test(line)) cur.fen = line.replace(/^FEN\s+/, '');
        if (line === 'START{') { inMoves = true; continue; }
        if (line.startsWith('}END')) { inMoves = false; continue; }
        if (!inMoves || line.startsWith('/*')) continue;
        for (const tok of line.split(/\s+/))
            if (tok && !/^\d+\.$/.test(tok) && tok !== '\u2026') cur.moves.push(tok);
    }
    return out;
}

// UCCI (ranks 0-9) to Fairy-Stockfish UCI (ranks 1-10).
const fsfUci = m => m.replace(/^([a-i])(\d)([a-i])(\d)$/,
    (_, f1, r1, f2, r2) => f1 + (+r1 + 1) + f2 + (+r2 + 1));

ffish.onRuntimeInitialized = () => {
    const ucci = records(fs.readFileSync(process.argv[3], 'utf8'));
    const ours = records(fs.readFileSync(process.argv[4], 'utf8'));
    if (ucci.length !== ours.length) {
        console.log(`record count differs: ${ucci.length} UCCI, ${ours.length} FSF-style WXF`);
        process.exit(2);
    }
    // Fairy-Stockfish's source (apiutil.h move_to_san) adds "+" or "#" in every
    // non-shogi notation; the ffish 0.7.10 build writes WXF without it (its SAN has it).
    // A WXF move ends in a digit, so a "+" or "#" after the digit is that suffix.
    const noCheck = m => (m || '').replace(/([0-9])[+#]$/, '$1');
    let games = 0, gamesAgree = 0, moves = 0, movesAgree = 0, suffixes = 0;
    for (let i = 0; i < ucci.length; i++) {
        games++;
        const board = ucci[i].fen ? new ffish.Board('xiangqi', ucci[i].fen) : new ffish.Board('xiangqi');
        const san = board.variationSan(ucci[i].moves.map(fsfUci).join(' '),
                                       ffish.Notation.XIANGQI_WXF, true);
        board.delete();
        // "1. C2=5 H8+7 2. ..." or, Black first, "1...H5+7 2. ..."
        const theirs = san.split(/\s+/).map(t => t.replace(/^\d+\.(\.\.)?/, '')).filter(t => t);
        let same = theirs.length === ours[i].moves.length;
        const n = Math.max(theirs.length, ours[i].moves.length);
        for (let k = 0; k < n; k++) {
            moves++;
            if (theirs[k] === ours[i].moves[k]) { movesAgree++; continue; }
            if (theirs[k] !== undefined && theirs[k] === noCheck(ours[i].moves[k])) suffixes++;
            same = false;
            console.log(`game ${i + 1} ply ${k + 1} (${ucci[i].moves[k] || '-'}): arbiter ` +
                        `${ours[i].moves[k] || '-'}, ffish ${theirs[k] || '-'}`);
        }
        if (same) gamesAgree++;
    }
    console.log(`ffish-wxf: ${games} games, ${moves} moves; identical: ${gamesAgree} games, ` +
                `${movesAgree} moves; differing only by a check suffix: ${suffixes} moves`);
    process.exit(gamesAgree === games ? 0 : 1);
};
JS
node "$tmp/compare.js" "$ffish_dir" "$tmp/ucci.wxf" "$tmp/fsf.wxf"
