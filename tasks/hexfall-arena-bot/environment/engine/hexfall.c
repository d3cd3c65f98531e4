/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* hexfall: a two-player drop-and-flank grid game. Built stripped into the image without the AI section
 * (-DNO_AI); the verifier builds its own copy with the reference opponents. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 12
#define MAXH 12

typedef struct {
    int w, h;
    int turn;         /* 0 = A, 1 = B */
    int left[2];      /* moves left per player */
    int score[2];     /* points so far (stones on board are added at the end) */
    char cell[MAXH][MAXW];
} State;

static const char STONE[2] = {'A', 'B'};

/* ---------------------------------------------------------------- rng */
static uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
typedef struct { uint64_t s; } Rng;
static uint32_t rng_next(Rng *r) { r->s = mix64(r->s); return (uint32_t)(r->s >> 32); }
static int rng_below(Rng *r, int n) { return (int)(rng_next(r) % (uint32_t)n); }

/* ---------------------------------------------------------------- rules */
static int landing_row(const State *s, int c) {
    if (c < 0 || c >= s->w) return -1;
    int r = -1;
    for (int i = 0; i < s->h; i++) {
        char ch = s->cell[i][c];
        if (ch == '.' || ch == '^') r = i; else break;
    }
    return r;
}

static int legal(const State *s, int c) { return landing_row(s, c) >= 0; }

static int any_legal(const State *s) {
    for (int c = 0; c < s->w; c++) if (legal(s, c)) return 1;
    return 0;
}

static int over(const State *s) { return (s->left[0] <= 0 && s->left[1] <= 0) || !any_legal(s); }

static int stones(const State *s, int p) {
    int n = 0;
    for (int r = 0; r < s->h; r++) for (int c = 0; c < s->w; c++) n += s->cell[r][c] == STONE[p];
    return n;
}

static int final_score(const State *s, int p) { return s->score[p] + stones(s, p); }

static void next_turn(State *s) {
    s->turn ^= 1;
    if (s->left[s->turn] <= 0) s->turn ^= 1;
}

/* Apply move c for the player to move; returns 1 when legal. An illegal move costs the turn and a point. */
static int apply(State *s, int c) {
    int p = s->turn, r = landing_row(s, c);
    s->left[p]--;
    if (r < 0) {
        s->score[p] -= 1;
        next_turn(s);
        return 0;
    }
    if (s->cell[r][c] == '^') { /* the hazard goes off: the stone and its orthogonal neighbours are gone */
        s->cell[r][c] = '#';
        static const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int k = 0; k < 4; k++) {
            int rr = r + d4[k][0], cc = (c + d4[k][1] + s->w) % s->w;
            if (rr < 0 || rr >= s->h) continue;
            if (s->cell[rr][cc] == 'A' || s->cell[rr][cc] == 'B') s->cell[rr][cc] = '.';
        }
        s->score[p] -= 1;
        next_turn(s);
        return 1;
    }
    s->cell[r][c] = STONE[p];
    int flipped = 0, lines = 0, reach = s->w > s->h ? s->w : s->h;
    for (int dr = -1; dr <= 1; dr++) {
        for (int dc = -1; dc <= 1; dc++) {
            if (!dr && !dc) continue;
            int n = 0, closed = 0;
            for (int k = 1; k < reach; k++) {
                int rr = r + dr * k, cc = ((c + dc * k) % s->w + s->w) % s->w;
                if (rr < 0 || rr >= s->h || (rr == r && cc == c)) break;
                char ch = s->cell[rr][cc];
                if (ch == STONE[p ^ 1]) { n++; continue; }
                if (ch == STONE[p]) closed = 1;
                break;
            }
            if (closed && n > 0) {
                for (int k = 1; k <= n; k++) {
                    int rr = r + dr * k, cc = ((c + dc * k) % s->w + s->w) % s->w;
                    s->cell[rr][cc] = STONE[p];
                }
                flipped += n;
                lines++;
            }
        }
    }
    s->score[p] += flipped * lines;
    next_turn(s);
    return 1;
}

/* ---------------------------------------------------------------- boards */
typedef struct { const char *name; int w, h, blocks, hazards, pre, moves; } Family;
static const Family FAMILIES[] = {
    {"standard", 7, 7, 3, 3, 0, 12},
    {"wide", 9, 8, 5, 4, 0, 14},
    {"hazard", 7, 7, 2, 8, 0, 12},
    {"layout", 8, 7, 4, 3, 3, 12},
    {"tall", 6, 9, 3, 4, 2, 13},
};
#define NFAM ((int)(sizeof FAMILIES / sizeof FAMILIES[0]))

static const Family *family_named(const char *name) {
    for (int i = 0; i < NFAM; i++) if (!strcmp(FAMILIES[i].name, name)) return &FAMILIES[i];
    return NULL;
}

