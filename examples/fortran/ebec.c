static const char help[] = "ebec: the C counterpart of ebef.F90 (the element-by-element operator, the same calls, the same result lines).\n";
/*
  The calls of examples/fortran/ebef.F90 in C: its "result" lines must match
  these to 1e-12 (tests/test_fortran.py).
*/
#include <eas.h>

static PetscErrorCode Result(const char *name, PetscReal v)
{
  return PetscPrintf(PETSC_COMM_WORLD, "result %s %.16e\n", name, (double)v);
}

static PetscErrorCode ResultInt(const char *name, PetscInt v)
{
  return PetscPrintf(PETSC_COMM_WORLD, "result %s %" PetscInt_FMT "\n", name, v);
}

int main(int argc, char **argv)
{
  EasEbe             chain, mesh;
  EasKsp             ksp;
  EasVec             b, x;
  EasEnergyMeter     meter;
  EasEbeFieldFn      u, f;
  void              *ctx;
  KSPConvergedReason reason;
  PetscInt           ne = 40, its, order = 1, n = 6, *conn, nel, nen, dof, nnodes, nowned;
  PetscScalar       *ael, *ba;
  const PetscScalar *xa;
  PetscReal          h, rnorm, err[2], nrm[2], s = 0, ws = 0;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  /* 1. the program's elements */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-chain_n", &ne, NULL));
  h = 1.0 / ne;
  PetscCall(PetscMalloc2(2 * ne, &conn, 4 * ne, &ael));
  for (PetscInt e = 0; e < ne; e++) {
    conn[2 * e]     = e;
    conn[2 * e + 1] = e + 1;
    ael[4 * e]      = 1.0 / h + 2.0 * h / 6.0;
    ael[4 * e + 1]  = -1.0 / h + h / 6.0;
    ael[4 * e + 2]  = -1.0 / h + h / 6.0;
    ael[4 * e + 3]  = 1.0 / h + 2.0 * h / 6.0;
  }
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &chain));
  PetscCall(EasEbeSetElements(chain, ne, 2, 1, ne + 1, conn, ael));
  PetscCall(EasEbeSetUp(chain));
  PetscCall(EasEbeCreateVecs(chain, &b, &x));
  PetscCall(EasVecGetArray(b, &ba));
  for (PetscInt i = 0; i <= ne; i++) ba[i] = 1.0;
  PetscCall(EasVecRestoreArray(b, &ba));
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetPCType(ksp, EAS_PCJACOBI));
  PetscCall(EasKspSetTolerances(ksp, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EasKspSetOperatorEbe(ksp, chain));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetIterationNumber(ksp, &its));
  PetscCall(EasKspGetResidualNorm(ksp, &rnorm));
  PetscCall(EasVecGetArrayRead(x, &xa));
  for (PetscInt i = 0; i <= ne; i++) {
    s += xa[i];
    ws += xa[i] * (i + 1);
  }
  PetscCall(EasVecRestoreArrayRead(x, &xa));
  PetscCall(ResultInt("chain_its", its));
  PetscCall(Result("chain_rnorm", rnorm));
  PetscCall(Result("chain_sum", s));
  PetscCall(Result("chain_weighted_sum", ws));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasEbeDestroy(&chain));
  PetscCall(PetscFree2(conn, ael));
  /* 2. the built-in mesh and its manufactured solution */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mesh_order", &order, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mesh_n", &n, NULL));
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &mesh));
  PetscCall(EasEbeSetFromMesh(mesh, EAS_EBE_POISSON, order, n, n, n));
  PetscCall(EasEbeSetFromOptions(mesh));
  PetscCall(EasEbeSetUp(mesh));
  PetscCall(EasEbeGetSizes(mesh, &nel, &nen, &dof, &nnodes, &nowned));
  PetscCall(EasEbeCreateVecs(mesh, &b, &x));
  PetscCall(EasEbeGetManufacturedSolution(mesh, &u, &f, &ctx));
  PetscCall(EasEbeComputeRHS(mesh, f, u, ctx, b));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetTolerances(ksp, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EasKspSetOperatorEbe(ksp, mesh));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(EasKspGetIterationNumber(ksp, &its));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCall(EasEbeComputeError(mesh, x, u, ctx, err, nrm));
  PetscCall(ResultInt("mesh_nen", nen));
  PetscCall(ResultInt("mesh_its", its));
  PetscCall(ResultInt("mesh_reason", (PetscInt)reason));
  PetscCall(Result("mesh_err_l2", err[0]));
  PetscCall(Result("mesh_err_energy", err[1]));
  PetscCall(Result("mesh_norm_l2", nrm[0]));
  PetscCall(EasEbeGetEnergyMeter(mesh, &meter));
  PetscCall(EasEnergyMeterViewFromOptions(meter));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasEbeDestroy(&mesh));
  PetscCall(EasFinalize());
  return 0;
}
