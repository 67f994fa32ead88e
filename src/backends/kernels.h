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

#include <stddef.h>

/* Index type of the kernels; equal to PetscInt in the Debian (32-bit) build,
   checked at compile time in backend.h.  Row, point, node and element
   numbers are EasKInt. */
typedef int    EasKInt;
typedef double EasKScalar;
/* Offsets into arrays whose length is a product of sizes (diagonal d of a
   DIA matrix at d*ld, face f of the ADR weights at f*np, element e's matrix
   at e*m*m, the padded ADR box) are EasKIdx, 64-bit on 64-bit hosts and
   devices: such a product passes 2^31 - 1 long before the row count does
   (9 diagonals of 2.4e8 rows, 6 faces of 3.6e8 points; issue 10, M2). */
typedef ptrdiff_t EasKIdx;

/* The DIA row bodies, written once for each value precision (-adr_jacobian_precision,
   EasDiaSetPrecision): EAS_DIA_ROW_BODIES(SUF, VT) defines EasDiaRowGuarded##SUF,
   EasDiaRowInterior##SUF and EasDiaRowTranspose##SUF for values of type VT;
   the vectors and the sums stay EasKScalar (double) in both.  Instantiated
   below for double (no suffix) and float (suffix _F).

   EasDiaRowGuarded: row i of y = A x for DIA storage val[d*ld + i] =
   A[i][i+off[d]], all diagonals read in one row loop (README.md, Measured
   figures); columns outside [0,n) are skipped, for the first and last rows.
   EasDiaRowInterior: the same for an interior row, every i+off[d] in [0,n).
   EasDiaRowTranspose: row i of y = A^T x by index arithmetic (Vialle et al.
   Fig. 1.8): (A^T x)_i = sum_d A[i-off[d]][i] x[i-off[d]] = sum_d
   val[d*ld + i-off[d]] x[i-off[d]]. */
#define EAS_DIA_ROW_BODIES(SUF, VT)                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowGuarded##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x)   \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                   \
      const EasKIdx j = (EasKIdx)i + off[d];                                                                                                                                \
      if (j >= 0 && j < n) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * x[j];                                                                                              \
    }                                                                                                                                                                       \
    return sum;                                                                                                                                                             \
  }                                                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowInterior##SUF(EasKInt i, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x)             \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) sum += (EasKScalar)val[(EasKIdx)d * ld + i] * x[i + off[d]];                                                                        \
    return sum;                                                                                                                                                             \
  }                                                                                                                                                                         \
  static inline EAS_HOST_DEVICE EasKScalar EasDiaRowTranspose##SUF(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const VT *val, EasKInt ld, const EasKScalar *x) \
  {                                                                                                                                                                         \
    EasKScalar sum = 0.0;                                                                                                                                                   \
    for (EasKInt d = 0; d < ndiag; d++) {                                                                                                                                   \
      const EasKIdx k = (EasKIdx)i - off[d];                                                                                                                                \
      if (k >= 0 && k < n) sum += (EasKScalar)val[(EasKIdx)d * ld + k] * x[k];                                                                                              \
    }                                                                                                                                                                       \
    return sum;                                                                                                                                                             \
  }
/* clang-format off */
EAS_DIA_ROW_BODIES(, EasKScalar)
EAS_DIA_ROW_BODIES(_F, float)
/* clang-format on */

/* Single-precision values (EasDiaSetPrecision): entry i of the float copy,
   rounded to nearest. */
static inline EAS_HOST_DEVICE float EasDiaSingleEntry(EasKScalar v)
{
  return (float)v;
}

/* Row i of y = A x for a CSR matrix (the backend-private copy of a DIA
   matrix that /cpu/memcheck's csr mode multiplies; zero-based indices). */
static inline EAS_HOST_DEVICE EasKScalar EasCsrRow(EasKInt i, const EasKInt *rowptr, const EasKInt *colind, const EasKScalar *val, const EasKScalar *x)
{
  EasKScalar sum = 0.0;
  for (EasKInt k = rowptr[i]; k < rowptr[i + 1]; k++) sum += val[k] * x[colind[k]];
  return sum;
}

/* Row i's share of y = A^T x for a CSR matrix: y[j] += A[i][j] x[i] over
   row i's columns j (a scatter: rows in sequence, or atomics). */
static inline EAS_HOST_DEVICE void EasCsrRowTransposeScatter(EasKInt i, const EasKInt *rowptr, const EasKInt *colind, const EasKScalar *val, const EasKScalar *x, EasKScalar *y)
{
  for (EasKInt k = rowptr[i]; k < rowptr[i + 1]; k++) y[colind[k]] += val[k] * x[i];
}

/* BiCGStab direction update, one entry: p_new = r + beta (p_old - omega v_old). */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsDirection(EasKScalar r, EasKScalar p_old, EasKScalar v_old, EasKScalar beta, EasKScalar omega)
{
  return r + beta * (p_old - omega * v_old);
}

