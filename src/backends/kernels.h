/*
  Kernel bodies shared by the CPU (OpenMP) and CUDA backends.

  Each function computes one row (or one vector entry) and is compiled for the
  host by the C compiler and for the device by nvcc, so both backends run the
  same arithmetic.  The backends add only indexing, launch and reductions.
  Tests call these bodies on the host (tests/test_kernels.c).

  Only plain C types here: no PETSc, no CUDA runtime.
*/
#pragma once

#if defined(__CUDACC__)
#  define EAS_HOST_DEVICE __host__ __device__
#else
#  define EAS_HOST_DEVICE
#endif

/* Index type of the kernels; equal to PetscInt in the Debian (32-bit) build,
   checked at compile time in backend.h. */
typedef int    EasKInt;
typedef double EasKScalar;

/* Row i of y = A x for DIA storage val[d*ld + i] = A[i][i+off[d]], all
   diagonals read in one row loop (DESIGN.md sec. 9).  Guarded: columns outside
   [0,n) are skipped, for the first and last rows. */
static inline EAS_HOST_DEVICE EasKScalar EasDiaRowGuarded(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  EasKScalar sum = 0.0;
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKInt j = i + off[d];
    if (j >= 0 && j < n) sum += val[(long)d * ld + i] * x[j];
  }
  return sum;
}

/* Row i of y = A x for an interior row: every i+off[d] lies in [0,n). */
static inline EAS_HOST_DEVICE EasKScalar EasDiaRowInterior(EasKInt i, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  EasKScalar sum = 0.0;
  for (EasKInt d = 0; d < ndiag; d++) sum += val[(long)d * ld + i] * x[i + off[d]];
  return sum;
}

/* Row i of y = A^T x by index arithmetic (seed 000 Fig. 1.8):
   (A^T x)_i = sum_d A[i-off[d]][i] x[i-off[d]] = sum_d val[d*ld + i-off[d]] x[i-off[d]]. */
static inline EAS_HOST_DEVICE EasKScalar EasDiaRowTranspose(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *x)
{
  EasKScalar sum = 0.0;
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKInt k = i - off[d];
    if (k >= 0 && k < n) sum += val[(long)d * ld + k] * x[k];
  }
  return sum;
}

/* BiCGStab direction update, one entry: p_new = r + beta (p_old - omega v_old). */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsDirection(EasKScalar r, EasKScalar p_old, EasKScalar v_old, EasKScalar beta, EasKScalar omega)
{
  return r + beta * (p_old - omega * v_old);
}

/* Row i of v = A p_new where p_new is formed on the fly from r, p_old, v_old
   (BiCGStab sweep 1; the neighbours' p_new are recomputed, not re-read, so
   the sweep reads r, p_old, v_old once and writes p_new and v_new once).
   Returns v_new[i] and stores p_new[i] in *p_i. */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep1Row(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, EasKScalar beta, EasKScalar omega, const EasKScalar *r, const EasKScalar *p_old, const EasKScalar *v_old, EasKScalar *p_i)
{
  EasKScalar sum = 0.0;
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKInt j = i + off[d];
    if (j >= 0 && j < n) sum += val[(long)d * ld + i] * EasBcgsDirection(r[j], p_old[j], v_old[j], beta, omega);
  }
  *p_i = EasBcgsDirection(r[i], p_old[i], v_old[i], beta, omega);
  return sum;
}

/* BiCGStab intermediate residual, one entry: s = r - alpha v. */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSEntry(EasKScalar r, EasKScalar v, EasKScalar alpha)
{
  return r - alpha * v;
}

/* Row i of t = A s where s = r - alpha v is formed on the fly (sweep 2).
   Returns t[i] and stores s[i] in *s_i. */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep2Row(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, EasKScalar alpha, const EasKScalar *r, const EasKScalar *v, EasKScalar *s_i)
{
  EasKScalar sum = 0.0;
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKInt j = i + off[d];
    if (j >= 0 && j < n) sum += val[(long)d * ld + i] * EasBcgsSEntry(r[j], v[j], alpha);
  }
  *s_i = EasBcgsSEntry(r[i], v[i], alpha);
  return sum;
}

/* Sweep 3, one entry: x <- x + alpha p + omega s;  r <- s - omega t.
   Returns the new r_i; the caller accumulates (rhat, r) and (r, r). */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSweep3Entry(EasKInt i, EasKScalar alpha, EasKScalar omega, EasKScalar *x, const EasKScalar *p, const EasKScalar *s, const EasKScalar *t)
{
  x[i] += alpha * p[i] + omega * s[i];
  return s[i] - omega * t[i];
}

/* y <- a x + b y, one entry. */
static inline EAS_HOST_DEVICE EasKScalar EasAxpbyEntry(EasKScalar a, EasKScalar x, EasKScalar b, EasKScalar y)
{
  return a * x + b * y;
}
