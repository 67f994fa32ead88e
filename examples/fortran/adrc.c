static const char help[] = "adrc: the C counterpart of adrf.F90 (the ADR solver, the same calls, the same result lines).\n";
/*
  The calls of examples/fortran/adrf.F90 in C: its "result" lines must match
  these to 1e-12 (tests/test_fortran.py).
*/
#include <eas.h>
#include <petscdmda.h>

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
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;
  EasEnergyMeter        meter;
  DM                    dm;
  Vec                   X, W;
  PetscInt              xs, ys, zs, nxl, nyl, nzl, n, lo, hi, npts, nglob, inner;
  PetscReal             t, loc[3] = {0, 0, 0}, glob[3], n1, n2;
  PetscScalar           wsum, *wa;
  const PetscScalar    *sol;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrGetLocalGrid(adr, &xs, &ys, &zs, &nxl, &nyl, &nzl));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCall(EasAdrGetTime(adr, &t));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(EasAdrGetLocalSolution(adr, &sol, &n));
  for (PetscInt i = 0; i < n; i += 2) loc[0] += sol[i];
  for (PetscInt i = 1; i < n; i += 2) loc[1] += sol[i];
  for (PetscInt i = 0; i < n; i++) loc[2] += sol[i] * sol[i];
  PetscCall(MPIU_Allreduce(loc, glob, 3, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  npts = nxl * nyl * nzl;
  PetscCall(MPIU_Allreduce(&npts, &nglob, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(&st.inner_its, &inner, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(EasAdrGetDM(adr, &dm));
  PetscCall(DMDACreateNaturalVector(dm, &X));
  PetscCall(EasAdrGetSolutionNatural(adr, X));
  PetscCall(VecNorm(X, NORM_1, &n1));
  PetscCall(VecNorm(X, NORM_2, &n2));
  PetscCall(VecDuplicate(X, &W));
  PetscCall(VecGetOwnershipRange(W, &lo, &hi));
  PetscCall(VecGetArray(W, &wa));
  for (PetscInt i = lo; i < hi; i++) wa[i - lo] = (PetscReal)(i + 1) / (PetscReal)(2 * nglob);
  PetscCall(VecRestoreArray(W, &wa));
  PetscCall(VecDot(X, W, &wsum));
  PetscCall(ResultInt("reason", (PetscInt)reason));
  PetscCall(ResultInt("steps", st.steps));
  PetscCall(ResultInt("outer_its_max", st.outer_its_max));
  PetscCall(ResultInt("inner_its_max", inner));
  PetscCall(Result("t", t));
  PetscCall(Result("sum_c1", glob[0]));
  PetscCall(Result("sum_c2", glob[1]));
  PetscCall(Result("sum_sq", glob[2]));
  PetscCall(Result("natural_norm1", n1));
  PetscCall(Result("natural_norm2", n2));
  PetscCall(Result("natural_weighted_sum", wsum));
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  PetscCall(EasEnergyMeterViewFromOptions(meter));
  PetscCall(VecDestroy(&W));
  PetscCall(VecDestroy(&X));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}
