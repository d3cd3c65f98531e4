/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Input and output files (format: README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

static int is_power_of_two(int g) { return g > 0 && (g & (g - 1)) == 0; }

static double *alloc_doubles(int n)
{
    double *p = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!p) {
        fprintf(stderr, "pm2d: out of memory\n");
        exit(2);
    }
    return p;
}

int read_input(const char *path, Sim *sim)
{
    FILE *f = fopen(path, "r");
    char line[512], key[64];
    int have_particles = 0;
    if (!f) {
        fprintf(stderr, "pm2d: cannot open %s\n", path);
        return -1;
    }
    memset(sim, 0, sizeof *sim);
    sim->grid = 32;
    sim->coupling = 1.0;
    while (!have_particles && fgets(line, sizeof line, f)) {
        double value;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%63s %lf", key, &value) != 2) {
            fprintf(stderr, "pm2d: bad header line: %s", line);
            fclose(f);
            return -1;
        }
        if (!strcmp(key, "box")) sim->box = value;
        else if (!strcmp(key, "grid")) sim->grid = (int)value;
        else if (!strcmp(key, "dt")) sim->dt = value;
        else if (!strcmp(key, "steps")) sim->steps = (int)value;
        else if (!strcmp(key, "coupling")) sim->coupling = value;
        else if (!strcmp(key, "particles")) {
            sim->n = (int)value;
            have_particles = 1;
        } else {
            fprintf(stderr, "pm2d: unknown key %s\n", key);
            fclose(f);
            return -1;
        }
    }
    if (!have_particles || sim->box <= 0 || !is_power_of_two(sim->grid) || sim->steps < 0 || sim->n < 0) {
        fprintf(stderr, "pm2d: incomplete or invalid header\n");
        fclose(f);
        return -1;
    }
    sim->x = alloc_doubles(sim->n);
    sim->y = alloc_doubles(sim->n);
    sim->vx = alloc_doubles(sim->n);
    sim->vy = alloc_doubles(sim->n);
    sim->m = alloc_doubles(sim->n);
    sim->ax = alloc_doubles(sim->n);
    sim->ay = alloc_doubles(sim->n);
    for (int i = 0; i < sim->n; i++) {
        if (fscanf(f, "%lf %lf %lf %lf %lf", &sim->x[i], &sim->y[i], &sim->vx[i], &sim->vy[i], &sim->m[i]) != 5) {
            fprintf(stderr, "pm2d: particle %d: expected x y vx vy m\n", i);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

int write_output(const char *path, const Sim *sim, const double *kinetic, const double *potential)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pm2d: cannot write %s\n", path);
        return -1;
    }
    for (int s = 0; s <= sim->steps; s++)
        fprintf(f, "energy %d %.17g %.17g\n", s, kinetic[s], potential[s]);
    fprintf(f, "particles %d\n", sim->n);
    for (int i = 0; i < sim->n; i++)
        fprintf(f, "%.17g %.17g %.17g %.17g\n", sim->x[i], sim->y[i], sim->vx[i], sim->vy[i]);
    return fclose(f) == 0 ? 0 : -1;
}

void free_sim(Sim *sim)
{
    free(sim->x);
    free(sim->y);
    free(sim->vx);
    free(sim->vy);
    free(sim->m);
    free(sim->ax);
    free(sim->ay);
}
