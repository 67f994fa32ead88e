static const char help[] = "The device kernels of the EBE operator (docs/ebe.md \"Device kernels\": -ebe_device_layout\n"
                           "warp|lanes, -ebe_warp_rows).  Kind of check: the\n"
                           "CPU loop (another code path: the host layout, one element after the other).  On the\n"
                           "backend under test (-eas_backend /cpu/memcheck: the CUDA kernel's body run in a loop over\n"
                           "(block, thread) or over the lanes of a warp's groups; /gpu/cuda: the kernel) EasEbeMult in every storage, with\n"
                           "the atomic one-launch scatter and with -ebe_deterministic (colour by colour), must give the\n"
                           "result of the same operator on /cpu/serial to 1e-14 relative (max norm), and two\n"
                           "deterministic applies the same bits.  Not the CPU loop's bits: the host bodies' SIMD sums\n"
                           "round in another order (the count of entries that differ is printed).\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction>\n";

#include <eas.h>

static PetscErrorCode Build(PetscInt prob, PetscInt order, PetscInt n, EasEbeStorage st, PetscBool det, EasBackend be, EasEbe *ebe)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, ebe));
  if (be) PetscCall(EasEbeSetBackend(*ebe, be));
  PetscCall(EasEbeSetFromMesh(*ebe, (EasEbeProblem)prob, order, n, n + 1, PetscMax(n + 2, size)));
  PetscCall(EasEbeSetFromOptions(*ebe));
  PetscCall(EasEbeSetStorage(*ebe, st));
  PetscCall(EasEbeSetDeterministic(*ebe, det));
  PetscCall(EasEbeSetUp(*ebe));
  PetscFunctionReturn(0);
}

