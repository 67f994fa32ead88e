/*
  EasKsp: the Krylov solver object (type, tolerances, monitors, convergence
  test, options).  The methods live in their own files (bicgstab.c).
*/
#include "kspimpl.h"

static const char *const EasKspTypes[] = {EAS_BICGSTAB};
static const char *const EasPCTypes[]  = {EAS_PCNONE, EAS_PCJACOBI};

/*@C
  EasKspCreate - creates a Krylov solver (default bicgstab, Jacobi, rtol 1e-8,
  atol 1e-50, dtol 1e5, max_it 10000: PETSc's defaults but rtol).
@*/
PetscErrorCode EasKspCreate(MPI_Comm comm, EasKsp *ksp)
{
  EasKsp k;

  PetscFunctionBegin;
  PetscValidPointer(ksp, 2);
  PetscCall(EasInitializePackage());
  PetscCall(PetscHeaderCreate(k, EAS_KSP_CLASSID, "EasKsp", "eas Krylov solver", "KSP", comm, EasKspDestroy, EasKspView));
  k->rtol   = 1e-8;
  k->atol   = 1e-50;
  k->dtol   = 1e5;
  k->max_it = 10000;
  PetscCall(PetscStrncpy(k->pc_type, EAS_PCJACOBI, sizeof(k->pc_type)));
  PetscCall(EasKspSetType(k, EAS_BICGSTAB));
  *ksp = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspReset_Private(EasKsp ksp)
{
  PetscFunctionBegin;
  if (ksp->ops->reset) PetscCall((*ksp->ops->reset)(ksp));
  for (PetscInt i = 0; i < ksp->nwork; i++) PetscCall(EasVecDestroy(&ksp->work[i]));
  ksp->nwork = 0;
  PetscCall(EasVecDestroy(&ksp->dinv));
  PetscCall(EasDiaDestroy(&ksp->Ahat));
  ksp->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetType - bicgstab.  Errors: an unknown type (the message lists the known ones).
@*/
PetscErrorCode EasKspSetType(EasKsp ksp, EasKspType type)
{
  PetscBool match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, type, &match));
  if (match) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(type, EAS_BICGSTAB, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown eas Krylov type \"%s\" (-ksp_type): expected bicgstab", type);
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscMemzero(ksp->ops, sizeof(struct _EasKspOps)));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ksp, type));
  PetscCall(EasKspCreate_BiCGStab(ksp));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetType(EasKsp ksp, EasKspType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  *type = ((PetscObject)ksp)->type_name;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetOperator - the matrix to solve with (referenced).
@*/
PetscErrorCode EasKspSetOperator(EasKsp ksp, EasDia A)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 2);
  PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(EasDiaDestroy(&ksp->A));
  ksp->A = A;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetPCType - none or jacobi (right preconditioning: the residual
  monitored and tested is the true residual b - A x).
@*/
PetscErrorCode EasKspSetPCType(EasKsp ksp, EasPCType type)
{
  PetscBool known = PETSC_FALSE, match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  for (size_t i = 0; i < sizeof(EasPCTypes) / sizeof(EasPCTypes[0]); i++) {
    PetscCall(PetscStrcmp(type, EasPCTypes[i], &match));
    known = (PetscBool)(known || match);
  }
  PetscCheck(known, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown eas preconditioner \"%s\" (-pc_type): expected none or jacobi", type);
  PetscCall(PetscStrcmp(type, ksp->pc_type, &match));
  if (match) PetscFunctionReturn(0);
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscStrncpy(ksp->pc_type, type, sizeof(ksp->pc_type)));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetTolerances - rtol in [0,1), atol >= 0, dtol >= 1, max_it >= 0;
  PETSC_DEFAULT keeps the current value.  Errors name the option and the
  expected range.
