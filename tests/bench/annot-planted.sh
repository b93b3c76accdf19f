#!/bin/sh
# annot-planted.sh: the planted annotation set of issue 26 (not a test: it prints
# figures). Usage: tests/bench/annot-planted.sh [ARBITER] [SHARED] [NODES]
#
# From the lichess games of the chess bench corpus whose comments carry the engine's own
# [%eval] scores: every third evaluated move gets a position symbol whose band holds
# that score (right) or one whose band is more than 0.3 win chances away (planted
# wrong); every move that lost >= 0.4 win chances by those scores gets ?? (right) or !!
# (planted wrong); lichess's own ?/?!/?? suffixes are removed. Then check --engine
# stockfish on both files, cold then warm cache; prints found %, false-flag %, the cost
# per position and the cold/warm ratio.
set -u
ARBITER=${1:-build/arbiter}
SHARED=${2:-../shared}
NODES=${3:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$SHARED/corpus/chess/bench/shakmaty-lichess_db_1000k.pgn" "$tmp" <<'PY'
import re, math, random, sys
random.seed(7)
src=open(sys.argv[1]).read()
games=[g for g in re.split(r'\n\n(?=\[Event )', src) if '%eval' in g]
wc=lambda cp: 2/(1+math.exp(-0.00368208*cp))-1
bands={10:(-0.15,0.15),14:(0.05,0.35),15:(-0.35,-0.05),16:(0.2,0.6),17:(-0.6,-0.2),18:(0.45,1),19:(-1,-0.45)}
right_out=[];wrong_out=[]; nr=nw=0; mr=mw=0
def evalcp(c):
    m=re.search(r'\[%eval (#?-?[\d.]+)',c)
    if not m: return None
    v=m.group(1)
    if v.startswith('#'): return 10000 if not v.startswith('#-') else -10000
    return float(v)*100
for gi,g in enumerate(games[:60]):
    head,_,moves=g.partition('\n\n')
    toks=re.findall(r'(\d+\.+\s*)?([NBRQKa-hO][^\s{}]*)\s*\{([^}]*)\}',moves)
    prev=20
    outR=[];outW=[]
    for i,(num,mv,c) in enumerate(toks):
        cp=evalcp(c)
        if cp is None: outR.append((num,mv,''));outW.append((num,mv,''));continue
        w=wc(cp); white_moved = (i%2==0)
        loss = (wc(prev)-w) if white_moved else (w-wc(prev))
        tagR=tagW=''
        if i%3==0 and abs(cp)<5000:
            ok=[s for s,(lo,hi) in bands.items() if lo+0.05<=w<=hi-0.05]
            bad=[s for s,(lo,hi) in bands.items() if w<lo-0.3 or w>hi+0.3]
            if ok and bad:
                tagR=' $%d'%random.choice(ok); tagW=' $%d'%random.choice(bad); nr+=1; nw+=1
        elif loss>=0.4 and abs(prev)<5000 and abs(cp)<5000:
            tagR=' $4'; tagW=' $3'; mr+=1; mw+=1
        prev=cp
        mv=mv.rstrip('?!'); outR.append((num,mv,tagR)); outW.append((num,mv,tagW))
    for out,lst in ((right_out,outR),(wrong_out,outW)):
        body=' '.join((n or '')+m+t for n,m,t in lst)
        res=re.search(r'\[Result "([^"]*)"\]',head).group(1)
        out.append(head+'\n\n'+body+' '+res+'\n')
open(sys.argv[2]+'/right.pgn','w').write('\n'.join(right_out)); open(sys.argv[2]+'/wrong.pgn','w').write('\n'.join(wrong_out))
print("games",min(60,len(games)),"symbols right/wrong",nr,nw,"marks",mr,mw)
PY
for f in right wrong; do
    start=$(date +%s.%N)
    "$ARBITER" check -q -j2 --engine stockfish --engine-nodes "$NODES" \
        --engine-cache "$tmp/c.sqlite" "$tmp/$f.pgn" >"$tmp/$f.yaml" 2>"$tmp/$f.err"
    end=$(date +%s.%N)
    echo "$f (cold): $(tail -n 1 "$tmp/$f.err"), wall $(echo "$end - $start" | bc) s"
    echo "$f: eval-contradicted $(grep -c 'code: eval-contradicted' "$tmp/$f.yaml")," \
         "move-mark-contradicted $(grep -c 'code: move-mark-contradicted' "$tmp/$f.yaml")"
done
start=$(date +%s.%N)
"$ARBITER" check -q -j2 --engine stockfish --engine-nodes "$NODES" \
    --engine-cache "$tmp/c.sqlite" "$tmp/right.pgn" >/dev/null 2>"$tmp/warm.err"
end=$(date +%s.%N)
echo "right (warm): $(tail -n 1 "$tmp/warm.err"), wall $(echo "$end - $start" | bc) s"
