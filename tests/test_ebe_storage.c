static const char help[] = "EBE element storage (-ebe_storage full|symmetric|single|symmetric_single).  Kind of check:\n"
                           "peer code.  For every storage, EasEbeMult against PETSc MatMult of the assembled AIJ matrix\n"
                           "(made from the full double element matrices): 1e-14 relative for full and symmetric, 1e-6 for\n"
                           "the float storages; then eas cg + Jacobi to rtol 1e-8 with each storage must take the\n"
                           "iterations of full storage +-2% (at least +-1).  The default storage of symmetric elements\n"
                           "is symmetric on every backend (the same bodies on the CPU, /cpu/memcheck and CUDA).\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction>\n";

#include <eas.h>
#include "backends/kernels.h" /* EAS_EBE_LANES: the device layout's batches */

static PetscErrorCode Build(PetscInt prob, PetscInt order, PetscInt n, PetscInt st, EasEbe *ebe)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, ebe));
  PetscCall(EasEbeSetFromMesh(*ebe, (EasEbeProblem)prob, order, n, n + 1, PetscMax(n, size)));
  PetscCall(EasEbeSetFromOptions(*ebe));
  if (st >= 0) PetscCall(EasEbeSetStorage(*ebe, (EasEbeStorage)st));
  PetscCall(EasEbeSetUp(*ebe));
  PetscFunctionReturn(0);
}

