/*
  Kernel bodies of the fused BiCGStab sweeps (kernels.h, src/solvers/bicgstab.c):
  the direction and intermediate residual entries, sweeps 1 and 2 in each
  value precision (the DIA product fused with the vector update), sweep 3.
*/
#pragma once

#include "types.h"

/* BiCGStab direction update, one entry: p_new = r + beta (p_old - omega v_old). */
static inline EAS_HOST_DEVICE_INLINE EasKScalar EasBcgsDirection(EasKScalar r, EasKScalar p_old, EasKScalar v_old, EasKScalar beta, EasKScalar omega)
{
  return r + beta * (p_old - omega * v_old);
}

/* BiCGStab intermediate residual, one entry: s = r - alpha v. */
static inline EAS_HOST_DEVICE_INLINE EasKScalar EasBcgsSEntry(EasKScalar r, EasKScalar v, EasKScalar alpha)
{
  return r - alpha * v;
}

/* The fused BiCGStab sweep rows, written once for each value precision by
   EAS_BCGS_SWEEP_BODIES(SUF, VT) (double: no suffix, float: _F, the values
   of EasDiaSetPrecision; vectors and sums EasKScalar), as the DIA rows:
   EasBcgsSweep1Row##SUF: row i of v = A p_new where p_new is formed on the
   fly from r, p_old, v_old (BiCGStab sweep 1; the neighbours' p_new are
   recomputed, not re-read, so the sweep reads r, p_old, v_old once and
   writes p_new and v_new once).  Returns v_new[i] and stores p_new[i] in *p_i.
   EasBcgsSweep2Row##SUF: row i of t = A s where s = r - alpha v is formed
   on the fly (sweep 2).  Returns t[i] and stores s[i] in *s_i. */
#define EAS_BCGS_SWEEP_BODIES(SUF, VT)                                                                                                                                                                                                                                          \
  static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep1Row##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, EasKScalar *p_i) \
  {                                                                                                                                                                                                                                                                             \
    EasKScalar sum = 0.0;                                                                                                                                                                                                                                                       \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                                                                                                                       \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                                                                                                                    \
      if (j >= 0 && j < n) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * EasBcgsDirection(r[j], p_old[j], v_old[j], beta, omega);                                                                                                                                               \
    }                                                                                                                                                                                                                                                                           \
    *p_i = EasBcgsDirection(r[i], p_old[i], v_old[i], beta, omega);                                                                                                                                                                                                             \
    return sum;                                                                                                                                                                                                                                                                 \
  }                                                                                                                                                                                                                                                                             \
  static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep2Row##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s_i)                                               \
  {                                                                                                                                                                                                                                                                             \
    EasKScalar sum = 0.0;                                                                                                                                                                                                                                                       \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                                                                                                                       \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                                                                                                                    \
      if (j >= 0 && j < n) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * EasBcgsSEntry(r[j], v[j], alpha);                                                                                                                                                                      \
    }                                                                                                                                                                                                                                                                           \
    *s_i = EasBcgsSEntry(r[i], v[i], alpha);                                                                                                                                                                                                                                    \
    return sum;                                                                                                                                                                                                                                                                 \
  }

/* clang-format off */
EAS_BCGS_SWEEP_BODIES(, EasKScalar)
EAS_BCGS_SWEEP_BODIES(_F, float)
/* clang-format on */

/* Sweep 3, one entry: x <- x + alpha p + omega s;  r <- s - omega t.
   Returns the new r_i; the caller accumulates (rhat, r) and (r, r). */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep3Entry(EasKInt i, EasKScalar alpha, EasKScalar omega, EasKScalar *x, const EasKScalar *p, const EasKScalar *s, const EasKScalar *t)
{
  x[i] += alpha * p[i] + omega * s[i];
  return s[i] - omega * t[i];
}
