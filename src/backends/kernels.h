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

/* ------------------------------------------------------------------ EBE */

/* SIMD sum reduction of the dense element rows on the host (gcc does not
   reorder a floating-point sum without it); nothing for nvcc. */
#if defined(_OPENMP) && !defined(__CUDACC__)
#  define EAS_SIMD_SUM(s) _Pragma("omp simd reduction(+ : s)")
#else
#  define EAS_SIMD_SUM(s)
#endif

/* Largest element matrix order nen*dof (27-node elements with 3 dof: the
   81x81 matrices of seed 001). */
#define EAS_EBE_MAXM 81

/* Element e of y += A x for the element-by-element operator (DESIGN.md sec. 3,
   seed 001 Alg. 1): gather x_el = o2el(x), dense y_el = A_el x_el with A_el
   stored row-major (m x m, m = nen*dof, dof interleaved per node), scatter
   y += el2o(y_el).  conn[e*nen + a] is the local node of vertex a; global
   entry of (node, k) is node*dof + k.  The caller guarantees that no other
   thread writes the same nodes at the same time (element colouring). */
static inline EAS_HOST_DEVICE void EasEbeElementApply(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, const EasKScalar *ael, const EasKScalar *x, EasKScalar *y)
{
  const EasKInt     m = nen * dof;
  const EasKInt    *c = conn + (long)e * nen;
  const EasKScalar *A = ael + (long)e * m * m;
  EasKScalar        xe[EAS_EBE_MAXM];

  for (EasKInt a = 0; a < nen; a++)
    for (EasKInt k = 0; k < dof; k++) xe[a * dof + k] = x[(long)c[a] * dof + k]; /* o2el */
  for (EasKInt a = 0; a < nen; a++) {
    for (EasKInt k = 0; k < dof; k++) {
      const EasKInt     i   = a * dof + k;
      const EasKScalar *row = A + (long)i * m;
      EasKScalar        s   = 0.0;
      EAS_SIMD_SUM(s)
      for (EasKInt j = 0; j < m; j++) s += row[j] * xe[j];
      y[(long)c[a] * dof + k] += s; /* el2o */
    }
  }
}

/* Element e's contribution to the (point-block) diagonal: bs = 1 adds
   A_el[i][i] to d[node*dof + k]; bs = dof adds the dof x dof block of each
   node to d[node*dof*dof + k*dof + l] (point-block Jacobi). */
static inline EAS_HOST_DEVICE void EasEbeElementDiagonal(EasKInt e, EasKInt nen, EasKInt dof, EasKInt bs, const EasKInt *conn, const EasKScalar *ael, EasKScalar *d)
{
  const EasKInt     m = nen * dof;
  const EasKInt    *c = conn + (long)e * nen;
  const EasKScalar *A = ael + (long)e * m * m;

  for (EasKInt a = 0; a < nen; a++) {
    if (bs == 1) {
      for (EasKInt k = 0; k < dof; k++) d[(long)c[a] * dof + k] += A[(long)(a * dof + k) * (m + 1)];
    } else {
      for (EasKInt k = 0; k < dof; k++)
        for (EasKInt l = 0; l < dof; l++) d[(long)c[a] * dof * dof + k * dof + l] += A[(long)(a * dof + k) * m + a * dof + l];
    }
  }
}

/* Point-block product, block b: y_b = B_b x_b with B_b row-major bs x bs. */
static inline EAS_HOST_DEVICE void EasBlockMultEntry(EasKInt b, EasKInt bs, const EasKScalar *B, const EasKScalar *x, EasKScalar *y)
{
  const EasKScalar *Bb = B + (long)b * bs * bs;
  for (EasKInt k = 0; k < bs; k++) {
    EasKScalar s = 0.0;
    for (EasKInt l = 0; l < bs; l++) s += Bb[k * bs + l] * x[(long)b * bs + l];
    y[(long)b * bs + k] = s;
  }
}

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