/* BiCGStab intermediate residual, one entry: s = r - alpha v. */
static inline EAS_HOST_DEVICE EasKScalar EasBcgsSEntry(EasKScalar r, EasKScalar v, EasKScalar alpha)
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

/* y <- a x + b y, one entry. */
static inline EAS_HOST_DEVICE EasKScalar EasAxpbyEntry(EasKScalar a, EasKScalar x, EasKScalar b, EasKScalar y)
{
  return a * x + b * y;
}

/* Right Jacobi (bicgstab.c): entry i of D^{-1} from the main diagonal
   vmain; a zero diagonal gives 0 and returns 1 (the caller reports it). */
static inline EAS_HOST_DEVICE int EasDiaInvDiagEntry(EasKInt i, const EasKScalar *vmain, EasKScalar *dinv)
{
  const EasKScalar d = vmain[i];
  dinv[i]            = d != 0.0 ? 1.0 / d : 0.0;
  return d == 0.0;
}

/* Row i of B = A diag(s), the column-scaled copy A D^{-1}: B[i][i+off[d]] =
   A[i][i+off[d]] s[i+off[d]], zero where the column is outside [0,n). */
static inline EAS_HOST_DEVICE void EasDiaColumnScaleRow(EasKInt i, EasKInt n, EasKInt ndiag, const EasKInt *off, const EasKScalar *val, EasKInt ld, const EasKScalar *s, EasKScalar *out)
{
  for (EasKInt d = 0; d < ndiag; d++) {
    const EasKIdx j          = (EasKIdx)i + off[d];
    out[(EasKIdx)d * ld + i] = (j >= 0 && j < n) ? val[(EasKIdx)d * ld + i] * s[j] : 0.0;
  }
}

/* ------------------------------------------------------------------ EBE */

/* SIMD sum reduction of the dense element rows on the host (gcc does not
   reorder a floating-point sum without it); nothing for nvcc. */
#if defined(_OPENMP) && !defined(__CUDACC__)
#  define EAS_SIMD_SUM(s) _Pragma("omp simd reduction(+ : s)")
#  define EAS_SIMD_SUM4 _Pragma("omp simd reduction(+ : s0, s1, s2, s3)") /* the names are literal in a _Pragma string */
#else
#  define EAS_SIMD_SUM(s)
#  define EAS_SIMD_SUM4
#endif

/* Host-only hint: bring the cache lines of bytes [b0, b1) of base into the
   cache (base may be NULL: nothing).  The element bodies use it one element
   ahead: the elements of a colour are not adjacent in memory, so the
   hardware prefetcher restarts at every element and the body waits for
   memory at each (out of cache the packed symmetric apply took 2x the time
   of its arithmetic, docs/ebe.md "Prefetch").  Nothing on the device, where
   the next element belongs to another thread. */
#if defined(__GNUC__) && !defined(__CUDACC__)
#  define EAS_PREFETCH_RANGE(base, b0, b1)                                                                               \
    do {                                                                                                                 \
      if (base) {                                                                                                        \
        const char *pf_p_ = (const char *)(base) + (b0), *pf_e_ = (const char *)(base) + (b1);                           \
        for (pf_p_ = (const char *)((size_t)pf_p_ & ~(size_t)63); pf_p_ < pf_e_; pf_p_ += 64) __builtin_prefetch(pf_p_); \
      }                                                                                                                  \
    } while (0)
#else
#  define EAS_PREFETCH_RANGE(base, b0, b1) \
    do {                                   \
      (void)(base);                        \
    } while (0)
#endif

/* Largest element matrix order nen*dof (27-node elements with 3 dof: the
   81x81 matrices of Lang-Rünger). */
#define EAS_EBE_MAXM 81

/* Element e of y += A x for the element-by-element operator (docs/ebe.md,
   Lang-Rünger Alg. 1): gather x_el = o2el(x), dense y_el = A_el x_el,
   scatter y += el2o(y_el).  conn[e*nen + a] is the local node of vertex a;
   global entry of (node, k) is node*dof + k.  The caller guarantees that no
   other thread writes the same nodes at the same time (element colouring).
   Written once for each element storage (-ebe_storage, EasEbeSetStorage) by
   EAS_EBE_APPLY_BODIES(SUF, VT), values of type VT (double: no suffix,
   float: _F), x, y and the sums EasKScalar:
     EasEbeElementApply##SUF     A_el stored row-major, m x m (m = nen*dof,
                                 dof interleaved per node): m^2 values read
     EasEbeElementApplySym##SUF  A_el symmetric, its upper triangle packed by
                                 rows (EasEbeSymRowStart), m(m+1)/2 values,
                                 each read once and used twice: y_i +=
                                 A_ij x_j and y_j += A_ij x_i (j > i). */
