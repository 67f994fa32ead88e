/*
  CPU backend: OpenMP loops around the shared kernel bodies (kernels.h).
  Backend memory is host memory, so vectors never copy.
*/
#include "../backend.h"
#include "core/align.h"
#include <omp.h>
#include <string.h>

/* Every parallel region uses the backend's thread count. */
#define EAS_OMP_THREADS(be) num_threads((int)(be)->threads)

/* Deterministic sums (issue 24).  OpenMP's reduction clause adds the threads'
   partial sums in the order the threads finish, so with 3 or more threads a
   dot product changed in its last bits from one call to the next: with 8
   threads BiCGStab on 2A no longer gave exactly half the solution on A
   (test_dia_values: 1e-10 apart instead of 0), and synchronous Newton counts
   could differ between runs.  Instead each thread leaves its partial sums
   in its own slot (a cache line: no false sharing) and they are added in
   thread order after the region, as the CUDA backend's two-stage reductions
   do: the same thread count gives the same bits on every run. */
#define EAS_RED_MAX 3
typedef struct {
  PetscScalar v[8]; /* 64 bytes; values [0, EAS_RED_MAX) used */
} EasRedSlot;

/* in the parallel region: this thread's k partial sums */
static inline void EasRedPut(EasRedSlot *slots, int *nthreads, int k, const PetscScalar *vals)
{
  const int t = omp_get_thread_num();
  for (int i = 0; i < k; i++) slots[t].v[i] = vals[i];
  if (t == 0) *nthreads = omp_get_num_threads();
}

/* after the region: the k sums, the threads' partials added in thread order */
static inline void EasRedSum(const EasRedSlot *slots, int nthreads, int k, PetscScalar *sums)
{
  for (int i = 0; i < k; i++) {
    sums[i] = 0.0;
    for (int t = 0; t < nthreads; t++) sums[i] += slots[t].v[i];
  }
}

/* Backend memory starts on a cache line (core/align.h): the vectors and the
   float DIA values the row loops stream in full SIMD vectors. */
