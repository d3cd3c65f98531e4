/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Gold bot: the rules as reverse-engineered (hexfall.c here is that model) and a five-ply alpha-beta search
 * on the final-score difference, centre columns first. */
#define main engine_main
#include "hexfall.c"
#undef main

int main(int argc, char **argv) {
    State s;
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!in || !parse_state(in, &s)) { puts("0"); return 0; }
    printf("%d\n", ai_move(&s, 9, 0));
    return 0;
}
