/*
  KSPEASBCGS and KSPEASCG: PETSc Krylov types that run eas's solvers
  (include/eas/petsc.h, docs/petsc-plugin.md).

  On a MATEASDIA (easbcgs, eascg) or a MATEASEBE (eascg), with -pc_type
  jacobi, none (or pbjacobi for eascg), the solve is an EasKsp: eas's fused
  BiCGStab (right Jacobi, three sweeps per iteration; the couplings to
  other ranks added after each product, EasKspSetOperatorCoupling) or CG /
  pipelined CG over the matrix's own product (EasKspSetOperatorShell).
  PETSc's convergence test, monitors, residual history and reasons are
  called at every iteration (EasKspSetConvergenceTest), on the same
  unpreconditioned residual norm PETSc's KSPBCGS with -ksp_pc_side right and
  KSPCG with -ksp_norm_type unpreconditioned monitor, so the iterations
  are PETSc's to round-off.  A nonzero initial guess x0 is handled by
  solving A e = b - A x0.

  Anything else (another matrix type, a PC with no eas counterpart that
  works on any matrix, another norm or side) runs PETSc's own method
  (KSPBCGS, KSPCG, KSPPIPECG): the type is switched at setup, with a note
  under -info.  A PC that needs an assembled AIJ matrix on an eas matrix is
  an error that says so and names the ways out.
*/
#include "petscimpl.h"

typedef struct {
  PetscBool      bcgs;      /* easbcgs, else eascg */
  PetscBool      pipelined; /* eascg: -ksp_eascg_type pipecg */
  EasKsp         e;
  EasVec         eb, ex;
  Mat            A; /* the operator of the eas path (referenced) */
  PetscBool      isdia, jacobi;
  PetscObjectState Astate;  /* eascg: A's state when the shell operator was set */
  Vec            r0;        /* b - A x0 for a nonzero initial guess */
} KSP_Eas;

/* PC types that factor or sweep an assembled matrix: no eas counterpart */
static const char *const EasPetscAIJOnlyPCs[] = {PCILU, PCICC, PCLU, PCCHOLESKY, PCSOR, PCEISENSTAT, PCBJACOBI, PCASM, PCGASM, PCGAMG, PCHYPRE, PCML, PCSPAI, PCMG, PCTELESCOPE, PCREDUNDANT, PCFIELDSPLIT, PCKACZMARZ};

/* The EasKsp's convergence test: PETSc's (with its monitors and history). */
static PetscErrorCode KSPEasConverged(EasKsp e, PetscInt it, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  KSP ksp = (KSP)ctx;

  PetscFunctionBegin;
  (void)e;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = it;
  ksp->rnorm = rnorm;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, rnorm));
  PetscCall(KSPMonitor(ksp, it, rnorm));
  PetscCall((*ksp->converged)(ksp, it, rnorm, reason, ksp->cnvP));
  if (!*reason && it >= ksp->max_it) *reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

