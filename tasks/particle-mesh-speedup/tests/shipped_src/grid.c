/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* The mesh: cloud-in-cell deposit and gather, central-difference gradient, field energy.
 * Grid node (ix, iy) sits at (ix*h, iy*h); a particle's weight on a node is the product of the 1-D hat
 * functions max(0, 1 - |d|/h) of its minimum-image distances to that node along each axis. */
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

/* Map a coordinate back into the periodic box [0, box). */
double wrap_coord(double x, double box)
{
    return fmod(x, box);
}

/* Minimum-image separation of a and b on a circle of length box. */
static double separation(double a, double b, double box)
{
    double d = a - b;
    if (d > 0.5 * box)
        d -= box;
    else if (d < -0.5 * box)
        d += box;
    return d;
}

static double hat(double d, double h)
{
    double w = 1.0 - fabs(d) / h;
    return w > 0.0 ? w : 0.0;
}

void deposit(const Sim *sim, Mesh *mesh)
{
    int g = mesh->g;
    double h = mesh->h, box = sim->box;
    memset(mesh->rho, 0, (size_t)g * g * sizeof(double));
    for (int p = 0; p < sim->n; p++) {
        for (int iy = 0; iy < g; iy++) {
            double wy = hat(separation(sim->y[p], iy * h, box), h);
            for (int ix = 0; ix < g; ix++) {
                double wx = hat(separation(sim->x[p], ix * h, box), h);
                mesh->rho[iy * g + ix] += sim->m[p] * wx * wy / (h * h);
            }
        }
    }
}

void gradient(Mesh *mesh)
{
    int g = mesh->g;
    double scale = 1.0 / (2.0 * mesh->h);
    for (int iy = 0; iy < g; iy++) {
        int up = (iy + 1) % g, down = (iy + g - 1) % g;
        for (int ix = 0; ix < g; ix++) {
            int right = (ix + 1) % g, left = (ix + g - 1) % g;
            mesh->ex[iy * g + ix] = -(mesh->phi[iy * g + right] - mesh->phi[iy * g + left]) * scale;
            mesh->ey[iy * g + ix] = -(mesh->phi[up * g + ix] - mesh->phi[down * g + ix]) * scale;
        }
    }
}

void interpolate(Sim *sim, const Mesh *mesh)
{
    int g = mesh->g;
    double h = mesh->h, box = sim->box;
    for (int p = 0; p < sim->n; p++) {
        double ax = 0.0, ay = 0.0;
        for (int iy = 0; iy < g; iy++) {
            double wy = hat(separation(sim->y[p], iy * h, box), h);
            for (int ix = 0; ix < g; ix++) {
                double w = wy * hat(separation(sim->x[p], ix * h, box), h);
                ax += w * mesh->ex[iy * g + ix];
                ay += w * mesh->ey[iy * g + ix];
            }
        }
        sim->ax[p] = ax;
        sim->ay[p] = ay;
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
