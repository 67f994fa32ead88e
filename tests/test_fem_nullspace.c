static const char help[] = "Nullspaces of the built-in FEM operators without boundary conditions (issue 15 item 1):\n"
                           "the assembled operator (PETSc MatMult) and the EBE apply annihilate the constants (poisson) or the six\n"
                           "rigid-body modes (elasticity) to round-off, and one element matrix is symmetric positive semi-definite with\n"
                           "exactly that nullspace (eigenvalues by LAPACK syev).\n"
                           "  -problem poisson|elasticity -order 1|2 -n <elements per direction> -distort <amp> (perturbed interior vertices)\n"
                           "  -material varying|constant -tol <round-off bound, relative>\n";

#include <eas.h>
#include <petscblaslapack.h>
#include "fem_distort.h"

/* nullspace vector k at node coordinates x: poisson 1; elasticity k < 3 the
   translation e_k, k >= 3 the rotation e_(k-3) x (x - c) */
static void NullMode(PetscInt dof, PetscInt k, const PetscReal x[3], PetscScalar v[])
{
  const PetscReal c[3] = {0.5, 0.5, 0.5}, r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
  if (dof == 1) {
    v[0] = 1;
    return;
  }
  v[0] = v[1] = v[2] = 0;
  if (k < 3)
    v[k] = 1;
  else {
    const PetscInt a = k - 3, b = (a + 1) % 3, d = (a + 2) % 3; /* e_a x r: component b = -r_d, component d = r_b */
    v[b] = -r[d];
    v[d] = r[b];
  }
}