/* Offset of row i (entries A[i][i..m-1]) in a packed upper triangle of order m. */
static inline EAS_HOST_DEVICE EasKIdx EasEbeSymRowStart(EasKInt i, EasKInt m)
{
  return (EasKIdx)i * m - ((EasKIdx)i * (i - 1)) / 2;
}
#define EAS_EBE_APPLY_BODIES(SUF, VT)                                                                                                                                                                    \
  static inline EAS_HOST_DEVICE void EasEbeElementApply##SUF(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, const VT *ael, const EasKScalar *x, EasKScalar *y, const VT *next)                \
  {                                                                                                                                                                                                      \
    const EasKInt  m = nen * dof;                                                                                                                                                                        \
    const EasKInt *c = conn + (EasKIdx)e * nen;                                                                                                                                                          \
    const VT      *A = ael + (EasKIdx)e * m * m;                                                                                                                                                         \
    EasKScalar     xe[EAS_EBE_MAXM], ye[EAS_EBE_MAXM];                                                                                                                                                   \
    EasKInt        i;                                                                                                                                                                                    \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                    \
      for (EasKInt k = 0; k < dof; k++) xe[a * dof + k] = x[(EasKIdx)c[a] * dof + k]; /* o2el */                                                                                                         \
    for (i = 0; i + 3 < m; i += 4) {                                                  /* four rows per pass over x_el (single: 1.8x out of cache) */                                                     \
      const VT *r0 = A + (EasKIdx)i * m, *r1 = r0 + m, *r2 = r1 + m, *r3 = r2 + m;                                                                                                                       \
      EAS_PREFETCH_RANGE(next, (EasKIdx)i *m * sizeof(VT), (EasKIdx)(i + 4) * m * sizeof(VT)); /* the next element's same rows */                                                                        \
      EasKScalar s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                                                                                                                                                 \
      EAS_SIMD_SUM4                                                                                                                                                                                      \
      for (EasKInt j = 0; j < m; j++) {                                                                                                                                                                  \
        const EasKScalar xj = xe[j];                                                                                                                                                                     \
        s0 += (EasKScalar)r0[j] * xj;                                                                                                                                                                    \
        s1 += (EasKScalar)r1[j] * xj;                                                                                                                                                                    \
        s2 += (EasKScalar)r2[j] * xj;                                                                                                                                                                    \
        s3 += (EasKScalar)r3[j] * xj;                                                                                                                                                                    \
      }                                                                                                                                                                                                  \
      ye[i]     = s0;                                                                                                                                                                                    \
      ye[i + 1] = s1;                                                                                                                                                                                    \
      ye[i + 2] = s2;                                                                                                                                                                                    \
      ye[i + 3] = s3;                                                                                                                                                                                    \
    }                                                                                                                                                                                                    \
    for (i = m - m % 4; i < m; i++) { /* the last m mod 4 rows */                                                                                                                                        \
      const VT *row = A + (EasKIdx)i * m;                                                                                                                                                                \
      EAS_PREFETCH_RANGE(next, (EasKIdx)i *m * sizeof(VT), (EasKIdx)(i + 1) * m * sizeof(VT));                                                                                                           \
      EasKScalar s = 0.0;                                                                                                                                                                                \
      EAS_SIMD_SUM(s)                                                                                                                                                                                    \
      for (EasKInt j = 0; j < m; j++) s += (EasKScalar)row[j] * xe[j];                                                                                                                                   \
      ye[i] = s;                                                                                                                                                                                         \
    }                                                                                                                                                                                                    \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                    \
      for (EasKInt k = 0; k < dof; k++) y[(EasKIdx)c[a] * dof + k] += ye[a * dof + k]; /* el2o */                                                                                                        \
  }                                                                                                                                                                                                      \
  static inline EAS_HOST_DEVICE void EasEbeElementApplySym##SUF(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, const VT *aps, const EasKScalar *x, EasKScalar *y, const VT *next)             \
  {                                                                                                                                                                                                      \
    const EasKInt  m = nen * dof;                                                                                                                                                                        \
    const EasKInt *c = conn + (EasKIdx)e * nen;                                                                                                                                                          \
    const VT      *A = aps + (EasKIdx)e * ((EasKIdx)m * (m + 1) / 2);                                                                                                                                    \
    EasKScalar     xe[EAS_EBE_MAXM], ye[EAS_EBE_MAXM];                                                                                                                                                   \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                    \
      for (EasKInt k = 0; k < dof; k++) {                                                                                                                                                                \
        xe[a * dof + k] = x[(EasKIdx)c[a] * dof + k]; /* o2el */                                                                                                                                         \
        ye[a * dof + k] = 0.0;                                                                                                                                                                           \
      }                                                                                                                                                                                                  \
    EasKInt i;                                                                                                                                                                                           \
    for (i = 0; i + 3 < m; i += 4) { /* four packed rows per pass, each A_ij read once: s_a += A_{i+a,j} x_j, y_j += A_{i+a,j} x_{i+a} */                                                                \
      const VT *r0 = A + EasEbeSymRowStart(i, m) - i, *r1 = A + EasEbeSymRowStart(i + 1, m) - (i + 1), *r2 = A + EasEbeSymRowStart(i + 2, m) - (i + 2), *r3 = A + EasEbeSymRowStart(i + 3, m) - (i + 3); \
      EAS_PREFETCH_RANGE(next, EasEbeSymRowStart(i, m) * sizeof(VT), EasEbeSymRowStart(i + 4, m) * sizeof(VT));                                                                                          \
      const EasKScalar x0 = xe[i], x1 = xe[i + 1], x2 = xe[i + 2], x3 = xe[i + 3];                                                                                                                       \
      EasKScalar       s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0; /* zero starts: gcc keeps the SIMD sums in registers (others spilled them) */                                                             \
      EAS_SIMD_SUM4                                                                                                                                                                                      \
      for (EasKInt j = i + 4; j < m; j++) {                                                                                                                                                              \
        const EasKScalar b0 = (EasKScalar)r0[j], b1 = (EasKScalar)r1[j], b2 = (EasKScalar)r2[j], b3 = (EasKScalar)r3[j], xj = xe[j];                                                                     \
        s0 += b0 * xj;                                                                                                                                                                                   \
        s1 += b1 * xj;                                                                                                                                                                                   \
        s2 += b2 * xj;                                                                                                                                                                                   \
        s3 += b3 * xj;                                                                                                                                                                                   \
        ye[j] += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;                                                                                                                                                  \
      }                                                                                                                                                                                                  \
      ye[i] += s0 + (EasKScalar)r0[i] * x0 + (EasKScalar)r0[i + 1] * x1 + (EasKScalar)r0[i + 2] * x2 + (EasKScalar)r0[i + 3] * x3;                                                                       \
      ye[i + 1] += s1 + (EasKScalar)r0[i + 1] * x0 + (EasKScalar)r1[i + 1] * x1 + (EasKScalar)r1[i + 2] * x2 + (EasKScalar)r1[i + 3] * x3;                                                               \
      ye[i + 2] += s2 + (EasKScalar)r0[i + 2] * x0 + (EasKScalar)r1[i + 2] * x1 + (EasKScalar)r2[i + 2] * x2 + (EasKScalar)r2[i + 3] * x3;                                                               \
      ye[i + 3] += s3 + (EasKScalar)r0[i + 3] * x0 + (EasKScalar)r1[i + 3] * x1 + (EasKScalar)r2[i + 3] * x2 + (EasKScalar)r3[i + 3] * x3;                                                               \
    }                                                                                                                                                                                                    \
    for (; i < m; i++) {                                                                                                                                                                                 \
      const VT *row = A + EasEbeSymRowStart(i, m) - i;                                                                                                                                                   \
      EAS_PREFETCH_RANGE(next, EasEbeSymRowStart(i, m) * sizeof(VT), EasEbeSymRowStart(i + 1, m) * sizeof(VT));                                                                                          \
      const EasKScalar xi = xe[i];                                                                                                                                                                       \
      EasKScalar       s  = (EasKScalar)row[i] * xi;                                                                                                                                                     \
      EAS_SIMD_SUM(s)                                                                                                                                                                                    \
      for (EasKInt j = i + 1; j < m; j++) {                                                                                                                                                              \
        const EasKScalar aij = (EasKScalar)row[j];                                                                                                                                                       \
        s += aij * xe[j];                                                                                                                                                                                \
        ye[j] += aij * xi;                                                                                                                                                                               \
      }                                                                                                                                                                                                  \
      ye[i] += s;                                                                                                                                                                                        \
    }                                                                                                                                                                                                    \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                    \
      for (EasKInt k = 0; k < dof; k++) y[(EasKIdx)c[a] * dof + k] += ye[a * dof + k]; /* el2o */                                                                                                        \
  }