static void new_board(State *s, const Family *f, uint64_t seed) {
    Rng rng = {mix64(seed ^ mix64((uint64_t)(f - FAMILIES) + 77))};
    memset(s, 0, sizeof *s);
    s->w = f->w; s->h = f->h;
    for (int r = 0; r < s->h; r++) memset(s->cell[r], '.', (size_t)s->w);
    for (int i = 0; i < f->blocks; i++) {  /* blocks sit in the lower half, never in the top row */
        int r = s->h / 2 + rng_below(&rng, s->h - s->h / 2), c = rng_below(&rng, s->w);
        s->cell[r][c] = '#';
    }
    for (int i = 0; i < f->hazards; i++) {
        int r = 1 + rng_below(&rng, s->h - 1), c = rng_below(&rng, s->w);
        if (s->cell[r][c] == '.') s->cell[r][c] = '^';
    }
    for (int i = 0; i < 2 * f->pre; i++) {  /* pre-placed stones rest where a drop would leave them */
        int c = rng_below(&rng, s->w), r = landing_row(s, c);
        if (r > 0 && s->cell[r][c] == '.') s->cell[r][c] = STONE[i & 1];
    }
    s->left[0] = s->left[1] = f->moves;
    s->turn = 0;
}

/* ---------------------------------------------------------------- text */
static void print_state(FILE *out, const State *s) {
    fprintf(out, "hexfall 1\nsize %d %d\nturn %c\nleft %d %d\nscore %d %d\n", s->w, s->h, STONE[s->turn],
            s->left[0], s->left[1], s->score[0], s->score[1]);
    for (int r = 0; r < s->h; r++) fprintf(out, "%.*s\n", s->w, s->cell[r]);
}

static int parse_state(FILE *in, State *s) {
    char line[256], t;
    memset(s, 0, sizeof *s);
    if (!fgets(line, sizeof line, in) || strncmp(line, "hexfall 1", 9)) return 0;
    if (!fgets(line, sizeof line, in) || sscanf(line, "size %d %d", &s->w, &s->h) != 2) return 0;
    if (s->w < 3 || s->w > MAXW || s->h < 3 || s->h > MAXH) return 0;
    if (!fgets(line, sizeof line, in) || sscanf(line, "turn %c", &t) != 1 || (t != 'A' && t != 'B')) return 0;
    s->turn = t == 'B';
    if (!fgets(line, sizeof line, in) || sscanf(line, "left %d %d", &s->left[0], &s->left[1]) != 2) return 0;
    if (!fgets(line, sizeof line, in) || sscanf(line, "score %d %d", &s->score[0], &s->score[1]) != 2) return 0;
    for (int r = 0; r < s->h; r++) {
        if (!fgets(line, sizeof line, in) || (int)strcspn(line, "\r\n") != s->w) return 0;
        for (int c = 0; c < s->w; c++) {
            if (!strchr(".^#AB", line[c])) return 0;
            s->cell[r][c] = line[c];
        }
    }
    return 1;
}

static int parse_move(const char *text, int *c) {
    char *end;
    while (*text == ' ' || *text == '\t') text++;
    long v = strtol(text, &end, 10);
    if (end == text) return 0;
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
    if (*end) return 0;
    if (v < -1000 || v > 1000) return 0;
    *c = (int)v;
    return 1;
}

/* ---------------------------------------------------------------- AI (verifier build only) */
#ifndef NO_AI
static int eval_for(const State *s, int p) { return final_score(s, p) - final_score(s, p ^ 1); }

static int order[MAXW];
static void move_order(int w) {  /* centre first, then outwards, left before right */
    int n = 0, mid = (w - 1) / 2;
    order[n++] = mid;
    for (int d = 1; n < w; d++) {
        if (mid - d >= 0) order[n++] = mid - d;
        if (n < w && mid + d < w) order[n++] = mid + d;
    }
}

static int search(const State *s, int me, int depth, int alpha, int beta) {
    if (depth == 0 || over(s)) return eval_for(s, me);
    int maxing = s->turn == me, best = maxing ? -100000 : 100000;
    for (int i = 0; i < s->w; i++) {
        int c = order[i];
        if (!legal(s, c)) continue;
        State t = *s;
        apply(&t, c);
        int v = search(&t, me, depth - 1, alpha, beta);
        if (maxing) { if (v > best) best = v; if (best > alpha) alpha = best; }
        else { if (v < best) best = v; if (best < beta) beta = best; }
        if (alpha >= beta) break;
    }
    return best;
}

