/*
  EasKsp: the Krylov solver object (type, tolerances, monitors, convergence
  test, options).  The methods live in their own files (bicgstab.c).
*/
#include "kspimpl.h"
#include "core/size.h"

static const char *const EasKspTypes[] = {EAS_BICGSTAB, EAS_CG, EAS_PIPECG};
static const char *const EasPCTypes[]  = {EAS_PCNONE, EAS_PCJACOBI, EAS_PCPBJACOBI, EAS_PCILU};
#define EAS_NKSPTYPES 3
#define EAS_NPCTYPES 4

PetscClassId  EAS_KSP_CLASSID;
PetscLogEvent EAS_KspSetUp, EAS_KspSolve, EAS_IluSymbolic, EAS_IluFactor, EAS_IluApply, EAS_BcgsSweep1, EAS_BcgsSweep2, EAS_BcgsSweep3, EAS_CgUpdate, EAS_PipeCgUpdate, EAS_Allreduce;

static PetscBool eas_ksp_package_initialized = PETSC_FALSE;

/*
  EasKspInitializePackage - the EasKsp class and the log events of the
  Krylov methods (EasAllreduce under the backend class, as the vector
  work).  Called by EasKspCreate.
*/
PetscErrorCode EasKspInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_ksp_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_ksp_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(EasBackendInitializePackage());
  PetscCall(PetscClassIdRegister("EAS KSP", &EAS_KSP_CLASSID));
  PetscCall(PetscLogEventRegister("EasAllreduce", EAS_BACKEND_CLASSID, &EAS_Allreduce));
  PetscCall(PetscLogEventRegister("EasKspSetUp", EAS_KSP_CLASSID, &EAS_KspSetUp));
  PetscCall(PetscLogEventRegister("EasKspSolve", EAS_KSP_CLASSID, &EAS_KspSolve));
  PetscCall(PetscLogEventRegister("EasBcgsSweep1", EAS_KSP_CLASSID, &EAS_BcgsSweep1));
  PetscCall(PetscLogEventRegister("EasBcgsSweep2", EAS_KSP_CLASSID, &EAS_BcgsSweep2));
  PetscCall(PetscLogEventRegister("EasBcgsSweep3", EAS_KSP_CLASSID, &EAS_BcgsSweep3));
  PetscCall(PetscLogEventRegister("EasIluSymbolic", EAS_KSP_CLASSID, &EAS_IluSymbolic));
  PetscCall(PetscLogEventRegister("EasIluFactor", EAS_KSP_CLASSID, &EAS_IluFactor));
  PetscCall(PetscLogEventRegister("EasIluApply", EAS_KSP_CLASSID, &EAS_IluApply));
  PetscCall(PetscLogEventRegister("EasCgUpdate", EAS_KSP_CLASSID, &EAS_CgUpdate));
  PetscCall(PetscLogEventRegister("EasPipeCgUpdate", EAS_KSP_CLASSID, &EAS_PipeCgUpdate));
  PetscFunctionReturn(0);
}

/*@C
  EasKspCreate - creates a Krylov solver (default bicgstab, Jacobi, rtol 1e-8,
  atol 1e-50, dtol 1e5, max_it 10000: PETSc's defaults but rtol).
@*/
PetscErrorCode EasKspCreate(MPI_Comm comm, EasKsp *ksp)
{
  EasKsp k;

  PetscFunctionBegin;
  PetscValidPointer(ksp, 2);
  PetscCall(EasKspInitializePackage());
  PetscCall(PetscHeaderCreate(k, EAS_KSP_CLASSID, "EasKsp", "eas Krylov solver", "KSP", comm, EasKspDestroy, EasKspView));
  k->pipecg_replace = 100;
  k->rtol           = 1e-8;
  k->atol           = 1e-50;
  k->dtol           = 1e5;
  k->max_it         = 10000;
  /* the parallel ILU(0): 2 and 2, from the sweep study in docs/performance.md (ILU(0) as the
     ADR inner preconditioner): the fewest inner iterations at 32^3 and within 20 % of the
     best at 16^3, at the lowest cost per iteration */
  k->ilu_factor_sweeps = 2;
  k->ilu_solve_sweeps  = 2;
  k->ilu_zero_row      = -1;
  PetscCall(PetscStrncpy(k->ilu_axes, "xyz", sizeof(k->ilu_axes)));
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
  if (ksp->pbinv) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->pbinv));
  if (ksp->ilu_f) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->ilu_f));
  if (ksp->ilu_fwork) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->ilu_fwork));
  if (ksp->ilu_ff) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->ilu_ff));
  if (ksp->ilu_sub) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->ilu_sub));
  if (ksp->ilu_off) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, ksp->ilu_off));
  PetscCall(PetscFree2(ksp->ilu_off_host, ksp->ilu_amap));
  PetscCall(EasDiaDestroy(&ksp->ilu_Ap));
  {
    void **bufs[] = {(void **)&ksp->ilu_perm, (void **)&ksp->ilu_iperm, (void **)&ksp->ilu_aidx};
    for (size_t b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++) {
      if (*bufs[b]) PetscCall((*ksp->op.be->ops->free)(ksp->op.be, *bufs[b]));
      *bufs[b] = NULL;
    }
  }
  ksp->ilu_off      = NULL;
  ksp->pbinv        = NULL;
  ksp->ilu_f        = NULL;
  ksp->ilu_fwork    = NULL;
  ksp->ilu_ff       = NULL;
  ksp->ilu_sub      = NULL;
  ksp->ilu_zero_row = -1;
  ksp->setupcalled  = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetType - bicgstab (DIA operator), cg or pipecg (DIA or EBE operator).
  Errors: an unknown type (the message lists the known ones).
