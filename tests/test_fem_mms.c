static const char help[] = "Convergence orders of the built-in elements against the manufactured solution (issue 15 item 3):\n"
                           "the smooth solution of EasEbeGetManufacturedSolution (Dirichlet data on the whole boundary and the body\n"
                           "force from it; varying material) is solved on a sequence of meshes with eas cg; the L2 and energy-norm\n"
                           "errors (Gauss quadrature with order+3 points) must fall at the orders of the element: L2 ~ h^(p+1),\n"
                           "energy ~ h^p.  The check is a manufactured solution.\n"
                           "  -problem poisson|elasticity -order 1|2 -n n1,n2,... (elements per direction of each mesh)\n"
                           "  -material varying|constant -order_tol <allowed shortfall of the observed orders>\n";

#include <eas.h>

#define MAXMESH 8

int main(int argc, char **argv)
{
  PetscInt    prob = 0, order = 1, mat = 0, nm = MAXMESH, n[MAXMESH] = {2, 4, 8};
  PetscReal   otol = 0.15, e[MAXMESH][2], h[MAXMESH], omin[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL};
  PetscBool   set;
  PetscMPIInt size;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FEM convergence test", NULL);
  PetscCall(PetscOptionsEList("-problem", "poisson or elasticity", NULL, EasEbeProblems, 2, EasEbeProblems[0], &prob, NULL));
  PetscCall(PetscOptionsInt("-order", "1 or 2", NULL, order, &order, NULL));
  PetscCall(PetscOptionsIntArray("-n", "elements per direction of each mesh", NULL, n, &nm, &set));
  PetscCall(PetscOptionsEList("-material", "varying or constant", NULL, EasEbeMaterials, 2, EasEbeMaterials[0], &mat, NULL));
  PetscCall(PetscOptionsReal("-order_tol", "allowed shortfall of the observed orders", NULL, otol, &otol, NULL));
  PetscOptionsEnd();
  if (!set) nm = 3;
  PetscCheck(nm >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-n: expected at least two meshes");
  for (PetscInt s = 1; s < nm; s++) PetscCheck(n[s] > n[s - 1], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-n: expected growing meshes, got %" PetscInt_FMT " after %" PetscInt_FMT, n[s], n[s - 1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s Q%" PetscInt_FMT ", %s material, manufactured solution, Dirichlet data on the whole boundary\n", EasEbeProblems[prob], order, EasEbeMaterials[mat]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%5s %9s %5s %12s %7s %12s %7s\n", "n", "unknowns", "its", "L2 err", "order", "energy err", "order"));
  for (PetscInt s = 0; s < nm; s++) {
    EasEbe             ebe;
    EasKsp             ksp;
    EasVec             b, x;
    EasEbeFieldFn      u, f;
    void              *ctx;
    PetscInt           its, nz = PetscMax(n[s], size), dof;
    PetscReal          nrm[2];
    KSPConvergedReason reason;

    PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
    PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_DIRICHLET));
    PetscCall(EasEbeSetMeshMaterial(ebe, (EasEbeMaterial)mat));
    PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n[s], n[s], nz));
    PetscCall(EasEbeSetFromOptions(ebe));
    PetscCall(EasEbeSetUp(ebe));
    PetscCall(EasEbeGetSizes(ebe, NULL, NULL, &dof, NULL, NULL));
    PetscCall(EasEbeCreateVecs(ebe, &b, &x));
    PetscCall(EasEbeGetManufacturedSolution(ebe, &u, &f, &ctx));
    PetscCall(EasEbeComputeRHS(ebe, f, u, ctx, b));
    PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(EasKspSetType(ksp, EAS_CG));
    PetscCall(EasKspSetOperatorEbe(ksp, ebe));
    PetscCall(EasKspSetTolerances(ksp, 1e-12, 0, PETSC_DEFAULT, 10000));
    PetscCall(EasKspSetFromOptions(ksp));
    PetscCall(EasKspSolve(ksp, b, x));
    PetscCall(EasKspGetConvergedReason(ksp, &reason));
    PetscCall(EasKspGetIterationNumber(ksp, &its));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "cg did not converge on mesh %" PetscInt_FMT ": %s", n[s], KSPConvergedReasons[reason]);
    PetscCall(EasEbeComputeError(ebe, x, u, ctx, e[s], nrm));
    h[s] = 1.0 / n[s];
    if (s == 0)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%5" PetscInt_FMT " %9" PetscInt_FMT " %5" PetscInt_FMT " %12.4e %7s %12.4e %7s\n", n[s], (order * n[s] + 1) * (order * n[s] + 1) * (order * nz + 1) * dof, its, (double)e[s][0], "", (double)e[s][1], ""));
    else {
      PetscReal o[2];
      for (PetscInt k = 0; k < 2; k++) {
        o[k]    = PetscLogReal(e[s - 1][k] / e[s][k]) / PetscLogReal(h[s - 1] / h[s]);
        omin[k] = PetscMin(omin[k], o[k]);
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%5" PetscInt_FMT " %9" PetscInt_FMT " %5" PetscInt_FMT " %12.4e %7.3f %12.4e %7.3f\n", n[s], (order * n[s] + 1) * (order * n[s] + 1) * (order * nz + 1) * dof, its, (double)e[s][0], (double)o[0], (double)e[s][1], (double)o[1]));
    }
    PetscCall(EasVecDestroy(&b));
    PetscCall(EasVecDestroy(&x));
    PetscCall(EasKspDestroy(&ksp));
    PetscCall(EasEbeDestroy(&ebe));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lowest observed orders: L2 %.3f (expected %" PetscInt_FMT "), energy %.3f (expected %" PetscInt_FMT ")\n", (double)omin[0], order + 1, (double)omin[1], order));
  PetscCheck(omin[0] >= order + 1 - otol && omin[1] >= order - otol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Convergence orders below the element's: L2 %.3f < %.2f or energy %.3f < %.2f", (double)omin[0], (double)(order + 1 - otol), (double)omin[1], (double)(order - otol));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "convergence orders passed\n"));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem poisson -order 1 -n 4,8,16
    expect: convergence orders passed
  test:
    suffix: poisson_q2
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem poisson -order 2 -n 2,4,8
    expect: convergence orders passed
  test:
    suffix: elasticity_q1
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem elasticity -order 1 -n 4,8,16 -pc_type pbjacobi
    expect: convergence orders passed
  test:
    suffix: elasticity_q2
    nsize: 1 2
    backends: /cpu/openmp
    args: -problem elasticity -order 2 -n 2,4,8 -pc_type pbjacobi
    expect: convergence orders passed
TEST*/