/* clang-format off */
EAS_EBE_APPLY_BODIES(, EasKScalar)
EAS_EBE_APPLY_BODIES(_F, float)
/* clang-format on */

/* Element storage codes, the values of EasEbeStorage (include/eas/ebe.h;
   backend.h checks that they agree), in plain C for the kernels. */
#define EAS_EBE_ST_FULL 0
#define EAS_EBE_ST_SYMMETRIC 1
#define EAS_EBE_ST_SINGLE 2
#define EAS_EBE_ST_SYMMETRIC_SINGLE 3

/* Element e of y += A x from the storage the operator chose: ael (full,
   m^2 doubles) or aels (symmetric: m(m+1)/2 doubles; single: m^2 floats;
   symmetric_single: m(m+1)/2 floats).  enext is the element the caller
   applies next (its values are prefetched while e is applied; host only),
   or -1.  The one dispatch of the CPU loop, the split's host units,
   /cpu/memcheck's unit and the CUDA kernel (which passes storage as a
   template constant, so the switch folds, and enext = -1). */
static inline EAS_HOST_DEVICE void EasEbeElementApplyStorage(EasKInt e, EasKInt enext, EasKInt nen, EasKInt dof, const EasKInt *conn, int storage, const EasKScalar *ael, const void *aels, const EasKScalar *x, EasKScalar *y)
{
  const EasKIdx m = (EasKIdx)nen * dof, full = m * m, sym = m * (m + 1) / 2;

  switch (storage) {
  case EAS_EBE_ST_SYMMETRIC:
    EasEbeElementApplySym(e, nen, dof, conn, (const EasKScalar *)aels, x, y, enext >= 0 ? (const EasKScalar *)aels + enext * sym : NULL);
    break;
  case EAS_EBE_ST_SINGLE:
    EasEbeElementApply_F(e, nen, dof, conn, (const float *)aels, x, y, enext >= 0 ? (const float *)aels + enext * full : NULL);
    break;
  case EAS_EBE_ST_SYMMETRIC_SINGLE:
    EasEbeElementApplySym_F(e, nen, dof, conn, (const float *)aels, x, y, enext >= 0 ? (const float *)aels + enext * sym : NULL);
    break;
  default:
    EasEbeElementApply(e, nen, dof, conn, ael, x, y, enext >= 0 ? ael + enext * full : NULL);
  }
}