/* y = A x on ebe, as a PETSc Vec */
static PetscErrorCode Apply(EasEbe ebe, Vec xp, Vec yp)
{
  EasVec x, y;

  PetscFunctionBegin;
  PetscCall(EasEbeCreateVecs(ebe, &x, &y));
  PetscCall(EasEbeVecFromPetsc(ebe, xp, x));
  PetscCall(EasEbeMult(ebe, x, y));
  PetscCall(EasEbeVecToPetsc(ebe, y, yp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscFunctionReturn(0);
}

/* Entries of a and b that differ in any bit (over all ranks). */
static PetscErrorCode CountDifferentBits(Vec a, Vec b, PetscInt *ndiff)
{
  const PetscScalar *pa, *pb;
  PetscInt           n, nd = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetArrayRead(a, &pa));
  PetscCall(VecGetArrayRead(b, &pb));
  for (PetscInt i = 0; i < n; i++)
    if (memcmp(&pa[i], &pb[i], sizeof(PetscScalar))) nd++;
  PetscCall(VecRestoreArrayRead(a, &pa));
  PetscCall(VecRestoreArrayRead(b, &pb));
  PetscCall(MPIU_Allreduce(&nd, ndiff, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)a)));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    prob = 1, order = 2, n = 3, checks = 0;
  EasBackend  cpu;
  EasEbe      ebe;
  Vec         xp, yref, y, y2;
  PetscRandom rnd;
  char        res[64]; /* a copy: the backend, and its resource string, go with each operator */

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "EBE device layout test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[prob], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction (x, y; z has n + 2)", NULL, n, &n, NULL));
  PetscOptionsEnd();
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu/serial", &cpu));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  for (PetscInt s = EAS_EBE_STORAGE_FULL; s <= EAS_EBE_STORAGE_SYMMETRIC_SINGLE; s++) {
    PetscReal ref;
    /* the reference: the CPU loop over the host layout */
    PetscCall(Build(prob, order, n, (EasEbeStorage)s, PETSC_FALSE, cpu, &ebe));
    if (s == EAS_EBE_STORAGE_FULL) {
      Mat A;
      PetscCall(EasEbeAssemble(ebe, &A));
      PetscCall(MatCreateVecs(A, &xp, &yref));
      PetscCall(VecDuplicate(yref, &y));
      PetscCall(VecDuplicate(yref, &y2));
      PetscCall(VecSetRandom(xp, rnd));
      PetscCall(MatDestroy(&A));
    }
    PetscCall(Apply(ebe, xp, yref));
    PetscCall(VecNorm(yref, NORM_INFINITY, &ref));
    PetscCall(EasEbeDestroy(&ebe));
    for (int det = 0; det < 2; det++) {
      PetscReal err;
      PetscInt  nbits;
      PetscCall(Build(prob, order, n, (EasEbeStorage)s, (PetscBool)det, NULL, &ebe)); /* the backend of -eas_backend */
      if (s == EAS_EBE_STORAGE_FULL && det == 0) {
        EasBackend be;
        PetscCall(EasEbeGetBackend(ebe, &be));
        const char *r;
        PetscCall(EasBackendGetResource(be, &r));
        PetscCall(PetscStrncpy(res, r, sizeof(res)));
        PetscCall(EasEbeView(ebe, PETSC_VIEWER_STDOUT_WORLD));
      }
      PetscCall(Apply(ebe, xp, y));
      PetscCall(CountDifferentBits(y, yref, &nbits));
      PetscCall(VecAXPY(y, -1.0, yref));
      PetscCall(VecNorm(y, NORM_INFINITY, &err));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-13s on %s vs the CPU loop: %.2e relative, %" PetscInt_FMT " entries differ in some bit\n", EasEbeStorages[s], det ? "deterministic" : "atomic", res, (double)(err / ref), nbits));
      PetscCheck(err <= 1e-14 * ref, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-ebe_storage %s, %s: the device layout's apply differs from the CPU loop by %g > 1e-14", EasEbeStorages[s], det ? "deterministic" : "atomic", (double)(err / ref));
      if (det) {
        PetscInt nrep;
        PetscCall(Apply(ebe, xp, y));
        PetscCall(Apply(ebe, xp, y2));
        PetscCall(CountDifferentBits(y, y2, &nrep));
        PetscCheck(nrep == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-ebe_storage %s, deterministic: two applies differ in %" PetscInt_FMT " entries", EasEbeStorages[s], nrep);
      }
      checks++;
      PetscCall(EasEbeDestroy(&ebe));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device layout matches the CPU loop (%" PetscInt_FMT " checks)\n", checks));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&yref));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y2));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasBackendDestroy(&cpu));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: q2_elasticity
    nsize: 1 2
    backends: /cpu/memcheck
    args: -problem elasticity -order 2 -n 3
    expect: device layout: warp, 32 lanes per element, element values contiguous, 4 rows in flight; scatter atomic
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: q2_elasticity_lanes
    backends: /cpu/memcheck
    args: -problem elasticity -order 2 -n 3 -ebe_device_layout lanes
    expect: device layout: lanes, a thread per element, elements interleaved in batches of 32; scatter atomic
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: q1_elasticity
    backends: /cpu/memcheck
    args: -problem elasticity -order 1 -n 4 -ebe_warp_rows 8
    expect: device layout: warp, 32 lanes per element, element values contiguous, 8 rows in flight
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: q1_poisson_async
    nsize: 2
    backends: /cpu/memcheck
    args: -problem poisson -order 1 -n 5 -ebe_mode async
    expect: device layout: warp, 8 lanes per element
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: q1_poisson_rows8
    backends: /cpu/memcheck
    # 8-lane groups load 4 rows whatever -ebe_warp_rows says (their whole matrix in two steps); the view says so
    args: -problem poisson -order 1 -n 3 -ebe_warp_rows 8
    expect: device layout: warp, 8 lanes per element, element values contiguous, 4 rows in flight
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: q1_poisson_lanes
    backends: /cpu/memcheck
    args: -problem poisson -order 1 -n 5 -ebe_device_layout lanes
    expect: device layout: lanes
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: gpu
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem elasticity -order 2 -n 6
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: gpu_lanes
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem elasticity -order 2 -n 6 -ebe_device_layout lanes
    expect: device layout matches the CPU loop \(8 checks\)
  test:
    suffix: gpu_q1
    nsize: 1
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem poisson -order 1 -n 7 -ebe_warp_rows 8
    expect: device layout: warp, 8 lanes per element, element values contiguous, 4 rows in flight
    expect: device layout matches the CPU loop \(8 checks\)
TEST*/
