/*
  The problem an EasAdr solves (docs/adr.md; Vialle et al. sec. 1.7): the
  built-in problems ("diurnal", SUNDIALS' cvDiurnal extended to 3D, and
  "transport") with their coefficients, and the setters that define a
  problem: grid, box, velocity, diffusion, reaction, boundaries, initial
  condition.
*/
#include "adrimpl.h"

const char *const EasAdrProblems[]   = {"diurnal", "transport"};
const char *const EasAdrReactions[]  = {"diurnal", "linear"};
const char *const EasAdrBCs[]        = {"dirichlet", "neumann"};
const char *const EasAdrAdvections[] = {"upwind", "central"};

/* ------------------------------------------------------------ built-ins */

static PetscReal EasAdrDiurnalA(PetscReal x)
{
  const PetscReal u = 0.1 * x - 1.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}
static PetscReal EasAdrDiurnalB(PetscReal z)
{
  const PetscReal u = 0.1 * z - 4.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}
/* photolysis rates q3(t), q4(t): exp(-22.62/s), exp(-7.601/s), s = sin(pi t / 43200) > 0 */
void EasAdrDiurnalRates(PetscReal t, PetscReal *q3, PetscReal *q4)
{
  const PetscReal s = PetscSinReal(PETSC_PI / 43200.0 * t);
  *q3               = s > 0 ? PetscExpReal(-22.62 / s) : 0;
  *q4               = s > 0 ? PetscExpReal(-7.601 / s) : 0;
}

PetscErrorCode EasAdrVelocity_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  (void)xyz;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) { /* cvDiurnal: +V dc/dx on the right-hand side, so a = -V (transport toward -x) */
    a[0] = -1.0e-3;
    a[1] = a[2] = 0;
  } else {
    a[0] = 1.0;
    a[1] = 0.5;
    a[2] = 0.25;
  }
  return 0;
}

PetscErrorCode EasAdrDiffusion_Builtin(PetscReal t, const PetscReal xyz[3], PetscReal K[3], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    K[0] = K[1] = 4.0e-6;
    K[2]        = 1.0e-8 * PetscExpReal(xyz[2] / 5.0);
  } else
    K[0] = K[1] = K[2] = 0.02;
  return 0;
}

PetscErrorCode EasAdrInitial_Builtin(PetscReal t, const PetscReal xyz[3], PetscScalar c[2], void *ctx)
{
  EasAdr adr = (EasAdr)ctx;
  (void)t;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    const PetscReal prof = EasAdrDiurnalA(xyz[0]) * EasAdrDiurnalA(xyz[1]) * EasAdrDiurnalB(xyz[2]);
    c[0]                 = 1.0e6 * prof;
    c[1]                 = 1.0e12 * prof;
  } else {
    const PetscReal dx = xyz[0] - 0.35, dy = xyz[1] - 0.5, dz = xyz[2] - 0.5, g = PetscExpReal(-40.0 * (dx * dx + dy * dy + dz * dz));
    c[0] = g;
    c[1] = 0.2 + 0.5 * g;
  }
  return 0;
}

/*@C
  EasAdrSetProblem - "diurnal" (docs/adr.md: box [0,20]^2 x [30,50],
  zero flux, central advection, diurnal kinetics, t in [0, 86400], dt
  3600 bounded by the grid at setup, see EasAdrSetUp) or
  "transport" (unit cube, K = 0.02, a = (1, 0.5, 0.25), linear reaction
  L = [-1 0.5; 0.5 -2], Dirichlet values from the initial condition, t in
  [0, 0.2], dt 0.02).  Resets the user callbacks.
@*/
PetscErrorCode EasAdrSetProblem(EasAdr adr, const char problem[])
{
  PetscInt p;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetProblem"));
  PetscCall(EasAdrLookup_Private(adr, EasAdrProblems, 2, problem, "-adr_problem", &p));
  adr->problem   = (EasAdrProblem)p;
  adr->velocity  = NULL;
  adr->diffusion = NULL;
  adr->reaction  = NULL;
  adr->initial = adr->boundary = NULL;
  adr->t = adr->t0 = 0;
  adr->dt_set      = PETSC_FALSE;
  if (adr->problem == EAS_ADR_PROBLEM_DIURNAL) {
    PetscCall(EasAdrSetBox(adr, 0, 20, 0, 20, 30, 50));
    adr->reaction_type = EAS_ADR_REACTION_DIURNAL;
    adr->bc            = EAS_ADR_BC_NEUMANN;
    adr->advection     = EAS_ADR_CENTRAL; /* cvDiurnal's central differences */
    adr->dt            = 3600;
    adr->tfinal        = 86400;
    adr->ts_rtol       = 1e-5; /* cvDiurnal's tolerances */
    adr->ts_atol       = 1e-3;
  } else {
    PetscCall(EasAdrSetBox(adr, 0, 1, 0, 1, 0, 1));
    adr->reaction_type = EAS_ADR_REACTION_LINEAR;
    adr->bc            = EAS_ADR_BC_DIRICHLET;
    adr->advection     = EAS_ADR_UPWIND;
    adr->dt            = 0.02;
    adr->tfinal        = 0.2;
    adr->ts_rtol       = 1e-5;
    adr->ts_atol       = 1e-8;
  }
  adr->L[0] = -1.0;
  adr->L[1] = 0.5;
  adr->L[2] = 0.5;
  adr->L[3] = -2.0;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetGrid - global grid points per direction (each >= 3).
@*/
PetscErrorCode EasAdrSetGrid(EasAdr adr, PetscInt nx, PetscInt ny, PetscInt nz)
{
  const PetscInt n[3] = {nx, ny, nz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetGrid"));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(n[d] >= 3 || (d == 1 && n[d] == 1), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_n%c %" PetscInt_FMT " is invalid: expected at least 3 grid points per direction%s", (char)('x' + d), n[d], d == 1 ? ", or 1 (one y plane: a 2D problem in x and z)" : "");
    adr->N[d] = n[d];
  }
  PetscFunctionReturn(0);
}