/* Element e's contribution to the (point-block) diagonal: bs = 1 adds
   A_el[i][i] to d[node*dof + k]; bs = dof adds the dof x dof block of each
   node to d[node*dof*dof + k*dof + l] (point-block Jacobi). */
static inline EAS_HOST_DEVICE void EasEbeElementDiagonal(EasKInt e, EasKInt nen, EasKInt dof, EasKInt bs, const EasKInt *conn, const EasKScalar *ael, EasKScalar *d)
{
  const EasKInt     m = nen * dof;
  const EasKInt    *c = conn + (EasKIdx)e * nen;
  const EasKScalar *A = ael + (EasKIdx)e * m * m;

  for (EasKInt a = 0; a < nen; a++) {
    if (bs == 1) {
      for (EasKInt k = 0; k < dof; k++) d[(EasKIdx)c[a] * dof + k] += A[(EasKIdx)(a * dof + k) * (m + 1)];
    } else {
      for (EasKInt k = 0; k < dof; k++)
        for (EasKInt l = 0; l < dof; l++) d[(EasKIdx)c[a] * dof * dof + k * dof + l] += A[(EasKIdx)(a * dof + k) * m + a * dof + l];
    }
  }
}

/* Point-block product, block b: y_b = B_b x_b with B_b row-major bs x bs. */
static inline EAS_HOST_DEVICE void EasBlockMultEntry(EasKInt b, EasKInt bs, const EasKScalar *B, const EasKScalar *x, EasKScalar *y)
{
  const EasKScalar *Bb = B + (EasKIdx)b * bs * bs;
  for (EasKInt k = 0; k < bs; k++) {
    EasKScalar s = 0.0;
    for (EasKInt l = 0; l < bs; l++) s += Bb[k * bs + l] * x[(EasKIdx)b * bs + l];
    y[(EasKIdx)b * bs + k] = s;
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

/* ------------------------------------------------------------------ ADR */

/* Parameters of the ADR residual and Jacobian kernels (src/solvers/adr.c,
   docs/adr.md): the rank's box, the step, the built-in reaction and
   how each face of the box is closed. */
enum { EAS_ADRK_REACTION_USER    = 0,
       EAS_ADRK_REACTION_LINEAR  = 1,
       EAS_ADRK_REACTION_DIURNAL = 2 };
typedef struct {
  EasKInt    nx, ny, nz, np; /* box points per direction, np = nx ny nz */
  EasKScalar dt;
  int        reaction;             /* EAS_ADRK_REACTION_*; USER: Rv, dRv are inputs */
  EasKScalar L[4];                 /* linear: R = L c (row-major) */
  EasKScalar q1c3, q2, q3, c3, q4; /* diurnal at the step's time: q1 c3, q2, q3(t), c3, q4(t) */
  int        fold[6];              /* face f (-x,+x,-y,+y,-z,+z) at the box edge is zero-flux: its weight goes to the opposite neighbour (else the coupling leaves the local block: halo or Dirichlet) */
  int        ycoupled;             /* 0: one y plane (2D), the Jacobian has 7 diagonals (no +-2nx) */
} EasAdrKParams;

/* Reaction R(c) and its Jacobian dR[2*i + j] = dR_i/dc_j at one point.
   Diurnal kinetics (docs/adr.md, Vialle et al. sec. 1.8):
   R1 = -q1 c3 c1 - q2 c1 c2 + 2 q3 c3 + q4 c2,  R2 = q1 c3 c1 - q2 c1 c2 - q4 c2. */
static inline EAS_HOST_DEVICE void EasAdrKReaction(const EasAdrKParams *P, EasKScalar c1, EasKScalar c2, EasKScalar *R, EasKScalar *dR)
{
  if (P->reaction == EAS_ADRK_REACTION_LINEAR) {
    R[0] = P->L[0] * c1 + P->L[1] * c2;
    R[1] = P->L[2] * c1 + P->L[3] * c2;
    for (int e = 0; e < 4; e++) dR[e] = P->L[e];
  } else {
    R[0]  = -P->q1c3 * c1 - P->q2 * c1 * c2 + 2.0 * P->q3 * P->c3 + P->q4 * c2;
    R[1]  = P->q1c3 * c1 - P->q2 * c1 * c2 - P->q4 * c2;
    dR[0] = -P->q1c3 - P->q2 * c2;
    dR[1] = -P->q2 * c1 + P->q4;
    dR[2] = P->q1c3 - P->q2 * c2;
    dR[3] = -P->q2 * c1 - P->q4;
  }
}

/* Residual of implicit Euler at local point p (Vialle et al. eq. 1.43):
   F_s = xold_s - c_s + dt (sum_f w_f (c_s,nb(f) - c_s) + R_s(c)), both
   species.  xg: the state on the padded box (nx+2)(ny+2)(nz+2) x 2 with the
   faces filled (halo, Dirichlet values or zero-flux mirror); w[f*np + p]: the
   transport weights (Vialle et al. eq. 1.40 discretized).  Built-in reactions
   write Rv, dRv at p; USER reads them.  Adds to acc[0] F_1 + F_2 + dR_11 +
   dR_22, a finiteness probe (NaN or Inf anywhere makes the sum so), and to
   acc[1], acc[2] the squares F_1^2, F_2^2 (the species norms of the
   residual). */
/* The point (i, j, k) of the box, p = i + nx (j + ny k): the CPU loops run
   over i, j, k (no division per point), the CUDA kernels over p
   (EasAdrKFunctionPoint below). */
static inline EAS_HOST_DEVICE void EasAdrKFunctionPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *xg, const EasKScalar *xold, EasKScalar *Rv, EasKScalar *dRv, EasKScalar *F, EasKScalar acc[3])
{
  /* offsets in EasKIdx: f*np, 4p and the padded box pass 2^31 - 1 first */
  const EasKInt nx = P->nx, ny = P->ny;
  const EasKIdx np = P->np, q = (EasKIdx)i + (EasKIdx)nx * (j + (EasKIdx)ny * k);
  const EasKIdx sy = nx + 2, sz = (EasKIdx)(nx + 2) * (ny + 2);
  const EasKIdx Q      = (i + 1) + sy * (j + 1) + sz * (k + 1);
  const EasKIdx nbq[6] = {Q - 1, Q + 1, Q - sy, Q + sy, Q - sz, Q + sz};
  if (P->reaction != EAS_ADRK_REACTION_USER) EasAdrKReaction(P, xg[2 * Q], xg[2 * Q + 1], Rv + 2 * q, dRv + 4 * q);
  for (int s = 0; s < 2; s++) {
    const EasKScalar c  = xg[2 * Q + s];
    EasKScalar       tr = 0.0;
    for (int f = 0; f < 6; f++) tr += w[f * np + q] * (xg[2 * nbq[f] + s] - c);
    F[2 * q + s] = xold[2 * q + s] - c + P->dt * (tr + Rv[2 * q + s]);
    acc[0] += F[2 * q + s] + dRv[4 * q + 3 * s];
    acc[1 + s] += F[2 * q + s] * F[2 * q + s];
  }
}

static inline EAS_HOST_DEVICE void EasAdrKFunctionPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *xg, const EasKScalar *xold, EasKScalar *Rv, EasKScalar *dRv, EasKScalar *F, EasKScalar acc[3])
{
  EasAdrKFunctionPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, xg, xold, Rv, dRv, F, acc);
}