static PetscErrorCode EasMalloc_CPU(EasBackend be, size_t bytes, void **p)
{
  PetscFunctionBegin;
  (void)be;
  PetscCall(EasMallocAligned(bytes, PETSC_FALSE, p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasFree_CPU(EasBackend be, void *p)
{
  PetscFunctionBegin;
  (void)be;
  PetscCall(EasFreeAligned(&p));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCopyMem_CPU(EasBackend be, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  (void)be;
  if (bytes) PetscCall(PetscMemcpy(dst, src, bytes));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecSet_CPU(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = alpha;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecCopy_CPU(EasBackend be, PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = x[i];
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecGather_CPU(EasBackend be, PetscInt n, const PetscInt *idx, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = EasGatherEntry(i, idx, x);
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecAXPBY_CPU(EasBackend be, PetscInt n, PetscScalar a, const PetscScalar *x, PetscScalar b, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = EasAxpbyEntry(a, x[i], b, y[i]);
  PetscCall(PetscLogFlops(3.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecPointwiseMult_CPU(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *w)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) w[i] = x[i] * y[i];
  PetscCall(PetscLogFlops(1.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasVecDot_CPU(EasBackend be, PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscScalar *dot)
{
  EasRedSlot slots[be->threads];
  int        nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar sum = 0.0;
#pragma omp for schedule(static) nowait
    for (PetscInt i = 0; i < n; i++) sum += x[i] * y[i];
    EasRedPut(slots, &nt, 1, &sum);
  }
  EasRedSum(slots, nt, 1, dot);
  PetscCall(PetscLogFlops(2.0 * n));
  PetscFunctionReturn(0);
}

/* ---- DIA row loops that vectorize.
   With a run-time diagonal count the d loop inside the row loop stays scalar:
   the compiler neither unrolls it nor vectorizes over rows (measured: the
   SpMV and the fused sweeps ran at half the memory bandwidth, limited by
   arithmetic).  The dispatch below passes ND as a compile-time constant to
   the shared row bodies of kernels.h, so the d loop unrolls and the row loop
   runs on full SIMD vectors. */
#define EAS_ND_DISPATCH(nd, CALL) \
  do {                            \
    switch (nd) {                 \
    case 3:                       \
      CALL(3);                    \
      break;                      \
    case 5:                       \
      CALL(5);                    \
      break;                      \
    case 7:                       \
      CALL(7);                    \
      break;                      \
    case 9:                       \
      CALL(9);                    \
      break;                      \
    case 11:                      \
      CALL(11);                   \
      break;                      \
    case 13:                      \
      CALL(13);                   \
      break;                      \
    case 19:                      \
      CALL(19);                   \
      break;                      \
    case 27:                      \
      CALL(27);                   \
      break;                      \
    default:                      \
      CALL(nd);                   \
    }                             \
  } while (0)

/* The ILU's own dispatch (EasIluFactor_CPU, EasIluApply_CPU): besides the
   DIA counts above, the offset counts of the ADR's ILU(k) with the z-lines
   innermost (23, 47: k = 1, 2 with -pc_ilu_axes zxy) and in eas's order
   (37: k = 2), so that their row loops unroll too. */
#define EAS_ILU_ND_DISPATCH(nd, CALL) \
  do {                                \
    switch (nd) {                     \
    case 23:                          \
      CALL(23);                       \
      break;                          \
    case 37:                          \
      CALL(37);                       \
      break;                          \
    case 47:                          \
      CALL(47);                       \
      break;                          \
    default:                          \
      EAS_ND_DISPATCH(nd, CALL);      \
    }                                 \
  } while (0)

/* This thread's share [ib,ie) of [lo,hi), split on multiples of 8 rows. */
static inline void EasThreadRange(PetscInt lo, PetscInt hi, PetscInt *ib, PetscInt *ie)
{
  const PetscInt nt = omp_get_num_threads(), t = omp_get_thread_num(), len = hi - lo;
  PetscInt       b = lo + (PetscInt)(((long)len * t / nt) / 8 * 8), e = lo + (PetscInt)(((long)len * (t + 1) / nt) / 8 * 8);
  if (t == nt - 1) e = hi;
  *ib = PetscMin(b, hi);
  *ie = PetscMin(PetscMax(e, *ib), hi);
}

/* Rows [b,e) of y = A x: the shared guarded body where a row reaches outside
   the matrix, the shared interior body (vectorized over rows) elsewhere; the
   bodies of the matrix's value precision (kernels.h EAS_DIA_ROW_BODIES:
   double val, or the float copy valf of EasDiaSetPrecision).
   The row loop runs on 256-bit value loads (simdlen 4 doubles, 8 floats;
   -DEAS_SIMD_D/-DEAS_SIMD_F override): with gcc's 512-bit default every
   load of x at the offsets +-1, +-2 straddles two cache lines, and the SpMV
   ran slower out of cache.  bench_dia -n 128 -threads 1 (9 offsets, one
   thread, same runs): double 12.8 (simdlen 2), 10.7-11.3 (4), 12.8 ms (8,
   the default); single 9.3 (4), 7.9 (8), 9.0 ms (16). */
#ifndef EAS_SIMD_D
#  define EAS_SIMD_D "omp simd simdlen(4)"
#endif
#ifndef EAS_SIMD_F
#  define EAS_SIMD_F "omp simd simdlen(8)"
#endif
#define EAS_DIA_ROWS(SUF, VAL, SL)                                                                        \
  do {                                                                                                    \
    for (PetscInt i = b; i < c0; i++) y[i] = EasDiaRowGuarded##SUF(i, n, ND, off, VAL, ld, x);            \
    _Pragma(SL) for (PetscInt i = c0; i < c1; i++) y[i] = EasDiaRowInterior##SUF(i, ND, off, VAL, ld, x); \
    for (PetscInt i = c1; i < e; i++) y[i] = EasDiaRowGuarded##SUF(i, n, ND, off, VAL, ld, x);            \
  } while (0)
static inline __attribute__((always_inline)) void EasDiaRows(const PetscInt ND, PetscInt b, PetscInt e, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt  c0 = PetscMin(PetscMax(b, A->lo), e), c1 = PetscMax(PetscMin(e, A->hi), c0), n = A->n, ld = A->ld;
  const PetscInt *off = A->off;

  if (A->valf)
    EAS_DIA_ROWS(_F, A->valf, EAS_SIMD_F);
  else
    EAS_DIA_ROWS(, A->val, EAS_SIMD_D);
}
#undef EAS_DIA_ROWS

/* valf = (float) val, the single-precision copy (EasDiaSetPrecision) */
static PetscErrorCode EasDiaSingle_CPU(EasBackend be, const EasDiaKernel *A, float *valf)
{
  const size_t       len = (size_t)A->ndiag * (size_t)A->ld;
  const PetscScalar *val = A->val;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (size_t k = 0; k < len; k++) valf[k] = EasDiaSingleEntry(val[k]);
  PetscFunctionReturn(0);
}

/* Lagged fused sweep (inside a parallel region): u[j] = F(j) is formed once,
   L = max|off| rows ahead of the SpMV row, and y = A u reads it back from
   cache (the window of 2L+1 rows stays in L2), instead of re-forming u at
   every neighbour as EasBcgsSweep1Row/EasBcgsSweep2Row do (those bodies serve
   the CUDA kernels, where the recomputation is free).  Each thread first
   forms u on the first and last L rows of its range (the rows its neighbours
   read), waits at a barrier, then streams in blocks; BODY(b, e) accumulates
   the fused dot products of the block.  Same bytes per row as the
   recomputing form: u is written once and read from cache.  Because each
   u[j] is formed exactly once, from entries j of the inputs only, and the
   SpMV writes y[i] only after F has read the inputs at row i (F runs L rows
   ahead; the first and last L rows of each thread before the barrier), u
   may overwrite an input of F and y an input of F: the solver updates p, v
   and r in place (be->bcgs_inplace, backend.h).
   Blocks of 16384 rows: each of the three loops of a block (F, the rows, the
   dots) then streams 128 KiB runs of every array; with 1024-row blocks the
   prefetchers restarted every 8 KiB (bench_dia -n 128 -threads 1 -log_view,
   ms per sweep 1/2: 256 rows 18.4/17.0, 1024 17.7/15.4, 4096 16.0-16.4/14.4,
   16384 15.6/13.9).  The block only changes the order of the dot products'
   partial sums (rounding). */
#define EAS_LAG_BLOCK 16384
#define EAS_LAGGED_SWEEP(ND, A, F, u, y, BODY)                                                                           \
  do {                                                                                                                   \
    const PetscInt n_ = (A)->n, L_ = PetscMax(-(A)->off[0], (A)->off[(A)->ndiag - 1]);                                   \
    PetscInt       ib_, ie_, a1_, a0_;                                                                                   \
    EasThreadRange(0, n_, &ib_, &ie_);                                                                                   \
    a1_ = PetscMin(ib_ + L_, ie_);                                                                                       \
    a0_ = PetscMax(ie_ - L_, a1_);                                                                                       \
    _Pragma("omp simd") for (PetscInt j = ib_; j < a1_; j++) F(j);                                                       \
    _Pragma("omp simd") for (PetscInt j = a0_; j < ie_; j++) F(j);                                                       \
    _Pragma("omp barrier") for (PetscInt b_ = ib_; b_ < ie_; b_ += EAS_LAG_BLOCK)                                        \
    {                                                                                                                    \
      const PetscInt e_ = PetscMin(b_ + EAS_LAG_BLOCK, ie_), j0_ = PetscMax(b_ + L_, a1_), j1_ = PetscMin(e_ + L_, a0_); \
      _Pragma("omp simd") for (PetscInt j = j0_; j < j1_; j++) F(j);                                                     \
      EasDiaRows(ND, b_, e_, A, u, y);                                                                                   \
      BODY(b_, e_);                                                                                                      \
    }                                                                                                                    \
  } while (0)

/* y = A x and (u, y), (y, y) [, (q, q)] (backend.h dia_mult_dots): the
   product in blocks of EAS_LAG_BLOCK rows, each block's dot products while
   its y is in the cache (no lag: x is not written). */
static PetscErrorCode EasDiaMultDots_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y, const PetscScalar *u, const PetscScalar *q, PetscInt nd3, PetscScalar dots[])
{
  const PetscInt n = A->n, nd = A->ndiag;
  EasRedSlot     slots[be->threads];
  int            nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar uy = 0.0, yy = 0.0, qq = 0.0;
    PetscInt    ib, ie;
    EasThreadRange(0, n, &ib, &ie);
    for (PetscInt b = ib; b < ie; b += EAS_LAG_BLOCK) {
      const PetscInt e = PetscMin(b + EAS_LAG_BLOCK, ie);
#define EAS_CALL(ND) EasDiaRows(ND, b, e, A, x, y)
      EAS_ND_DISPATCH(nd, EAS_CALL);
#undef EAS_CALL
      if (nd3 > 2) {
#pragma omp simd reduction(+ : uy, yy, qq)
        for (PetscInt i = b; i < e; i++) {
          uy += u[i] * y[i];
          yy += y[i] * y[i];
          qq += q[i] * q[i];
        }
      } else {
#pragma omp simd reduction(+ : uy, yy)
        for (PetscInt i = b; i < e; i++) {
          uy += u[i] * y[i];
          yy += y[i] * y[i];
        }
      }
    }
    EasRedPut(slots, &nt, 3, (const PetscScalar[]){uy, yy, qq});
  }
  EasRedSum(slots, nt, nd3 > 2 ? 3 : 2, dots);
  PetscCall(PetscLogFlops((2.0 * nd + 2.0 * nd3) * n));
  PetscFunctionReturn(0);
}

/* y = A x */
static PetscErrorCode EasDiaMult_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt n = A->n, nd = A->ndiag;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscInt ib, ie;
    EasThreadRange(0, n, &ib, &ie);
#define EAS_CALL(ND) EasDiaRows(ND, ib, ie, A, x, y)
    EAS_ND_DISPATCH(nd, EAS_CALL);
#undef EAS_CALL
  }
  PetscCall(PetscLogFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasDiaMultTranspose_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt n = A->n, nd = A->ndiag, ld = A->ld;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < n; i++) y[i] = A->valf ? EasDiaRowTranspose_F(i, n, nd, A->off, A->valf, ld, x) : EasDiaRowTranspose(i, n, nd, A->off, A->val, ld, x);
  PetscCall(PetscLogFlops(2.0 * nd * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep1_CPU(EasBackend be, const EasDiaKernel *A, PetscScalar beta, PetscScalar omega, const PetscScalar *r, const PetscScalar *p_old, const PetscScalar *v_old, const PetscScalar *rhat, PetscScalar *p_new, PetscScalar *v_new, PetscScalar dots[2])
{
  const PetscInt n = A->n, nd = A->ndiag;
  EasRedSlot     slots[be->threads];
  int            nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar hv = 0.0, vv = 0.0;
    /* p <- r + beta (p - omega v);  v <- A p;  (rhat, v), (v, v) */
#define EAS_F(j) p_new[j] = EasBcgsDirection(r[j], p_old[j], v_old[j], beta, omega)
#define EAS_BODY(b, e)                                                         \
  do {                                                                         \
    _Pragma("omp simd reduction(+ : hv, vv)") for (PetscInt i = b; i < e; i++) \
    {                                                                          \
      hv += rhat[i] * v_new[i];                                                \
      vv += v_new[i] * v_new[i];                                               \
    }                                                                          \
  } while (0)
#define EAS_CALL(ND) EAS_LAGGED_SWEEP(ND, A, EAS_F, p_new, v_new, EAS_BODY)
    EAS_ND_DISPATCH(nd, EAS_CALL);
#undef EAS_CALL
#undef EAS_BODY
#undef EAS_F
    EasRedPut(slots, &nt, 2, (const PetscScalar[]){hv, vv});
  }
  EasRedSum(slots, nt, 2, dots);
  PetscCall(PetscLogFlops((2.0 * nd + 8.0) * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep2_CPU(EasBackend be, const EasDiaKernel *A, PetscScalar alpha, const PetscScalar *r, const PetscScalar *v, PetscScalar *s, PetscScalar *t, PetscScalar dots[3])
{
  const PetscInt n = A->n, nd = A->ndiag;
  EasRedSlot     slots[be->threads];
  int            nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar ts = 0.0, tt = 0.0, ss = 0.0;
    /* s <- r - alpha v;  t <- A s;  (t, s), (t, t), (s, s) */
#define EAS_F(j) s[j] = EasBcgsSEntry(r[j], v[j], alpha)
#define EAS_BODY(b, e)                                                             \
  do {                                                                             \
    _Pragma("omp simd reduction(+ : ts, tt, ss)") for (PetscInt i = b; i < e; i++) \
    {                                                                              \
      ts += t[i] * s[i];                                                           \
      tt += t[i] * t[i];                                                           \
      ss += s[i] * s[i];                                                           \
    }                                                                              \
  } while (0)
#define EAS_CALL(ND) EAS_LAGGED_SWEEP(ND, A, EAS_F, s, t, EAS_BODY)
    EAS_ND_DISPATCH(nd, EAS_CALL);
#undef EAS_CALL
#undef EAS_BODY
#undef EAS_F
    EasRedPut(slots, &nt, 3, (const PetscScalar[]){ts, tt, ss});
  }
  EasRedSum(slots, nt, 3, dots);
  PetscCall(PetscLogFlops((2.0 * nd + 8.0) * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBcgsSweep3_CPU(EasBackend be, PetscInt n, PetscScalar alpha, PetscScalar omega, PetscScalar *x, const PetscScalar *p, const PetscScalar *s, const PetscScalar *t, const PetscScalar *rhat, PetscScalar *r, PetscScalar dots[2])
{
  EasRedSlot slots[be->threads];
  int        nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar rr = 0.0, hr = 0.0;
#pragma omp for schedule(static) nowait
    for (PetscInt i = 0; i < n; i++) {
      /* x <- x + alpha p + omega s;  r <- s - omega t;  (rhat, r), (r, r) */
      const PetscScalar ri = EasBcgsSweep3Entry(i, alpha, omega, x, p, s, t);
      r[i]                 = ri;
      hr += rhat[i] * ri;
      rr += ri * ri;
    }
    EasRedPut(slots, &nt, 2, (const PetscScalar[]){hr, rr});
  }
  EasRedSum(slots, nt, 2, dots);
  PetscCall(PetscLogFlops(10.0 * n));
  PetscFunctionReturn(0);
}

/* EBE apply over [e0,e1): colour by colour, OpenMP over the elements of a
   colour (no two elements of a colour share a node), Lang-Rünger Alg. 1. */
static PetscErrorCode EasEbeApply_CPU(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt m = K->nen * K->dof;

  PetscFunctionBegin;
  if (e1 <= e0) PetscFunctionReturn(0);
#pragma omp parallel EAS_OMP_THREADS(be)
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
#pragma omp for schedule(static)
    for (PetscInt k = k0; k < k1; k++) EasEbeElementApplyStored(K, k, k1, x, y);
  }
  PetscCall(PetscLogFlops(2.0 * m * m * (e1 - e0)));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeDiagonal_CPU(EasBackend be, const EasEbeKernel *K, PetscInt e0, PetscInt e1, PetscInt bs, PetscScalar *d)
{
  PetscFunctionBegin;
  if (e1 <= e0) PetscFunctionReturn(0);
#pragma omp parallel EAS_OMP_THREADS(be)
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
#pragma omp for schedule(static)
    for (PetscInt k = k0; k < k1; k++) EasEbeElementDiagonal(K->color_elem[k], K->nen, K->dof, bs, K->conn, K->ael, d);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBlockMult_CPU(EasBackend be, PetscInt nb, PetscInt bs, const PetscScalar *B, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt b = 0; b < nb; b++) EasBlockMultEntry(b, bs, B, x, y);
  PetscCall(PetscLogFlops(2.0 * bs * bs * nb));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasCgUpdate_CPU(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, const PetscScalar *p, const PetscScalar *q, const PetscScalar *dinv, PetscScalar *x, PetscScalar *r, PetscScalar *z, PetscScalar dots[2])
{
  EasRedSlot slots[be->threads];
  int        nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar rz = 0.0, rr = 0.0;
#pragma omp for schedule(static) nowait
    for (PetscInt i = 0; i < n; i++) {
      const PetscScalar ri = EasCgUpdateEntry(i, alpha, p, q, dinv, x, r, z);
      if (i < nown) {
        rz += ri * z[i];
        rr += ri * ri;
      }
    }
    EasRedPut(slots, &nt, 2, (const PetscScalar[]){rz, rr});
  }
  EasRedSum(slots, nt, 2, dots);
  PetscCall(PetscLogFlops(8.0 * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasPipeCgUpdate_CPU(EasBackend be, PetscInt n, PetscInt nown, PetscScalar alpha, PetscScalar beta, const PetscScalar *dinv, PetscScalar *z, PetscScalar *q, PetscScalar *s, PetscScalar *p, PetscScalar *x, PetscScalar *r, PetscScalar *u, PetscScalar *w, PetscScalar *m, const PetscScalar *nv, PetscScalar dots[3])
{
  EasRedSlot slots[be->threads];
  int        nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar ru = 0.0, wu = 0.0, rr = 0.0;
#pragma omp for schedule(static) nowait
    for (PetscInt i = 0; i < n; i++) {
      EasPipeCgUpdateEntry(i, alpha, beta, dinv, z, q, s, p, x, r, u, w, m, nv);
      if (i < nown) {
        ru += r[i] * u[i];
        wu += w[i] * u[i];
        rr += r[i] * r[i];
      }
    }
    EasRedPut(slots, &nt, 3, (const PetscScalar[]){ru, wu, rr});
  }
  EasRedSum(slots, nt, 3, dots);
  PetscCall(PetscLogFlops(23.0 * n));
  PetscFunctionReturn(0);
}

/* Right Jacobi: the shared bodies, D^{-1} first, then the scaled rows. */
static PetscErrorCode EasDiaJacobi_CPU(EasBackend be, const EasDiaKernel *A, PetscInt dmain, PetscScalar *dinv, PetscScalar *bval, PetscInt *zero_row)
{
  const PetscScalar *vmain = A->val + (size_t)dmain * A->ld;
  PetscInt           zr    = A->n;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be) reduction(min \
                                                                        : zr)
  for (PetscInt i = 0; i < A->n; i++)
    if (EasDiaInvDiagEntry(i, vmain, dinv)) zr = PetscMin(zr, i);
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt i = 0; i < A->n; i++) EasDiaColumnScaleRow(i, A->n, A->ndiag, A->off, A->val, A->ld, dinv, bval);
  *zero_row = zr < A->n ? zr : -1;
  PetscCall(PetscLogFlops((1.0 + A->ndiag) * A->n));
  PetscFunctionReturn(0);
}

/* ILU(0), exact (kernels/ilu.h): the entry body in place, rows in order
   (a row reads the finished rows above it), so this is sequential on every
   thread count: the IKJ factorization.  Stops at the first unusable pivot.
   By rows, L and U apart (kernels/ilu.h EasIluLayoutByRows), the rows k
   that row i reads are a few cache lines each; or by diagonals in place.

   Grouped (grp, the pattern of EasIluBlocked, by rows): the interior rows
   go EAS_ILU_GROUP at a time.  An entry's pairs (d, e) come in ascending d,
   so its far pairs (d below the offset -2: rows k at least 16 back, and
   l_ik one of the row's own far L entries, whose pairs are all far too)
   come first, then at most the two near ones (d at -2 and -1: rows k =
   i-2, i-1).  So the group's rows first take every entry's far pairs side
   by side (EAS_ILU_GROUP independent chains, the pair table's places read
   once for the group; the far L entries are then final), and then each row
   in turn its near pairs and the last steps: the same operations in the
   same order as one row at a time (the compiler may fuse a multiply and a
   subtraction in one form and not in the other: the iterates of the two
   after 2 BiCGStab iterations agree to 1e-15, test_bicgstab's *_its
   cases).  The group's far L entries are also kept side by side in lw,
   so a far pair is one vector load of l_ik for the 4 rows, 4 loads of u_kj
   from the rows' own U pointers, a multiply and a subtraction.  qb[2g],
   qb[2g+1], qb[2g+2]: where entry g's far pairs, its near pairs and the
   next entry's pairs start in po.  At 48^3, ILU(2) zxy, the factorization
   1.2 -> 1.9x faster than PETSc's with the groups, and lw and qb took
   another 18-20 % off it (36 % of its instructions, cachegrind); the near
   pairs through nq (the U places of an entry's pairs with l_i,i-2 and
   l_i,i-1, those two in registers) another 18 % of the instructions and
   ~9 % of the time: medians of alternated runs, bench_adr's
   adr_ilu_factor line, docs/performance.md. */
#define EAS_ILU_GROUP   4
#define EAS_ILU_NO_PAIR PTRDIFF_MIN /* nq: no such pair (a place is at most nd rows times nd away) */
static inline __attribute__((always_inline)) PetscInt EasIluFactorRows(const PetscInt ND, const PetscInt DM, const EasDiaKernel *F, const EasDiaKernel *A, const PetscInt *pt, const EasKIdx *po, const PetscBool byrows, const int grp, const EasKIdx *const *qb, const EasKIdx *nq, PetscScalar *f, PetscInt *zero_row)
{
  const PetscInt     n = F->n, lda = A->ld, c0 = PetscMin(F->lo, n), c1r = PetscMax(PetscMin(F->hi, n), c0);
  const EasIluLayout lay = byrows ? EasIluLayoutByRows(ND, DM, F->ld) : EasIluLayoutByDiagonals(DM, F->ld);
  const PetscInt    *am  = EasIluAMap(pt, ND);
  PetscInt           i;
  PetscScalar        lw[DM][EAS_ILU_GROUP]; /* grouped rows: the group's far L entries d side by side (by rows, l_ik's place q[0] is d), each written before its pairs read it */

  for (PetscInt d = 0; d < DM; d++)
    for (int b = 0; b < EAS_ILU_GROUP; b++) lw[d][b] = 0.0;

  /* the interior rows [c0, c1r) through the pairs' places (no column tests,
     no index arithmetic per pair), ND and DM compile-time constants where
     the dispatch knows them (the g loop unrolls) */
  for (i = 0; i < n; i++) {
    if (grp && DM >= 3 && i >= c0 && i + EAS_ILU_GROUP <= c1r) { /* rows i .. i + EAS_ILU_GROUP - 1, all interior */
      enum { W = EAS_ILU_GROUP };
      PetscScalar        part[ND][W];
      const PetscScalar *fu[W]; /* the group's rows of U */
      for (int b = 0; b < W; b++) fu[b] = f + lay.b + (EasKIdx)(i + b) * lay.ru;
      for (PetscInt g = 0; g < ND; g++) { /* the far pairs of the group's rows, side by side */
        const EasKIdx *q = qb[2 * g], *qn = qb[2 * g + 1];
        PetscScalar    sw[W];
        for (int b = 0; b < W; b++) sw[b] = am[g] >= 0 ? A->val[(EasKIdx)am[g] * lda + i + b] : 0.0;
        for (; q < qn; q += 2) {
          const PetscScalar *l = lw[q[0]];
          const EasKIdx      u = q[1];
          for (int b = 0; b < W; b++) sw[b] -= l[b] * fu[b][u]; /* a_ij - sum_k l_ik u_kj (Chow and Patel eq. 2.2), 4 rows at once */
        }
        if (g < DM - 2) /* a far L entry: final (u_jj^{-1} of a row at least 16 back) */
          for (int b = 0; b < W; b++) f[(EasKIdx)(i + b) * lay.rl + g] = lw[g][b] = sw[b] * fu[b][(EasKIdx)F->off[g] * lay.ru];
        else
          for (int b = 0; b < W; b++) part[g][b] = sw[b];
      }
      for (int b = 0; b < W; b++, i++) { /* then row by row: the near pairs (l_i,i-2 then l_i,i-1: nq), entries in order */
        PetscScalar *fl = f + (EasKIdx)i * lay.rl, *fu = f + lay.b + (EasKIdx)i * lay.ru, l2, l1;
        l2 = fl[DM - 2] = part[DM - 2][b] * fu[(EasKIdx)F->off[DM - 2] * lay.ru]; /* no near pair: its k are all further back */
        l1              = part[DM - 1][b];
        if (nq[2 * (DM - 1)] != EAS_ILU_NO_PAIR) l1 -= l2 * fu[nq[2 * (DM - 1)]];
        l1 = fl[DM - 1] = l1 * fu[(EasKIdx)F->off[DM - 1] * lay.ru];
        for (PetscInt g = DM; g < ND; g++) {
          PetscScalar sv = part[g][b];
          if (nq[2 * g] != EAS_ILU_NO_PAIR) sv -= l2 * fu[nq[2 * g]];
          if (nq[2 * g + 1] != EAS_ILU_NO_PAIR) sv -= l1 * fu[nq[2 * g + 1]];
          fu[g - DM] = g == DM ? 1.0 / sv : sv;
        }
        if (EasIluBadPivot(fu[0])) {
          *zero_row = i;
          return i;
        }
      }
      i--; /* the loop's i++ */
      continue;
    }
    if (i < c0 || i >= c1r) {
      for (PetscInt g = 0; g < ND; g++) f[EasIluAt(lay, g, i)] = EasIluEntry(i, g, 1, n, ND, DM, F->off, pt, A->val, lda, f, lay);
    } else {
      PetscScalar *fl = f + (EasKIdx)i * lay.rl, *fu = f + lay.b + (EasKIdx)i * lay.ru;
      for (PetscInt g = 0; g < ND; g++) {
        const PetscScalar v = EasIluEntryInterior(g, DM, F->off, pt, po, am[g] >= 0 ? A->val[(EasKIdx)am[g] * lda + i] : 0.0, fl, fu, lay);
        if (g < DM)
          fl[(EasKIdx)g * lay.s] = v;
        else
          fu[(EasKIdx)(g - DM) * lay.s] = v;
      }
    }
    if (EasIluBadPivot(f[EasIluAt(lay, DM, i)])) {
      *zero_row = i;
      break;
    }
  }
  return i;
}

/* Where the CPU's factor is (EasIluLayout), always factored in place (no
   scratch: ilu_work_nd), by its offset count nd and pattern:
   - where the pattern allows it (EasIluBlocked, from EAS_ILU_ROWS_ND
     offsets: the ADR's ILU(1) and ILU(2)): by rows, L and U apart
     (EasIluLayoutByRows), then each block of 16 rows transposed in place,
     and the substitutions read the blocks (EasIluSolveBlocked);
   - else from EAS_ILU_APPLY_ROWS_ND offsets: by rows, and the
     substitutions read the rows;
   - else: by diagonals.
   By rows, the rows k that the factorization of row i reads are a few
   cache lines each, not nd: at 37 offsets (ILU(2), -pc_ilu_axes zxy,
   48^3) 84 ms against 119 ms by diagonals in place; at 9 (ILU(0)) 21
   against 13 ms, the in-place factor's rows k being then a few cache lines
   anyway.  The substitutions, one thread, bench_adr's adr_ilu_apply line
   at 48^3, 2026-11-28: at 37 offsets by rows with the far sums of
   EAS_ILU_FAR_SUM 8.7-10.0 ms per application, by diagonals with them
   10.6-12.4, by diagonals with one chain (before) 12.2-12.8.  At 23 (ILU(1)
   zxy without the ADR's block fills) the rows showed no gain over the
   diagonals (4.9-5.7 against 3.6-4.6 ms in 3 pairs), so a pattern that is
   not blocked keeps the diagonals below 32.  The blocks against the rows,
   2026-11-28 (-eas_cpu_ilu_blocks 0 and 1 alternated, same binary): docs/
   performance.md. */
#define EAS_ILU_ROWS_ND       16
#define EAS_ILU_APPLY_ROWS_ND 32

/* The blocked layout of the substitutions (nd >= EAS_ILU_ROWS_ND, the
   ADR pattern: offsets -2 -1 1 2 next to the diagonal and every other
   offset at least EAS_ILU_BLOCK rows away).  The rows are cut in blocks of
   EAS_ILU_BLOCK; within a block, L's entries go by diagonals (entry (i, d)
   at (i - i%B) dm + d B + i%B, B = EAS_ILU_BLOCK) and U's alike from dm ld
   on; the rows from the last whole block's end on stay by rows, where the
   two layouts start at the same place.  A block's far products (the
   columns at least B rows back, forward, or ahead, backward) then read
   rows already solved, so they go across the block's B rows at once: per
   column one stream of B consecutive values and B consecutive entries of
   z, vector loads and multiply-adds, where by rows each product was a load
   of its offset, a gather from z and a load of the value.  The two
   columns next to the diagonal stay a row-to-row recurrence.  The
   factorization writes by rows (EasIluFactorRows: its rows k stay a few
   cache lines); each block is transposed in place after it. */
#define EAS_ILU_BLOCK 16

/* The CPU backend's own settings (be->data). */
typedef struct {
  PetscBool ilu_blocks; /* -eas_cpu_ilu_blocks: the blocked layout where the pattern allows it (EasIluBlocked) */
} EasBackend_CPU;

static inline int EasIluBlocked(EasBackend be, PetscInt nd, PetscInt dm, const PetscInt *off)
{
  return ((EasBackend_CPU *)be->data)->ilu_blocks && nd >= EAS_ILU_ROWS_ND && dm >= 3 && nd - dm >= 4 && off[dm - 2] == -2 && off[dm - 1] == -1 && off[dm + 1] == 1 && off[dm + 2] == 2 && off[dm - 3] <= -EAS_ILU_BLOCK && off[dm + 3] >= EAS_ILU_BLOCK;
}

/* Rows by rows -> the blocked layout, in place: each whole block of B rows
   is a B x m row-major tile (m = dm for L, nd - dm for U) that becomes m x
   B, through a copy on the stack. */
static void EasIluToBlocks(EasBackend be, PetscInt n, PetscInt ld, PetscInt nd, PetscInt dm, PetscScalar *f)
{
  const PetscInt nb = n / EAS_ILU_BLOCK;

  (void)be;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt ib = 0; ib < nb; ib++) {
    for (int tri = 0; tri < 2; tri++) {
      const PetscInt m    = tri ? nd - dm : dm;
      PetscScalar   *tile = f + (tri ? (size_t)dm * (size_t)ld : 0) + (size_t)ib * EAS_ILU_BLOCK * (size_t)m, tmp[EAS_ILU_BLOCK * m];
      for (PetscInt k = 0; k < EAS_ILU_BLOCK * m; k++) tmp[k] = tile[k];
      for (PetscInt b = 0; b < EAS_ILU_BLOCK; b++)
        for (PetscInt d = 0; d < m; d++) tile[d * EAS_ILU_BLOCK + b] = tmp[b * m + d];
    }
  }
}

static PetscErrorCode EasIluFactor_CPU(EasBackend be, const EasDiaKernel *F, const EasDiaKernel *A, const PetscInt *pt, PetscInt dmain, PetscInt sweeps, PetscScalar *f, PetscScalar *fwork, float *ff, PetscInt *zero_row)
{
  const PetscInt     nd = F->ndiag, n = F->n;
  const PetscBool    blocked = (PetscBool)EasIluBlocked(be, nd, dmain, F->off), byrows = (PetscBool)(blocked || nd >= EAS_ILU_APPLY_ROWS_ND); /* by rows in f (then blocked), or by diagonals: the layout EasIluApply_CPU reads */
  const EasIluLayout lay     = byrows ? EasIluLayoutByRows(nd, dmain, F->ld) : EasIluLayoutByDiagonals(dmain, F->ld);
  PetscInt           rows    = 0;
  const EasKIdx    **qb;
  EasKIdx           *nq;
  EasKIdx           *po;

  PetscFunctionBegin;
  (void)sweeps;
  (void)fwork; /* never allocated for the CPU (ilu_work_nd) */
  *zero_row = -1;
  PetscCall(PetscMalloc3(pt[nd] - pt[0] + 1, &po, 2 * nd + 1, &qb, 2 * nd, &nq)); /* the pairs' places in the layout (a few hundred) */
  EasIluPairPlaces(lay, nd, F->off, pt, po);
  for (PetscInt g = 0; g < nd; g++) { /* where entry g's far and near pairs start, and its near pairs' places in U (grouped rows, EasIluFactorRows) */
    PetscInt t = pt[g];
    while (t < pt[g + 1] && pt[t] < dmain - 2) t += 2;
    qb[2 * g]     = po + (pt[g] - pt[0]);
    qb[2 * g + 1] = po + (t - pt[0]);
    nq[2 * g] = nq[2 * g + 1] = EAS_ILU_NO_PAIR; /* by rows: the place in U of its pair with l_i,i-2, l_i,i-1 (d = dmain-2, dmain-1), from row i's U (negative: a row above) */
    for (; t < pt[g + 1]; t += 2) nq[2 * g + (pt[t] - (dmain - 2))] = po[t - pt[0] + 1];
  }
  qb[2 * nd] = po + (pt[nd] - pt[0]);
  /* the layout a compile-time choice too, so that its index arithmetic folds */
#define EAS_ILU_FACTOR_CALL(ND) rows = blocked ? EasIluFactorRows(ND, ((ND)-1) / 2, F, A, pt, po, PETSC_TRUE, 1, qb, nq, f, zero_row) : byrows ? EasIluFactorRows(ND, ((ND)-1) / 2, F, A, pt, po, PETSC_TRUE, 0, qb, nq, f, zero_row) : EasIluFactorRows(ND, ((ND)-1) / 2, F, A, pt, po, PETSC_FALSE, 0, qb, nq, f, zero_row)
  if (dmain == (nd - 1) / 2) /* symmetric offset counts (the ADR and gallery patterns) */
    EAS_ILU_ND_DISPATCH(nd, EAS_ILU_FACTOR_CALL);
  else
    rows = blocked ? EasIluFactorRows(nd, dmain, F, A, pt, po, PETSC_TRUE, 1, qb, nq, f, zero_row) : byrows ? EasIluFactorRows(nd, dmain, F, A, pt, po, PETSC_TRUE, 0, qb, nq, f, zero_row) : EasIluFactorRows(nd, dmain, F, A, pt, po, PETSC_FALSE, 0, qb, nq, f, zero_row);
#undef EAS_ILU_FACTOR_CALL
  PetscCall(PetscFree3(po, qb, nq));
  if (blocked && rows == n) {
    EasIluToBlocks(be, n, F->ld, nd, dmain, f); /* the substitutions' layout (a failed factor is never applied) */
    PetscCall(PetscInfo(NULL, "ILU factor on %" PetscInt_FMT " offsets laid out in blocks of %d rows (%" PetscInt_FMT " whole blocks, %" PetscInt_FMT " rows by rows)\n", nd, EAS_ILU_BLOCK, n / EAS_ILU_BLOCK, n % EAS_ILU_BLOCK));
  }
  if (ff) { /* factored in place (by diagonals, by rows, or blocked), then rounded in the same layout; f is then the factorization's scratch */
    const size_t len = byrows ? (size_t)dmain * (size_t)F->ld + (size_t)(nd - dmain) * (size_t)n : (size_t)nd * (size_t)F->ld; /* by rows: the entries written */
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
    for (size_t k = 0; k < len; k++) ff[k] = EasIluSingleEntry(f[k]);
  }
  PetscCall(PetscLogFlops((double)(pt[nd] - 2 * nd - 1 + 2 * nd) * rows)); /* a multiply-add per pair (the pair table's), a division or inverse per entry */
  PetscFunctionReturn(0);
}

/* Rows of the exact substitutions: the shared row bodies with ND and DM
   (the offset count and the index of offset 0) compile-time constants where
   the dispatch below knows them, so the d loops unroll, and without the
   column test in the interior rows [lo,hi).  The row-to-row recurrence
   (offsets -1 and +1: the species coupling) keeps each loop sequential. */
/* The far columns of a substitution row (all but the two next to the
   diagonal), nf products TERM(t), t = 0..nf-1, summed into 8 independent
   partial sums added pairwise at the end (into OUT): a row's products then
   form chains of nf/8 multiply-adds instead of one chain of nf, and the
   sums of consecutive rows overlap in the core.  With one chain the ILU(2)
   zxy application (16 far columns per triangle) ran at 0.39-0.46 of one
   thread's read9 bandwidth (bench_adr's adr_ilu_apply line), 4 cycles per
   product.  Plain scalars, so they stay in registers whether or not nf is
   a compile-time constant.  Fewer than 16 products keep the single chain:
   ILU(0) (2 far columns) runs at 0.9-1.0 of read9 with it, and ILU(1) zxy
   (9) showed no gain with 8 sums. */
#define EAS_ILU_FAR_SUM(nf, TERM, OUT)                                                         \
  do {                                                                                         \
    if ((nf) >= 16) {                                                                          \
      EasKScalar a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;               \
      PetscInt   t  = 0;                                                                       \
      for (; t + 8 <= (nf); t += 8) {                                                          \
        a0 += TERM(t);                                                                         \
        a1 += TERM(t + 1);                                                                     \
        a2 += TERM(t + 2);                                                                     \
        a3 += TERM(t + 3);                                                                     \
        a4 += TERM(t + 4);                                                                     \
        a5 += TERM(t + 5);                                                                     \
        a6 += TERM(t + 6);                                                                     \
        a7 += TERM(t + 7);                                                                     \
      }                                                                                        \
      for (; t < (nf); t++) a0 += TERM(t);                                                     \
      OUT -= ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));                                \
    } else                                                                                     \
      for (PetscInt t = 0; t < (nf); t++) OUT -= TERM(t);                                      \
  } while (0)

static inline __attribute__((always_inline)) void EasIluSolveRows(const PetscInt ND, const PetscInt DM, const EasDiaKernel *A, const PetscScalar *f, const float *ff, const int single, const int byrows, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z)
{
  /* the factor's entry k in either precision (single: a compile-time 0 or 1 at each call) */
#define FV(k) (single ? (EasKScalar)ff[k] : f[k])
  /* entry (i, d) of L (d < DM) and of U (d >= DM): EasIluAt of the layout with the triangle known */
#define LIDX(d) (byrows ? (size_t)i * DM + (size_t)(d) : (size_t)(d) * ld + i)
#define UIDX(d) (byrows ? (size_t)DM * ld + (size_t)i * (ND - DM) + (size_t)((d) - DM) : (size_t)(d) * ld + i)
#define LOWER(i, g) (single ? EasIluLowerRow_F(i, g, DM, off, ff, lay, p, z) : EasIluLowerRow(i, g, DM, off, f, lay, p, z))
#define UPPER(i, g) (single ? EasIluUpperRow_F(i, g, n, ND, DM, off, ff, lay, z, z) : EasIluUpperRow(i, g, n, ND, DM, off, f, lay, z, z))
  const PetscInt     n = A->n, ld = A->ld, c0 = PetscMin(A->lo, n), c1r = PetscMax(PetscMin(A->hi, n), c0);
  const PetscInt    *off = A->off;
  const EasIluLayout lay = byrows ? EasIluLayoutByRows(ND, DM, ld) : EasIluLayoutByDiagonals(DM, ld); /* as EasIluFactor_CPU left it */
  PetscInt           i;

  if (DM >= 2 && ND - DM >= 3 && off[DM - 2] == -2 && off[DM - 1] == -1 && off[DM + 1] == 1 && off[DM + 2] == 2 && c1r - c0 >= 2) {
    /* The ADR pattern (two species interleaved: offsets -2 -1 1 2 next to
       the diagonal).  The interior rows carry the last two solved entries
       in registers, and the backward rows subtract the far columns first
       and the columns +2, +1 last: the row-to-row recurrence is then one
       multiply-add (forward) or a multiply-add and the 1/u_ii multiply
       (backward), instead of a store, a reload and (backward) every
       multiply-add of the row.  The far columns go to independent
       partial sums (EAS_ILU_FAR_SUM).  The rows of kernels/ilu.h add the
       same products in another order: they agree to rounding. */
    EasKScalar z1, z2;
    for (i = 0; i < c0; i++) {
      p[i] = EasIluInputEntry(i, (int)form, c1, c2, r, v, p);
      z[i] = LOWER(i, 1);
    }
    z1 = z[c0 - 1];
    z2 = z[c0 - 2];
    for (; i < c1r; i++) { /* y_i = x_i - sum_{j<i} l_ij y_j, the far columns first */
      const EasKScalar pi = EasIluInputEntry(i, (int)form, c1, c2, r, v, p);
      EasKScalar       s  = pi;
      p[i]                = pi;
#define FWD(t) (FV(LIDX(t)) * z[i + off[t]])
      EAS_ILU_FAR_SUM(DM - 2, FWD, s);
#undef FWD
      s -= FV(LIDX(DM - 2)) * z2;
      s -= FV(LIDX(DM - 1)) * z1;
      z[i] = s;
      z2   = z1;
      z1   = s;
    }
    for (; i < n; i++) {
      p[i] = EasIluInputEntry(i, (int)form, c1, c2, r, v, p);
      z[i] = LOWER(i, 1);
    }
    for (i = n - 1; i >= c1r; i--) z[i] = UPPER(i, 1);
    z1 = z[c1r];
    z2 = z[c1r + 1];
    for (; i >= c0; i--) { /* z_i = (y_i - sum_{j>i} u_ij z_j) / u_ii, the far columns first */
      EasKScalar s = z[i];
#define BWD(t) (FV(UIDX(ND - 1 - (t))) * z[i + off[ND - 1 - (t)]])
      EAS_ILU_FAR_SUM(ND - DM - 3, BWD, s);
#undef BWD
      s -= FV(UIDX(DM + 2)) * z2;
      s -= FV(UIDX(DM + 1)) * z1;
      s *= FV(UIDX(DM));
      z[i] = s;
      z2   = z1;
      z1   = s;
    }
    for (; i >= 0; i--) z[i] = UPPER(i, 1);
    return;
  }
  for (i = 0; i < n; i++) {
    p[i] = EasIluInputEntry(i, (int)form, c1, c2, r, v, p);
    z[i] = LOWER(i, i < c0 || i >= c1r);
  }
  for (i = n - 1; i >= c1r; i--) z[i] = UPPER(i, 1);
  for (; i >= c0; i--) z[i] = UPPER(i, 0);
  for (; i >= 0; i--) z[i] = UPPER(i, 1);
}
#undef FV
#undef LIDX
#undef UIDX
#undef LOWER
#undef UPPER

/* A block's far products (EasIluSolveBlocked): acc[b] -= sum_{d0<=d<d1}
   v[(d - ds) B + b] z[off[d] + b], b < B, with v the block's values in double (f)
   or float (ff; single), the columns in ascending order, or descending
   (down: the backward substitution, whose blocks go down; then the reads
   of the values go down without a break, a stream the prefetchers follow:
   ascending within descending blocks, the backward application took 11.4-
   12.4 ms per application at 48^3 against 8.3-9.5 by rows).  GCC's vector types hold acc in 4 registers over
   the d loop (the plain loop kept it in memory: gcc 12 did not vectorize
   it); other compilers get the plain loop. */
static inline __attribute__((always_inline)) void EasIluBlockFar(const int single, const PetscScalar *f, const float *ff, PetscInt d0, PetscInt d1, PetscInt ds, const int down, const PetscInt *off, const PetscScalar *z, PetscScalar acc[EAS_ILU_BLOCK])
{
#if defined(__GNUC__) && EAS_ILU_BLOCK == 16
  typedef double V4d __attribute__((vector_size(32)));
  typedef float  V4f __attribute__((vector_size(16)));
  V4d a[4];
#define V4LOAD(dst, src) memcpy(&(dst), (src), sizeof(dst))
  for (int q = 0; q < 4; q++) V4LOAD(a[q], acc + 4 * q);
  for (PetscInt e = 0; e < d1 - d0; e++) {
    const PetscInt     d  = down ? d1 - 1 - e : d0 + e;
    const PetscScalar *zd = z + off[d];
    for (int q0 = 0; q0 < 4; q0++) {
      const int q = down ? 3 - q0 : q0;
      V4d x, y;
      if (single) {
        V4f xf;
        V4LOAD(xf, ff + (size_t)(d - ds) * EAS_ILU_BLOCK + 4 * q);
        x = __builtin_convertvector(xf, V4d);
      } else
        V4LOAD(x, f + (size_t)(d - ds) * EAS_ILU_BLOCK + 4 * q);
      V4LOAD(y, zd + 4 * q);
      a[q] -= x * y;
    }
  }
  for (int q = 0; q < 4; q++) memcpy(acc + 4 * q, &a[q], sizeof(a[q]));
#undef V4LOAD
#else
  for (PetscInt d = d0; d < d1; d++)
    for (PetscInt b = 0; b < EAS_ILU_BLOCK; b++) acc[b] -= (single ? (PetscScalar)ff[(size_t)(d - ds) * EAS_ILU_BLOCK + b] : f[(size_t)(d - ds) * EAS_ILU_BLOCK + b]) * z[off[d] + b];
#endif
}

/* The substitutions on the blocked layout (EasIluBlocked, EasIluToBlocks):
   forward, each whole block of B rows first subtracts its far columns from
   the B inputs at once (column by column: B values, B entries of z, all
   of rows before the block), then solves its rows in order through the
   columns -2 and -1; backward alike, blocks in descending order, the
   columns +2 and +1 and 1/u_ii last.  In the blocks whose rows reach
   before row 0 (forward) or past row n-1 (backward), the columns that do
   go row by row with the test, the others at once as in the interior
   (rows [0, A->lo) and [A->hi, n): 9 % of the rows at 24^3, 4 % at 48^3;
   one at a time, through the row code, they took 18 % of the
   application's instructions at 24^3, cachegrind; PETSc's MatSolve / eas
   1.53 -> 1.61 at 24^3 and 1.74 -> 1.79 at 48^3, medians of 4 alternated
   pairs of ILU(2) zxy at Courant 8).  The rows outside whole blocks go
   one at a time through the same layout.  Each row's far products are one
   chain here, B rows side by side: the sums agree with the rows' order
   (kernels/ilu.h) to rounding. */
static inline __attribute__((always_inline)) void EasIluSolveBlocked(const PetscInt ND, const PetscInt DM, const EasDiaKernel *A, const PetscScalar *f, const float *ff, const int single, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z)
{
  enum { B = EAS_ILU_BLOCK };
  const PetscInt  n = A->n, ld = A->ld, NU = ND - DM, nB = n / B * B, c0 = PetscMin(A->lo, n), c1r = PetscMax(PetscMin(A->hi, n), c0);
  const PetscInt *off = A->off;
  const size_t    ub  = (size_t)DM * (size_t)ld;
  PetscInt        i;
  /* the factor's entry k in either precision; entry (i, d) of L (d < DM) and of U (d >= DM) */
#define FV(k)     (single ? (EasKScalar)ff[k] : f[k])
#define LB(i, d)  ((i) < nB ? (size_t)((i) / B * B) * DM + (size_t)(d) * B + (size_t)((i) % B) : (size_t)(i) * DM + (size_t)(d))
#define UB(i, d)  (ub + ((i) < nB ? (size_t)((i) / B * B) * NU + (size_t)((d) - DM) * B + (size_t)((i) % B) : (size_t)(i) * NU + (size_t)((d) - DM)))
#define LOWER1(i) \
  do { \
    EasKScalar s_ = EasIluInputEntry(i, (int)form, c1, c2, r, v, p); \
    p[i]          = s_; \
    for (PetscInt d = 0; d < DM; d++) { \
      const PetscInt j = (i) + off[d]; \
      if (j >= 0) s_ -= FV(LB(i, d)) * z[j]; \
    } \
    z[i] = s_; \
  } while (0)
#define UPPER1(i) \
  do { \
    EasKScalar s_ = z[i]; \
    for (PetscInt d = DM + 1; d < ND; d++) { \
      const PetscInt j = (i) + off[d]; \
      if (j < n) s_ -= FV(UB(i, d)) * z[j]; \
    } \
    z[i] = s_ * FV(UB(i, DM)); \
  } while (0)

  for (i = 0; i < nB; i += B) { /* y_i = x_i - sum_{j<i} l_ij y_j: the block's far columns, then its rows */
    const size_t lb = (size_t)i * DM;
    EasKScalar   acc[B], z1, z2;
    for (PetscInt b = 0; b < B; b++) {
      acc[b]   = EasIluInputEntry(i + b, (int)form, c1, c2, r, v, p);
      p[i + b] = acc[b];
    }
    if (i >= c0) /* every column of the block's rows in [0, n) */
      EasIluBlockFar(single, single ? NULL : f + lb, single ? ff + lb : NULL, 0, DM - 2, 0, 0, off, z + i, acc);
    else { /* a block with columns before row 0: those columns row by row (their entries there are 0, never read), the others at once */
      PetscInt dv = 0;
      while (dv < DM - 2 && i + off[dv] < 0) dv++;
      for (PetscInt d = 0; d < dv; d++)
        for (PetscInt b = 0; b < B; b++) {
          const PetscInt j = i + b + off[d];
          if (j >= 0) acc[b] -= FV(lb + (size_t)d * B + b) * z[j];
        }
      if (dv < DM - 2) EasIluBlockFar(single, single ? NULL : f + lb, single ? ff + lb : NULL, dv, DM - 2, 0, 0, off, z + i, acc);
    }
    z2 = i >= 2 ? z[i - 2] : 0.0;
    z1 = i >= 1 ? z[i - 1] : 0.0;
    for (PetscInt b = 0; b < B; b++) {
      EasKScalar s = acc[b] - FV(lb + (size_t)(DM - 2) * B + b) * z2;
      s -= FV(lb + (size_t)(DM - 1) * B + b) * z1;
      z[i + b] = s;
      z2       = z1;
      z1       = s;
    }
  }
  for (; i < n; i++) LOWER1(i);
  for (i = n - 1; i >= nB; i--) UPPER1(i);
  for (i = nB - B; i >= 0; i -= B) { /* z_i = (y_i - sum_{j>i} u_ij z_j) / u_ii: the block's far columns, then its rows */
    const size_t lb = ub + (size_t)i * NU;
    EasKScalar   acc[B], z1, z2;
    for (PetscInt b = 0; b < B; b++) acc[b] = z[i + b];
    if (i + B <= c1r)
      EasIluBlockFar(single, single ? NULL : f + lb, single ? ff + lb : NULL, DM + 3, ND, DM, 1, off, z + i, acc);
    else { /* a block with columns past row n-1: those columns row by row, descending as the others, then the others at once */
      PetscInt dw = ND;
      while (dw > DM + 3 && i + B - 1 + off[dw - 1] >= n) dw--;
      for (PetscInt d = ND - 1; d >= dw; d--)
        for (PetscInt b = 0; b < B; b++) {
          const PetscInt j = i + b + off[d];
          if (j < n) acc[b] -= FV(lb + (size_t)(d - DM) * B + b) * z[j];
        }
      if (dw > DM + 3) EasIluBlockFar(single, single ? NULL : f + lb, single ? ff + lb : NULL, DM + 3, dw, DM, 1, off, z + i, acc);
    }
    z2 = i + B + 1 < n ? z[i + B + 1] : 0.0;
    z1 = i + B < n ? z[i + B] : 0.0;
    for (PetscInt b = B - 1; b >= 0; b--) {
      EasKScalar s = acc[b] - FV(lb + (size_t)2 * B + b) * z2;
      s -= FV(lb + (size_t)B + b) * z1;
      s *= FV(lb + b);
      z[i + b] = s;
      z2       = z1;
      z1       = s;
    }
  }
#undef FV
#undef LB
#undef UB
#undef LOWER1
#undef UPPER1
}

/* z = U^{-1} L^{-1} p, exact: forward substitution with the input entry
   formed on the fly (one pass over r, v, p), backward substitution in place
   in z.  Sequential (each row reads the rows solved before it). */
static PetscErrorCode EasIluApply_CPU(EasBackend be, const EasDiaKernel *A, const PetscScalar *f, const float *ff, PetscInt dmain, PetscInt sweeps, PetscInt form, PetscScalar c1, PetscScalar c2, const PetscScalar *r, const PetscScalar *v, PetscScalar *p, PetscScalar *z, PetscScalar *work)
{
  const PetscInt nd     = A->ndiag;
  const int      byrows = nd >= EAS_ILU_APPLY_ROWS_ND; /* the layout EasIluFactor_CPU left the factor in (unless blocked) */

  PetscFunctionBegin;
  (void)sweeps;
  (void)work;
#define EAS_ILU_CALL(ND) \
  ff ? ((ND) >= EAS_ILU_APPLY_ROWS_ND ? EasIluSolveRows(ND, ((ND)-1) / 2, A, NULL, ff, 1, 1, form, c1, c2, r, v, p, z) : EasIluSolveRows(ND, ((ND)-1) / 2, A, NULL, ff, 1, 0, form, c1, c2, r, v, p, z)) : ((ND) >= EAS_ILU_APPLY_ROWS_ND ? EasIluSolveRows(ND, ((ND)-1) / 2, A, f, NULL, 0, 1, form, c1, c2, r, v, p, z) : EasIluSolveRows(ND, ((ND)-1) / 2, A, f, NULL, 0, 0, form, c1, c2, r, v, p, z))
  if (EasIluBlocked(be, nd, dmain, A->off)) { /* the layout EasIluFactor_CPU left */
#define EAS_ILU_BLOCKED_CALL(ND) ff ? EasIluSolveBlocked(ND, ((ND)-1) / 2, A, NULL, ff, 1, form, c1, c2, r, v, p, z) : EasIluSolveBlocked(ND, ((ND)-1) / 2, A, f, NULL, 0, form, c1, c2, r, v, p, z)
    if (dmain == (nd - 1) / 2)
      EAS_ILU_ND_DISPATCH(nd, EAS_ILU_BLOCKED_CALL);
    else
      ff ? EasIluSolveBlocked(nd, dmain, A, NULL, ff, 1, form, c1, c2, r, v, p, z) : EasIluSolveBlocked(nd, dmain, A, f, NULL, 0, form, c1, c2, r, v, p, z);
#undef EAS_ILU_BLOCKED_CALL
  } else if (dmain == (nd - 1) / 2) /* symmetric offset counts (the ADR and gallery patterns) */
    EAS_ILU_ND_DISPATCH(nd, EAS_ILU_CALL);
  else if (ff)
    byrows ? EasIluSolveRows(nd, dmain, A, NULL, ff, 1, 1, form, c1, c2, r, v, p, z) : EasIluSolveRows(nd, dmain, A, NULL, ff, 1, 0, form, c1, c2, r, v, p, z);
  else
    byrows ? EasIluSolveRows(nd, dmain, A, f, NULL, 0, 1, form, c1, c2, r, v, p, z) : EasIluSolveRows(nd, dmain, A, f, NULL, 0, 0, form, c1, c2, r, v, p, z);
#undef EAS_ILU_CALL
  PetscCall(PetscLogFlops(2.0 * nd * A->n + (form ? 3.0 * A->n : 0.0)));
  PetscFunctionReturn(0);
}

/* ADR residual: the shared point body over the box (kernels.h). */
static PetscErrorCode EasAdrFunction_CPU(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *xg, const PetscScalar *xold, PetscScalar *Rv, PetscScalar *dRv, PetscScalar *F, PetscScalar sums[3])
{
  EasRedSlot slots[be->threads];
  int        nt = 1;

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
    PetscScalar s0 = 0.0, s1 = 0.0, s2 = 0.0;
#pragma omp for collapse(2) schedule(static) nowait
    for (EasKInt k = 0; k < P->nz; k++) /* over (k, j) rows; i inside: no division per point */
      for (EasKInt j = 0; j < P->ny; j++)
        for (EasKInt i = 0; i < P->nx; i++) {
          EasKScalar acc[3] = {0.0, 0.0, 0.0};
          EasAdrKFunctionPointIJK(i, j, k, P, w, xg, xold, Rv, dRv, F, acc);
          s0 += acc[0];
          s1 += acc[1];
          s2 += acc[2];
        }
    EasRedPut(slots, &nt, 3, (const PetscScalar[]){s0, s1, s2});
  }
  EasRedSum(slots, nt, 3, sums);
  PetscCall(PetscLogFlops(34.0 * P->np));
  PetscFunctionReturn(0);
}

/* ADR local Jacobian: the shared point body, two rows per point. */
static PetscErrorCode EasAdrJacobian_CPU(EasBackend be, const EasAdrKParams *P, const PetscScalar *w, const PetscScalar *dRv, PetscScalar *V, PetscInt ld)
{
  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be)
  for (PetscInt p = 0; p < P->np; p++) EasAdrKJacobianPoint(p, P, w, dRv, V, ld);
  PetscCall(PetscLogFlops(30.0 * P->np));
  PetscFunctionReturn(0);
}

/* ADR local Jacobian with right Jacobi folded in: D^{-1} at every point
   first (the rows read their neighbours' entries), then the scaled rows;
   the shared point bodies. */
static PetscErrorCode EasAdrJacobianJacobi_CPU(EasBackend be, const EasAdrKParams *P, const PetscScalar *wl, const PetscScalar *dRv, PetscScalar *dinv, PetscScalar *V, float *Vf, PetscInt ld, PetscInt *zero_row)
{
  PetscInt zp = P->np;

  PetscFunctionBegin;
#pragma omp parallel for schedule(static) EAS_OMP_THREADS(be) reduction(min \
                                                                        : zp)
  for (PetscInt p = 0; p < P->np; p++)
    if (EasAdrKInvDiagPoint(p, P, wl, dRv, dinv)) zp = PetscMin(zp, p);
      /* the inner z planes without the column tests, and the double and single
         cases as separate loops (inner, Vf constants in the inlined body) */
#pragma omp parallel for collapse(2) schedule(static) EAS_OMP_THREADS(be)
  for (EasKInt k = 0; k < P->nz; k++)
    for (EasKInt j = 0; j < P->ny; j++) {
      if (k == 0 || k == P->nz - 1)
        for (EasKInt i = 0; i < P->nx; i++) EasAdrKJacobianJacobiPointIJKInner(i, j, k, P, wl, dRv, dinv, V, Vf, ld, 0);
      else if (Vf)
        for (EasKInt i = 0; i < P->nx; i++) EasAdrKJacobianJacobiPointIJKInner(i, j, k, P, wl, dRv, dinv, V, Vf, ld, 1);
      else
        for (EasKInt i = 0; i < P->nx; i++) EasAdrKJacobianJacobiPointIJKInner(i, j, k, P, wl, dRv, dinv, V, NULL, ld, 1);
    }
  *zero_row = zp < P->np ? 2 * zp + (dinv[2 * zp] == 0.0 ? 0 : 1) : -1;
  PetscCall(PetscLogFlops(48.0 * P->np));
  PetscFunctionReturn(0);
}

/* The halo planes of the faces with a neighbour: the shared pack body. */
static PetscErrorCode EasAdrPack_CPU(EasBackend be, const EasAdrKHalo *H, const PetscScalar *x, PetscScalar *buf)
{
  PetscFunctionBegin;
  (void)be;
  for (EasKIdx t = 0; t < H->pack_start[6]; t++) EasAdrKPackPoint(t, H, x, buf);
  PetscFunctionReturn(0);
}

/* The padded state: the box points over (k, j) rows with i inside (no
   division per point: the flat-index body spent ~1.5 ms per outer iteration
   on 115200 points in its three divisions, more than the function), then
   the ghost points by their flat index.  The two loops are independent
   (EasAdrKPadPoint: the ghost points never read a box point the launch
   writes), so the first has no barrier. */
static PetscErrorCode EasAdrPad_CPU(EasBackend be, const EasAdrKHalo *H, PetscScalar *x, const PetscScalar *ghost, const PetscScalar *bval, PetscScalar *xg)
{
  const EasKIdx np = (EasKIdx)H->nx * H->ny * H->nz, nf = H->fill_start[6];

  PetscFunctionBegin;
#pragma omp parallel EAS_OMP_THREADS(be)
  {
#pragma omp for collapse(2) schedule(static) nowait
    for (EasKInt k = 0; k < H->nz; k++)
      for (EasKInt j = 0; j < H->ny; j++)
        for (EasKInt i = 0; i < H->nx; i++) EasAdrKPadBoxPointIJK(i, j, k, H, x, ghost, xg);
#pragma omp for schedule(static)
    for (EasKIdx t = 0; t < nf; t++) EasAdrKPadPoint(np + t, H, x, ghost, bval, xg);
  }
  PetscFunctionReturn(0);
}

/* The Newton update: one sequential pass, so that its sums have the order
   (and the rounding) of the points, which the convergence test and the
   iteration counts of the CPU runs depend on (docs/adr.md). */
static PetscErrorCode EasAdrUpdate_CPU(EasBackend be, const EasAdrKHalo *H, PetscScalar c, const PetscScalar *dinv, PetscScalar *y, PetscScalar *x, const PetscScalar *ewt, PetscBool keep, PetscScalar sums[5])
{
  EasKScalar    acc[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
  const EasKIdx np     = (EasKIdx)H->nx * H->ny * H->nz;
  const int     ov     = H->skip[0] || H->skip[1] || H->skip[2] || H->skip[3] || H->skip[4] || H->skip[5];

  PetscFunctionBegin;
  (void)be;
  if (!ov)
    for (EasKIdx p = 0; p < np; p++) EasAdrKUpdatePoint(p, c, dinv, y, x, ewt, (int)keep, acc);
  else { /* by (i, j, k): the same order of the points, without a division per point */
    EasKIdx p = 0;
    for (EasKInt k = 0; k < H->nz; k++)
      for (EasKInt j = 0; j < H->ny; j++)
        for (EasKInt i = 0; i < H->nx; i++, p++) EasAdrKUpdatePointOwn(p, EasAdrKOwnPointIJK(H, i, j, k), c, dinv, y, x, ewt, (int)keep, acc);
  }
  for (int k = 0; k < 5; k++) sums[k] = acc[k];
  PetscCall(PetscLogFlops(8.0 * np));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendView_CPU(EasBackend be, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "OpenMP threads: %" PetscInt_FMT " (omp_get_max_threads %d)\n", be->threads, omp_get_max_threads()));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ILU factor layout: %sby rows from %d offsets, else by diagonals\n", ((EasBackend_CPU *)be->data)->ilu_blocks ? "in blocks of 16 rows where every offset but -2 -1 1 2 is 16 rows away (from 16 offsets), else " : "", EAS_ILU_APPLY_ROWS_ND));
  PetscFunctionReturn(0);
}

/* -eas_cpu_ilu_blocks: the layout of an ILU factor's substitutions (a
   setting to compare the two layouts with, as -eas_memcheck_spmv csr). */
static PetscErrorCode EasBackendSetFromOptions_CPU(EasBackend be, PetscOptionItems *PetscOptionsObject)
{
  EasBackend_CPU *cpu = (EasBackend_CPU *)be->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "EasBackend /cpu options");
  PetscCall(PetscOptionsBool("-eas_cpu_ilu_blocks", "ILU(k) factor in blocks of 16 rows (the far columns across the block's rows at once) where every offset but -2 -1 1 2 is 16 rows away, from 16 offsets (the ADR's ILU(1), ILU(2)); 0: by rows from 32 offsets, else by diagonals", "EasBackendSetFromOptions", cpu->ilu_blocks, &cpu->ilu_blocks, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendDestroy_CPU(EasBackend be)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(be->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendInit_CPU_Private(EasBackend be, PetscInt threads)
{
  EasBackend_CPU *cpu;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cpu));
  cpu->ilu_blocks              = PETSC_TRUE;
  be->data                     = cpu;
  be->ops->set_from_options    = EasBackendSetFromOptions_CPU;
  be->ops->destroy             = EasBackendDestroy_CPU;
  be->host_is_device           = PETSC_TRUE;
  be->bcgs_inplace             = PETSC_TRUE; /* EAS_LAGGED_SWEEP forms each p, s entry once, before the SpMV reads it */
  be->threads                  = threads;
  be->ops->malloc              = EasMalloc_CPU;
  be->ops->free                = EasFree_CPU;
  be->ops->copy_htod           = EasCopyMem_CPU;
  be->ops->copy_dtoh           = EasCopyMem_CPU;
  be->ops->set                 = EasVecSet_CPU;
  be->ops->copy                = EasVecCopy_CPU;
  be->ops->gather              = EasVecGather_CPU;
  be->ops->axpby               = EasVecAXPBY_CPU;
  be->ops->pointwise_mult      = EasVecPointwiseMult_CPU;
  be->ops->dot_local           = EasVecDot_CPU;
  be->ops->dia_mult            = EasDiaMult_CPU;
  be->ops->dia_mult_dots       = EasDiaMultDots_CPU;
  be->ops->dia_single          = EasDiaSingle_CPU;
  be->ops->dia_mult_transpose  = EasDiaMultTranspose_CPU;
  be->ops->bcgs_sweep1         = EasBcgsSweep1_CPU;
  be->ops->bcgs_sweep2         = EasBcgsSweep2_CPU;
  be->ops->bcgs_sweep3         = EasBcgsSweep3_CPU;
  be->ops->view                = EasBackendView_CPU;
  be->ops->ebe_apply           = EasEbeApply_CPU;
  be->ops->ebe_diagonal        = EasEbeDiagonal_CPU;
  be->ops->block_mult          = EasBlockMult_CPU;
  be->ops->cg_update           = EasCgUpdate_CPU;
  be->ops->pipecg_update       = EasPipeCgUpdate_CPU;
  be->ops->dia_jacobi          = EasDiaJacobi_CPU;
  be->ops->ilu_factor          = EasIluFactor_CPU;
  be->ilu_work_nd              = PETSC_MAX_INT; /* no scratch: every layout is factored in place (EasIluFactor_CPU) */
  be->ops->ilu_apply           = EasIluApply_CPU;
  be->ops->adr_function        = EasAdrFunction_CPU;
  be->ops->adr_jacobian        = EasAdrJacobian_CPU;
  be->ops->adr_jacobian_jacobi = EasAdrJacobianJacobi_CPU;
  be->ops->adr_pack            = EasAdrPack_CPU;
  be->ops->adr_pad             = EasAdrPad_CPU;
  be->ops->adr_update          = EasAdrUpdate_CPU;
  PetscFunctionReturn(0);
}

/* "/cpu": OpenMP with omp_get_max_threads() threads (OMP_NUM_THREADS) unless -eas_threads. */
PetscErrorCode EasBackendInit_CPU(EasBackend be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendInit_CPU_Private(be, (PetscInt)omp_get_max_threads()));
  PetscFunctionReturn(0);
}

/* "/cpu/serial": the same kernels on one thread. */
PetscErrorCode EasBackendInit_CPUSerial(EasBackend be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendInit_CPU_Private(be, 1));
  PetscFunctionReturn(0);
}