/* level 1: seeded random legal column; 2: greedy one ply; 3: two plies; 9: the gold search (five plies) */
static int ai_move(const State *s, int level, uint64_t salt) {
    move_order(s->w);
    if (level == 1) {
        int cols[MAXW], n = 0;
        for (int c = 0; c < s->w; c++) if (legal(s, c)) cols[n++] = c;
        if (!n) return 0;
        Rng rng = {mix64(salt)};
        return cols[rng_below(&rng, n)];
    }
    int depth = level == 2 ? 1 : level == 3 ? 2 : 5, me = s->turn, best = -1, bestv = -100000;
    for (int i = 0; i < s->w; i++) {
        int c = order[i];
        if (!legal(s, c)) continue;
        State t = *s;
        apply(&t, c);
        int v = search(&t, me, depth - 1, -100000, 100000);
        if (v > bestv) { bestv = v; best = c; }
    }
    return best < 0 ? 0 : best;
}

/* gold (level 9) against `level` on one board, gold playing side `side`: 1 win, 0 otherwise */
static int duel(const Family *f, uint64_t seed, int level, int side) {
    State s;
    new_board(&s, f, seed);
    for (int ply = 0; !over(&s); ply++) {
        int lv = s.turn == side ? 9 : level;
        apply(&s, ai_move(&s, lv, seed * 1000003ULL + (uint64_t)ply));
    }
    return final_score(&s, side) > final_score(&s, side ^ 1);
}
#endif

/* ---------------------------------------------------------------- cli */
static void usage(void) {
    puts("usage: hexfall new --seed N [--family F]\n"
         "       hexfall play --seed N [--family F]     you are A; type a column per line\n"
         "       hexfall referee                        stdin: a state, then 'move C'; stdout: JSON\n"
         "families: standard wide hazard layout tall");
}

static const char *opt(int argc, char **argv, const char *name, const char *dflt) {
    for (int i = 2; i + 1 < argc; i++) if (!strcmp(argv[i], name)) return argv[i + 1];
    return dflt;
}

static void json_state(const State *s, int legal_move) {
    printf("{\"legal\": %s, \"over\": %s, \"turn\": \"%c\", \"final\": [%d, %d], \"state\": \"", legal_move ? "true" : "false",
           over(s) ? "true" : "false", STONE[s->turn], final_score(s, 0), final_score(s, 1));
    char buf[2048];
    FILE *mem = fmemopen(buf, sizeof buf, "w");
    print_state(mem, s);
    fclose(mem);
    for (char *p = buf; *p; p++) { if (*p == '\n') fputs("\\n", stdout); else putchar(*p); }
    puts("\"}");
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { usage(); return argc < 2; }
    const char *cmd = argv[1];
    const Family *f = family_named(opt(argc, argv, "--family", "standard"));
    uint64_t seed = strtoull(opt(argc, argv, "--seed", "0"), NULL, 10);
    if (!f) { fputs("unknown family\n", stderr); return 2; }
    State s;
    if (!strcmp(cmd, "new")) { new_board(&s, f, seed); print_state(stdout, &s); return 0; }
    if (!strcmp(cmd, "play")) {
        new_board(&s, f, seed);
        Rng rng = {mix64(seed + 5)};
        char line[128];
        print_state(stdout, &s);
        while (!over(&s)) {
            int c;
            if (s.turn == 0) {
                printf("move> ");
                fflush(stdout);
                if (!fgets(line, sizeof line, stdin)) return 0;
                if (!parse_move(line, &c)) c = -1;
            } else {
                int cols[MAXW], n = 0;
                for (int k = 0; k < s.w; k++) if (legal(&s, k)) cols[n++] = k;
                c = cols[rng_below(&rng, n)];
                printf("B plays %d\n", c);
            }
            if (!apply(&s, c)) puts("illegal");
            print_state(stdout, &s);
        }
        printf("game over: A %d B %d\n", final_score(&s, 0), final_score(&s, 1));
        return 0;
    }
    if (!strcmp(cmd, "referee")) {
        char line[128];
        int c;
        if (!parse_state(stdin, &s)) { puts("{\"error\": \"bad state\"}"); return 1; }
        if (over(&s)) { json_state(&s, 0); return 0; }
        if (!fgets(line, sizeof line, stdin) || strncmp(line, "move", 4) || !parse_move(line + 4, &c)) c = -1;
        int ok = apply(&s, c);
        json_state(&s, ok);
        return 0;
    }
#ifndef NO_AI
    if (!strcmp(cmd, "ai")) {  /* hexfall ai LEVEL SALT < state */
        if (argc < 4 || !parse_state(stdin, &s)) return 1;
        printf("%d\n", ai_move(&s, atoi(argv[2]), strtoull(argv[3], NULL, 10)));
        return 0;
    }
    if (!strcmp(cmd, "duel")) {  /* hexfall duel FAMILY SEED LEVEL SIDE */
        if (argc < 6 || !(f = family_named(argv[2]))) return 1;
        printf("%d\n", duel(f, strtoull(argv[3], NULL, 10), atoi(argv[4]), atoi(argv[5])));
        return 0;
    }
#endif
    usage();
    return 2;
}