/* Rows 2p and 2p+1 of the local Jacobian J = I - dt f'_ll (Vialle et al.
   eq. 1.45, Fig. 1.7) in DIA storage with the 9 offsets -2nxny, -2nx, -2,
   -1, 0, 1, 2, 2nx, 2nxny (diagonals 0..8), or with one y plane
   (ycoupled = 0) the 7 offsets -2nx, -2, -1, 0, 1, 2, 2nx (0..6): the
   couplings that leave the box are dropped (halo: the multisplitting;
   Dirichlet: known values), a zero-flux face's weight is folded onto the
   opposite neighbour (mirror). */
/* The local couplings of point p: eff[f] the weight of the coupling across
   face f inside the box (a zero-flux face's weight folded onto the opposite
   neighbour, the mirror), *wsum the sum of all six weights, and bit f of
   the return value set when face f's coupling leaves the box (halo or
   Dirichlet: not in the local block). */
static inline EAS_HOST_DEVICE int EasAdrKLocalWeightsIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, EasKScalar eff[6], EasKScalar *wsum)
{
  const EasKInt nx = P->nx, ny = P->ny, nz = P->nz;
  const EasKIdx np = P->np, p = (EasKIdx)i + (EasKIdx)nx * (j + (EasKIdx)ny * k);
  const EasKInt ijk[3] = {i, j, k}, nl[3] = {nx, ny, nz};
  int           out = 0;

  *wsum = 0.0;
  for (int f = 0; f < 6; f++) eff[f] = 0.0;
  for (int f = 0; f < 6; f++) {
    const int        d = f / 2, side = f % 2;
    const int        edge = side ? (ijk[d] == nl[d] - 1) : (ijk[d] == 0);
    const EasKScalar wf   = w[f * np + p]; /* f np in EasKIdx */
    *wsum += wf;
    if (!edge)
      eff[f] += wf;
    else if (P->fold[f])
      eff[f ^ 1] += wf;
    else
      out |= 1 << f;
  }
  return out;
}

