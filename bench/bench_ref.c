static const char help[] = "The benchmarks' bandwidth reference alone (bench/bandwidth.h), on every rank at once: each rank\n"
                           "runs read9 (9 read streams, 1 write: the DIA SpMV's access shape) and the triad on arrays of\n"
                           "its own with -threads threads; the aggregate GB/s is the bytes of all ranks over the slowest\n"
                           "rank's time (write allocate counted).  For scripts that time programs they do not own, such as\n"
                           "bench/petsc_tutorials.py: run it beside them, alternately, with the same ranks and threads.\n"
                           "  -threads <t> -runs <timings, median> -reps <sweeps per timing> -stream_n <doubles per rank>\n";

#include <eas.h>
#include "bandwidth.h"

int main(int argc, char **argv)
{
  PetscInt    threads = 1, runs = 5, reps = 5, stream_n = 0;
  PetscMPIInt size;
  EasBenchRef ref;
  double     *t9, *t3, t, tmax, bytes9, bytes3, m9, m3;
  char        llc_fields[64];

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_ref", NULL);
  PetscCall(PetscOptionsInt("-threads", "OpenMP threads per rank", NULL, threads, &threads, NULL));
  PetscCall(PetscOptionsInt("-runs", "timings (median)", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-reps", "sweeps per timing", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-stream_n", "length of each rank's arrays (0: the triad's 3 arrays = 8 x the LLC)", NULL, stream_n, &stream_n, NULL));
  PetscOptionsEnd();
  PetscCheck(threads >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-threads %" PetscInt_FMT " is invalid: expected at least 1", threads);
  PetscCheck(runs >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-runs %" PetscInt_FMT " is invalid: expected at least 1", runs);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT " is invalid: expected at least 1", reps);
  PetscCheck(stream_n >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-stream_n %" PetscInt_FMT " is invalid: expected 0 (sized from the LLC) or a length", stream_n);
  PetscCall(EasBenchRefCreate(stream_n, (int)threads, &ref));
  PetscCall(PetscMalloc2(runs, &t9, runs, &t3));
  bytes9 = EAS_BENCH_READ9_BYTES * (double)ref.n * size; /* every rank's arrays, write allocate included */
  bytes3 = EAS_BENCH_TRIAD_BYTES * (double)ref.n * size;
  (void)EasBenchRead9(&ref, 1); /* first touch of the written array done at creation; one sweep to settle */
  for (PetscInt r = 0; r < runs; r++) {
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    t = EasBenchRead9(&ref, reps);
    PetscCall(MPIU_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
    t9[r] = bytes9 / tmax * 1e-9;
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    t = EasBenchTriad(&ref, reps);
    PetscCall(MPIU_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
    t3[r] = bytes3 / tmax * 1e-9;
  }
  EasBenchLLCFields(&ref, llc_fields, sizeof(llc_fields));
  m9 = EasBenchMedian(runs, t9); /* sorts t9: its ends are the range */
  m3 = EasBenchMedian(runs, t3);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=reference np=%d threads=%" PetscInt_FMT " n_per_rank=%" PetscInt_FMT " read9_GBs=%.2f triad_GBs=%.2f range_read9_GBs=%.2f..%.2f runs=%" PetscInt_FMT " %s ws_MB_per_rank=%.1f at_bandwidth=%s\n", size, threads, ref.n, m9, m3, t9[0], t9[runs - 1], runs, llc_fields, 80.0 * ref.n * 1e-6, EasBenchAtBandwidth(&ref, 80.0 * ref.n)));
  PetscCall(PetscFree2(t9, t3));
  PetscCall(EasBenchRefDestroy(&ref));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: smoke
    nsize: 1 2
    backends: none
    args: -runs 3 -reps 2 -stream_n 200000 -bench_llc_mb 32
    expect: ^BENCH name=reference np=[12] threads=1 n_per_rank=200000 read9_GBs=[0-9.]+ triad_GBs=[0-9.]+ range_read9_GBs=[0-9.]+\.\.[0-9.]+ runs=3 llc_MB=32.0 llc_from=option ws_MB_per_rank=[0-9.]+ at_bandwidth=no
  test:
    suffix: bad_runs
    backends: none
    args: -runs 0
    expect_error: -runs 0 is invalid: expected at least 1
TEST*/
