static const char help[] = "Bad input to eas ADR gets a clear error or a divergence reason, never a wrong answer.\n"
                           "  -case nan_reaction|nan_velocity|callback_error|nan_initial|inner_its\n";

#include <eas.h>
#include <math.h>

static PetscErrorCode NaNReaction(PetscReal t, const PetscReal xyz[3], const PetscScalar c[2], PetscScalar R[2], PetscScalar dR[4], void *ctx)
{
  (void)ctx;
  R[0]  = -c[0];
  R[1]  = -c[1];
  dR[0] = dR[3] = -1;
  dR[1] = dR[2] = 0;
  if (t > 0.03 && xyz[0] > 0.5) R[1] = (PetscReal)NAN; /* from the second step on */
  return 0;
}

static PetscErrorCode NaNVelocity(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx)
{
  (void)t;
  (void)ctx;
  a[0] = a[1] = a[2] = xyz[1] > 0.5 ? (PetscReal)NAN : 1.0;
  return 0;
}

static PetscErrorCode FailingReaction(PetscReal t, const PetscReal xyz[3], const PetscScalar c[2], PetscScalar R[2], PetscScalar dR[4], void *ctx)
{
  (void)t;
  (void)xyz;
  (void)c;
  (void)R;
  (void)dR;
  (void)ctx;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "user reaction: concentration out of its table");
}

static PetscErrorCode NaNInitial(PetscReal t, const PetscReal xyz[3], PetscScalar c[2], void *ctx)
{
  (void)t;
  (void)ctx;
  c[0] = c[1] = xyz[2] > 0.5 ? (PetscReal)NAN : 0.0;
  return 0;
}

int main(int argc, char **argv)
{
  char                  which[32] = "nan_reaction";
  EasAdr                adr;
  EasAdrConvergedReason reason;
  PetscBool             is;
  PetscReal             t;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetProblem(adr, "transport"));
  PetscCall(EasAdrSetGrid(adr, 8, 8, 8));
  PetscCall(EasAdrSetMaxSteps(adr, 3));
  PetscCall(PetscStrcmp(which, "nan_reaction", &is));
  if (is) PetscCall(EasAdrSetReaction(adr, NaNReaction, NULL));
  PetscCall(PetscStrcmp(which, "nan_velocity", &is));
  if (is) PetscCall(EasAdrSetVelocity(adr, NaNVelocity, NULL));
  PetscCall(PetscStrcmp(which, "callback_error", &is));
  if (is) PetscCall(EasAdrSetReaction(adr, FailingReaction, NULL));
  PetscCall(PetscStrcmp(which, "nan_initial", &is));
  if (is) PetscCall(EasAdrSetInitialCondition(adr, NaNInitial, NULL));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCall(EasAdrGetTime(adr, &t));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: reason %s, stopped at t = %g\n", which, EasAdrConvergedReasonName(reason), (double)t));
  PetscCheck(reason < 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "case %s: expected a divergence reason", which);
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: nan_reaction
    nsize: 1 2
    backends: /cpu/serial
    args: -case nan_reaction
    expect: case nan_reaction: reason DIVERGED_NANORINF, stopped at t = 0.02
  test:
    suffix: nan_reaction_async
    nsize: 2
    backends: /cpu/serial
    args: -case nan_reaction -eas_mode async
    expect: case nan_reaction: reason DIVERGED_NANORINF, stopped at t = 0.02
  test:
    suffix: max_it
    nsize: 2
    backends: /cpu/serial
    args: -case none -adr_newton_max_it 1
    expect: case none: reason DIVERGED_MAX_IT, stopped at t = 0\.?$
  test:
    suffix: nan_velocity
    backends: none
    args: -case nan_velocity
    expect_error: The velocity or diffusion callback returned NaN or Inf
  test:
    suffix: callback_error
    backends: none
    args: -case callback_error
    expect_error: user reaction: concentration out of its table
  test:
    suffix: nan_initial
    backends: none
    args: -case nan_initial
    expect_error: The initial condition is NaN or Inf
TEST*/
