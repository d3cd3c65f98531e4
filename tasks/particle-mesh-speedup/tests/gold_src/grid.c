/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* The mesh: cloud-in-cell deposit and gather over the four nodes around each particle, central-difference
 * gradient, field energy. Node (ix, iy) sits at (ix*h, iy*h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

void mesh_init(Mesh *mesh, int g, double box)
{
    size_t cells = (size_t)g * (size_t)g;
    mesh->g = g;
    mesh->h = box / g;
    mesh->rho = calloc(cells, sizeof(double));
    mesh->phi = calloc(cells, sizeof(double));
    mesh->ex = calloc(cells, sizeof(double));
    mesh->ey = calloc(cells, sizeof(double));
    if (!mesh->rho || !mesh->phi || !mesh->ex || !mesh->ey) {
        fprintf(stderr, "pm2d: out of memory\n");
        exit(2);
    }
}

void mesh_free(Mesh *mesh)
{
    free(mesh->rho);
    free(mesh->phi);
    free(mesh->ex);
    free(mesh->ey);
}

/* Map a coordinate back into the periodic box [0, box): fmod keeps the sign of x, and x + box may round
 * up to box itself. */
double wrap_coord(double x, double box)
{
    double r = fmod(x, box);
    if (r < 0.0)
        r += box;
    if (r >= box)
        r -= box;
    return r;
}

/* Lower node index and fraction of a coordinate in [0, box): x/h may round up to g. */
static inline void locate(double x, double inv_h, int g, int *i0, int *i1, double *f)
{
    double s = x * inv_h;
    int i = (int)s;
    double frac = s - i;
    if (i >= g) {
        i -= g;
        frac = 0.0;
    }
    *i0 = i;
    *i1 = i + 1 == g ? 0 : i + 1;
    *f = frac;
}

void deposit(const Sim *sim, Mesh *mesh)
{
    int g = mesh->g;
    double inv_h = 1.0 / mesh->h, inv_area = 1.0 / (mesh->h * mesh->h);
    double *rho = mesh->rho;
    memset(rho, 0, (size_t)g * g * sizeof(double));
    for (int p = 0; p < sim->n; p++) {
        int x0, x1, y0, y1;
        double fx, fy;
        locate(sim->x[p], inv_h, g, &x0, &x1, &fx);
        locate(sim->y[p], inv_h, g, &y0, &y1, &fy);
        double q = sim->m[p] * inv_area;
        double wy0 = q * (1.0 - fy), wy1 = q * fy;
        rho[y0 * g + x0] += (1.0 - fx) * wy0;
        rho[y0 * g + x1] += fx * wy0;
        rho[y1 * g + x0] += (1.0 - fx) * wy1;
        rho[y1 * g + x1] += fx * wy1;
    }
}

void gradient(Mesh *mesh)
{
    int g = mesh->g;
    double scale = 1.0 / (2.0 * mesh->h);
    const double *phi = mesh->phi;
    for (int iy = 0; iy < g; iy++) {
        const double *row = phi + iy * g;
        const double *up = phi + (iy + 1 == g ? 0 : iy + 1) * g;
        const double *down = phi + (iy == 0 ? g - 1 : iy - 1) * g;
        double *ex = mesh->ex + iy * g, *ey = mesh->ey + iy * g;
        ex[0] = -(row[1] - row[g - 1]) * scale;
        for (int ix = 1; ix < g - 1; ix++)
            ex[ix] = -(row[ix + 1] - row[ix - 1]) * scale;
        ex[g - 1] = -(row[0] - row[g - 2]) * scale;
        for (int ix = 0; ix < g; ix++)
            ey[ix] = -(up[ix] - down[ix]) * scale;
    }
}

void interpolate(Sim *sim, const Mesh *mesh)
{
    int g = mesh->g;
    double inv_h = 1.0 / mesh->h;
    const double *ex = mesh->ex, *ey = mesh->ey;
    for (int p = 0; p < sim->n; p++) {
        int x0, x1, y0, y1;
        double fx, fy;
        locate(sim->x[p], inv_h, g, &x0, &x1, &fx);
        locate(sim->y[p], inv_h, g, &y0, &y1, &fy);
        double w00 = (1.0 - fx) * (1.0 - fy), w10 = fx * (1.0 - fy);
        double w01 = (1.0 - fx) * fy, w11 = fx * fy;
        int c00 = y0 * g + x0, c10 = y0 * g + x1, c01 = y1 * g + x0, c11 = y1 * g + x1;
        sim->ax[p] = w00 * ex[c00] + w10 * ex[c10] + w01 * ex[c01] + w11 * ex[c11];
        sim->ay[p] = w00 * ey[c00] + w10 * ey[c10] + w01 * ey[c01] + w11 * ey[c11];
    }
}

double field_energy(const Mesh *mesh)
{
    double e = 0.0;
    int cells = mesh->g * mesh->g;
    for (int c = 0; c < cells; c++)
        e += mesh->rho[c] * mesh->phi[c];
    return 0.5 * e * mesh->h * mesh->h;
}