@*/
PetscErrorCode EasKspSetTolerances(EasKsp ksp, PetscReal rtol, PetscReal atol, PetscReal dtol, PetscInt max_it)
{
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ksp);
  if (rtol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(rtol >= 0.0 && rtol < 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ksp_rtol %g is invalid: expected a relative tolerance in [0, 1)", (double)rtol);
    ksp->rtol = rtol;
  }
  if (atol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(atol >= 0.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ksp_atol %g is invalid: expected an absolute tolerance >= 0", (double)atol);
    ksp->atol = atol;
  }
  if (dtol != (PetscReal)PETSC_DEFAULT) {
    PetscCheck(dtol >= 1.0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ksp_dtol %g is invalid: expected a divergence tolerance >= 1", (double)dtol);
    ksp->dtol = dtol;
  }
  if (max_it != PETSC_DEFAULT) {
    PetscCheck(max_it >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ksp_max_it %" PetscInt_FMT " is invalid: expected an iteration count >= 0", max_it);
    ksp->max_it = max_it;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetTolerances(EasKsp ksp, PetscReal *rtol, PetscReal *atol, PetscReal *dtol, PetscInt *max_it)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (rtol) *rtol = ksp->rtol;
  if (atol) *atol = ksp->atol;
  if (dtol) *dtol = ksp->dtol;
  if (max_it) *max_it = ksp->max_it;
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspSetOptionsPrefix(EasKsp ksp, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)ksp, prefix));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspAppendOptionsPrefix(EasKsp ksp, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)ksp, prefix));
  PetscFunctionReturn(0);
}

/*@C
  EasKspMonitorSet - adds a monitor called with (ksp, it, rnorm, ctx) at
  every iteration (at most 4); destroy (may be NULL) frees ctx.
@*/
PetscErrorCode EasKspMonitorSet(EasKsp ksp, PetscErrorCode (*mon)(EasKsp, PetscInt, PetscReal, void *), void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(ksp->nmon < EAS_KSP_MAXMON, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "At most %d monitors per EasKsp", EAS_KSP_MAXMON);
  ksp->monitor[ksp->nmon]    = mon;
  ksp->monctx[ksp->nmon]     = ctx;
  ksp->mondestroy[ksp->nmon] = destroy;
  ksp->nmon++;
  PetscFunctionReturn(0);
}

/*@C
  EasKspMonitorDefault - prints the residual norm as PETSc's -ksp_monitor
  does.  ctx is a PetscViewer (NULL: stdout of the solver's communicator).
@*/
PetscErrorCode EasKspMonitorDefault(EasKsp ksp, PetscInt it, PetscReal rnorm, void *ctx)
{
  PetscViewer viewer = ctx ? (PetscViewer)ctx : PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)ksp));
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ksp, &prefix));
  PetscCall(PetscViewerASCIIAddTab(viewer, ((PetscObject)ksp)->tablevel));
  if (it == 0 && prefix) PetscCall(PetscViewerASCIIPrintf(viewer, "  Residual norms for %s solve.\n", prefix));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%3" PetscInt_FMT " KSP Residual norm %14.12e \n", it, (double)rnorm));
  PetscCall(PetscViewerASCIISubtractTab(viewer, ((PetscObject)ksp)->tablevel));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspMonitorViewerDestroy(void **ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerDestroy((PetscViewer *)ctx));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetFromOptions - reads, under the solver's prefix: -ksp_type,
  -ksp_rtol, -ksp_atol, -ksp_dtol, -ksp_max_it, -ksp_monitor [viewer],
  -ksp_converged_reason [viewer], -pc_type none|jacobi.