@*/
PetscErrorCode EasKspSetType(EasKsp ksp, EasKspType type)
{
  PetscBool match, bcgs, cg, pipe;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, type, &match));
  if (match) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(type, EAS_BICGSTAB, &bcgs));
  PetscCall(PetscStrcmp(type, EAS_CG, &cg));
  PetscCall(PetscStrcmp(type, EAS_PIPECG, &pipe));
  PetscCheck(bcgs || cg || pipe, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown eas Krylov type \"%s\" (-ksp_type): expected bicgstab, cg or pipecg", type);
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscMemzero(ksp->ops, sizeof(struct _EasKspOps)));
  PetscCall(PetscObjectChangeTypeName((PetscObject)ksp, type));
  if (bcgs)
    PetscCall(EasKspCreate_BiCGStab(ksp));
  else if (cg)
    PetscCall(EasKspCreate_CG(ksp));
  else
    PetscCall(EasKspCreate_PipeCG(ksp));
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
  EasKspSetOperator - the matrix to solve with (referenced).  The same
  matrix again keeps the setup: like PETSc's KSPSetOperators() with the same
  Mat, changed values are found through the matrix's object state at the
  next EasKspSetUp() (values-only update) and a changed pattern through its
  pattern state (full setup).
@*/
PetscErrorCode EasKspSetOperator(EasKsp ksp, EasDia A)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 2);
  if (A == ksp->A) PetscFunctionReturn(0);
  PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(EasDiaDestroy(&ksp->A));
  PetscCall(EasEbeDestroy(&ksp->ebe));
  ksp->shell.set = PETSC_FALSE;
  ksp->A         = A;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetOperatorEbe - an element-by-element operator to solve with
  (referenced; cg and pipecg).  Replaces a DIA operator.
@*/
PetscErrorCode EasKspSetOperatorEbe(EasKsp ksp, EasEbe ebe)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 2);
  PetscCall(PetscObjectReference((PetscObject)ebe));
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(EasDiaDestroy(&ksp->A));
  PetscCall(EasEbeDestroy(&ksp->ebe));
  ksp->shell.set = PETSC_FALSE;
  ksp->ebe       = ebe;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetOperatorShell - an operator given by callbacks (include/eas.h):
  local length n >= 0 of which the first nown are owned, point blocks of bs
  (n a multiple of bs), on backend be.  Replaces a DIA or EBE operator.
@*/
PetscErrorCode EasKspSetOperatorShell(EasKsp ksp, EasBackend be, PetscInt n, PetscInt nown, PetscInt bs, EasKspShellMultFn mult, EasKspShellDiagonalFn diagonal, EasKspShellBlockDiagFn blockdiagonal, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 2);
  PetscCheck(n >= 0 && nown >= 0 && nown <= n && bs >= 1 && n % bs == 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "EasKspSetOperatorShell: expected 0 <= nown <= n and n a multiple of bs >= 1; got n=%" PetscInt_FMT " nown=%" PetscInt_FMT " bs=%" PetscInt_FMT, n, nown, bs);
  PetscCheck(mult && diagonal, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_NULL, "EasKspSetOperatorShell: mult and diagonal are required");
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(EasDiaDestroy(&ksp->A));
  PetscCall(EasEbeDestroy(&ksp->ebe));
  PetscCall(PetscObjectReference((PetscObject)be));
  PetscCall(EasBackendDestroy(&ksp->shell.be));
  ksp->shell.set           = PETSC_TRUE;
  ksp->shell.be            = be;
  ksp->shell.n             = n;
  ksp->shell.nown          = nown;
  ksp->shell.bs            = bs;
  ksp->shell.mult          = mult;
  ksp->shell.diagonal      = diagonal;
  ksp->shell.blockdiagonal = blockdiagonal;
  ksp->shell.ctx           = ctx;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetOperatorCoupling - the off-process part of a distributed DIA
  operator for bicgstab (include/eas.h); NULL removes it.
@*/
PetscErrorCode EasKspSetOperatorCoupling(EasKsp ksp, EasKspCouplingFn coupling, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  ksp->coupling    = coupling;
  ksp->couplingctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetConvergenceTest - replaces the built-in convergence test
  (include/eas.h); NULL restores it.
@*/
PetscErrorCode EasKspSetConvergenceTest(EasKsp ksp, EasKspConvergenceTestFn test, void *ctx, PetscErrorCode (*destroy)(void **))
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (ksp->cnvdestroy) PetscCall((*ksp->cnvdestroy)(&ksp->cnvctx));
  ksp->converged  = test;
  ksp->cnvctx     = ctx;
  ksp->cnvdestroy = destroy;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetPCType - none, jacobi, pbjacobi (cg/pipecg on an EasEbe) or ilu
  (bicgstab: ILU(0) on the DIA pattern).  bicgstab preconditions on the
  right: the residual monitored and tested is the true residual b - A x.
  Errors: an unknown type (the message lists the known ones).
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
  PetscCheck(known, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown eas preconditioner \"%s\" (-pc_type): expected none, jacobi, pbjacobi or ilu", type);
  PetscCall(PetscStrcmp(type, ksp->pc_type, &match));
  if (match) PetscFunctionReturn(0);
  PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscStrncpy(ksp->pc_type, type, sizeof(ksp->pc_type)));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILUSweeps - the sweeps of the parallel ILU(0) (-pc_type ilu on a
  backend with the parallel form: /cpu/memcheck, /gpu/cuda): factor_sweeps
  synchronous sweeps of Chow and Patel's fixed-point factorization (their
  eq. 2.2), solve_sweeps Jacobi sweeps per triangular solve; >= 0 each,
  PETSC_DEFAULT keeps a value.  The CPU backends factor and solve exactly.
  Errors name the option and the expected range.
