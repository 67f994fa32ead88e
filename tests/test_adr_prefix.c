static const char help[] = "EasAdrSetOptionsPrefix: two ADR solvers in one program read their own options (-a_adr_*, -b_adr_*),\n"
                           "and neither reads the unprefixed ones.  The grids each reports (EasAdrGetGrid) must be the ones\n"
                           "given under its prefix, and a solve of each must converge.\n";

#include <eas.h>

static PetscErrorCode Check(const char prefix[], PetscInt n_expected)
{
  EasAdr                adr;
  PetscInt              nx, ny, nz;
  EasAdrConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetOptionsPrefix(adr, prefix));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrGetGrid(adr, &nx, &ny, &nz));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "prefix %s: grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "\n", prefix, nx, ny, nz));
  PetscCheck(nx == n_expected && ny == n_expected && nz == n_expected, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "prefix %s: grid %" PetscInt_FMT "^3 read, expected %" PetscInt_FMT "^3 (-%sadr_n)", prefix, nx, n_expected, prefix);
  PetscCall(EasAdrSetMaxSteps(adr, 1));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "prefix %s: %s", prefix, EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(Check("a_", 5));
  PetscCall(Check("b_", 7));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "each solver read its own options\n"));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: two
    nsize: 1 2
    backends: cpu
    args: -a_adr_n 5 -b_adr_n 7 -adr_n 9 -a_adr_progress 0 -b_adr_progress 0
    expect: ^prefix a_: grid 5 x 5 x 5$
    expect: ^prefix b_: grid 7 x 7 x 7$
    expect: each solver read its own options
TEST*/