static inline EAS_HOST_DEVICE int EasAdrKLocalWeights(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, EasKScalar eff[6], EasKScalar *wsum)
{
  return EasAdrKLocalWeightsIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, eff, wsum);
}

/* The values of rows 2p + s (s = 0, 1) in the order of the 9 offsets
   -2nxny, -2nx, -2, -1, 0, 1, 2, 2nx, 2nxny (entries 1 and 7, the y
   couplings, are zero and not stored with one y plane). */
static inline EAS_HOST_DEVICE void EasAdrKJacobianRowsIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *dRv, EasKScalar v[2][9])
{
  const EasKScalar dt = P->dt;
  const EasKIdx    q  = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k); /* dRv at 4p: EasKIdx */
  EasKScalar       eff[6], wsum;

  (void)EasAdrKLocalWeightsIJK(i, j, k, P, w, eff, &wsum);
  for (int s = 0; s < 2; s++) {
    v[s][0] = -dt * eff[4];
    v[s][1] = -dt * eff[2];
    v[s][2] = -dt * eff[0];
    v[s][3] = s == 1 ? -dt * dRv[4 * q + 2] : 0.0;
    v[s][4] = 1.0 + dt * wsum - dt * dRv[4 * q + 3 * s];
    v[s][5] = s == 0 ? -dt * dRv[4 * q + 1] : 0.0;
    v[s][6] = -dt * eff[1];
    v[s][7] = -dt * eff[3];
    v[s][8] = -dt * eff[5];
  }
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, const EasKScalar *dRv, EasKScalar *V, EasKInt ldv)
{
  const EasKIdx ld = ldv, q = p; /* diagonal d at d*ld: EasKIdx */
  const int     y = P->ycoupled ? 1 : 0;
  EasKScalar    v[2][9];

  EasAdrKJacobianRowsIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, dRv, v);
  for (int s = 0; s < 2; s++) {
    const EasKIdx r = 2 * q + s;
    for (int e = 0, d = 0; e < 9; e++) /* d: the stored diagonal (the y couplings skipped without them) */
      if (y || (e != 1 && e != 7)) V[(EasKIdx)(d++) * ld + r] = v[s][e];
  }
}

/* The couplings of J = I - dt f'_ll at point p that do not change within
   a run of the coefficients (they depend on the weights w and the box, not
   on the state or dt), written once when w changes
   (src/solvers/adrassemble.c) so that every Newton iteration's assembly
   reads them instead of recomputing the box edges and the zero-flux folds:
   wl[e np + p], e = 0..6, are eff[4], eff[2], eff[0], eff[1], eff[3],
   eff[5] (the -z, -y, -x, +x, +y, +z couplings inside the box,
   EasAdrKLocalWeightsIJK) and wsum, the sum of the six weights.  Row 2p + s
   of J is then -dt wl[0..2] on offsets -2nxny, -2nx, -2, 1 + dt wl[6] -
   dt dR_ss on 0, -dt wl[3..5] on 2, 2nx, 2nxny, and -dt dR_s,1-s on -1 or
   +1: the values EasAdrKJacobianRowsIJK computes, in its operations. */
static inline EAS_HOST_DEVICE void EasAdrKLocalCouplingsPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *w, EasKScalar *wl)
{
  const EasKIdx np = P->np, q = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k);
  EasKScalar    eff[6], wsum;

  (void)EasAdrKLocalWeightsIJK(i, j, k, P, w, eff, &wsum);
  wl[0 * np + q] = eff[4];
  wl[1 * np + q] = eff[2];
  wl[2 * np + q] = eff[0];
  wl[3 * np + q] = eff[1];
  wl[4 * np + q] = eff[3];
  wl[5 * np + q] = eff[5];
  wl[6 * np + q] = wsum;
}

static inline EAS_HOST_DEVICE void EasAdrKLocalCouplingsPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *w, EasKScalar *wl)
{
  EasAdrKLocalCouplingsPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, w, wl);
}

/* Right Jacobi folded into the assembly (src/solvers/adrassemble.c): entries
   2p, 2p + 1 of D^{-1}, the inverse of the main diagonal of J =
   I - dt f'_ll at point p, 1 + dt sum_f w_f - dt dR_ss (the value
   EasAdrKJacobianRowsIJK puts on offset 0; wl from
   EasAdrKLocalCouplingsPoint); a zero diagonal gives 0 and returns 1 (the
   caller reports the row). */
static inline EAS_HOST_DEVICE int EasAdrKInvDiagPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, EasKScalar *dinv)
{
  const EasKScalar dt = P->dt;
  const EasKIdx    np = P->np, q = p;
  const EasKScalar wsum = wl[6 * np + q];
  int              zero = 0;

  for (int s = 0; s < 2; s++) {
    const EasKScalar d = 1.0 + dt * wsum - dt * dRv[4 * q + 3 * s];
    dinv[2 * q + s]    = d != 0.0 ? 1.0 / d : 0.0;
    zero |= d == 0.0;
  }
  return zero;
}

