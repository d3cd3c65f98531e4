/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* The time loop: kick-drift-kick leapfrog with mesh accelerations. */
#include <stdio.h>
#include <stdlib.h>

#include "pm.h"

void accelerations(Sim *sim, Mesh *mesh, double *potential_energy)
{
    deposit(sim, mesh);
    solve_poisson(mesh, sim->box, sim->coupling);
    gradient(mesh);
    interpolate(sim, mesh);
    *potential_energy = field_energy(mesh);
}

static double kinetic_energy(const Sim *sim)
{
    double e = 0.0;
    for (int i = 0; i < sim->n; i++)
        e += 0.5 * sim->m[i] * (sim->vx[i] * sim->vx[i] + sim->vy[i] * sim->vy[i]);
    return e;
}

void run(Sim *sim, double *kinetic, double *potential)
{
    Mesh mesh;
    double half = 0.5 * sim->dt;
    mesh_init(&mesh, sim->grid, sim->box);
    accelerations(sim, &mesh, &potential[0]);
    kinetic[0] = kinetic_energy(sim);
    for (int s = 1; s <= sim->steps; s++) {
        for (int i = 0; i < sim->n; i++) {
            sim->vx[i] += half * sim->ax[i];
            sim->vy[i] += half * sim->ay[i];
            sim->x[i] = wrap_coord(sim->x[i] + sim->dt * sim->vx[i], sim->box);
            sim->y[i] = wrap_coord(sim->y[i] + sim->dt * sim->vy[i], sim->box);
        }
        accelerations(sim, &mesh, &potential[s]);
        for (int i = 0; i < sim->n; i++) {
            sim->vx[i] += half * sim->ax[i];
            sim->vy[i] += half * sim->ay[i];
        }
        kinetic[s] = kinetic_energy(sim);
    }
    mesh_free(&mesh);
}

int main(int argc, char **argv)
{
    Sim sim;
    if (argc != 3) {
        fprintf(stderr, "usage: pm2d INPUT OUTPUT\n");
        return 2;
    }
    if (read_input(argv[1], &sim) != 0)
        return 1;
    double *kinetic = calloc((size_t)sim.steps + 1, sizeof(double));
    double *potential = calloc((size_t)sim.steps + 1, sizeof(double));
    if (!kinetic || !potential)
        return 2;
    run(&sim, kinetic, potential);
    int status = write_output(argv[2], &sim, kinetic, potential);
    free(kinetic);
    free(potential);
    free_sim(&sim);
    return status == 0 ? 0 : 1;
}