/* eascg on a MATEASDIA: the block's product plus the couplings (host arrays). */
static PetscErrorCode KSPEasDiaMult(void *ctx, EasVec x, EasVec y)
{
  Mat                A = (Mat)ctx;
  EasDia             D;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(MatEasDiaGetLocalDia(A, &D));
  PetscCall(EasDiaMult(D, x, y));
  if (((Mat_EasDia *)A->data)->scat) {
    PetscCall(EasVecGetArrayRead(x, &xa));
    PetscCall(EasVecGetArray(y, &ya));
    PetscCall(MatEasDiaCoupleHost_Private(A, PETSC_FALSE, xa, ya, NULL, NULL));
    PetscCall(EasVecRestoreArray(y, &ya));
    PetscCall(EasVecRestoreArrayRead(x, &xa));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPEasDiaDiagonal(void *ctx, EasVec d)
{
  EasDia D;

  PetscFunctionBegin;
  PetscCall(MatEasDiaGetLocalDia((Mat)ctx, &D));
  PetscCall(EasDiaGetDiagonal(D, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPReset_Eas(KSP ksp)
{
  KSP_Eas *k = (KSP_Eas *)ksp->data;

  PetscFunctionBegin;
  PetscCall(EasKspDestroy(&k->e));
  PetscCall(EasVecDestroy(&k->eb));
  PetscCall(EasVecDestroy(&k->ex));
  PetscCall(MatDestroy(&k->A));
  PetscCall(VecDestroy(&k->r0));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPDestroy_Eas(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_Eas(ksp));
  PetscCall(PetscFree(ksp->data));
  PetscFunctionReturn(0);
}

/* Why the eas path cannot run (NULL: it can), or an error for a PC that
   needs an assembled AIJ matrix. */
static PetscErrorCode KSPEasCheck(KSP ksp, Mat A, Mat P, const char **why)
{
  KSP_Eas    *k = (KSP_Eas *)ksp->data;
  const char *name = k->bcgs ? "KSPEASBCGS" : "KSPEASCG";
  PCType      pct;
  PetscBool   isdia, isebe, match;
  PetscInt    bs;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATEASDIA, &isdia));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATEASEBE, &isebe));
  if (!isdia && !isebe) {
    *why = "the operator is not a MATEASDIA or MATEASEBE";
    PetscFunctionReturn(0);
  }
  if (k->bcgs && !isdia) {
    *why = "eas's BiCGStab runs on a MATEASDIA (use -ksp_type eascg on a MATEASEBE)";
    PetscFunctionReturn(0);
  }
  PetscCall(PCGetType(ksp->pc, &pct));
  if (!pct) { /* PETSc's default for these matrices (no factorization, a diagonal) */
    PetscCall(PCSetType(ksp->pc, PCJACOBI));
    PetscCall(PCGetType(ksp->pc, &pct));
  }
  for (size_t i = 0; i < sizeof(EasPetscAIJOnlyPCs) / sizeof(EasPetscAIJOnlyPCs[0]); i++) {
    PetscCall(PetscStrcmp(pct, EasPetscAIJOnlyPCs[i], &match));
    PetscCheck(!match, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "%s on a %s: -pc_type %s needs an assembled AIJ matrix and has no eas counterpart; use -pc_type jacobi%s or none, or assemble a MATAIJ (-mat_type aij, -dm_mat_type aij, or MatConvert(A, MATAIJ, ...)) for PETSc's solvers", name, isdia ? "MATEASDIA" : "MATEASEBE", pct, k->bcgs ? "" : ", pbjacobi");
  }
  if (P != A) {
    *why = "the preconditioning matrix is not the operator";
    PetscFunctionReturn(0);
  }
  k->jacobi = PETSC_FALSE;
  PetscCall(PetscStrcmp(pct, PCJACOBI, &match));
  if (match) {
    PCJacobiType jt;
    PetscBool    useabs;
    PetscCall(PCJacobiGetType(ksp->pc, &jt));
    PetscCall(PCJacobiGetUseAbs(ksp->pc, &useabs));
    if (jt != PC_JACOBI_DIAGONAL || useabs) {
      *why = "-pc_jacobi_type rowmax|rowsum and -pc_jacobi_abs have no eas counterpart";
      PetscFunctionReturn(0);
    }
    k->jacobi = PETSC_TRUE;
  } else {
    PetscCall(PetscStrcmp(pct, PCPBJACOBI, &match));
    PetscCall(MatGetBlockSize(A, &bs));
    if (match && (k->bcgs || isdia)) {
      *why = "-pc_type pbjacobi: eas's point-block Jacobi is for a MATEASEBE under eascg";
      PetscFunctionReturn(0);
    }
    if (!match) {
      PetscCall(PetscStrcmp(pct, PCNONE, &match));
      if (!match) {
        *why = "the PC type has no eas counterpart (eas applies jacobi, pbjacobi or none itself)";
        PetscFunctionReturn(0);
      }
    }
  }
  if (ksp->normtype != KSP_NORM_UNPRECONDITIONED) {
    *why = "eas monitors the unpreconditioned residual norm (-ksp_norm_type unpreconditioned)";
    PetscFunctionReturn(0);
  }
  if (k->bcgs && ksp->pc_side != PC_RIGHT) {
    *why = "eas's BiCGStab preconditions on the right (-ksp_pc_side right)";
    PetscFunctionReturn(0);
  }
  if (!k->bcgs && ksp->pc_side != PC_LEFT) {
    *why = "eas's CG preconditions on the left (-ksp_pc_side left)";
    PetscFunctionReturn(0);
  }
  if (ksp->transpose_solve) {
    *why = "eas has no transpose solve";
    PetscFunctionReturn(0);
  }
  k->isdia = isdia;
  PetscFunctionReturn(0);
}

/* The shell operator of eascg, from the matrix's current values. */
static PetscErrorCode KSPEasSetShell(KSP ksp)
{
  KSP_Eas   *k = (KSP_Eas *)ksp->data;
  Mat        A = k->A;
  EasBackend be;

  PetscFunctionBegin;
  if (k->isdia) {
    EasDia   D;
    PetscInt n;
    PetscCall(MatEasDiaGetLocalDia(A, &D));
    PetscCall(EasDiaGetBackend(D, &be));
    PetscCall(EasDiaGetSize(D, &n, NULL));
    PetscCall(EasKspSetOperatorShell(k->e, be, n, n, 1, KSPEasDiaMult, KSPEasDiaDiagonal, NULL, A));
  } else {
    Mat_EasEbe *a = (Mat_EasEbe *)A->data;
    PetscCall(MatEasEbeSetUpOperator_Private(A));
    PetscCall(EasKspSetOperatorShell(k->e, a->be, a->nown + a->nghost, a->nown, a->bs, MatEasEbeShellMult_Private, MatEasEbeShellDiagonal_Private, MatEasEbeShellBlockDiagonal_Private, A));
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &k->Astate));
  PetscFunctionReturn(0);
}

