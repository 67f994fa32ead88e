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
   EAS_EBE_APPLY_BODIES(SUF, VT, LS, ADD), values of type VT (double: no
   suffix, float: F), x, y and the sums EasKScalar, in the host (LS = 1) or
   device layout (LS = EAS_EBE_LANES: suffix L), scattered by ADD (plain, or
   atomic: suffix A):
     EasEbeElementApply##SUF     A_el stored row-major, m x m (m = nen*dof,
                                 dof interleaved per node): m^2 values read
     EasEbeElementApplySym##SUF  A_el symmetric, its upper triangle packed by
                                 rows (EasEbeSymRowStart), m(m+1)/2 values,
                                 each read once and used twice: y_i +=
                                 A_ij x_j and y_j += A_ij x_i (j > i). */
/* Device layout of the element values (docs/ebe.md "Device layout"): the
   elements in batches of EAS_EBE_LANES (a warp), value v of element e at
   (e / LANES) nv LANES + v LANES + e % LANES (nv values per element), so the
   32 threads of a warp, one element each, read 32 consecutive values: one
   coalesced load per value instead of 32 scattered ones.  LS = 1 is the
   host layout (element e's nv values contiguous from e nv).  The padding
   of the last batch is never read. */
#define EAS_EBE_LANES 32
static inline EAS_HOST_DEVICE EasKIdx EasEbeLaneBase(EasKInt e, EasKIdx nv, EasKInt LS)
{
  return LS == 1 ? (EasKIdx)e * nv : (EasKIdx)(e / LS) * nv * LS + e % LS;
}

/* The element bodies' scatter (el2o): a plain sum where the elements
   applied together share no node (colours), an atomic one where they may
   (one launch over every colour).  On the host the atomic sum is a
   compare-and-swap loop, so that /cpu/memcheck's emulation of the kernel
   on several threads adds concurrently as the device does. */