@*/
PetscErrorCode EasKspSetFromOptions(EasKsp ksp)
{
  PetscReal         rtol = ksp->rtol, atol = ksp->atol, dtol = ksp->dtol;
  PetscInt          max_it = ksp->max_it, itype = 0, ipc = 0;
  PetscBool         flg;
  PetscViewer       viewer;
  PetscViewerFormat format;
  MPI_Comm          comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ksp);
  for (PetscInt i = 0; i < 2; i++) {
    PetscBool m;
    PetscCall(PetscStrcmp(ksp->pc_type, EasPCTypes[i], &m));
    if (m) ipc = i;
  }
  PetscObjectOptionsBegin((PetscObject)ksp);
  PetscCall(PetscOptionsEList("-ksp_type", "eas Krylov method", "EasKspSetType", EasKspTypes, 1, ((PetscObject)ksp)->type_name, &itype, &flg));
  if (flg) PetscCall(EasKspSetType(ksp, EasKspTypes[itype]));
  PetscCall(PetscOptionsReal("-ksp_rtol", "Relative decrease of the residual norm", "EasKspSetTolerances", rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-ksp_atol", "Absolute residual norm", "EasKspSetTolerances", atol, &atol, NULL));
  PetscCall(PetscOptionsReal("-ksp_dtol", "Divergence: residual norm above dtol times the initial one", "EasKspSetTolerances", dtol, &dtol, NULL));
  PetscCall(PetscOptionsInt("-ksp_max_it", "Maximum iterations", "EasKspSetTolerances", max_it, &max_it, NULL));
  PetscCall(EasKspSetTolerances(ksp, rtol, atol, dtol, max_it));
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner (right)", "EasKspSetPCType", EasPCTypes, 2, EasPCTypes[ipc], &ipc, &flg));
  if (flg) PetscCall(EasKspSetPCType(ksp, EasPCTypes[ipc]));
  PetscOptionsEnd();

  PetscCall(PetscOptionsGetViewer(comm, ((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_monitor", &viewer, &format, &flg));
  if (flg) PetscCall(EasKspMonitorSet(ksp, EasKspMonitorDefault, viewer, EasKspMonitorViewerDestroy));
  PetscCall(PetscViewerDestroy(&ksp->reason_viewer));
  PetscCall(PetscOptionsGetViewer(comm, ((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_converged_reason", &ksp->reason_viewer, &format, &ksp->converged_reason_view));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetUp - checks the operator and builds the preconditioner.
  Errors: no operator; a zero diagonal entry with -pc_type jacobi.
@*/
PetscErrorCode EasKspSetUp(EasKsp ksp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (ksp->setupcalled) PetscFunctionReturn(0);
  PetscCheck(ksp->A, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ORDER, "EasKspSetUp: no operator; call EasKspSetOperator() first");
  PetscCall(PetscLogEventBegin(EAS_KspSetUp, ksp, 0, 0, 0));
  PetscCall(EasDiaSetUp(ksp->A));
  if (ksp->ops->setup) PetscCall((*ksp->ops->setup)(ksp));
  ksp->setupcalled = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(EAS_KspSetUp, ksp, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspAllreduce_Private(EasKsp ksp, PetscScalar *vals, PetscInt n)
{
  PetscMPIInt size;
  MPI_Comm    comm = PetscObjectComm((PetscObject)ksp);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(EAS_Allreduce, 0, 0, 0, 0));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, vals, (PetscMPIInt)n, MPIU_SCALAR, MPIU_SUM, comm));
  PetscCall(PetscLogEventEnd(EAS_Allreduce, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The convergence test of PETSc's KSPConvergedDefault: NaN/Inf, then
   ||r|| <= max(rtol ||r0||, atol), then ||r|| >= dtol ||r0||, then max_it. */
PetscErrorCode EasKspLogResidual_Private(EasKsp ksp, PetscInt its, PetscReal rnorm)
{
  PetscFunctionBegin;
  ksp->its   = its;
  ksp->rnorm = rnorm;
  if (its == 0) ksp->rnorm0 = rnorm;
  for (PetscInt m = 0; m < ksp->nmon; m++) PetscCall((*ksp->monitor[m])(ksp, its, rnorm, ksp->monctx[m]));
  if (PetscIsInfOrNanReal(rnorm))
    ksp->reason = KSP_DIVERGED_NANORINF;
  else if (rnorm <= PetscMax(ksp->rtol * ksp->rnorm0, ksp->atol))
    ksp->reason = rnorm < ksp->atol ? KSP_CONVERGED_ATOL : KSP_CONVERGED_RTOL;
  else if (its > 0 && rnorm >= ksp->dtol * ksp->rnorm0)
    ksp->reason = KSP_DIVERGED_DTOL;
  else if (its >= ksp->max_it)
    ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSolve - solves A x = b from a zero initial guess.  A breakdown,
  divergence or NaN is reported by EasKspGetConvergedReason(), not as an
  error.  Errors: vectors whose size or backend does not match the operator.
@*/
PetscErrorCode EasKspSolve(EasKsp ksp, EasVec b, EasVec x)
{
  PetscInt   nb, nx;
  EasBackend be, bb, bx;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCall(EasKspSetUp(ksp));
  PetscCall(EasVecGetSize(b, &nb));
  PetscCall(EasVecGetSize(x, &nx));
  PetscCheck(nb == ksp->A->n && nx == ksp->A->n, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "EasKspSolve: size mismatch: operator has %" PetscInt_FMT " rows, b has %" PetscInt_FMT " and x %" PetscInt_FMT " entries", ksp->A->n, nb, nx);
  PetscCheck(b != x, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_IDN, "EasKspSolve: b and x must be different vectors");
  PetscCall(EasDiaGetBackend(ksp->A, &be));
  PetscCall(EasVecGetBackend(b, &bb));
  PetscCall(EasVecGetBackend(x, &bx));
  PetscCheck(bb == be && bx == be, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_INCOMP, "EasKspSolve: b and x must live on the operator's backend %s (use EasDiaCreateVecs())", be->resource);
  ksp->reason = KSP_CONVERGED_ITERATING;
  ksp->its    = 0;
  PetscCall(PetscLogEventBegin(EAS_KspSolve, ksp, 0, 0, 0));
  PetscCall((*ksp->ops->solve)(ksp, b, x));
  PetscCall(PetscLogEventEnd(EAS_KspSolve, ksp, 0, 0, 0));
  if (ksp->converged_reason_view) {
    PetscViewer v      = ksp->reason_viewer;
    const char *prefix = ((PetscObject)ksp)->prefix;
    PetscCall(PetscViewerASCIIAddTab(v, ((PetscObject)ksp)->tablevel));
    if (ksp->reason > 0) {
      if (prefix)
        PetscCall(PetscViewerASCIIPrintf(v, "Linear %s solve converged due to %s iterations %" PetscInt_FMT "\n", prefix, KSPConvergedReasons[ksp->reason], ksp->its));
      else
        PetscCall(PetscViewerASCIIPrintf(v, "Linear solve converged due to %s iterations %" PetscInt_FMT "\n", KSPConvergedReasons[ksp->reason], ksp->its));
    } else {
      if (prefix)
        PetscCall(PetscViewerASCIIPrintf(v, "Linear %s solve did not converge due to %s iterations %" PetscInt_FMT "\n", prefix, KSPConvergedReasons[ksp->reason], ksp->its));
      else
        PetscCall(PetscViewerASCIIPrintf(v, "Linear solve did not converge due to %s iterations %" PetscInt_FMT "\n", KSPConvergedReasons[ksp->reason], ksp->its));
    }
    PetscCall(PetscViewerASCIISubtractTab(v, ((PetscObject)ksp)->tablevel));
  }
  PetscCall(PetscObjectViewFromOptions((PetscObject)ksp, NULL, "-ksp_view"));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetConvergedReason(EasKsp ksp, KSPConvergedReason *reason)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  *reason = ksp->reason;
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetIterationNumber(EasKsp ksp, PetscInt *its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  *its = ksp->its;
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetResidualNorm(EasKsp ksp, PetscReal *rnorm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  *rnorm = ksp->rnorm;
  PetscFunctionReturn(0);
}

/*@C
  EasKspView - type, tolerances, preconditioner, operator and backend.
@*/
PetscErrorCode EasKspView(EasKsp ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ksp), &viewer));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)ksp, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "tolerances: rtol=%g, atol=%g, dtol=%g, max_it=%" PetscInt_FMT "\n", (double)ksp->rtol, (double)ksp->atol, (double)ksp->dtol, ksp->max_it));
  PetscCall(PetscViewerASCIIPrintf(viewer, "preconditioner: %s (right), residual norm: unpreconditioned\n", ksp->pc_type));
  if (ksp->ops->view) PetscCall((*ksp->ops->view)(ksp, viewer));
  if (ksp->A) PetscCall(EasDiaView(ksp->A, viewer));
  if (ksp->A && ksp->A->be) PetscCall(EasBackendView(ksp->A->be, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspDestroy(EasKsp *ksp)
{
  PetscFunctionBegin;
  if (!*ksp) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*ksp, EAS_KSP_CLASSID, 1);
  if (--((PetscObject)(*ksp))->refct > 0) {
    *ksp = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasKspReset_Private(*ksp));
  for (PetscInt m = 0; m < (*ksp)->nmon; m++)
    if ((*ksp)->mondestroy[m]) PetscCall((*(*ksp)->mondestroy[m])(&(*ksp)->monctx[m]));
  PetscCall(PetscViewerDestroy(&(*ksp)->reason_viewer));
  PetscCall(EasDiaDestroy(&(*ksp)->A));
  PetscCall(PetscHeaderDestroy(ksp));
  PetscFunctionReturn(0);
}