static PetscErrorCode CgIterations(EasEbe ebe, Vec bp, PetscInt *its)
{
  EasKsp             ksp;
  EasVec             b, x;
  KSPConvergedReason r;

  PetscFunctionBegin;
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasEbeVecFromPetsc(ebe, bp, b));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 5000));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetConvergedReason(ksp, &r));
  PetscCheck(r > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "cg did not converge: %s", KSPConvergedReasons[r]);
  PetscCall(EasKspGetIterationNumber(ksp, its));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt       prob = 1, order = 2, n = 3, its_full = 0;
  EasEbe         ebe;
  EasEbeStorage  st;
  Mat            A;
  Vec            xp, yp, yq, bp;
  PetscRandom    rnd;
  EasBackend     be;
  PetscBool      host;
  const char    *res;
  PetscLogDouble htod_full = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "EBE storage test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[prob], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscOptionsEnd();
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  /* the default storage of the (symmetric) built-in problems */
  PetscCall(Build(prob, order, n, -1, &ebe));
  PetscCall(EasEbeGetStorage(ebe, &st));
  PetscCall(EasEbeGetBackend(ebe, &be));
  PetscCall(EasBackendIsHost(be, &host));
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "default storage on %s (%s memory): %s\n", res, host ? "host" : "device", EasEbeStorages[st]));
  PetscCheck(st == EAS_EBE_STORAGE_SYMMETRIC, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "default storage %s, expected symmetric", EasEbeStorages[st]);
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatCreateVecs(A, &xp, &yp));
  PetscCall(VecDuplicate(yp, &yq));
  PetscCall(VecDuplicate(yp, &bp));
  PetscCall(VecSet(bp, 1.0));
  PetscCall(VecSetRandom(xp, rnd));
  PetscCall(MatMult(A, xp, yp));
  PetscCall(EasEbeDestroy(&ebe));

  for (PetscInt s = EAS_EBE_STORAGE_FULL; s <= EAS_EBE_STORAGE_SYMMETRIC_SINGLE; s++) {
    const PetscReal tol = (s == EAS_EBE_STORAGE_SINGLE || s == EAS_EBE_STORAGE_SYMMETRIC_SINGLE) ? 1e-6 : 1e-14;
    EasVec          x, y;
    PetscReal       err, ref;
    PetscInt        its;
    PetscCall(Build(prob, order, n, s, &ebe));
    if (!host) { /* device backends: SetUp uploads the storage's values besides the full matrices.  Layout lanes: nel padded to batches of EAS_EBE_LANES (the full storage too), npad x (m^2 or m(m+1)/2) x (8 or 4) bytes, so each storage copies that minus full's; layout warp (the host layout): nel x the storage's bytes, and the full storage reads the full matrices (nothing more) */
      PetscLogDouble     htod, extra, vb;
      PetscInt           nel, nen, dof, m, npad;
      EasBackend         bs;
      EasEbeDeviceLayout lay;
      PetscCall(EasEbeGetBackend(ebe, &bs));
      PetscCall(EasBackendGetTransferBytes(bs, &htod, NULL));
      PetscCall(EasEbeGetSizes(ebe, &nel, &nen, &dof, NULL, NULL));
      PetscCall(EasEbeGetDeviceLayout(ebe, &lay));
      m     = nen * dof;
      vb    = (s == EAS_EBE_STORAGE_SYMMETRIC || s == EAS_EBE_STORAGE_SYMMETRIC_SINGLE ? 0.5 * m * (m + 1) : (double)m * m) * (s == EAS_EBE_STORAGE_SINGLE || s == EAS_EBE_STORAGE_SYMMETRIC_SINGLE ? 4.0 : 8.0);
      npad  = (nel + EAS_EBE_LANES - 1) / EAS_EBE_LANES * EAS_EBE_LANES;
      extra = lay == EAS_EBE_DEVICE_LAYOUT_LANES ? (PetscLogDouble)npad * (vb - 8.0 * m * m) : (s == EAS_EBE_STORAGE_FULL ? 0.0 : (PetscLogDouble)nel * vb);
      if (s == EAS_EBE_STORAGE_FULL) htod_full = htod;
      PetscCheck(htod - htod_full == extra, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ebe_storage %s: SetUp copied %.0f bytes to the backend, full storage %.0f: expected %.0f more", EasEbeStorages[s], (double)htod, (double)htod_full, (double)extra);
    }
    PetscCall(EasEbeCreateVecs(ebe, &x, &y));
    PetscCall(EasEbeVecFromPetsc(ebe, xp, x));
    PetscCall(EasEbeMult(ebe, x, y));
    PetscCall(EasEbeVecToPetsc(ebe, y, yq));
    PetscCall(VecAXPY(yq, -1.0, yp));
    PetscCall(VecNorm(yq, NORM_INFINITY, &err));
    PetscCall(VecNorm(yp, NORM_INFINITY, &ref));
    PetscCall(CgIterations(ebe, bp, &its));
    if (s == EAS_EBE_STORAGE_FULL) its_full = its;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s apply vs MatMult %.2e (tol %.0e), cg %" PetscInt_FMT " its (full %" PetscInt_FMT ")\n", EasEbeStorages[s], (double)(err / ref), (double)tol, its, its_full));
    PetscCheck(err <= tol * ref, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-ebe_storage %s: apply differs from MatMult by %g > %g", EasEbeStorages[s], (double)(err / ref), (double)tol);
    PetscCheck(PetscAbsInt(its - its_full) <= PetscMax(1, (PetscInt)(0.02 * its_full)), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "-ebe_storage %s: cg took %" PetscInt_FMT " iterations, full %" PetscInt_FMT, EasEbeStorages[s], its, its_full);
    PetscCall(EasVecDestroy(&x));
    PetscCall(EasVecDestroy(&y));
    PetscCall(EasEbeDestroy(&ebe));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "EBE storages match\n"));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&yp));
  PetscCall(VecDestroy(&yq));
  PetscCall(VecDestroy(&bp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: q2_elasticity
    nsize: 1 2
    args: -problem elasticity -order 2 -n 3
    expect: EBE storages match
  test:
    suffix: q1_poisson
    nsize: 1 4
    args: -problem poisson -order 1 -n 6
    expect: EBE storages match
  test:
    suffix: async
    nsize: 2
    backends: /cpu/openmp /cpu/memcheck
    args: -problem elasticity -order 1 -n 4 -ebe_mode async
    expect: EBE storages match
  test:
    suffix: split
    nsize: 1
    backends: /cpu/openmp
    args: -problem poisson -order 2 -n 3 -ebe_split_units /cpu:1,/cpu:1
    expect: EBE storages match
  test:
    suffix: split_memcheck
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem elasticity -order 2 -n 3 -ebe_split_units /cpu/memcheck,/cpu:1 -ebe_gpu_share 0.5
    expect: EBE storages match
  test:
    suffix: gpu
    nsize: 1 2
    backends: /gpu/cuda
    requires: cuda-device
    args: -problem elasticity -order 2 -n 3
    expect: default storage on /gpu/cuda \(device memory\): symmetric
    expect: EBE storages match
  test:
    suffix: split_gpu
    nsize: 1
    backends: /cpu/openmp
    requires: cuda-device
    args: -problem poisson -order 2 -n 3 -ebe_split_units /gpu/cuda,/cpu:1 -ebe_gpu_share 0.5
    expect: EBE storages match
TEST*/