static inline EAS_HOST_DEVICE void EasKAdd(EasKScalar *p, EasKScalar v)
{
  *p += v;
}
static inline EAS_HOST_DEVICE void EasKAtomicAdd(EasKScalar *p, EasKScalar v)
{
#if defined(__CUDA_ARCH__)
  atomicAdd(p, v);
#else
  EasKScalar old, upd;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do {
    upd = old + v;
  } while (!__atomic_compare_exchange(p, &old, &upd, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
#endif
}

/* Offset of row i (entries A[i][i..m-1]) in a packed upper triangle of order m. */
static inline EAS_HOST_DEVICE EasKIdx EasEbeSymRowStart(EasKInt i, EasKInt m)
{
  return (EasKIdx)i * m - ((EasKIdx)i * (i - 1)) / 2;
}
#define EAS_EBE_APPLY_BODIES(SUF, VT, LS, ADD)                                                                                                                                                                                       \
  static inline EAS_HOST_DEVICE void EasEbeElementApply##SUF(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, const VT *ael, const EasKScalar *x, EasKScalar *y, const VT *next)                                            \
  {                                                                                                                                                                                                                                  \
    const EasKInt  m = nen * dof;                                                                                                                                                                                                    \
    const EasKInt *c = conn + (EasKIdx)e * nen;                                                                                                                                                                                      \
    const VT      *A = ael + EasEbeLaneBase(e, (EasKIdx)m * m, LS);                                                                                                                                                                  \
    EasKScalar     xe[EAS_EBE_MAXM], ye[EAS_EBE_MAXM];                                                                                                                                                                               \
    EasKInt        i;                                                                                                                                                                                                                \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                                                \
      for (EasKInt k = 0; k < dof; k++) xe[a * dof + k] = x[(EasKIdx)c[a] * dof + k]; /* o2el */                                                                                                                                     \
    for (i = 0; i + 3 < m; i += 4) {                                                  /* four rows per pass over x_el (single: 1.8x out of cache) */                                                                                 \
      const VT *r0 = A + (EasKIdx)i * m * LS, *r1 = r0 + (EasKIdx)m * LS, *r2 = r1 + (EasKIdx)m * LS, *r3 = r2 + (EasKIdx)m * LS;                                                                                                    \
      EAS_PREFETCH_RANGE(next, (EasKIdx)i *m * sizeof(VT), (EasKIdx)(i + 4) * m * sizeof(VT)); /* the next element's same rows */                                                                                                    \
      EasKScalar s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                                                                                                                                                                             \
      EAS_SIMD_SUM4                                                                                                                                                                                                                  \
      for (EasKInt j = 0; j < m; j++) {                                                                                                                                                                                              \
        const EasKScalar xj = xe[j];                                                                                                                                                                                                 \
        s0 += (EasKScalar)r0[(EasKIdx)j * LS] * xj;                                                                                                                                                                                  \
        s1 += (EasKScalar)r1[(EasKIdx)j * LS] * xj;                                                                                                                                                                                  \
        s2 += (EasKScalar)r2[(EasKIdx)j * LS] * xj;                                                                                                                                                                                  \
        s3 += (EasKScalar)r3[(EasKIdx)j * LS] * xj;                                                                                                                                                                                  \
      }                                                                                                                                                                                                                              \
      ye[i]     = s0;                                                                                                                                                                                                                \
      ye[i + 1] = s1;                                                                                                                                                                                                                \
      ye[i + 2] = s2;                                                                                                                                                                                                                \
      ye[i + 3] = s3;                                                                                                                                                                                                                \
    }                                                                                                                                                                                                                                \
    for (i = m - m % 4; i < m; i++) { /* the last m mod 4 rows */                                                                                                                                                                    \
      const VT *row = A + (EasKIdx)i * m * LS;                                                                                                                                                                                       \
      EAS_PREFETCH_RANGE(next, (EasKIdx)i *m * sizeof(VT), (EasKIdx)(i + 1) * m * sizeof(VT));                                                                                                                                       \
      EasKScalar s = 0.0;                                                                                                                                                                                                            \
      EAS_SIMD_SUM(s)                                                                                                                                                                                                                \
      for (EasKInt j = 0; j < m; j++) s += (EasKScalar)row[(EasKIdx)j * LS] * xe[j];                                                                                                                                                 \
      ye[i] = s;                                                                                                                                                                                                                     \
    }                                                                                                                                                                                                                                \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                                                \
      for (EasKInt k = 0; k < dof; k++) ADD(&y[(EasKIdx)c[a] * dof + k], ye[a * dof + k]); /* el2o */                                                                                                                                \
  }                                                                                                                                                                                                                                  \
  static inline EAS_HOST_DEVICE void EasEbeElementApplySym##SUF(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, const VT *aps, const EasKScalar *x, EasKScalar *y, const VT *next)                                         \
  {                                                                                                                                                                                                                                  \
    const EasKInt  m = nen * dof;                                                                                                                                                                                                    \
    const EasKInt *c = conn + (EasKIdx)e * nen;                                                                                                                                                                                      \
    const VT      *A = aps + EasEbeLaneBase(e, (EasKIdx)m * (m + 1) / 2, LS);                                                                                                                                                        \
    EasKScalar     xe[EAS_EBE_MAXM], ye[EAS_EBE_MAXM];                                                                                                                                                                               \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                                                \
      for (EasKInt k = 0; k < dof; k++) {                                                                                                                                                                                            \
        xe[a * dof + k] = x[(EasKIdx)c[a] * dof + k]; /* o2el */                                                                                                                                                                     \
        ye[a * dof + k] = 0.0;                                                                                                                                                                                                       \
      }                                                                                                                                                                                                                              \
    EasKInt i;                                                                                                                                                                                                                       \
    for (i = 0; i + 3 < m; i += 4) { /* four packed rows per pass, each A_ij read once: s_a += A_{i+a,j} x_j, y_j += A_{i+a,j} x_{i+a} */                                                                                            \
      const VT *r0 = A + (EasEbeSymRowStart(i, m) - i) * LS, *r1 = A + (EasEbeSymRowStart(i + 1, m) - (i + 1)) * LS, *r2 = A + (EasEbeSymRowStart(i + 2, m) - (i + 2)) * LS, *r3 = A + (EasEbeSymRowStart(i + 3, m) - (i + 3)) * LS; \
      EAS_PREFETCH_RANGE(next, EasEbeSymRowStart(i, m) * sizeof(VT), EasEbeSymRowStart(i + 4, m) * sizeof(VT));                                                                                                                      \
      const EasKScalar x0 = xe[i], x1 = xe[i + 1], x2 = xe[i + 2], x3 = xe[i + 3];                                                                                                                                                   \
      EasKScalar       s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0; /* zero starts: gcc keeps the SIMD sums in registers (others spilled them) */                                                                                         \
      EAS_SIMD_SUM4                                                                                                                                                                                                                  \
      for (EasKInt j = i + 4; j < m; j++) {                                                                                                                                                                                          \
        const EasKIdx    jl = (EasKIdx)j * LS;                                                                                                                                                                                       \
        const EasKScalar b0 = (EasKScalar)r0[jl], b1 = (EasKScalar)r1[jl], b2 = (EasKScalar)r2[jl], b3 = (EasKScalar)r3[jl], xj = xe[j];                                                                                             \
        s0 += b0 * xj;                                                                                                                                                                                                               \
        s1 += b1 * xj;                                                                                                                                                                                                               \
        s2 += b2 * xj;                                                                                                                                                                                                               \
        s3 += b3 * xj;                                                                                                                                                                                                               \
        ye[j] += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;                                                                                                                                                                              \
      }                                                                                                                                                                                                                              \
      ye[i] += s0 + (EasKScalar)r0[(EasKIdx)(i)*LS] * x0 + (EasKScalar)r0[(EasKIdx)(i + 1) * LS] * x1 + (EasKScalar)r0[(EasKIdx)(i + 2) * LS] * x2 + (EasKScalar)r0[(EasKIdx)(i + 3) * LS] * x3;                                     \
      ye[i + 1] += s1 + (EasKScalar)r0[(EasKIdx)(i + 1) * LS] * x0 + (EasKScalar)r1[(EasKIdx)(i + 1) * LS] * x1 + (EasKScalar)r1[(EasKIdx)(i + 2) * LS] * x2 + (EasKScalar)r1[(EasKIdx)(i + 3) * LS] * x3;                           \
      ye[i + 2] += s2 + (EasKScalar)r0[(EasKIdx)(i + 2) * LS] * x0 + (EasKScalar)r1[(EasKIdx)(i + 2) * LS] * x1 + (EasKScalar)r2[(EasKIdx)(i + 2) * LS] * x2 + (EasKScalar)r2[(EasKIdx)(i + 3) * LS] * x3;                           \
      ye[i + 3] += s3 + (EasKScalar)r0[(EasKIdx)(i + 3) * LS] * x0 + (EasKScalar)r1[(EasKIdx)(i + 3) * LS] * x1 + (EasKScalar)r2[(EasKIdx)(i + 3) * LS] * x2 + (EasKScalar)r3[(EasKIdx)(i + 3) * LS] * x3;                           \
    }                                                                                                                                                                                                                                \
    for (; i < m; i++) {                                                                                                                                                                                                             \
      const VT *row = A + (EasEbeSymRowStart(i, m) - i) * LS;                                                                                                                                                                        \
      EAS_PREFETCH_RANGE(next, EasEbeSymRowStart(i, m) * sizeof(VT), EasEbeSymRowStart(i + 1, m) * sizeof(VT));                                                                                                                      \
      const EasKScalar xi = xe[i];                                                                                                                                                                                                   \
      EasKScalar       s  = (EasKScalar)row[(EasKIdx)i * LS] * xi;                                                                                                                                                                   \
      EAS_SIMD_SUM(s)                                                                                                                                                                                                                \
      for (EasKInt j = i + 1; j < m; j++) {                                                                                                                                                                                          \
        const EasKScalar aij = (EasKScalar)row[(EasKIdx)j * LS];                                                                                                                                                                     \
        s += aij * xe[j];                                                                                                                                                                                                            \
        ye[j] += aij * xi;                                                                                                                                                                                                           \
      }                                                                                                                                                                                                                              \
      ye[i] += s;                                                                                                                                                                                                                    \
    }                                                                                                                                                                                                                                \
    for (EasKInt a = 0; a < nen; a++)                                                                                                                                                                                                \
      for (EasKInt k = 0; k < dof; k++) ADD(&y[(EasKIdx)c[a] * dof + k], ye[a * dof + k]); /* el2o */                                                                                                                                \
  }
/* clang-format off */
EAS_EBE_APPLY_BODIES(, EasKScalar, 1, EasKAdd)                /* host layout, colours */
EAS_EBE_APPLY_BODIES(_F, float, 1, EasKAdd)
EAS_EBE_APPLY_BODIES(_L, EasKScalar, EAS_EBE_LANES, EasKAdd) /* device layout, colours (-ebe_deterministic) */
EAS_EBE_APPLY_BODIES(_LF, float, EAS_EBE_LANES, EasKAdd)
EAS_EBE_APPLY_BODIES(_LA, EasKScalar, EAS_EBE_LANES, EasKAtomicAdd) /* device layout, one launch, atomic scatter */
EAS_EBE_APPLY_BODIES(_LFA, float, EAS_EBE_LANES, EasKAtomicAdd)
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

/* Element e of y += A x in the device layout (EasEbeLaneBase): vals holds
   the storage's values (full: m^2 doubles too) interleaved by lanes;
   atomic: the scatter is atomic (elements that share nodes run at once). */
static inline EAS_HOST_DEVICE void EasEbeElementApplyLanes(EasKInt e, EasKInt nen, EasKInt dof, const EasKInt *conn, int storage, int atomic, const void *vals, const EasKScalar *x, EasKScalar *y)
{
  switch (storage) {
  case EAS_EBE_ST_SYMMETRIC:
    if (atomic)
      EasEbeElementApplySym_LA(e, nen, dof, conn, (const EasKScalar *)vals, x, y, NULL);
    else
      EasEbeElementApplySym_L(e, nen, dof, conn, (const EasKScalar *)vals, x, y, NULL);
    break;
  case EAS_EBE_ST_SINGLE:
    if (atomic)
      EasEbeElementApply_LFA(e, nen, dof, conn, (const float *)vals, x, y, NULL);
    else
      EasEbeElementApply_LF(e, nen, dof, conn, (const float *)vals, x, y, NULL);
    break;
  case EAS_EBE_ST_SYMMETRIC_SINGLE:
    if (atomic)
      EasEbeElementApplySym_LFA(e, nen, dof, conn, (const float *)vals, x, y, NULL);
    else
      EasEbeElementApplySym_LF(e, nen, dof, conn, (const float *)vals, x, y, NULL);
    break;
  default:
    if (atomic)
      EasEbeElementApply_LA(e, nen, dof, conn, (const EasKScalar *)vals, x, y, NULL);
    else
      EasEbeElementApply_L(e, nen, dof, conn, (const EasKScalar *)vals, x, y, NULL);
  }
}

/* Thread gid = block * blockDim + thread of a launch of the device apply
   (the CUDA kernel's whole body, which /cpu/memcheck runs in a loop over
   (block, thread) on the host):
   atomic: one launch over the elements [k0,k1): thread gid applies element
     (k0 rounded down to EAS_EBE_LANES) + gid, so that lane l of a warp
     reads lane l of a batch (coalesced); threads outside [k0,k1) do nothing;
   colours: thread gid applies color_elem[k0 + gid] of one colour's slice
     [k0,k1) (no atomics: the elements of a colour share no node; the
     elements of a colour are not adjacent, so a warp reads several batches).
   The elements the device applies are threads of one grid: the position
   gid is all the arithmetic the tests check. */
static inline EAS_HOST_DEVICE void EasEbeApplyThread(EasKIdx gid, int atomic, EasKInt k0, EasKInt k1, const EasKInt *color_elem, EasKInt nen, EasKInt dof, const EasKInt *conn, int storage, const void *vals, const EasKScalar *x, EasKScalar *y)
{
  EasKInt e;

  if (atomic) {
    const EasKIdx ea = (EasKIdx)(k0 - k0 % EAS_EBE_LANES) + gid;
    if (ea < k0 || ea >= k1) return;
    e = (EasKInt)ea;
  } else {
    if (gid >= (EasKIdx)k1 - k0) return;
    e = color_elem[k0 + gid];
  }
  EasEbeElementApplyLanes(e, nen, dof, conn, storage, atomic, vals, x, y);
}

/* The apply kernel's launch geometry (ebe.cu; /cpu/memcheck runs the same
   grid): threads per block, and the cap of its grid-stride launch. */
#define EAS_EBE_BLOCK 256
#define EAS_EBE_MAX_BLOCKS (1u << 20)

/* Threads of a launch of EasEbeApplyThread over [k0,k1) (its grid-stride
   range): atomic launches start at the batch of k0. */
static inline EAS_HOST_DEVICE EasKIdx EasEbeApplyThreads(int atomic, EasKInt k0, EasKInt k1)
{
  return k1 <= k0 ? 0 : (EasKIdx)k1 - k0 + (atomic ? k0 % EAS_EBE_LANES : 0);
}

/* The warp kernel (-ebe_device_layout warp, the default on a device;
   docs/ebe.md "Device kernels"): a group of G lanes of a warp applies one
   element, on the host layout (element values contiguous, symmetric rows
   packed).  G = EasEbeWarpWidth(m): 32, or 8 for m <= 8 (Q1 scalar
   elements: 4 elements a warp).  Lane g of a group holds the
   entries v = g + G t (t < EAS_EBE_WSLOTS) of x_el and y_el in registers.
   Row i of A_el is read by the whole group, lane g reading the columns
   j = g + G t: consecutive lanes read consecutive addresses, one coalesced
   load per slice of a row (the thread-per-element kernels each read their
   own matrix: 32 scattered streams a warp, docs/ebe.md).  Row i's dot
   sum_j A_ij x_j is a sum over the group (shuffles on the device,
   EasEbeWarpSumHost on the host); the symmetric storage also adds
   A_ij x_i to y_j (j > i) in the lane that owns j, so each stored value is
   read once and used twice (Lang-Rünger Alg. 1, y_el = A_el x_el).  The
   pieces below are the kernel's whole arithmetic: ebe.cu strings them with
   shuffles, /cpu/memcheck with a loop over the lanes. */
#define EAS_EBE_WARP 32
#define EAS_EBE_WARP_BLOCK 128                                            /* threads per block: 4 warps, so that the register allocation leaves no more idle than a warp (67 registers: 7 blocks, 28 warps per multiprocessor; 256: 3 blocks, 24) */
#define EAS_EBE_WSLOTS ((EAS_EBE_MAXM + EAS_EBE_WARP - 1) / EAS_EBE_WARP) /* 3: m <= 81 */

static inline EAS_HOST_DEVICE EasKInt EasEbeWarpWidth(EasKInt m)
{
  return m > 8 ? 32 : 8;
}

/* Element applied by group w of a launch over [k0,k1): atomic, element
   k0 + w; colours, color_elem[k0 + w]. */
static inline EAS_HOST_DEVICE EasKInt EasEbeWarpElement(EasKIdx w, int atomic, EasKInt k0, const EasKInt *color_elem)
{
  return atomic ? (EasKInt)(k0 + w) : color_elem[k0 + w];
}

/* o2el for lane g: xr[t] = x_el[g + G t] (0 past m); yr = 0. */
static inline EAS_HOST_DEVICE void EasEbeWarpGather(EasKInt g, EasKInt G, EasKInt m, EasKInt dof, const EasKInt *c, const EasKScalar *x, EasKScalar *xr, EasKScalar *yr)
{
  for (int t = 0; t < EAS_EBE_WSLOTS; t++) {
    const EasKInt v = g + G * t;
    xr[t]           = v < m ? x[(EasKIdx)c[v / dof] * dof + v % dof] : 0.0;
    yr[t]           = 0.0;
  }
}

/* Slot t of a lane's registers, t uniform over the group (selects, so that
   the registers are not spilled to an indexed local array). */
static inline EAS_HOST_DEVICE EasKScalar EasEbeWarpSlot(const EasKScalar *r, EasKInt t)
{
  return t == 0 ? r[0] : (t == 1 ? r[1] : r[2]);
}

/* Offset of row i of an element's values: full, i m; symmetric, the packed
   row's start shifted so that entry j of the row is at offset + j. */
/* Offset of row i in an element's values (m <= 81: 32-bit): full, i m;
   symmetric, the packed row's start shifted so that entry j of the row is
   at offset + j.  The kernels walk the rows with EasEbeWarpRowStep, the
   difference to the next row's offset (full m, symmetric m - i - 1: row i
   holds m - i values), so that no row pays a multiplication. */
static inline EAS_HOST_DEVICE EasKInt EasEbeWarpRowOffset(EasKInt i, EasKInt m, int sym)
{
  return sym ? (EasKInt)(EasEbeSymRowStart(i, m) - i) : i * m;
}
static inline EAS_HOST_DEVICE EasKInt EasEbeWarpRowStep(EasKInt i, EasKInt m, int sym)
{
  return sym ? m - i - 1 : m;
}

/* Slot t of row i holds no value of any lane: symmetric rows start at
   column i, so slot t (columns G t .. G t + G - 1) is empty once
   i >= G (t + 1).  Uniform over the group: the kernels skip the slot's
   load and arithmetic (a[t] = 0, which adds nothing). */
static inline EAS_HOST_DEVICE int EasEbeWarpSlotEmpty(EasKInt G, EasKInt t, EasKInt i, int sym)
{
  return sym && i >= G * (t + 1);
}

/* Lane g's values of row i, row = the element's values + the row's offset
   (0 where the lane has no column of the row, or past the last row):
   a[t] = A_el[i][g + G t]. */
#define EAS_EBE_WARP_LOAD(SUF, VT)                                                                                                          \
  static inline EAS_HOST_DEVICE void EasEbeWarpLoad##SUF(EasKInt g, EasKInt G, EasKInt i, EasKInt m, int sym, const VT *row, EasKScalar *a) \
  {                                                                                                                                         \
    for (int t = 0; t < EAS_EBE_WSLOTS; t++) {                                                                                              \
      const EasKInt j = g + G * t;                                                                                                          \
      if (EasEbeWarpSlotEmpty(G, t, i, sym) || i >= m) {                                                                                    \
        a[t] = 0.0;                                                                                                                         \
        continue;                                                                                                                           \
      }                                                                                                                                     \
      a[t] = (j < m && (!sym || j >= i)) ? (EasKScalar)row[j] : 0.0;                                                                        \
    }                                                                                                                                       \
  }
EAS_EBE_WARP_LOAD(, EasKScalar)
EAS_EBE_WARP_LOAD(_F, float)

/* Lane g's part of row i: returns sum_t a[t] xr[t] (its share of the row's
   dot); symmetric, y_j += A_ij x_i for its columns j > i. */
static inline EAS_HOST_DEVICE EasKScalar EasEbeWarpUse(EasKInt g, EasKInt G, EasKInt i, int sym, const EasKScalar *a, EasKScalar xi, const EasKScalar *xr, EasKScalar *yr)
{
  EasKScalar p = 0.0;
  for (int t = 0; t < EAS_EBE_WSLOTS; t++) {
    if (EasEbeWarpSlotEmpty(G, t, i, sym)) continue;
    p += a[t] * xr[t];
    if (sym && g + G * t > i) yr[t] += a[t] * xi;
  }
  return p;
}

/* The row's dot s (the group's sum) into y_i, in the lane that owns i. */
static inline EAS_HOST_DEVICE void EasEbeWarpOwnerAdd(EasKInt g, EasKInt G, EasKInt i, EasKScalar s, EasKScalar *yr)
{
  for (int t = 0; t < EAS_EBE_WSLOTS; t++)
    if (g + G * t == i) yr[t] += s;
}

/* el2o for lane g: y[node, k] += y_el[g + G t]; atomic where the groups of
   a launch may share nodes. */
static inline EAS_HOST_DEVICE void EasEbeWarpScatter(EasKInt g, EasKInt G, EasKInt m, EasKInt dof, const EasKInt *c, const EasKScalar *yr, int atomic, EasKScalar *y)
{
  for (int t = 0; t < EAS_EBE_WSLOTS; t++) {
    const EasKInt v = g + G * t;
    if (v >= m) continue;
    if (atomic)
      EasKAtomicAdd(&y[(EasKIdx)c[v / dof] * dof + v % dof], yr[t]);
    else
      EasKAdd(&y[(EasKIdx)c[v / dof] * dof + v % dof], yr[t]);
  }
}

/* The device's group sum, on the host: the xor butterfly of the shuffles
   (__shfl_xor_sync, offsets G/2 .. 1), in place; every lane ends with the
   same bits (a + b = b + a), as on the device. */
static inline void EasEbeWarpSumHost(EasKInt G, EasKScalar *p)
{
  EasKScalar q[EAS_EBE_WARP];
  for (EasKInt o = G / 2; o > 0; o /= 2) {
    for (EasKInt l = 0; l < G; l++) q[l] = p[l] + p[l ^ o];
    for (EasKInt l = 0; l < G; l++) p[l] = q[l];
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

/* The split with the operator on a device (issue 20 item 4, docs/ebe.md
   "Split on a device operator"): a host unit's gather list idx holds the
   distinct dofs its elements touch, ascending.  Entry i of the gather: buf
   = x at the list; entry i of the scatter-add: the unit's partial result
   back into y.  The list's entries are distinct, so the scatter-add needs
   no atomics and its result does not depend on the order of the entries. */
static inline EAS_HOST_DEVICE void EasEbeGatherEntry(EasKInt i, const EasKInt *idx, const EasKScalar *x, EasKScalar *buf)
{
  buf[i] = x[idx[i]];
}

static inline EAS_HOST_DEVICE void EasEbeScatterAddEntry(EasKInt i, const EasKInt *idx, const EasKScalar *buf, EasKScalar *y)
{
  y[idx[i]] += buf[i];
}
