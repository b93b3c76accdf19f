// openings-oracle.js: the lichess opening table's own rule, written with chess.js as
// an oracle for arbiter's classification (tests/shell/openings-diff.test).
//
// usage: node openings-oracle.js TSV_DIR PGN...
// The table's rule (its README): play each row's moves to get its position; walk a
// game's main line and take the deepest position the table names, comparing EPD
// (placement, side to move, castling, the en passant square only when an en passant
// capture is legal). As arbiter does, positions after more plies than the table's
// longest row are not looked up and the first row naming a position keeps it.
// Prints one line per game: "N<TAB>ECO<TAB>name", "N<TAB>-" (none named) or
// "N<TAB>skip<TAB>why" (chess.js could not read its main line, or Chess960).
'use strict';
const fs = require('fs');
const path = require('path');
const { Chess } = require(process.env.CHESSJS || 'chess.js');

function epd(chess) {
    const f = chess.fen().split(' ');
    let ep = '-';
    if (f[3] !== '-' && chess.moves({ verbose: true }).some((m) => m.flags.includes('e')))
        ep = f[3];
    return `${f[0]} ${f[1]} ${f[2]} ${ep}`;
}

const table = new Map();
let maxPlies = 0;
const dir = process.argv[2];
for (const name of ['a.tsv', 'b.tsv', 'c.tsv', 'd.tsv', 'e.tsv']) {
    const rows = fs.readFileSync(path.join(dir, name), 'utf8').split('\n').slice(1);
    for (const row of rows) {
        if (!row)
            continue;
        const [eco, title, pgn] = row.split('\t');
        const chess = new Chess();
        let plies = 0;
        for (const tok of pgn.split(' ')) {
            if (/^\d+\.+$/.test(tok))
                continue;
            chess.move(tok); // throws on a bad row: the table is broken
            plies++;
        }
        const key = epd(chess);
        if (!table.has(key))
            table.set(key, `${eco}\t${title}`);
        maxPlies = Math.max(maxPlies, plies);
    }
}

// Games of a PGN file: a tag line after movetext starts the next game.
function games(text) {
    const out = [];
    let cur = [], inMoves = false;
    for (const line of text.split(/\r?\n/)) {
        if (line.startsWith('[') && inMoves) {
            out.push(cur.join('\n'));
            cur = [];
            inMoves = false;
        }
        if (line.trim() !== '' && !line.startsWith('[') && !line.startsWith('%'))
            inMoves = true;
        cur.push(line);
    }
    if (cur.some((l) => l.trim() !== ''))
        out.push(cur.join('\n'));
    return out;
}

// The main line only: the rule reads nothing else, and chess.js 1.4.0 rejects some
// legal PGN (a variation right after a NAG, a comment after a variation: 55 of the
// bench games). Tag lines stay; comments, ';' remarks, variations and NAGs go.
function mainLine(game) {
    const tags = [], moves = [];
    for (const line of game.split('\n'))
        (line.startsWith('[') && moves.length === 0 ? tags : moves).push(line);
    const text = moves.join('\n');
    let out = '', depth = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '{') {
            const end = text.indexOf('}', i);
            i = end < 0 ? text.length : end;
            out += ' ';
        } else if (c === ';') {
            const end = text.indexOf('\n', i);
            i = end < 0 ? text.length : end;
            out += ' ';
        } else if (c === '(') {
            depth++;
        } else if (c === ')') {
            if (depth > 0)
                depth--;
            out += ' ';
        } else if (depth === 0) {
            out += c;
        }
    }
    return tags.join('\n') + '\n\n' + out.replace(/\$\d+/g, ' ');
}

let n = 0;
const lines = [];
for (const file of process.argv.slice(3)) {
    for (const g of games(fs.readFileSync(file, 'latin1'))) {
        n++;
        if (/\[Variant "(chess960|fischerandom|chess 960)"\]/i.test(g)) {
            lines.push(`${n}\tskip\tChess960`);
            continue;
        }
        const chess = new Chess();
        try {
            chess.loadPgn(mainLine(g));
        } catch (e) {
            lines.push(`${n}\tskip\t${String(e.message).split('\n')[0]}`);
            continue;
        }
        const moves = chess.history();
        const fenTag = chess.getHeaders ? chess.getHeaders().FEN : chess.header().FEN;
        const walk = new Chess(fenTag || undefined);
        let found = table.get(epd(walk));
        for (let i = 0; i < moves.length && i < maxPlies; i++) {
            walk.move(moves[i]);
            const hit = table.get(epd(walk));
            if (hit)
                found = hit;
        }
        lines.push(`${n}\t${found || '-'}`);
    }
}
process.stdout.write(lines.join('\n') + '\n');
