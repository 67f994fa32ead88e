/*
  Kernel bodies of the element-by-element operator (kernels.h, docs/ebe.md):
  the element product in each storage (-ebe_storage) and its one dispatch,
  the element diagonal and the point-block product of point-block Jacobi.
*/
#pragma once

#include "types.h"

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
