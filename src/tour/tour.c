/* tour.c: the horse's tour by Warnsdorff's rule with backtracking (see tour.h). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "core/prng.h"
#include "i18n/i18n.h"
#include "tour/tour.h"

/* The horse's move (Art. 4.3e): one point straight, then one diagonally outward, i.e.
 * two along one axis and one along the other. */
static const int jump[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

int tour_horse_moves(int files, int ranks, int sq, int to[8])
{
    int f = sq % files, r = sq / files, n = 0;
    for (int i = 0; i < 8; i++) {
        int tf = f + jump[i][0], tr = r + jump[i][1];
        if (tf >= 0 && tf < files && tr >= 0 && tr < ranks)
            to[n++] = tr * files + tf;
    }
    return n;
}

typedef struct search {
    int files, ranks, points, start;
    bool closed;
    uint64_t nodes, budget;
    bool out_of_budget;
    int nbr[TOUR_MAX_POINTS][8];
    int nn[TOUR_MAX_POINTS];
    int deg[TOUR_MAX_POINTS];       /* unvisited neighbours of each point */
    int far[TOUR_MAX_POINTS];       /* squared distance from the centre, doubled coords */
    bool seen[TOUR_MAX_POINTS];
    int *path;
    int attempt;                    /* 0: the fixed tie-breaks; later: random ones */
    uint64_t rng;
} search;

static void visit(search *s, int sq)
{
    s->seen[sq] = true;
    for (int i = 0; i < s->nn[sq]; i++)
        s->deg[s->nbr[sq][i]]--;
}

static void unvisit(search *s, int sq)
{
    s->seen[sq] = false;
    for (int i = 0; i < s->nn[sq]; i++)
        s->deg[s->nbr[sq][i]]++;
}

/* Sum of the onward moves of the unvisited neighbours of sq: the second tie-break. */
static int onward_sum(const search *s, int sq)
{
    int sum = 0;
    for (int i = 0; i < s->nn[sq]; i++)
        if (!s->seen[s->nbr[sq][i]])
            sum += s->deg[s->nbr[sq][i]];
    return sum;
}

static bool adjacent(const search *s, int a, int b)
{
    for (int i = 0; i < s->nn[a]; i++)
        if (s->nbr[a][i] == b)
            return true;
    return false;
}

/* Depth-first from path[step] (already visited). True when the tour is complete. */
static bool extend(search *s, int step)
{
    int sq = s->path[step];
    if (step == s->points - 1)
        return !s->closed || adjacent(s, sq, s->start);
    /* Warnsdorff's rule: the fewest onward moves first; ties, in the first attempt: the
     * point farther from the centre, then the smaller sum of onward moves one step
     * further; in later attempts: at random. */
    int cand[8], key1[8], key2[8], key3[8], n = 0, dead = 0;
    for (int i = 0; i < s->nn[sq]; i++) {
        int t = s->nbr[sq][i];
        if (s->seen[t])
            continue;
        if (s->deg[t] == 0)
            dead++;
        cand[n] = t;
        key1[n] = s->deg[t];
        key2[n] = s->attempt ? (int)(prng_next(&s->rng) >> 40) : -s->far[t];
        key3[n] = s->attempt ? 0 : onward_sum(s, t);
        n++;
    }
    /* A neighbour with no onward move can only be the last point: two of them, or one
     * while more than one point is left, end this branch. */
    if (dead > 1 || (dead == 1 && step + 2 != s->points))
        return false;
    /* Closed: the start must keep a free neighbour to come back from. */
    if (s->closed && s->deg[s->start] == 0)
        return false;
    for (int i = 1; i < n; i++) { /* insertion sort on (key1, key2, key3) */
        int c = cand[i], a = key1[i], b = key2[i], d = key3[i], j = i - 1;
        while (j >= 0 && (key1[j] > a || (key1[j] == a && (key2[j] > b ||
                                                          (key2[j] == b && key3[j] > d))))) {
            cand[j + 1] = cand[j]; key1[j + 1] = key1[j]; key2[j + 1] = key2[j]; key3[j + 1] = key3[j];
            j--;
        }
        cand[j + 1] = c; key1[j + 1] = a; key2[j + 1] = b; key3[j + 1] = d;
    }
    for (int i = 0; i < n; i++) {
        if (s->nodes >= s->budget) {
            s->out_of_budget = true;
            return false;
        }
        s->nodes++;
        s->path[step + 1] = cand[i];
        visit(s, cand[i]);
        if (extend(s, step + 1))
            return true;
        unvisit(s, cand[i]);
        if (s->out_of_budget)
            return false;
    }
    return false;
}

bool tour_solve(const tour_request *req, tour_result *res)
{
    if (req->files < 1 || req->ranks < 1 || req->files > TOUR_MAX_SIDE ||
        req->ranks > TOUR_MAX_SIDE || req->start < 0 || req->start >= req->files * req->ranks)
        return false;
    static _Thread_local search s;
    memset(&s, 0, sizeof s);
    s.files = req->files;
    s.ranks = req->ranks;
    s.points = req->files * req->ranks;
    s.start = req->start;
    s.closed = req->closed;
    s.budget = req->budget ? req->budget : TOUR_DEFAULT_BUDGET;
    s.path = res->path;
    for (int sq = 0; sq < s.points; sq++) {
        s.nn[sq] = tour_horse_moves(s.files, s.ranks, sq, s.nbr[sq]);
        s.deg[sq] = s.nn[sq];
        int df = 2 * (sq % s.files) - (s.files - 1), dr = 2 * (sq / s.files) - (s.ranks - 1);
        s.far[sq] = df * df + dr * dr;
    }
    if (s.closed && s.points % 2) {
        /* Every horse move changes the colour of the point (file + rank changes by 1 or
         * 3), so a closed tour alternates colours and needs an even number of points. */
        res->path[0] = s.start;
        res->nodes = 0;
        res->status = TOUR_NONE;
        return true;
    }
    /* Restarts: a wrong choice near the start is not undone within any budget, so the
     * budget is spent in growing slices, each a new search with other tie-breaks. A
     * search that ends within its slice is final either way: it found a tour, or it
     * tried every move order and proved there is none. */
    uint64_t total = s.budget, used = 0, slice = total / 64 > 1000 ? total / 64 : 1000;
    bool found = false, final = false;
    for (s.attempt = 0; !final && used < total; s.attempt++) {
        s.budget = slice < total - used ? slice : total - used;
        s.nodes = 0;
        s.out_of_budget = false;
        s.rng = PRNG_SEED ^ ((uint64_t)(s.attempt * 7919 + s.start) << 20);
        for (int sq = 0; sq < s.points; sq++) {
            s.deg[sq] = s.nn[sq];
            s.seen[sq] = false;
        }
        res->path[0] = s.start;
        visit(&s, s.start);
        found = extend(&s, 0);
        used += s.nodes;
        final = found || !s.out_of_budget;
        slice *= 2;
    }
    res->nodes = used;
    res->status = found ? TOUR_FOUND : final ? TOUR_NONE : TOUR_GAVE_UP;
    return true;
}

bool tour_verify(int files, int ranks, const int *path, bool closed, char *err, size_t errsize)
{
    int points = files * ranks;
    static _Thread_local bool seen[TOUR_MAX_POINTS];
    if (files < 1 || ranks < 1 || files > TOUR_MAX_SIDE || ranks > TOUR_MAX_SIDE) {
        snprintf(err, errsize, _("board %dx%d out of range"), files, ranks);
        return false;
    }
    memset(seen, 0, sizeof seen);
    for (int k = 0; k < points; k++) {
        int sq = path[k];
        if (sq < 0 || sq >= points) {
            snprintf(err, errsize, _("step %d: point %d is off the board"), k + 1, sq);
            return false;
        }
        if (seen[sq]) {
            snprintf(err, errsize, _("step %d: point visited twice"), k + 1);
            return false;
        }
        seen[sq] = true;
        if (k > 0) {
            int df = sq % files - path[k - 1] % files, dr = sq / files - path[k - 1] / files;
            if (df * df + dr * dr != 5) { /* (1,2) or (2,1): the horse's jump */
                snprintf(err, errsize, _("step %d is not a horse move"), k + 1);
                return false;
            }
        }
    }
    if (closed) {
        int df = path[0] % files - path[points - 1] % files;
        int dr = path[0] / files - path[points - 1] / files;
        if (df * df + dr * dr != 5) {
            snprintf(err, errsize, _("the last point is not a horse move from the first"));
            return false;
        }
    }
    return true;
}

static bool xiangqi_board(int files, int ranks)
{
    return files == 9 && ranks == 10;
}

void tour_point_name(int files, int ranks, int sq, char *buf)
{
    snprintf(buf, 4, "%c%d", 'a' + sq % files, sq / files + (xiangqi_board(files, ranks) ? 0 : 1));
}

int tour_point_parse(int files, int ranks, const char *text)
{
    if (text[0] < 'a' || text[0] >= 'a' + files)
        return -1;
    int r = 0, digits = 0;
    for (const char *p = text + 1; *p; p++, digits++) {
        if (*p < '0' || *p > '9' || digits >= 2)
            return -1;
        r = r * 10 + (*p - '0');
    }
    if (!digits)
        return -1;
    if (!xiangqi_board(files, ranks))
        r--;
    if (r < 0 || r >= ranks)
        return -1;
    return r * files + (text[0] - 'a');
}
