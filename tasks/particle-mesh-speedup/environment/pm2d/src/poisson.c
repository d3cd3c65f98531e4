/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Periodic Poisson solve  laplacian(phi) = C (rho - mean rho)  in Fourier space:
 *   phi_k = -C rho_k / |k|^2  (k != 0),  phi_0 = 0,  k = 2 pi (mx, my) / L,  m folded into [-G/2, G/2).
 * Two implementations of the same transform: the direct 2-D DFT (the reference, O(G^4)) and a row-column
 * radix-2 FFT (the fast path, selected by PM_FAST_POISSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pm.h"

#ifndef PM_FAST_POISSON
#define PM_FAST_POISSON 1
#endif

/* Signed frequency index of Fourier mode m on a G-point grid. */
static int folded(int m, int g) { return m < g / 2 ? m : m - g; }

static double inverse_k2(int mx, int my, int g, double box)
{
    double kx = 2.0 * PM_PI * folded(mx, g) / box;
    double ky = 2.0 * PM_PI * folded(my, g) / box;
    double k2 = kx * kx + ky * ky;
    return k2 > 0.0 ? 1.0 / k2 : 0.0;
}

/* ---- reference: direct 2-D DFT with a twiddle table ---- */

static void dft2(const double *in_re, const double *in_im, double *out_re, double *out_im, int g, int sign,
                 const double *cos_t, const double *sin_t)
{
    for (int ky = 0; ky < g; ky++) {
        for (int kx = 0; kx < g; kx++) {
            double sr = 0.0, si = 0.0;
            for (int jy = 0; jy < g; jy++) {
                for (int jx = 0; jx < g; jx++) {
                    int t = (jx * kx + jy * ky) % g;
                    double c = cos_t[t], s = sign * sin_t[t];
                    double ar = in_re[jy * g + jx], ai = in_im[jy * g + jx];
                    sr += ar * c - ai * s;
                    si += ar * s + ai * c;
                }
            }
            out_re[ky * g + kx] = sr;
            out_im[ky * g + kx] = si;
        }
    }
}

static void solve_direct(Mesh *mesh, double box, double coupling)
{
    int g = mesh->g, cells = g * g;
    double *re = calloc(cells, sizeof(double)), *im = calloc(cells, sizeof(double));
    double *fre = calloc(cells, sizeof(double)), *fim = calloc(cells, sizeof(double));
    double *cos_t = malloc(g * sizeof(double)), *sin_t = malloc(g * sizeof(double));
    for (int t = 0; t < g; t++) {
        cos_t[t] = cos(2.0 * PM_PI * t / g);
        sin_t[t] = sin(2.0 * PM_PI * t / g);
    }
    for (int c = 0; c < cells; c++)
        re[c] = mesh->rho[c];
    dft2(re, im, fre, fim, g, -1, cos_t, sin_t);
    for (int my = 0; my < g; my++)
        for (int mx = 0; mx < g; mx++) {
            double factor = -coupling * inverse_k2(mx, my, g, box);
            fre[my * g + mx] *= factor;
            fim[my * g + mx] *= factor;
        }
    dft2(fre, fim, re, im, g, +1, cos_t, sin_t);
    for (int c = 0; c < cells; c++)
        mesh->phi[c] = re[c] / cells;
    free(re);
    free(im);
    free(fre);
    free(fim);
    free(cos_t);
    free(sin_t);
}

/* ---- fast path: in-place iterative radix-2 FFT on rows, then on columns ---- */

static void fft1(double *re, double *im, int n, int stride, int inverse)
{
    /* bit-reversal permutation */
    for (int i = 0, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double tr = re[i * stride], ti = im[i * stride];
            re[i * stride] = re[j * stride];
            im[i * stride] = im[j * stride];
            re[j * stride] = tr;
            im[j * stride] = ti;
        }
    }
    (void)inverse;
    for (int len = 2; len <= n; len <<= 1) {
        double ang = -2.0 * PM_PI / len;
        double wr = cos(ang), wi = sin(ang);
        for (int start = 0; start < n; start += len) {
            double cr = 1.0, ci = 0.0;
            for (int k = 0; k < len / 2; k++) {
                int a = (start + k) * stride, b = (start + k + len / 2) * stride;
                double xr = re[b] * cr - im[b] * ci, xi = re[b] * ci + im[b] * cr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
                double nr = cr * wr - ci * wi;
                ci = cr * wi + ci * wr;
                cr = nr;
            }
        }
    }
}

static void fft2(double *re, double *im, int g, int inverse)
{
    for (int row = 0; row < g; row++)
        fft1(re + row * g, im + row * g, g, 1, inverse);
    for (int col = 0; col < g; col++)
        fft1(re + col, im + col, g, g, inverse);
}

static void solve_fft(Mesh *mesh, double box, double coupling)
{
    int g = mesh->g, cells = g * g;
    double *re = calloc(cells, sizeof(double)), *im = calloc(cells, sizeof(double));
    double *green = malloc(cells * sizeof(double));
    /* Green's function table, 1/|k|^2 per mode */
    for (int my = 0; my < g; my++)
        for (int mx = 0; mx < g; mx++) {
            double kx = 2.0 * PM_PI * mx / box, ky = 2.0 * PM_PI * my / box;
            double k2 = kx * kx + ky * ky;
            green[my * g + mx] = k2 > 0.0 ? -coupling / k2 : 0.0;
        }
    for (int c = 0; c < cells; c++)
        re[c] = mesh->rho[c];
    fft2(re, im, g, 0);
    for (int c = 0; c < cells; c++) {
        re[c] *= green[c];
        im[c] *= green[c];
    }
    fft2(re, im, g, 1);
    for (int c = 0; c < cells; c++)
        mesh->phi[c] = re[c] / cells;
    free(re);
    free(im);
    free(green);
}

void solve_poisson(Mesh *mesh, double box, double coupling)
{
    if (PM_FAST_POISSON)
        solve_fft(mesh, box, coupling);
    else
        solve_direct(mesh, box, coupling);
}