/*@C
  EasAdrSetBox - the domain [x0,x1] x [y0,y1] x [z0,z1] (x0 < x1, ...).
@*/
PetscErrorCode EasAdrSetBox(EasAdr adr, PetscReal x0, PetscReal x1, PetscReal y0, PetscReal y1, PetscReal z0, PetscReal z1)
{
  const PetscReal lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetBox"));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(lo[d] < hi[d], PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrSetBox: the %c interval [%g, %g] is empty", (char)('x' + d), (double)lo[d], (double)hi[d]);
    adr->lo[d] = lo[d];
    adr->hi[d] = hi[d];
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrSetVelocity - user velocity a(t, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetVelocity(EasAdr adr, EasAdrVelocityFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->velocity     = fn;
  adr->velocity_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetDiffusion - user diagonal diffusion K(t, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetDiffusion(EasAdr adr, EasAdrDiffusionFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->diffusion     = fn;
  adr->diffusion_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetReaction - user reaction R(c, t, xyz) with its Jacobian (NULL: the built-in type). @*/
PetscErrorCode EasAdrSetReaction(EasAdr adr, EasAdrReactionFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->reaction     = fn;
  adr->reaction_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetReactionType - "diurnal" or "linear" (R = L c). @*/
PetscErrorCode EasAdrSetReactionType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrLookup_Private(adr, EasAdrReactions, 2, type, "-adr_reaction", &i));
  adr->reaction_type = (EasAdrReactionType)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetLinearReaction - L (row-major 2x2) of the linear reaction R = L c. @*/
PetscErrorCode EasAdrSetLinearReaction(EasAdr adr, const PetscReal L[4])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  for (PetscInt i = 0; i < 4; i++) {
    PetscCheck(PetscIsNormalReal(L[i]) || L[i] == 0, PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "-adr_linear_reaction: entry %" PetscInt_FMT " is not a finite number", i);
    adr->L[i] = L[i];
  }
  PetscFunctionReturn(0);
}

/*@C EasAdrSetBoundaryType - "dirichlet" or "neumann" (zero flux) on every face. @*/
PetscErrorCode EasAdrSetBoundaryType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetBoundaryType"));
  PetscCall(EasAdrLookup_Private(adr, EasAdrBCs, 2, type, "-adr_bc", &i));
  adr->bc = (EasAdrBC)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetBoundaryFunction - Dirichlet values (NULL: the initial condition). @*/
PetscErrorCode EasAdrSetBoundaryFunction(EasAdr adr, EasAdrValueFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  adr->boundary     = fn;
  adr->boundary_ctx = ctx;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetAdvectionType - "upwind" or "central". @*/
PetscErrorCode EasAdrSetAdvectionType(EasAdr adr, const char type[])
{
  PetscInt i;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrLookup_Private(adr, EasAdrAdvections, 2, type, "-adr_advection", &i));
  adr->advection = (EasAdrAdvection)i;
  PetscFunctionReturn(0);
}

/*@C EasAdrSetInitialCondition - c(t0, xyz) (NULL: the problem's). @*/
PetscErrorCode EasAdrSetInitialCondition(EasAdr adr, EasAdrValueFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckNotSetUp_Private(adr, "EasAdrSetInitialCondition"));
  adr->initial     = fn;
  adr->initial_ctx = ctx;
  PetscFunctionReturn(0);
}
