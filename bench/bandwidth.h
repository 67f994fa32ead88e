/*
  The benches' in-process bandwidth reference (issue 13 item 4), shared by
  bench_dia.c and bench_ebe.c.

  Two reference kernels on arrays of the same length L, run with the bench's
  threads and timed interleaved with the kernel they are a reference for
  (one timing of each, alternately, per run; medians):

    triad   a9 = a0 + s a1                  2 read streams, 1 write
    read9   a9 = a0 + a1 + ... + a8         9 read streams, 1 write (the
                                            access shape of the DIA SpMV:
                                            9 diagonals, 1 result)

  Bytes are counted as really moved between memory and the cache: a plain
  store of a line that is not in the cache first reads it (write allocate),
  so every written stream counts 16 B per element, every read stream 8 B:

    triad   32 B per element     read9   88 B per element

  The arrays are allocated as eas allocates its vectors and DIA values
  (EasMallocAligned, core/align.h: 64 B aligned, 4 KiB pages): an array
  16 B past a cache line, as PetscMalloc gives, makes read9 take 19% and
  the SpMV 37% longer (core/align.h), so reference and kernel see the same
  layout.

  The compiler emits plain stores for these loops (no non-temporal stores:
  `objdump -d OBJDIR/bench/bench_dia | grep -c movnt` prints 0), so the
  write allocate does happen.  The counts of the timed kernels follow the
  same rule (bench_dia.c, bench_ebe.c).

  Cache: the last-level cache size comes from -bench_llc_mb, sysfs, hwloc
  or sysconf, the first that is plausible, and is said with its source
  (llc.h); none plausible: "unknown".  A working set is "at bandwidth"
  (streams from memory) only when it is at least EAS_BENCH_LLC_FACTOR times
  the LLC, and "unknown" where the LLC is; the reference arrays are sized so
  that even the triad's 3 arrays are 2 x EAS_BENCH_LLC_FACTOR times the LLC
  (32 MB taken for an unknown LLC).
*/
#include <petscsys.h>
#include <stdio.h>
#include "core/align.h" /* the arrays start on a cache line, as eas's (EasMallocAligned) */
#include <math.h>
#include "llc.h"

#define EAS_BENCH_LLC_FACTOR 4.0
#define EAS_BENCH_TRIAD_BYTES 32.0 /* per element, write allocate included */
#define EAS_BENCH_READ9_BYTES 88.0 /* per element, write allocate included */

typedef struct {
  PetscInt    n;       /* length of every array */
  int         threads; /* OpenMP threads of the reference kernels */
  double     *a[10];   /* a[0..8] read, a[9] written */
  EasBenchLLC llc;     /* the last-level cache (llc.h); llc.bytes = 0: unknown */
} EasBenchRef;

/* qsort's order of doubles, and the median of v[0..n) (sorted in place: v[0]
   and v[n-1] are then the range) - the benches report medians of their runs */
static inline int EasBenchCmpDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static inline double EasBenchMedian(PetscInt n, double *v)
{
  qsort(v, (size_t)n, sizeof(double), EasBenchCmpDouble);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Arrays of length n (0: 2 x EAS_BENCH_LLC_FACTOR x LLC / 24 B, at least
   2^22), first touched by the threads that use them. */
static inline PetscErrorCode EasBenchRefCreate(PetscInt n, int threads, EasBenchRef *ref)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(ref, sizeof(*ref)));
  PetscCall(EasBenchLLCDetect(&ref->llc));
  if (n <= 0) n = PetscMax((PetscInt)1 << 22, (PetscInt)(2.0 * EAS_BENCH_LLC_FACTOR * (ref->llc.bytes > 0 ? ref->llc.bytes : 32.0 * 1024 * 1024) / 24.0));
  ref->n       = n;
  ref->threads = threads;
  for (int k = 0; k < 10; k++) {
    double *a;
    PetscCall(EasMallocAligned(sizeof(double) * (size_t)n, PETSC_FALSE, (void **)&ref->a[k]));
    a = ref->a[k];
#pragma omp parallel for schedule(static) num_threads(threads)
    for (PetscInt i = 0; i < n; i++) a[i] = 1.0 + 1e-3 * k;
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode EasBenchRefDestroy(EasBenchRef *ref)
{
  PetscFunctionBegin;
  for (int k = 0; k < 10; k++) PetscCall(EasFreeAligned(&ref->a[k]));
  PetscFunctionReturn(0);
}

/* nrep triads a9 = a0 + s a1; the elapsed seconds per triad */
static inline double EasBenchTriad(EasBenchRef *ref, PetscInt nrep)
{
  const double s = 3.0, *restrict b = ref->a[0], *restrict c = ref->a[1];
  double *restrict a = ref->a[9];
  const PetscInt n   = ref->n;
  double         t0  = MPI_Wtime();
  for (PetscInt r = 0; r < nrep; r++) {
#pragma omp parallel for schedule(static) num_threads(ref->threads)
    for (PetscInt i = 0; i < n; i++) a[i] = b[i] + s * c[i];
  }
  return (MPI_Wtime() - t0) / (double)nrep;
}

/* nrep sums a9 = a0 + ... + a8; the elapsed seconds per sum */
static inline double EasBenchRead9(EasBenchRef *ref, PetscInt nrep)
{
  const double *restrict a0 = ref->a[0], *restrict a1 = ref->a[1], *restrict a2 = ref->a[2], *restrict a3 = ref->a[3], *restrict a4 = ref->a[4];
  const double *restrict a5 = ref->a[5], *restrict a6 = ref->a[6], *restrict a7 = ref->a[7], *restrict a8 = ref->a[8];
  double *restrict y = ref->a[9];
  const PetscInt n   = ref->n;
  double         t0  = MPI_Wtime();
  for (PetscInt r = 0; r < nrep; r++) {
#pragma omp parallel for schedule(static) num_threads(ref->threads)
    for (PetscInt i = 0; i < n; i++) y[i] = a0[i] + a1[i] + a2[i] + a3[i] + a4[i] + a5[i] + a6[i] + a7[i] + a8[i];
  }
  return (MPI_Wtime() - t0) / (double)nrep;
}

/* "yes" when a working set of ws bytes streams from memory (>= 4 x LLC),
   "no" when it may be partly cache-resident; "unknown" when the LLC is
   (never a guessed yes or no) */
static inline const char *EasBenchAtBandwidth(const EasBenchRef *ref, double ws)
{
  if (ref->llc.bytes <= 0) return "unknown";
  return ws >= EAS_BENCH_LLC_FACTOR * ref->llc.bytes ? "yes" : "no";
}

/* ws in LLCs; NAN (printed "nan") when the LLC is unknown */
static inline double EasBenchPerLLC(const EasBenchRef *ref, double ws)
{
  return ref->llc.bytes > 0 ? ws / ref->llc.bytes : NAN;
}

/* The BENCH lines' fields "llc_MB=33.6 llc_from=sysfs" ("llc_MB=unknown llc_from=unknown") */
static inline void EasBenchLLCFields(const EasBenchRef *ref, char *buf, size_t len)
{
  if (ref->llc.bytes > 0)
    snprintf(buf, len, ref->llc.bytes >= 1e6 ? "llc_MB=%.1f llc_from=%s" : "llc_MB=%.3f llc_from=%s", ref->llc.bytes * 1e-6, ref->llc.source);
  else
    snprintf(buf, len, "llc_MB=unknown llc_from=unknown");
}
