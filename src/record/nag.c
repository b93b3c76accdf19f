/* nag.c: the tables behind nag.h. */
#include <config.h>

#include "record/nag.h"

#include <string.h>

struct nag_sym {
    const char *text;
    unsigned char nag;
};

/* Every spelling we read. Several spellings share a number; the first one listed for a
 * number is not necessarily the preferred output (see nag_symbol). */
static const struct nag_sym symbols[] = {
    {"!", 1}, {"?", 2}, {"!!", 3}, {"??", 4}, {"!?", 5}, {"?!", 6},
    {"\xE2\x96\xA1", 7},                        /* □ forced move */
    {"=", 10},
    {"\xE2\x88\x9E", 13},                       /* ∞ unclear */
    {"+=", 14}, {"+/=", 14}, {"\xE2\xA9\xB2", 14},   /* ⩲ */
    {"=+", 15}, {"=/+", 15}, {"\xE2\xA9\xB1", 15},   /* ⩱ */
    {"+/-", 16}, {"\xC2\xB1", 16},                   /* ± */
    {"-/+", 17}, {"\xE2\x88\x93", 17},               /* ∓ */
    {"+-", 18}, {"+\xE2\x88\x92", 18},               /* +− (U+2212 minus) */
    {"-+", 19}, {"\xE2\x88\x92+", 19},               /* −+ */
    {"\xE2\xA8\x80", 22},                       /* ⨀ zugzwang */
    {"\xE2\x9F\xB3", 32},                       /* ⟳ development */
    {"\xE2\x86\x91", 36},                       /* ↑ initiative */
    {"\xE2\x86\x92", 40},                       /* → attack */
    {"=/\xE2\x88\x9E", 44}, {"=\xE2\x88\x9E", 44}, {"\xE2\xAF\xB9", 44}, /* =/∞ =∞ ⯹ compensation */
    {"\xE2\x87\x86", 132},                      /* ⇆ counterplay */
    {"\xE2\x8A\x95", 138},                      /* ⊕ time trouble */
    {"\xE2\x88\x86", 140}, {"\xCE\x94", 140},   /* ∆ (or Greek Δ) with the idea */
    {"\xE2\x88\x87", 141},                      /* ∇ aimed against */
    {"\xE2\x8C\x93", 142},                      /* ⌓ better is */
    {"N", 146},                                 /* novelty */
};

int nag_from_symbol(const char *text, size_t len)
{
    /* The suffixes are by far the most frequent: answer them without the table. */
    if (len == 1) {
        switch (text[0]) {
        case '!': return 1;
        case '?': return 2;
        case '=': return 10;
        case 'N': return 146;
        default: return -1;
        }
    }
    if (len == 2 && (text[0] == '!' || text[0] == '?') && (text[1] == '!' || text[1] == '?'))
        return text[0] == '!' ? (text[1] == '!' ? 3 : 5) : (text[1] == '?' ? 4 : 6);
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strlen(symbols[i].text) == len && memcmp(symbols[i].text, text, len) == 0)
            return symbols[i].nag;
    return -1;
}

const char *nag_symbol(int n)
{
    switch (n) {
    case 1: return "!";
    case 2: return "?";
    case 3: return "!!";
    case 4: return "??";
    case 5: return "!?";
    case 6: return "?!";
    case 7: return "\xE2\x96\xA1";
    case 10: return "=";
    case 13: return "\xE2\x88\x9E";
    case 14: return "\xE2\xA9\xB2";
    case 15: return "\xE2\xA9\xB1";
    case 16: return "\xC2\xB1";
    case 17: return "\xE2\x88\x93";
    case 18: return "+\xE2\x88\x92";
    case 19: return "\xE2\x88\x92+";
    case 22: case 23: return "\xE2\xA8\x80";
    case 32: case 33: return "\xE2\x9F\xB3";
    case 36: case 37: return "\xE2\x86\x91";
    case 40: case 41: return "\xE2\x86\x92";
    case 44: case 45: return "=\xE2\x88\x9E";
    case 132: case 133: return "\xE2\x87\x86";
    case 138: case 139: return "\xE2\x8A\x95";
    case 140: return "\xE2\x88\x86";
    case 141: return "\xE2\x88\x87";
    case 142: return "\xE2\x8C\x93";
    case 146: return "N";
    default: return NULL;
    }
}

