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

  Cache: the last-level cache size is read from sysfs
  (/sys/devices/system/cpu/cpu0/cache/index<k>/{level,type,size}, the
  highest level that is not an instruction cache).  A working set is "at
  bandwidth" (streams from memory) only when it is at least
  EAS_BENCH_LLC_FACTOR times the LLC; the reference arrays are sized so that
  even the triad's 3 arrays are 2 x EAS_BENCH_LLC_FACTOR times the LLC.
*/
#include <petscsys.h>
#include <stdio.h>
#include "core/align.h" /* the arrays start on a cache line, as eas's (EasMallocAligned) */

#define EAS_BENCH_LLC_FACTOR 4.0
#define EAS_BENCH_TRIAD_BYTES 32.0 /* per element, write allocate included */
#define EAS_BENCH_READ9_BYTES 88.0 /* per element, write allocate included */

typedef struct {
  PetscInt n;       /* length of every array */
  int      threads; /* OpenMP threads of the reference kernels */
  double  *a[10];   /* a[0..8] read, a[9] written */
  double   llc;     /* bytes of the last-level cache, 0 when sysfs does not say */
  int      llc_level;
} EasBenchRef;

/* The last-level (highest level, data or unified) cache of cpu0 from sysfs;
 *bytes = 0 when it cannot be read. */
static inline void EasBenchLLC(double *bytes, int *level)
{
  *bytes = 0;
  *level = 0;
  for (int k = 0; k < 16; k++) {
    char   path[128], type[32] = "", size[32] = "";
    int    lev = 0;
    double b;
    char   unit = 0;
    FILE  *f;

    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", k);
    if (!(f = fopen(path, "r"))) break;
    if (fscanf(f, "%d", &lev) != 1) lev = 0;
    fclose(f);
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", k);
    if ((f = fopen(path, "r"))) {
      if (fscanf(f, "%31s", type) != 1) type[0] = 0;
      fclose(f);
    }
    if (!strcmp(type, "Instruction")) continue;
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", k);
    if (!(f = fopen(path, "r"))) continue;
    if (fscanf(f, "%31s", size) != 1) size[0] = 0;
    fclose(f);
    if (sscanf(size, "%lf%c", &b, &unit) < 1) continue;
    if (unit == 'K')
      b *= 1024.0;
    else if (unit == 'M')
      b *= 1024.0 * 1024.0;
    else if (unit == 'G')
      b *= 1024.0 * 1024.0 * 1024.0;
    if (lev > *level) {
      *level = lev;
      *bytes = b;
    }
  }
}

/* Arrays of length n (0: 2 x EAS_BENCH_LLC_FACTOR x LLC / 24 B, at least
   2^22), first touched by the threads that use them. */
static inline PetscErrorCode EasBenchRefCreate(PetscInt n, int threads, EasBenchRef *ref)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(ref, sizeof(*ref)));
  EasBenchLLC(&ref->llc, &ref->llc_level);
  if (n <= 0) n = PetscMax((PetscInt)1 << 22, (PetscInt)(2.0 * EAS_BENCH_LLC_FACTOR * (ref->llc > 0 ? ref->llc : 32.0 * 1024 * 1024) / 24.0));
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
   "no" when it may be partly cache-resident; "?" when the LLC is unknown */
static inline const char *EasBenchAtBandwidth(const EasBenchRef *ref, double ws)
{
  if (ref->llc <= 0) return "?";
  return ws >= EAS_BENCH_LLC_FACTOR * ref->llc ? "yes" : "no";
}