int main(int argc, char **argv)
{
  EasEbe           ebe;
  Mat              A;
  Vec              z, Az;
  EasVec           ze, Aze;
  PetscInt         prob = 0, order = 1, n = 3, mat = 0, nmodes, nel, nen, dof, nnodes, nown, m;
  PetscReal        tol = 1e-13, anorm, worst_mat = 0, worst_ebe = 0;
  FemDistort       D;
  const PetscReal *xyz;
  PetscMPIInt      size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  D.amp    = 0;
  D.curved = 0;
  D.mirror = PETSC_FALSE;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FEM nullspace test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-n", "elements per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsEList("-material", "varying or constant", NULL, EasEbeMaterials, 2, EasEbeMaterials[0], &mat, NULL));
  PetscCall(PetscOptionsReal("-distort", "interior vertices moved by up to this fraction of h", NULL, D.amp, &D.amp, NULL));
  PetscCall(PetscOptionsReal("-tol", "relative round-off bound", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  D.order = order;
  D.n[0] = D.n[1] = n;
  D.n[2]          = PetscMax(n, size);

  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_NONE));
  PetscCall(EasEbeSetMeshMaterial(ebe, (EasEbeMaterial)mat));
  if (D.amp > 0) PetscCall(EasEbeSetMeshMap(ebe, FemDistortMap, &D));
  PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, D.n[0], D.n[1], D.n[2]));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetSizes(ebe, &nel, &nen, &dof, &nnodes, &nown));
  PetscCall(EasEbeGetNodeCoordinates(ebe, &xyz));
  m      = nen * dof;
  nmodes = dof == 1 ? 1 : 6;

  /* 1. assembled operator and EBE apply: ||A z||_inf / (||A||_inf ||z||_inf) */
  PetscCall(EasEbeAssemble(ebe, &A));
  PetscCall(MatNorm(A, NORM_INFINITY, &anorm));
  PetscCall(MatCreateVecs(A, &z, &Az));
  PetscCall(EasEbeCreateVecs(ebe, &ze, &Aze));
  for (PetscInt k = 0; k < nmodes; k++) {
    PetscScalar *za;
    PetscReal    zn, r;
    PetscCall(EasVecGetArrayWrite(ze, &za));
    for (PetscInt i = 0; i < nnodes; i++) NullMode(dof, k, xyz + 3 * i, za + i * dof);
    PetscCall(EasVecRestoreArrayWrite(ze, &za));
    PetscCall(EasEbeVecToPetsc(ebe, ze, z));
    PetscCall(VecNorm(z, NORM_INFINITY, &zn));
    PetscCall(MatMult(A, z, Az));
    PetscCall(VecNorm(Az, NORM_INFINITY, &r));
    worst_mat = PetscMax(worst_mat, r / (anorm * zn));
    PetscCall(EasEbeMult(ebe, ze, Aze));
    PetscCall(EasEbeVecToPetsc(ebe, Aze, Az));
    PetscCall(VecNorm(Az, NORM_INFINITY, &r));
    worst_ebe = PetscMax(worst_ebe, r / (anorm * zn));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT " %s material%s, no boundary conditions: %" PetscInt_FMT " nullspace mode(s), max ||A z||/(||A|| ||z||) = %.2e (assembled), %.2e (EBE)\n", EasEbeProblems[prob], order, EasEbeMaterials[mat], D.amp > 0 ? ", distorted mesh" : "", nmodes, (double)worst_mat, (double)worst_ebe));
  PetscCheck(worst_mat <= tol && worst_ebe <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The operator does not annihilate its nullspace: %.3e (assembled), %.3e (EBE) > %.1e", (double)worst_mat, (double)worst_ebe, (double)tol);

  /* 2. eigenvalues of one element matrix (the middle local element: interior and distorted) */
  {
    PetscScalar *K, *work;
    PetscReal   *lam, amax = 0, asym = 0, lmax, zerotol, lmin_pos = PETSC_MAX_REAL, lmin = PETSC_MAX_REAL;
    PetscInt     nodes[27], e = nel / 2, nzero = 0;
    PetscBLASInt bm, lwork, info;
    PetscReal   *rwork = NULL;

    PetscCall(PetscMalloc3(m * m, &K, m, &lam, 10 * m, &work));
    PetscCall(EasEbeGetElement(ebe, e, nodes, K));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < m; j++) {
        amax = PetscMax(amax, PetscAbsScalar(K[i * m + j]));
        asym = PetscMax(asym, PetscAbsScalar(K[i * m + j] - K[j * m + i]));
      }
    PetscCheck(asym <= 1e-14 * amax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT " is not symmetric: %.3e", e, (double)(asym / amax));
    /* the element's nullspace modes are annihilated */
    for (PetscInt k = 0; k < nmodes; k++) {
      PetscScalar v[81], r = 0;
      for (PetscInt a = 0; a < nen; a++) NullMode(dof, k, xyz + 3 * nodes[a], v + a * dof);
      for (PetscInt i = 0; i < m; i++) {
        PetscScalar s = 0;
        for (PetscInt j = 0; j < m; j++) s += K[i * m + j] * v[j];
        r = PetscMax(r, PetscAbsScalar(s));
      }
      PetscCheck(r <= tol * amax * 10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT " does not annihilate mode %" PetscInt_FMT ": %.3e", e, k, (double)(r / amax));
    }
    PetscCall(PetscBLASIntCast(m, &bm));
    PetscCall(PetscBLASIntCast(10 * m, &lwork));
    PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "U", &bm, K, &bm, lam, work, &lwork, &info));
    (void)rwork;
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev failed: info %d", (int)info);
    lmax    = lam[m - 1];
    zerotol = 1e-12 * lmax;
    for (PetscInt i = 0; i < m; i++) {
      lmin = PetscMin(lmin, lam[i]);
      if (PetscAbsReal(lam[i]) <= zerotol)
        nzero++;
      else
        lmin_pos = PetscMin(lmin_pos, lam[i]);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "element %" PetscInt_FMT " (%" PetscInt_FMT "x%" PetscInt_FMT "): symmetric to %.1e, eigenvalues in [%.3e, %.3e] x lambda_max; %" PetscInt_FMT " zero (|lambda| <= 1e-12 lambda_max), smallest nonzero %.3e lambda_max\n", e, m, m, (double)(asym / amax), (double)(lmin / lmax), (double)1.0, nzero, (double)(lmin_pos / lmax)));
    PetscCheck(lmin >= -zerotol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT " is not positive semi-definite: eigenvalue %.3e lambda_max", e, (double)(lmin / lmax));
    PetscCheck(nzero == nmodes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT " has %" PetscInt_FMT " zero eigenvalues, expected %" PetscInt_FMT " (%s)", e, nzero, nmodes, dof == 1 ? "constants" : "rigid-body modes");
    PetscCheck(lmin_pos >= 1e-6 * lmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element %" PetscInt_FMT ": smallest nonzero eigenvalue %.3e lambda_max is not separated from zero", e, (double)(lmin_pos / lmax));
    PetscCall(PetscFree3(K, lam, work));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nullspace check passed\n"));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&Az));
  PetscCall(MatDestroy(&A));
  PetscCall(EasVecDestroy(&ze));
  PetscCall(EasVecDestroy(&Aze));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2
    backends: /cpu/serial
    args: -problem poisson -order 1 -n 3 -distort 0.2
    expect: 1 nullspace mode\(s\)
    expect: 1 zero
    expect: nullspace check passed
  test:
    suffix: poisson_q2
    backends: /cpu/serial
    args: -problem poisson -order 2 -n 2 -distort 0.2
    expect: nullspace check passed
  test:
    suffix: elasticity_q1
    nsize: 1 2
    backends: /cpu/serial
    args: -problem elasticity -order 1 -n 3 -distort 0.2
    expect: 6 nullspace mode\(s\)
    expect: 6 zero
    expect: nullspace check passed
  test:
    suffix: elasticity_q2
    nsize: 1 2
    backends: /cpu/serial
    args: -problem elasticity -order 2 -n 2 -distort 0.2
    expect: 6 zero
    expect: nullspace check passed
  test:
    suffix: box
    backends: all
    args: -problem elasticity -order 2 -n 2 -material constant
    expect: nullspace check passed
TEST*/
