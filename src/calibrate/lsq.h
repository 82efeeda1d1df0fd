/* lsq.h - small weighted linear least squares for the calibration fits. */
#ifndef COLLSIM_CAL_LSQ_H
#define COLLSIM_CAL_LSQ_H

#include <stddef.h>

enum { LSQ_MAX = 4 };

/* Minimises sum_i w_i (y_i - sum_j x_i[j] c[j])^2 over c (k <= LSQ_MAX columns; x is
 * row-major n x k). Returns the weighted sum of squares, or -1 when the columns are
 * linearly dependent over these rows (c untouched then). */
double lsq_solve(const double *x, const double *y, const double *w, size_t n, int k, double *c);

#endif