/* Switches the KSP to PETSc's own method inside its KSPSetUp: the norm and
   side KSPSetUp chose for this type carry over when the new type supports
   them (KSPSetType resets them), else the new type's preferred pair. */
static PetscErrorCode KSPEasFallBack(KSP ksp, KSPType type)
{
  KSPNormType nt = ksp->normtype, bn = KSP_NORM_NONE;
  PCSide      side = ksp->pc_side, bs = PC_LEFT;
  PetscInt    best = 0;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, type)); /* destroys this type's data */
  if (ksp->normsupporttable[nt][side] > 0) {
    ksp->normtype = nt;
    ksp->pc_side  = side;
  } else {
    for (PetscInt n = 0; n < KSP_NORM_MAX; n++)
      for (PetscInt p = 0; p < PC_SIDE_MAX; p++)
        if (ksp->normsupporttable[n][p] > best && (ksp->normtype_set == KSP_NORM_DEFAULT || ksp->normtype_set == (KSPNormType)n) && (ksp->pc_side_set == PC_SIDE_DEFAULT || ksp->pc_side_set == (PCSide)p)) {
          best = ksp->normsupporttable[n][p];
          bn   = (KSPNormType)n;
          bs   = (PCSide)p;
        }
    PetscCheck(best > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "PETSc's %s supports neither -ksp_norm_type %s nor -ksp_pc_side %s", type, KSPNormTypes[nt], PCSides[side]);
    ksp->normtype = bn;
    ksp->pc_side  = bs;
  }
  PetscUseTypeMethod(ksp, setup);
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSetUp_Eas(KSP ksp)
{
  KSP_Eas       *k = (KSP_Eas *)ksp->data;
  Mat            A, P;
  const char    *why, *fallback, *pct;
  MPI_Comm       comm = PetscObjectComm((PetscObject)ksp);
  EasEnergyMeter m;
  PetscInt       unit;
  PetscMPIInt    size;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  PetscCall(KSPEasCheck(ksp, A, P, &why));
  if (why) {
    fallback = k->bcgs ? KSPBCGS : (k->pipelined ? KSPPIPECG : KSPCG);
    PetscCall(PetscInfo(ksp, "%s: %s: PETSc's %s runs instead\n", k->bcgs ? "KSPEASBCGS" : "KSPEASCG", why, fallback));
    PetscCall(KSPEasFallBack(ksp, fallback));
    PetscFunctionReturn(0);
  }
  PetscCall(KSPReset_Eas(ksp));
  PetscCall(PetscObjectReference((PetscObject)A));
  k->A = A;
  PetscCall(PCGetType(ksp->pc, &pct));
  PetscCall(EasKspCreate(comm, &k->e));
  { /* its own prefix: the EasKsp's -ksp_view etc. are -<prefix>eas_ksp_view, not the KSP's */
    const char *prefix;
    PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
    PetscCall(EasKspSetOptionsPrefix(k->e, prefix));
    PetscCall(EasKspAppendOptionsPrefix(k->e, "eas_"));
  }
  PetscCall(EasKspSetType(k->e, k->bcgs ? EAS_BICGSTAB : (k->pipelined ? EAS_PIPECG : EAS_CG)));
  PetscCall(EasKspSetPCType(k->e, k->jacobi ? EAS_PCJACOBI : (strcmp(pct, PCPBJACOBI) ? EAS_PCNONE : EAS_PCPBJACOBI)));
  PetscCall(EasKspSetConvergenceTest(k->e, KSPEasConverged, ksp, NULL));
  if (k->bcgs) {
    EasDia D;
    PetscCall(MatEasDiaGetLocalDia(A, &D));
    PetscCheck(D, PETSC_COMM_SELF, PETSC_ERR_SUP, "KSPEASBCGS: a rank without rows of the MATEASDIA (give every rank rows)");
    PetscCall(EasKspSetOperator(k->e, D));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (size > 1) PetscCall(EasKspSetOperatorCoupling(k->e, MatEasDiaCoupling_Private, A)); /* a no-op while no rank has couplings */
    PetscCall(EasDiaCreateVecs(D, &k->eb, &k->ex));
  } else {
    EasBackend be;
    PetscInt   n;
    PetscCall(KSPEasSetShell(ksp));
    be = k->isdia ? NULL : ((Mat_EasEbe *)A->data)->be;
    if (k->isdia) {
      EasDia D;
      PetscCall(MatEasDiaGetLocalDia(A, &D));
      PetscCall(EasDiaGetBackend(D, &be));
    }
    n = k->isdia ? A->rmap->n : ((Mat_EasEbe *)A->data)->nown + ((Mat_EasEbe *)A->data)->nghost;
    PetscCall(EasVecCreate(be, n, &k->eb));
    PetscCall(EasVecCreate(be, n, &k->ex));
  }
  {
    EasBackend be;
    PetscCall(EasVecGetBackend(k->eb, &be));
    PetscCall(EasPetscMeterGet(comm, be, &m, &unit));
  }
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_SETUP, unit));
  PetscCall(EasKspSetUp(k->e));
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_SETUP, unit, 0));
  PetscCall(PetscInfo(ksp, "%s: eas's %s on the %s, -pc_type %s\n", k->bcgs ? "KSPEASBCGS" : "KSPEASCG", k->bcgs ? "fused BiCGStab" : (k->pipelined ? "pipelined CG" : "CG"), k->isdia ? "MATEASDIA" : "MATEASEBE", pct));
  PetscFunctionReturn(0);
}

