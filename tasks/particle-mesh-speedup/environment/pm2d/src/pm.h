/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* pm2d: a 2-D periodic particle-mesh code (cloud-in-cell deposit, spectral Poisson solve, leapfrog). */
#ifndef PM_H
#define PM_H

#include <stddef.h>

#define PM_PI 3.14159265358979323846

typedef struct {
    double box;       /* side L of the periodic square [0, L)^2 */
    int grid;         /* G cells per side (a power of two, 8..128) */
    double dt;        /* time step */
    int steps;        /* number of leapfrog steps */
    double coupling;  /* C in  laplacian(phi) = C (rho - mean rho) */
    int n;            /* number of particles */
    double *x, *y, *vx, *vy, *m;
    double *ax, *ay;
} Sim;

typedef struct {
    int g;            /* cells per side */
    double h;         /* cell size L / G */
    double *rho;      /* density, g*g, row-major [iy*g + ix] */
    double *phi;      /* potential */
    double *ex, *ey;  /* -grad phi on the grid */
} Mesh;

/* io.c */
int read_input(const char *path, Sim *sim);
int write_output(const char *path, const Sim *sim, const double *kinetic, const double *potential);
void free_sim(Sim *sim);

/* grid.c */
void mesh_init(Mesh *mesh, int g, double box);
void mesh_free(Mesh *mesh);
double wrap_coord(double x, double box);
void deposit(const Sim *sim, Mesh *mesh);
void gradient(Mesh *mesh);
void interpolate(Sim *sim, const Mesh *mesh);
double field_energy(const Mesh *mesh);

/* poisson.c */
void solve_poisson(Mesh *mesh, double box, double coupling);

/* pm.c */
void accelerations(Sim *sim, Mesh *mesh, double *potential_energy);
void run(Sim *sim, double *kinetic, double *potential);

#endif