const char *nag_symbol_ascii(int n)
{
    switch (n) {
    /* the suffixes, "=" and "N" are ASCII in nag_symbol already */
    case 1: case 2: case 3: case 4: case 5: case 6: case 10: case 146: return nag_symbol(n);
    case 14: return "+=";
    case 15: return "=+";
    case 16: return "+/-";
    case 17: return "-/+";
    case 18: return "+-";
    case 19: return "-+";
    default: return NULL;
    }
}

/* 0-139 from the standard (section 10), 140-146 as ChessBase and Scid use them. */
static const char *const meanings[] = {
    "Null annotation", /* 0 */
    "Good move", /* 1 */
    "Poor move", /* 2 */
    "Very good move", /* 3 */
    "Very poor move", /* 4 */
    "Speculative move", /* 5 */
    "Questionable move", /* 6 */
    "Forced move", /* 7 */
    "Singular move", /* 8 */
    "Worst move", /* 9 */
    "Drawish position", /* 10 */
    "Equal chances, quiet position", /* 11 */
    "Equal chances, active position", /* 12 */
    "Unclear position", /* 13 */
    "White has a slight advantage", /* 14 */
    "Black has a slight advantage", /* 15 */
    "White has a moderate advantage", /* 16 */
    "Black has a moderate advantage", /* 17 */
    "White has a decisive advantage", /* 18 */
    "Black has a decisive advantage", /* 19 */
    "White has a crushing advantage", /* 20 */
    "Black has a crushing advantage", /* 21 */
    "White is in zugzwang", /* 22 */
    "Black is in zugzwang", /* 23 */
    "White has a slight space advantage", /* 24 */
    "Black has a slight space advantage", /* 25 */
    "White has a moderate space advantage", /* 26 */
    "Black has a moderate space advantage", /* 27 */
    "White has a decisive space advantage", /* 28 */
    "Black has a decisive space advantage", /* 29 */
    "White has a slight time (development) advantage", /* 30 */
    "Black has a slight time (development) advantage", /* 31 */
    "White has a moderate time (development) advantage", /* 32 */
    "Black has a moderate time (development) advantage", /* 33 */
    "White has a decisive time (development) advantage", /* 34 */
    "Black has a decisive time (development) advantage", /* 35 */
    "White has the initiative", /* 36 */
    "Black has the initiative", /* 37 */
    "White has a lasting initiative", /* 38 */
    "Black has a lasting initiative", /* 39 */
    "White has the attack", /* 40 */
    "Black has the attack", /* 41 */
    "White has insufficient compensation for material deficit", /* 42 */
    "Black has insufficient compensation for material deficit", /* 43 */
    "White has sufficient compensation for material deficit", /* 44 */
    "Black has sufficient compensation for material deficit", /* 45 */
    "White has more than adequate compensation for material deficit", /* 46 */
    "Black has more than adequate compensation for material deficit", /* 47 */
    "White has a slight center control advantage", /* 48 */
    "Black has a slight center control advantage", /* 49 */
    "White has a moderate center control advantage", /* 50 */
    "Black has a moderate center control advantage", /* 51 */
    "White has a decisive center control advantage", /* 52 */
    "Black has a decisive center control advantage", /* 53 */
    "White has a slight kingside control advantage", /* 54 */
    "Black has a slight kingside control advantage", /* 55 */
    "White has a moderate kingside control advantage", /* 56 */
    "Black has a moderate kingside control advantage", /* 57 */
    "White has a decisive kingside control advantage", /* 58 */
    "Black has a decisive kingside control advantage", /* 59 */
    "White has a slight queenside control advantage", /* 60 */
    "Black has a slight queenside control advantage", /* 61 */
    "White has a moderate queenside control advantage", /* 62 */
    "Black has a moderate queenside control advantage", /* 63 */
    "White has a decisive queenside control advantage", /* 64 */
    "Black has a decisive queenside control advantage", /* 65 */
    "White has a vulnerable first rank", /* 66 */
    "Black has a vulnerable first rank", /* 67 */
    "White has a well protected first rank", /* 68 */
    "Black has a well protected first rank", /* 69 */
    "White has a poorly protected king", /* 70 */
    "Black has a poorly protected king", /* 71 */
    "White has a well protected king", /* 72 */
    "Black has a well protected king", /* 73 */
    "White has a poorly placed king", /* 74 */
    "Black has a poorly placed king", /* 75 */
    "White has a well placed king", /* 76 */
    "Black has a well placed king", /* 77 */
    "White has a very weak pawn structure", /* 78 */
    "Black has a very weak pawn structure", /* 79 */
    "White has a moderately weak pawn structure", /* 80 */
    "Black has a moderately weak pawn structure", /* 81 */
    "White has a moderately strong pawn structure", /* 82 */
    "Black has a moderately strong pawn structure", /* 83 */
    "White has a very strong pawn structure", /* 84 */
    "Black has a very strong pawn structure", /* 85 */
    "White has poor knight placement", /* 86 */
    "Black has poor knight placement", /* 87 */
    "White has good knight placement", /* 88 */
    "Black has good knight placement", /* 89 */
    "White has poor bishop placement", /* 90 */
    "Black has poor bishop placement", /* 91 */
    "White has good bishop placement", /* 92 */
    "Black has good bishop placement", /* 93 */
    "White has poor rook placement", /* 94 */
    "Black has poor rook placement", /* 95 */
    "White has good rook placement", /* 96 */
    "Black has good rook placement", /* 97 */
    "White has poor queen placement", /* 98 */
    "Black has poor queen placement", /* 99 */
    "White has good queen placement", /* 100 */
    "Black has good queen placement", /* 101 */
    "White has poor piece coordination", /* 102 */
    "Black has poor piece coordination", /* 103 */
    "White has good piece coordination", /* 104 */
    "Black has good piece coordination", /* 105 */
    "White has played the opening very poorly", /* 106 */
    "Black has played the opening very poorly", /* 107 */
    "White has played the opening poorly", /* 108 */
    "Black has played the opening poorly", /* 109 */
    "White has played the opening well", /* 110 */
    "Black has played the opening well", /* 111 */
    "White has played the opening very well", /* 112 */
    "Black has played the opening very well", /* 113 */
    "White has played the middlegame very poorly", /* 114 */
    "Black has played the middlegame very poorly", /* 115 */
    "White has played the middlegame poorly", /* 116 */
    "Black has played the middlegame poorly", /* 117 */
    "White has played the middlegame well", /* 118 */
    "Black has played the middlegame well", /* 119 */
    "White has played the middlegame very well", /* 120 */
    "Black has played the middlegame very well", /* 121 */
    "White has played the ending very poorly", /* 122 */
    "Black has played the ending very poorly", /* 123 */
    "White has played the ending poorly", /* 124 */
    "Black has played the ending poorly", /* 125 */
    "White has played the ending well", /* 126 */
    "Black has played the ending well", /* 127 */
    "White has played the ending very well", /* 128 */
    "Black has played the ending very well", /* 129 */
    "White has slight counterplay", /* 130 */
    "Black has slight counterplay", /* 131 */
    "White has moderate counterplay", /* 132 */
    "Black has moderate counterplay", /* 133 */
    "White has decisive counterplay", /* 134 */
    "Black has decisive counterplay", /* 135 */
    "White has moderate time control pressure", /* 136 */
    "Black has moderate time control pressure", /* 137 */
    "White has severe time control pressure", /* 138 */
    "Black has severe time control pressure", /* 139 */
    "With the idea", /* 140 */
    "Aimed against", /* 141 */
    "Better is", /* 142 */
    "Worse is", /* 143 */
    "Equivalent is", /* 144 */
    "Editorial comment", /* 145 */
    "Novelty", /* 146 */
};

const char *nag_meaning(int n)
{
    if (n < 0 || (size_t)n >= sizeof meanings / sizeof meanings[0])
        return NULL;
    return meanings[n];
}