/* One entry of J D^{-1}: v dinv[c] for the column c = r + off inside
   [0, n), else 0 (as EasDiaColumnScaleRow), at position `at` of the DIA
   values, and rounded to float into Vf when it is not NULL.  inner: the
   column is known to be inside (a row of an inner z plane), no test. */
static inline EAS_HOST_DEVICE void EasAdrKScaledEntry(EasKScalar v, EasKIdx r, EasKIdx off, EasKIdx n, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKIdx at, int inner)
{
  const EasKIdx    c   = r + off;
  const EasKScalar val = (inner || (c >= 0 && c < n)) ? v * dinv[c] : 0.0;
  V[at]                = val;
  if (Vf) Vf[at] = EasDiaSingleEntry(val); /* single precision: the float copy, written here instead of by a pass over V */
}

/* Rows 2p, 2p + 1 of J D^{-1} (right Jacobi, the operator the inner
   BiCGStab iterates on) in J's DIA storage: entry (r, c) is J[r][c]
   dinv[c], zero where c = r + offset is outside [0, 2np) (as
   EasDiaColumnScaleRow); J's entries from the constant couplings wl
   (EasAdrKLocalCouplingsPoint) and the reaction Jacobian dRv, the values
   and operations of EasAdrKJacobianRowsIJK; dinv from EasAdrKInvDiagPoint
   at every point.  Vf (single precision, else NULL): the same entries
   rounded to float.  inner = 1 only for 0 < k < nz - 1, where every column
   r + offset is inside [0, 2np) (the CPU loop passes it as a constant, so
   the inner planes' rows are computed without the column tests);
   EasAdrKJacobianJacobiPointIJK passes 0. */
static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPointIJKInner(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv, int inner)
{
  const EasKIdx    ld = ldv, np = P->np, q = (EasKIdx)i + (EasKIdx)P->nx * (j + (EasKIdx)P->ny * k), n = 2 * np, nx2 = 2 * (EasKIdx)P->nx, nxy2 = nx2 * P->ny;
  const EasKScalar dt = P->dt, mdt = -dt;
  const EasKScalar zm = mdt * wl[q], ym = mdt * wl[np + q], xm = mdt * wl[2 * np + q], xp = mdt * wl[3 * np + q], yp = mdt * wl[4 * np + q], zp = mdt * wl[5 * np + q], wsum = wl[6 * np + q];
  const EasKScalar d0 = 1.0 + dt * wsum - dt * dRv[4 * q], d1 = 1.0 + dt * wsum - dt * dRv[4 * q + 3];
  const EasKScalar c01 = -dt * dRv[4 * q + 1], c10 = -dt * dRv[4 * q + 2];
  const EasKIdx    r0 = 2 * q, r1 = r0 + 1;
  EasKIdx          d = 0; /* the stored diagonal (the y couplings skipped without them) */

  /* offsets -2nxny, -2nx, -2, -1, 0, 1, 2, 2nx, 2nxny: rows r0 (species 1) and r1 (species 2) */
  EasAdrKScaledEntry(zm, r0, -nxy2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(zm, r1, -nxy2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  if (P->ycoupled) {
    EasAdrKScaledEntry(ym, r0, -nx2, n, dinv, V, Vf, d * ld + r0, inner);
    EasAdrKScaledEntry(ym, r1, -nx2, n, dinv, V, Vf, d * ld + r1, inner);
    d++;
  }
  EasAdrKScaledEntry(xm, r0, -2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(xm, r1, -2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(0.0, r0, -1, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(c10, r1, -1, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(d0, r0, 0, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(d1, r1, 0, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(c01, r0, 1, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(0.0, r1, 1, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  EasAdrKScaledEntry(xp, r0, 2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(xp, r1, 2, n, dinv, V, Vf, d * ld + r1, inner);
  d++;
  if (P->ycoupled) {
    EasAdrKScaledEntry(yp, r0, nx2, n, dinv, V, Vf, d * ld + r0, inner);
    EasAdrKScaledEntry(yp, r1, nx2, n, dinv, V, Vf, d * ld + r1, inner);
    d++;
  }
  EasAdrKScaledEntry(zp, r0, nxy2, n, dinv, V, Vf, d * ld + r0, inner);
  EasAdrKScaledEntry(zp, r1, nxy2, n, dinv, V, Vf, d * ld + r1, inner);
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPointIJK(EasKInt i, EasKInt j, EasKInt k, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv)
{
  EasAdrKJacobianJacobiPointIJKInner(i, j, k, P, wl, dRv, dinv, V, Vf, ldv, 0);
}

static inline EAS_HOST_DEVICE void EasAdrKJacobianJacobiPoint(EasKInt p, const EasAdrKParams *P, const EasKScalar *wl, const EasKScalar *dRv, const EasKScalar *dinv, EasKScalar *V, float *Vf, EasKInt ldv)
{
  EasAdrKJacobianJacobiPointIJK(p % P->nx, (p / P->nx) % P->ny, p / (P->nx * P->ny), P, wl, dRv, dinv, V, Vf, ldv);
}
