/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Periodic Poisson solve  laplacian(phi) = C (rho - mean rho)  in Fourier space:
 *   phi_k = -C rho_k / |k|^2  (k != 0),  phi_0 = 0,  k = 2 pi (mx, my) / L,  m folded into [-G/2, G/2).
 * Row-column radix-2 FFT with a twiddle table and a Green's function table built once per grid. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#include "pm.h"

typedef struct {
    int g;
    double box, coupling;
    double *wr, *wi;      /* e^{-2 pi i t / g}, t < g/2 */
    int *rev;             /* bit-reversal permutation */
    double *green;        /* -C / |k|^2 / g^2 per mode (normalisation folded in) */
    double *re, *im;      /* work arrays */
} Plan;

static Plan plan;

static int folded(int m, int g) { return m < g / 2 ? m : m - g; }

static void make_plan(int g, double box, double coupling)
{
    int cells = g * g, bits = 0;
    free(plan.wr); free(plan.wi); free(plan.rev); free(plan.green); free(plan.re); free(plan.im);
    plan.g = g;
    plan.box = box;
    plan.coupling = coupling;
    plan.wr = malloc((g / 2 + 1) * sizeof(double));
    plan.wi = malloc((g / 2 + 1) * sizeof(double));
    plan.rev = malloc(g * sizeof(int));
    plan.green = malloc(cells * sizeof(double));
    plan.re = malloc(cells * sizeof(double));
    plan.im = malloc(cells * sizeof(double));
    if (!plan.wr || !plan.wi || !plan.rev || !plan.green || !plan.re || !plan.im) {
        fprintf(stderr, "pm2d: out of memory\n");
        exit(2);
    }
    for (int t = 0; t < g / 2; t++) {
        plan.wr[t] = cos(2.0 * PM_PI * t / g);
        plan.wi[t] = -sin(2.0 * PM_PI * t / g);
    }
    while ((1 << bits) < g)
        bits++;
    for (int i = 0; i < g; i++) {
        int r = 0;
        for (int b = 0; b < bits; b++)
            if (i & (1 << b))
                r |= 1 << (bits - 1 - b);
        plan.rev[i] = r;
    }
    for (int my = 0; my < g; my++)
        for (int mx = 0; mx < g; mx++) {
            double kx = 2.0 * PM_PI * folded(mx, g) / box;
            double ky = 2.0 * PM_PI * folded(my, g) / box;
            double k2 = kx * kx + ky * ky;
            plan.green[my * g + mx] = k2 > 0.0 ? -coupling / k2 / cells : 0.0;
        }
}

/* In-place FFT of n points spaced by stride; sign -1 forward, +1 inverse (unnormalised). */
static void fft1(double *re, double *im, int n, int stride, int sign)
{
    const int *rev = plan.rev;
    for (int i = 0; i < n; i++) {
        int j = rev[i];
        if (i < j) {
            double tr = re[i * stride], ti = im[i * stride];
            re[i * stride] = re[j * stride];
            im[i * stride] = im[j * stride];
            re[j * stride] = tr;
            im[j * stride] = ti;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int half = len >> 1, step = n / len;
        for (int start = 0; start < n; start += len) {
            for (int k = 0; k < half; k++) {
                double cr = plan.wr[k * step], ci = sign < 0 ? plan.wi[k * step] : -plan.wi[k * step];
                int a = (start + k) * stride, b = a + half * stride;
                double xr = re[b] * cr - im[b] * ci, xi = re[b] * ci + im[b] * cr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
    }
}

static void fft2(double *re, double *im, int g, int sign)
{
    for (int row = 0; row < g; row++)
        fft1(re + row * g, im + row * g, g, 1, sign);
    for (int col = 0; col < g; col++)
        fft1(re + col, im + col, g, g, sign);
}

void solve_poisson(Mesh *mesh, double box, double coupling)
{
    int g = mesh->g, cells = g * g;
    if (plan.g != g || plan.box != box || plan.coupling != coupling)
        make_plan(g, box, coupling);
    double *re = plan.re, *im = plan.im;
    for (int c = 0; c < cells; c++) {
        re[c] = mesh->rho[c];
        im[c] = 0.0;
    }
    fft2(re, im, g, -1);
    for (int c = 0; c < cells; c++) {
        re[c] *= plan.green[c];
        im[c] *= plan.green[c];
    }
    fft2(re, im, g, +1);
    for (int c = 0; c < cells; c++)
        mesh->phi[c] = re[c];
}
