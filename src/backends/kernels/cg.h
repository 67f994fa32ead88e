/*
  Kernel bodies of the fused CG updates (kernels.h, src/solvers/cg.c): PCG
  and pipelined CG, one entry each.
*/
#pragma once

#include "types.h"

/* Fused CG update, one entry (PCG, e.g. Saad Alg. 9.1):
   x += alpha p;  r -= alpha q;  z = dinv r (when dinv != 0).  Returns r_i. */
static inline EAS_HOST_DEVICE EasKScalar EasCgUpdateEntry(EasKInt i, EasKScalar alpha, const EasKScalar *p, const EasKScalar *q, const EasKScalar *dinv, EasKScalar *x, EasKScalar *r, EasKScalar *z)
{
  x[i] += alpha * p[i];
  r[i] -= alpha * q[i];
  if (dinv) z[i] = dinv[i] * r[i];
  return r[i];
}

/* Fused pipelined CG update, one entry (Ghysels & Vanroose 2014, Alg. 3,
   with m = M w formed in the same sweep when dinv != 0):
   z = n + beta z; q = m + beta q; s = w + beta s; p = u + beta p;
   x += alpha p; r -= alpha s; u -= alpha q; w -= alpha z; m = dinv w. */
static inline EAS_HOST_DEVICE void EasPipeCgUpdateEntry(EasKInt i, EasKScalar alpha, EasKScalar beta, const EasKScalar *dinv, EasKScalar *z, EasKScalar *q, EasKScalar *s, EasKScalar *p, EasKScalar *x, EasKScalar *r, EasKScalar *u, EasKScalar *w, EasKScalar *m, const EasKScalar *nv)
{
  z[i] = nv[i] + beta * z[i];
  q[i] = m[i] + beta * q[i];
  s[i] = w[i] + beta * s[i];
  p[i] = u[i] + beta * p[i];
  x[i] += alpha * p[i];
  r[i] -= alpha * s[i];
  u[i] -= alpha * q[i];
  w[i] -= alpha * z[i];
  if (dinv) m[i] = dinv[i] * w[i];
}