/* Local right-hand side of the eas vectors from a global Vec and back. */
static PetscErrorCode KSPEasToEas(KSP ksp, Vec v, EasVec e)
{
  KSP_Eas *k = (KSP_Eas *)ksp->data;

  PetscFunctionBegin;
  if (k->isdia) PetscCall(EasVecCopyFromVec(e, v));
  else PetscCall(MatEasEbeVecToLocal_Private(k->A, v, e));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPEasFromEas(KSP ksp, EasVec e, Vec v)
{
  KSP_Eas *k = (KSP_Eas *)ksp->data;

  PetscFunctionBegin;
  if (k->isdia) PetscCall(EasVecCopyToVec(e, v));
  else PetscCall(MatEasEbeVecFromLocal_Private(k->A, e, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSolve_Eas(KSP ksp)
{
  KSP_Eas         *k = (KSP_Eas *)ksp->data;
  Vec              b = ksp->vec_rhs, x = ksp->vec_sol;
  EasEnergyMeter   m;
  PetscInt         unit, its, n;
  EasBackend       be;
  PetscObjectState st;

  PetscFunctionBegin;
  { /* KSPSetOperators with another matrix since the setup (PETSc then sets up again only the PC) */
    Mat A;
    PetscCall(PCGetOperators(ksp->pc, &A, NULL));
    if (A != k->A) {
      PetscCall(KSPSetUp_Eas(ksp));
      if (ksp->ops->solve != KSPSolve_Eas) { /* fell back to PETSc's method */
        PetscUseTypeMethod(ksp, solve);
        PetscFunctionReturn(0);
      }
    }
  }
  if (!k->bcgs) { /* the shell operator carries no state: new values -> set it again */
    PetscCall(PetscObjectStateGet((PetscObject)k->A, &st));
    if (st != k->Astate) PetscCall(KSPEasSetShell(ksp));
  }
  if (k->bcgs && k->jacobi) PetscCall(MatEasDiaSetUpScaledCoupling_Private(k->A));
  if (ksp->guess_zero) {
    PetscCall(KSPEasToEas(ksp, b, k->eb));
  } else { /* A e = b - A x0, x = x0 + e */
    if (!k->r0) PetscCall(VecDuplicate(b, &k->r0));
    PetscCall(MatMult(k->A, x, k->r0));
    PetscCall(VecAYPX(k->r0, -1.0, b));
    PetscCall(KSPEasToEas(ksp, k->r0, k->eb));
  }
  PetscCall(EasVecGetBackend(k->eb, &be));
  PetscCall(EasPetscMeterGet(PetscObjectComm((PetscObject)ksp), be, &m, &unit));
  PetscCall(EasEnergyMeterBegin(m, EAS_PHASE_COMPUTE, unit));
  ksp->its = 0;
  PetscCall(EasKspSolve(k->e, k->eb, k->ex));
  PetscCall(EasKspGetIterationNumber(k->e, &its));
  PetscCall(EasVecGetSize(k->eb, &n));
  PetscCall(EasEnergyMeterEnd(m, EAS_PHASE_COMPUTE, unit, (PetscReal)n * its));
  if (ksp->guess_zero) PetscCall(KSPEasFromEas(ksp, k->ex, x));
  else {
    PetscCall(KSPEasFromEas(ksp, k->ex, k->r0));
    PetscCall(VecAXPY(x, 1.0, k->r0));
  }
  PetscCall(EasKspGetConvergedReason(k->e, &ksp->reason));
  ksp->its = its;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPView_Eas(KSP ksp, PetscViewer viewer)
{
  KSP_Eas  *k = (KSP_Eas *)ksp->data;
  PetscBool ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  if (!k->bcgs) PetscCall(PetscViewerASCIIPrintf(viewer, "  eas CG variant: %s\n", k->pipelined ? "pipecg" : "cg"));
  if (k->e) PetscCall(EasKspView(k->e, viewer));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  (not set up: eas's solver on a MATEASDIA/MATEASEBE, else PETSc's %s)\n", k->bcgs ? KSPBCGS : (k->pipelined ? KSPPIPECG : KSPCG)));
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPSetFromOptions_EasCG(KSP ksp, PetscOptionItems *PetscOptionsObject)
{
  KSP_Eas           *k       = (KSP_Eas *)ksp->data;
  const char *const  types[] = {"cg", "pipecg"};
  PetscInt           t       = k->pipelined ? 1 : 0;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSPEASCG options (eas's CG)");
  PetscCall(PetscOptionsEList("-ksp_eascg_type", "cg or pipecg (pipelined, one overlapped reduction per iteration)", "KSPEASCG", types, 2, types[t], &t, NULL));
  PetscOptionsHeadEnd();
  k->pipelined = t == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode KSPCreate_Eas(KSP ksp, PetscBool bcgs)
{
  KSP_Eas *k;

  PetscFunctionBegin;
  PetscCall(EasInitializePackage());
  PetscCall(PetscNew(&k));
  k->bcgs   = bcgs;
  ksp->data = k;
  if (bcgs) { /* the unpreconditioned norm with right Jacobi first: eas's BiCGStab */
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 3));
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 2));
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));
  } else {
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 3));
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 2));
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
    PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
    ksp->ops->setfromoptions = KSPSetFromOptions_EasCG;
  }
  ksp->ops->setup          = KSPSetUp_Eas;
  ksp->ops->solve          = KSPSolve_Eas;
  ksp->ops->destroy        = KSPDestroy_Eas;
  ksp->ops->reset          = KSPReset_Eas;
  ksp->ops->view           = KSPView_Eas;
  PetscFunctionReturn(0);
}

/*MC
  KSPEASBCGS - "easbcgs": eas's fused BiCGStab on a MATEASDIA (include/eas/petsc.h).
M*/
PetscErrorCode KSPCreate_EasBCGS(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_Eas(ksp, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*MC
  KSPEASCG - "eascg": eas's CG or pipelined CG on a MATEASDIA or MATEASEBE.
  Options: -ksp_eascg_type cg|pipecg.
M*/
PetscErrorCode KSPCreate_EasCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate_Eas(ksp, PETSC_FALSE));
  PetscFunctionReturn(0);
}
