/* lsq.c - weighted linear least squares by the normal equations (k <= 4 columns, solved by
 * Gaussian elimination with partial pivoting; columns are scaled to unit norm first so that
 * seconds and bytes of very different magnitudes do not lose precision). */
#include <math.h>
#include <string.h>

#include "calibrate/lsq.h"

static int solve(double a[LSQ_MAX][LSQ_MAX + 1], int k)
{
    for (int col = 0; col < k; col++) {
        int piv = col;
        for (int r = col + 1; r < k; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (fabs(a[piv][col]) < 1e-12)
            return -1;
        for (int j = 0; j <= k; j++) {
            double t = a[col][j];
            a[col][j] = a[piv][j];
            a[piv][j] = t;
        }
        for (int r = 0; r < k; r++) {
            if (r == col)
                continue;
            double f = a[r][col] / a[col][col];
            for (int j = col; j <= k; j++)
                a[r][j] -= f * a[col][j];
        }
    }
    return 0;
}

double lsq_solve(const double *x, const double *y, const double *w, size_t n, int k, double *c)
{
    double scale[LSQ_MAX] = {0}, a[LSQ_MAX][LSQ_MAX + 1];
    memset(a, 0, sizeof a);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < k; j++)
            scale[j] += w[i] * x[i * k + j] * x[i * k + j];
    for (int j = 0; j < k; j++) {
        if (scale[j] <= 0)
            return -1;
        scale[j] = sqrt(scale[j]);
    }
    for (size_t i = 0; i < n; i++)
        for (int r = 0; r < k; r++) {
            for (int j = 0; j < k; j++)
                a[r][j] += w[i] * x[i * k + r] / scale[r] * x[i * k + j] / scale[j];
            a[r][k] += w[i] * x[i * k + r] / scale[r] * y[i];
        }
    if (solve(a, k) < 0)
        return -1;
    double sol[LSQ_MAX];
    for (int j = 0; j < k; j++)
        sol[j] = a[j][k] / a[j][j] / scale[j];
    double sse = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i];
        for (int j = 0; j < k; j++)
            r -= x[i * k + j] * sol[j];
        sse += w[i] * r * r;
    }
    memcpy(c, sol, (size_t)k * sizeof *c);
    return sse;
}