@*/
PetscErrorCode EasKspSetILUSweeps(EasKsp ksp, PetscInt factor_sweeps, PetscInt solve_sweeps)
{
  MPI_Comm comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  comm = PetscObjectComm((PetscObject)ksp);
  if (factor_sweeps != PETSC_DEFAULT) {
    PetscCheck(factor_sweeps >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_ilu_factor_sweeps %" PetscInt_FMT " is invalid: expected a sweep count >= 0", factor_sweeps);
    if (factor_sweeps != ksp->ilu_factor_sweeps && ksp->setupcalled) PetscCall(EasKspReset_Private(ksp));
    ksp->ilu_factor_sweeps = factor_sweeps;
  }
  if (solve_sweeps != PETSC_DEFAULT) {
    PetscCheck(solve_sweeps >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-pc_ilu_solve_sweeps %" PetscInt_FMT " is invalid: expected a sweep count >= 0", solve_sweeps);
    ksp->ilu_solve_sweeps = solve_sweeps;
  }
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILULevels - the level of fill k of -pc_type ilu (-pc_factor_levels,
  PETSc's name; default 0).  ILU(k) on a DIA operator: the factor keeps A's
  offsets and adds the offsets o_l + o_u of the stencil's level-k fill
  (level lev(o_l) + lev(o_u) + 1 <= k, o_l < 0 < o_u), the pattern of
  PETSc's PCILU with -pc_factor_levels k in the interior rows.  Errors: k < 0,
  or a pattern of more than 255 offsets.
@*/
PetscErrorCode EasKspSetILULevels(EasKsp ksp, PetscInt levels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(levels >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_factor_levels %" PetscInt_FMT " is invalid: expected a level of fill >= 0", levels);
  if (levels != ksp->ilu_levels && ksp->setupcalled) PetscCall(EasKspReset_Private(ksp));
  ksp->ilu_levels = levels;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILUGrid - the DIA operator is a stencil on a box: dof unknowns per
  point interleaved, the points in x-fastest order on an n[0] x n[1] x n[2]
  box.  EasKspSetILUAxes needs it.  Errors: sizes < 1.
@*/
PetscErrorCode EasKspSetILUGrid(EasKsp ksp, PetscInt dof, const PetscInt n[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(dof >= 1 && n[0] >= 1 && n[1] >= 1 && n[2] >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "EasKspSetILUGrid: dof %" PetscInt_FMT ", box %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is invalid: expected sizes >= 1", dof, n[0], n[1], n[2]);
  if (ksp->setupcalled && (dof != ksp->ilu_dof || n[0] != ksp->ilu_box[0] || n[1] != ksp->ilu_box[1] || n[2] != ksp->ilu_box[2])) PetscCall(EasKspReset_Private(ksp));
  if (dof != ksp->ilu_dof) PetscCall(PetscFree(ksp->ilu_fill)); /* fills of another dof */
  ksp->ilu_dof = dof;
  for (PetscInt d = 0; d < 3; d++) ksp->ilu_box[d] = n[d];
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILUAxes - -pc_type ilu factors P A P', P the box's points with
  the axes in the order axes, fastest first (-pc_ilu_axes; "xyz", the
  default, is the order A is stored in; "zxy" puts the z-lines innermost and
  the xz-planes contiguous).  The couplings of A between points that are not
  neighbours on the box (across its wrap) are not stencil entries and are
  left out of the factor.  Errors: not a permutation of xyz.
@*/
PetscErrorCode EasKspSetILUAxes(EasKsp ksp, const char axes[])
{
  PetscBool ok;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  ok = (PetscBool)(axes && strlen(axes) == 3);
  for (PetscInt a = 0; ok && a < 3; a++) ok = (PetscBool)(axes[a] >= 'x' && axes[a] <= 'z' && strchr(axes + a + 1, axes[a]) == NULL);
  PetscCheck(ok, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "-pc_ilu_axes %s is invalid: expected a permutation of xyz, fastest first (e.g. zxy)", axes ? axes : "(null)");
  if (strcmp(axes, ksp->ilu_axes) && ksp->setupcalled) PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscStrncpy(ksp->ilu_axes, axes, sizeof(ksp->ilu_axes)));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILUPrecision - the precision of the ILU factor the substitutions
  read (-pc_ilu_precision double|single, default double).  single: the
  factorization runs in double and its result is rounded to float, so each
  application reads half the bytes (the substitutions are bound by memory
  bandwidth); the vectors and the arithmetic stay double.  The
  preconditioner then differs from the double one by the rounding (relative
  6e-8 per entry), the solve's tolerance and its answer do not change.
@*/
PetscErrorCode EasKspSetILUPrecision(EasKsp ksp, EasPrecision prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(prec == EAS_PRECISION_DOUBLE || prec == EAS_PRECISION_SINGLE, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-pc_ilu_precision %d is invalid: expected double or single", (int)prec);
  if (prec != ksp->ilu_prec && ksp->setupcalled) PetscCall(EasKspReset_Private(ksp));
  ksp->ilu_prec = prec;
  PetscFunctionReturn(0);
}

/*@C EasKspGetILUPrecision - the precision of the ILU factor (EasKspSetILUPrecision). @*/
PetscErrorCode EasKspGetILUPrecision(EasKsp ksp, EasPrecision *prec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidPointer(prec, 2);
  *prec = ksp->ilu_prec;
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetILUBlockFills - which unknowns of the box's points couple, as
  PETSc's DMDASetBlockFills: dfill[s*dof + t] nonzero where unknown s of a
  point couples to unknown t of the same point, ofill[s*dof + t] where it
  couples to unknown t of a neighbouring point (dof of EasKspSetILUGrid,
  which must come first); NULL: all couple.  The DIA operator stores the
  other couplings as zeros on its diagonals; the factor of -pc_ilu_axes
  leaves them, and the fill they would cause, out of its pattern (entries
  of A outside the fills are dropped from the factor, not from A).
@*/
PetscErrorCode EasKspSetILUBlockFills(EasKsp ksp, const PetscInt dfill[], const PetscInt ofill[])
{
  const PetscInt dof = ksp->ilu_dof;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(dof > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ORDER, "EasKspSetILUBlockFills: call EasKspSetILUGrid first (the fills are dof x dof)");
  if (dfill)
    for (PetscInt s = 0; s < dof; s++) PetscCheck(dfill[s * dof + s], PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "EasKspSetILUBlockFills: dfill[%" PetscInt_FMT "][%" PetscInt_FMT "] is 0: expected every unknown to couple to itself (the factor's pivots)", s, s);
  if (ksp->setupcalled) PetscCall(EasKspReset_Private(ksp));
  PetscCall(PetscFree(ksp->ilu_fill));
  if (!dfill && !ofill) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(2 * dof * dof, &ksp->ilu_fill));
  for (PetscInt t = 0; t < dof * dof; t++) {
    ksp->ilu_fill[t]             = dfill ? (dfill[t] != 0) : 1;
    ksp->ilu_fill[dof * dof + t] = ofill ? (ofill[t] != 0) : 1;
  }
  PetscFunctionReturn(0);
}

/*@C EasKspGetILUAxes - the axis order of -pc_type ilu (EasKspSetILUAxes). @*/
PetscErrorCode EasKspGetILUAxes(EasKsp ksp, const char *axes[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  *axes = ksp->ilu_axes;
  PetscFunctionReturn(0);
}

/*@C EasKspGetILULevels - the level of fill of -pc_type ilu (EasKspSetILULevels). @*/
PetscErrorCode EasKspGetILULevels(EasKsp ksp, PetscInt *levels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidIntPointer(levels, 2);
  *levels = ksp->ilu_levels;
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspGetILUSweeps(EasKsp ksp, PetscInt *factor_sweeps, PetscInt *solve_sweeps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (factor_sweeps) *factor_sweeps = ksp->ilu_factor_sweeps;
  if (solve_sweeps) *solve_sweeps = ksp->ilu_solve_sweeps;
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
  -ksp_converged_reason [viewer], -ksp_reuse_preconditioner,
  -pc_type none|jacobi|pbjacobi|ilu, -pc_factor_levels, -pc_ilu_axes,
  -pc_ilu_precision, -pc_ilu_factor_sweeps, -pc_ilu_solve_sweeps.
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
  for (PetscInt i = 0; i < EAS_NPCTYPES; i++) {
    PetscBool m;
    PetscCall(PetscStrcmp(ksp->pc_type, EasPCTypes[i], &m));
    if (m) ipc = i;
  }
  PetscObjectOptionsBegin((PetscObject)ksp);
  PetscCall(PetscOptionsEList("-ksp_type", "eas Krylov method", "EasKspSetType", EasKspTypes, EAS_NKSPTYPES, ((PetscObject)ksp)->type_name, &itype, &flg));
  if (flg) PetscCall(EasKspSetType(ksp, EasKspTypes[itype]));
  PetscCall(PetscOptionsReal("-ksp_rtol", "Relative decrease of the residual norm", "EasKspSetTolerances", rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-ksp_atol", "Absolute residual norm", "EasKspSetTolerances", atol, &atol, NULL));
  PetscCall(PetscOptionsReal("-ksp_dtol", "Divergence: residual norm above dtol times the initial one", "EasKspSetTolerances", dtol, &dtol, NULL));
  PetscCall(PetscOptionsInt("-ksp_max_it", "Maximum iterations", "EasKspSetTolerances", max_it, &max_it, NULL));
  PetscCall(EasKspSetTolerances(ksp, rtol, atol, dtol, max_it));
  PetscCall(PetscOptionsEList("-pc_type", "Preconditioner (right)", "EasKspSetPCType", EasPCTypes, EAS_NPCTYPES, EasPCTypes[ipc], &ipc, &flg));
  if (flg) PetscCall(EasKspSetPCType(ksp, EasPCTypes[ipc]));
  ksp->pc_type_option = flg; /* for a solver that hides the preconditioner in its operator (EasAdrFoldJacobi_Private) */
  {
    PetscBool reuse = ksp->reuse_pc;
    PetscCall(PetscOptionsBool("-ksp_reuse_preconditioner", "Keep the preconditioner when only the operator's values change (PETSc's name)", "EasKspSetReusePreconditioner", reuse, &reuse, &flg));
    if (flg) PetscCall(EasKspSetReusePreconditioner(ksp, reuse));
  }
  {
    PetscInt fs = ksp->ilu_factor_sweeps, ss = ksp->ilu_solve_sweeps;
    {
      PetscInt lv = ksp->ilu_levels;
      PetscCall(PetscOptionsInt("-pc_factor_levels", "ilu: the level of fill k of ILU(k) on the DIA pattern (PETSc's -pc_factor_levels)", "EasKspSetILULevels", lv, &lv, &flg));
      if (flg) PetscCall(EasKspSetILULevels(ksp, lv));
    }
    {
      char ax[8];
      PetscCall(PetscStrncpy(ax, ksp->ilu_axes, sizeof(ax)));
      PetscCall(PetscOptionsString("-pc_ilu_axes", "ilu on a box (EasKspSetILUGrid): factor with the axes in this order, fastest first (xyz: as stored; zxy: z-lines innermost)", "EasKspSetILUAxes", ax, ax, sizeof(ax), &flg));
      if (flg) PetscCall(EasKspSetILUAxes(ksp, ax));
    }
    {
      PetscEnum pr = (PetscEnum)ksp->ilu_prec;
      PetscCall(PetscOptionsEnum("-pc_ilu_precision", "ilu: the precision of the factor the substitutions read (double or single: half the bytes per application)", "EasKspSetILUPrecision", EasPrecisions, pr, &pr, &flg));
      if (flg) PetscCall(EasKspSetILUPrecision(ksp, (EasPrecision)pr));
    }
    PetscCall(PetscOptionsInt("-pc_ilu_factor_sweeps", "ilu on a device: sweeps of the parallel (Chow-Patel) factorization", "EasKspSetILUSweeps", fs, &fs, NULL));
    PetscCall(PetscOptionsInt("-pc_ilu_solve_sweeps", "ilu on a device: Jacobi sweeps per triangular solve", "EasKspSetILUSweeps", ss, &ss, NULL));
    PetscCall(EasKspSetILUSweeps(ksp, fs, ss));
  }
  {
    PetscInt k = ksp->pipecg_replace;
    PetscCall(PetscOptionsInt("-ksp_pipecg_replace", "pipecg: replace the recursive residual by the true one every k iterations (0: never)", "EasKspPipeCGSetReplace", k, &k, &flg));
    if (flg) PetscCall(EasKspPipeCGSetReplace(ksp, k));
  }
  PetscOptionsEnd();

  PetscCall(PetscOptionsGetViewer(comm, ((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_monitor", &viewer, &format, &flg));
  if (flg) PetscCall(EasKspMonitorSet(ksp, EasKspMonitorDefault, viewer, EasKspMonitorViewerDestroy));
  PetscCall(PetscViewerDestroy(&ksp->reason_viewer));
  PetscCall(PetscOptionsGetViewer(comm, ((PetscObject)ksp)->options, ((PetscObject)ksp)->prefix, "-ksp_converged_reason", &ksp->reason_viewer, &format, &ksp->converged_reason_view));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspPipeCGSetReplace(EasKsp ksp, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscCheck(k >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_pipecg_replace %" PetscInt_FMT " is invalid: expected an iteration count >= 1, or 0 for never", k);
  ksp->pipecg_replace = k;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspMultDia_Private(EasKsp ksp, EasVec x, EasVec y)
{
  PetscFunctionBegin;
  PetscCall(EasDiaMult(ksp->A, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspDiagonalDia_Private(EasKsp ksp, EasVec d)
{
  PetscFunctionBegin;
  PetscCall(EasDiaGetDiagonal(ksp->A, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspMultEbe_Private(EasKsp ksp, EasVec x, EasVec y)
{
  PetscFunctionBegin;
  PetscCall(EasEbeMult(ksp->ebe, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspDiagonalEbe_Private(EasKsp ksp, EasVec d)
{
  PetscFunctionBegin;
  PetscCall(EasEbeGetDiagonal(ksp->ebe, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspMultShell_Private(EasKsp ksp, EasVec x, EasVec y)
{
  PetscFunctionBegin;
  PetscCall((*ksp->shell.mult)(ksp->shell.ctx, x, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspDiagonalShell_Private(EasKsp ksp, EasVec d)
{
  PetscFunctionBegin;
  PetscCall((*ksp->shell.diagonal)(ksp->shell.ctx, d));
  PetscFunctionReturn(0);
}

/* Inverts the dof x dof blocks in place (Gauss-Jordan with partial pivoting).
   Errors name the node. */
static PetscErrorCode EasKspInvertBlocks_Private(EasKsp ksp, PetscInt nb, PetscInt bs, PetscScalar *B)
{
  PetscScalar *a, *inv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2((size_t)bs * bs, &a, (size_t)bs * bs, &inv)); /* any dof: heap, no fixed-size stack arrays (issue 10, C3) */
  for (PetscInt b = 0; b < nb; b++) {
    PetscScalar *Bb   = B + (size_t)b * bs * bs;
    PetscReal    amax = 0;
    for (PetscInt i = 0; i < bs * bs; i++) {
      a[i]   = Bb[i];
      inv[i] = (i / bs == i % bs) ? 1.0 : 0.0;
      amax   = PetscMax(amax, PetscAbsScalar(Bb[i]));
    }
    for (PetscInt c = 0; c < bs; c++) {
      PetscInt  piv = c;
      PetscReal big = PetscAbsScalar(a[c * bs + c]);
      for (PetscInt r = c + 1; r < bs; r++)
        if (PetscAbsScalar(a[r * bs + c]) > big) {
          big = PetscAbsScalar(a[r * bs + c]);
          piv = r;
        }
      /* a pivot at round-off level relative to the block's largest entry: (numerically) singular */
      if (!(big > EAS_KSP_BREAKDOWN_RTOL * amax)) {
        PetscCall(PetscFree2(a, inv));
        SETERRQ(PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "Singular %" PetscInt_FMT "x%" PetscInt_FMT " diagonal block at node %" PetscInt_FMT " (pivot %g <= %g x its largest entry %g): -pc_type pbjacobi needs invertible point blocks (use -pc_type jacobi or none)", bs, bs, b, (double)big, (double)EAS_KSP_BREAKDOWN_RTOL, (double)amax);
      }
      if (piv != c)
        for (PetscInt j = 0; j < bs; j++) {
          PetscScalar t     = a[c * bs + j];
          a[c * bs + j]     = a[piv * bs + j];
          a[piv * bs + j]   = t;
          t                 = inv[c * bs + j];
          inv[c * bs + j]   = inv[piv * bs + j];
          inv[piv * bs + j] = t;
        }
      {
        const PetscScalar d = a[c * bs + c];
        for (PetscInt j = 0; j < bs; j++) {
          a[c * bs + j] /= d;
          inv[c * bs + j] /= d;
        }
      }
      for (PetscInt r = 0; r < bs; r++) {
        const PetscScalar f = a[r * bs + c];
        if (r == c || f == 0.0) continue;
        for (PetscInt j = 0; j < bs; j++) {
          a[r * bs + j] -= f * a[c * bs + j];
          inv[r * bs + j] -= f * inv[c * bs + j];
        }
      }
    }
    for (PetscInt i = 0; i < bs * bs; i++) Bb[i] = inv[i];
  }
  PetscCall(PetscFree2(a, inv));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspSetUpPC_Private(EasKsp ksp)
{
  PetscBool    jacobi, pb;
  EasVec       d;
  PetscScalar *da;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCILU, &jacobi));
  PetscCheck(!jacobi, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_type ilu is available with -ksp_type bicgstab only (use jacobi or pbjacobi with %s)", ((PetscObject)ksp)->type_name);
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCJACOBI, &jacobi));
  PetscCall(PetscStrcmp(ksp->pc_type, EAS_PCPBJACOBI, &pb));
  if (pb && ksp->op.bs == 1) { /* one dof per node: point-block Jacobi is Jacobi */
    pb     = PETSC_FALSE;
    jacobi = PETSC_TRUE;
  }
  if (pb) {
    PetscScalar   *D;
    const PetscInt bs = ksp->op.bs, nb = ksp->op.n / bs;
    EasBackend     be = ksp->op.be;
    PetscCheck(ksp->ebe || (ksp->shell.set && ksp->shell.blockdiagonal), PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-pc_type pbjacobi needs an element-by-element operator with dof > 1 (EasKspSetOperatorEbe) or an operator with point blocks (EasKspSetOperatorShell)");
    if (ksp->ebe) PetscCall(EasEbeGetPointBlockDiagonal_Private(ksp->ebe, &D));
    else {
      size_t nd;
      PetscCall(EasSizeMul(PetscObjectComm((PetscObject)ksp), "point blocks n*bs", sizeof(PetscScalar), &nd, nb * bs, bs));
      PetscCall(PetscMalloc1(PetscMax(nd, 1), &D));
      PetscCall((*ksp->shell.blockdiagonal)(ksp->shell.ctx, D));
    }
    PetscCall(EasKspInvertBlocks_Private(ksp, nb, bs, D));
    /* nb*bs*bs in size_t: the product passes 2^31 - 1 before nb*bs does
       (EasEbeGetPointBlockDiagonal_Private checked it with EasSizeMul) */
    PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * PetscMax((size_t)nb * bs * bs, 1), (void **)&ksp->pbinv));
    PetscCall(EasBackendCopyHtoD(be, ksp->pbinv, D, sizeof(PetscScalar) * (size_t)nb * bs * bs));
    PetscCall(PetscFree(D));
    PetscFunctionReturn(0);
  }
  if (!ksp->dinv) PetscCall(EasVecCreate(ksp->op.be, ksp->op.n, &ksp->dinv));
  d = ksp->dinv;
  if (jacobi) {
    PetscCall((*ksp->op.diagonal)(ksp, d));
    PetscCall(EasVecGetArray(d, &da));
    for (PetscInt i = 0; i < ksp->op.n; i++) {
      PetscCheck(da[i] != 0.0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row %" PetscInt_FMT ": -pc_type jacobi needs a nonzero diagonal (use -pc_type none)", i);
      da[i] = 1.0 / da[i];
    }
    PetscCall(EasVecRestoreArray(d, &da));
  } else
    PetscCall(EasVecSet(d, 1.0));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspApplyPC_Private(EasKsp ksp, EasVec r, EasVec z)
{
  PetscFunctionBegin;
  if (ksp->pbinv) {
    const PetscScalar *ra;
    PetscScalar       *za;
    EasBackend         be = ksp->op.be;
    PetscCall(EasVecGetBackendArrayRead(r, &ra));
    PetscCall(EasVecGetBackendArrayWrite(z, &za));
    PetscCall(PetscLogEventBegin(EAS_VecOps, 0, 0, 0, 0));
    PetscCall((*be->ops->block_mult)(be, ksp->op.n / ksp->op.bs, ksp->op.bs, ksp->pbinv, ra, za));
    PetscCall(PetscLogEventEnd(EAS_VecOps, 0, 0, 0, 0));
  } else
    PetscCall(EasVecPointwiseMult(z, ksp->dinv, r));
  PetscFunctionReturn(0);
}

/*@C
  EasKspSetUp - checks the operator and builds the preconditioner.  Once set
  up, it compares the DIA operator's states with those of the last setup:
  same pattern and new values (EasDiaRestoreValuesWrite()) -> only the
  value-dependent data is recomputed in place (the type's setup_values: the
  Jacobi scaling and the column-scaled copy of bicgstab, the inverse
  diagonal of cg/pipecg), a new pattern -> the whole setup again.
  Errors: no operator; a zero diagonal entry with -pc_type jacobi.
@*/
PetscErrorCode EasKspSetUp(EasKsp ksp)
{
  PetscObjectState st = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (ksp->setupcalled && ksp->A) {
    PetscCall(PetscObjectStateGet((PetscObject)ksp->A, &st));
    if (ksp->A->nonzerostate != ksp->A_nzstate) {
      PetscCall(PetscInfo(ksp, "the operator has a new pattern: full setup\n"));
      PetscCall(EasKspReset_Private(ksp));
    } else if (st != ksp->A_state) {
      PetscCall(PetscLogEventBegin(EAS_KspSetUp, ksp, 0, 0, 0));
      if (ksp->ops->setup_values) {
        PetscCall((*ksp->ops->setup_values)(ksp));
        ksp->A_state = st;
        ksp->nsetup_values++;
        if (!ksp->reuse_pc && strcmp(ksp->pc_type, EAS_PCNONE)) ksp->npc_builds++;
        PetscCall(PetscLogEventEnd(EAS_KspSetUp, ksp, 0, 0, 0));
        PetscFunctionReturn(0);
      }
      PetscCall(PetscLogEventEnd(EAS_KspSetUp, ksp, 0, 0, 0));
      PetscCall(EasKspReset_Private(ksp));
    }
  }
  if (ksp->setupcalled) PetscFunctionReturn(0);
  PetscCheck(ksp->A || ksp->ebe || ksp->shell.set, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ORDER, "EasKspSetUp: no operator; call EasKspSetOperator(), EasKspSetOperatorEbe() or EasKspSetOperatorShell() first");
  PetscCall(PetscLogEventBegin(EAS_KspSetUp, ksp, 0, 0, 0));
  if (ksp->A) {
    PetscCall(PetscObjectStateGet((PetscObject)ksp->A, &ksp->A_state));
    ksp->A_nzstate = ksp->A->nonzerostate;
    PetscCall(EasDiaSetUp(ksp->A));
    ksp->op.n        = ksp->A->n;
    ksp->op.nown     = ksp->A->n;
    ksp->op.bs       = 1;
    ksp->op.be       = ksp->A->be;
    ksp->op.mult     = EasKspMultDia_Private;
    ksp->op.diagonal = EasKspDiagonalDia_Private;
  } else if (ksp->shell.set) {
    ksp->op.n        = ksp->shell.n;
    ksp->op.nown     = ksp->shell.nown;
    ksp->op.bs       = ksp->shell.bs;
    ksp->op.be       = ksp->shell.be;
    ksp->op.mult     = EasKspMultShell_Private;
    ksp->op.diagonal = EasKspDiagonalShell_Private;
  } else {
    PetscCall(EasEbeSetUp(ksp->ebe));
    ksp->op.n        = ksp->ebe->nnodes * ksp->ebe->dof;
    ksp->op.nown     = ksp->ebe->nowned * ksp->ebe->dof;
    ksp->op.bs       = ksp->ebe->dof;
    ksp->op.be       = ksp->ebe->be;
    ksp->op.mult     = EasKspMultEbe_Private;
    ksp->op.diagonal = EasKspDiagonalEbe_Private;
  }
  if (ksp->ops->setup) PetscCall((*ksp->ops->setup)(ksp));
  ksp->setupcalled = PETSC_TRUE;
  ksp->nsetup_full++;
  if (strcmp(ksp->pc_type, EAS_PCNONE)) ksp->npc_builds++;
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
  if (ksp->converged) { /* EasKspSetConvergenceTest */
    PetscCall((*ksp->converged)(ksp, its, rnorm, &ksp->reason, ksp->cnvctx));
    PetscFunctionReturn(0);
  }
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
  PetscCheck(nb == ksp->op.n && nx == ksp->op.n, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "EasKspSolve: size mismatch: operator has %" PetscInt_FMT " rows, b has %" PetscInt_FMT " and x %" PetscInt_FMT " entries", ksp->op.n, nb, nx);
  PetscCheck(b != x, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_IDN, "EasKspSolve: b and x must be different vectors");
  be = ksp->op.be;
  PetscCall(EasVecGetBackend(b, &bb));
  PetscCall(EasVecGetBackend(x, &bx));
  PetscCheck(bb == be && bx == be, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_INCOMP, "EasKspSolve: b and x must live on the operator's backend %s (use EasDiaCreateVecs() or EasEbeCreateVecs())", be->resource);
  if (ksp->ebe) PetscCall(EasEbeSplitSolveBegin_Private(ksp->ebe));
  ksp->reason = KSP_CONVERGED_ITERATING;
  ksp->its    = 0;
  PetscCall(PetscLogEventBegin(EAS_KspSolve, ksp, 0, 0, 0));
  if (ksp->ebe) PetscCall(EasEbeCallHooks_Private(ksp->ebe, EAS_HOOK_SOLVE_BEGIN, 0));
  PetscCall((*ksp->ops->solve)(ksp, b, x));
  if (ksp->ebe) PetscCall(EasEbeCallHooks_Private(ksp->ebe, EAS_HOOK_SOLVE_END, ksp->its));
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

/*@C
  EasKspSetReusePreconditioner - with flag true, a setup after the
  operator's values changed (same pattern, EasDiaRestoreValuesWrite())
  refreshes the operator but keeps the preconditioner built from the
  earlier values: the ILU factor, the Jacobi diagonal (PETSc's
  KSPSetReusePreconditioner; -ksp_reuse_preconditioner).  A new pattern
  still builds it anew, and so does the first setup.  EasAdr's
  -adr_lag_preconditioner sets it between its rebuilds.
@*/
PetscErrorCode EasKspSetReusePreconditioner(EasKsp ksp, PetscBool flag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  ksp->reuse_pc = flag;
  PetscFunctionReturn(0);
}

/*@C
  EasKspGetReusePreconditioner - whether values-only setups keep the
  preconditioner (EasKspSetReusePreconditioner).
@*/
PetscErrorCode EasKspGetReusePreconditioner(EasKsp ksp, PetscBool *flag)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidBoolPointer(flag, 2);
  *flag = ksp->reuse_pc;
  PetscFunctionReturn(0);
}

/*@C
  EasKspGetPCBuilds - how many times the preconditioner was built (ILU
  factorizations, Jacobi diagonals) over full and values-only setups: the
  setups minus those that reused it (EasKspSetReusePreconditioner); 0 with
  -pc_type none.
@*/
PetscErrorCode EasKspGetPCBuilds(EasKsp ksp, PetscInt *builds)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  PetscValidIntPointer(builds, 2);
  *builds = ksp->npc_builds;
  PetscFunctionReturn(0);
}

/*@C
  EasKspGetILUOffsets - the offsets of the ILU factor's pattern, in host
  memory and ascending: the operator's own for ILU(0) in its order, with
  their level-k fill for ILU(k), those of P A P' with -pc_ilu_axes.  ndiag
  is 0 and off NULL until a setup with -pc_type ilu has built the factor.
  Either pointer may be NULL; the array belongs to the solver.
@*/
PetscErrorCode EasKspGetILUOffsets(EasKsp ksp, PetscInt *ndiag, const PetscInt *off[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (ndiag) *ndiag = !ksp->ilu_f ? 0 : (ksp->ilu_levels > 0 || ksp->ilu_Ap ? ksp->ilu_k.ndiag : ksp->A->ndiag); /* bicgstab.c EasKspILUKernel's choice */
  if (off) *off = ksp->ilu_f ? ksp->ilu_off_host : NULL;
  PetscFunctionReturn(0);
}

/*@C
  EasKspGetSetUpCounts - how many setups the solver did: full (allocation,
  preconditioner) and values only (same operator pattern, new values).
  Either pointer may be NULL.
@*/
PetscErrorCode EasKspGetSetUpCounts(EasKsp ksp, PetscInt *full, PetscInt *values)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, EAS_KSP_CLASSID, 1);
  if (full) *full = ksp->nsetup_full;
  if (values) *values = ksp->nsetup_values;
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
  PetscCall(PetscViewerASCIIPrintf(viewer, "preconditioner: %s (%s), residual norm: unpreconditioned\n", ksp->pc_type, ksp->A && !ksp->ebe && ((PetscObject)ksp)->type_name && !strcmp(((PetscObject)ksp)->type_name, EAS_BICGSTAB) ? "right" : "left"));
  if (ksp->ops->view) PetscCall((*ksp->ops->view)(ksp, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "setups: %" PetscInt_FMT " full, %" PetscInt_FMT " values only (same pattern, new values); preconditioner built %" PetscInt_FMT " times%s\n", ksp->nsetup_full, ksp->nsetup_values, ksp->npc_builds, ksp->reuse_pc ? ", reused by values-only setups now" : ""));
  if (ksp->A) PetscCall(EasDiaView(ksp->A, viewer));
  if (ksp->A && ksp->A->be) PetscCall(EasBackendView(ksp->A->be, viewer));
  if (ksp->ebe) PetscCall(EasEbeView(ksp->ebe, viewer));
  if (ksp->ebe && ksp->ebe->be) PetscCall(EasBackendView(ksp->ebe->be, viewer));
  if (ksp->shell.set) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "operator given by callbacks: %" PetscInt_FMT " local rows (%" PetscInt_FMT " owned), point blocks of %" PetscInt_FMT "\n", ksp->shell.n, ksp->shell.nown, ksp->shell.bs));
    PetscCall(EasBackendView(ksp->shell.be, viewer));
  }
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
  PetscCall(PetscFree((*ksp)->ilu_fill));
  for (PetscInt m = 0; m < (*ksp)->nmon; m++)
    if ((*ksp)->mondestroy[m]) PetscCall((*(*ksp)->mondestroy[m])(&(*ksp)->monctx[m]));
  PetscCall(PetscViewerDestroy(&(*ksp)->reason_viewer));
  if ((*ksp)->cnvdestroy) PetscCall((*(*ksp)->cnvdestroy)(&(*ksp)->cnvctx));
  PetscCall(EasBackendDestroy(&(*ksp)->shell.be));
  PetscCall(EasDiaDestroy(&(*ksp)->A));
  PetscCall(EasEbeDestroy(&(*ksp)->ebe));
  PetscCall(PetscHeaderDestroy(ksp));
  PetscFunctionReturn(0);
}
