/*
  Preconditioned conjugate gradients over the operator abstraction of
  kspimpl.h (an EasDia or an EasEbe), docs/ebe.md:

  cg      standard PCG (Hestenes-Stiefel; Lang-Rünger Alg. 1 with the EBE
          matvec), left preconditioning, the unpreconditioned residual norm
          monitored and tested; two blocking MPI_Allreduce per iteration
          ((p, A p), then (r, z) and (r, r) fused with the x/r/z update).
  pipecg  pipelined CG of Ghysels & Vanroose (Parallel Comput. 40, 2014,
          Alg. 3): one MPI_Iallreduce of (r,u), (w,u), (r,r) per iteration,
          overlapped with the operator apply n = A m (and, with -ebe_mode
          async, the operator's own halo exchange overlapped with its
          interior elements).

  Both stop with the PETSc reasons of EasKspLogResidual_Private; a
  non-positive p^T A p is KSP_DIVERGED_INDEFINITE_MAT, a negative (r, M r)
  KSP_DIVERGED_INDEFINITE_PC (PetscInfo says which iteration and value).
*/
#include "kspimpl.h"

/* Energy meter of an EBE operator (include/eas/ebe.h; no-ops otherwise):
   setup, Krylov vector work (compute, no elements), reductions (exchange). */
#define EAS_MB(p) PetscCall(EasEbeMeterBegin_Private(ksp->ebe, p))
#define EAS_ME(p) PetscCall(EasEbeMeterEnd_Private(ksp->ebe, p, 0))
#define EAS_TRACE() PetscCall(EasEbeEnergyTraceRow_Private(ksp->ebe))
/* The hooks of the layers above (EasEbeAddHook: the energy policies) after each iteration. */
#define EAS_POLICY(it) PetscCall(EasEbeCallHooks_Private(ksp->ebe, EAS_HOOK_ITERATION, it))

enum { C_R,
       C_Z,
       C_P,
       C_Q,
       C_N };

static PetscErrorCode EasKspCheckOperatorSymmetric_Private(EasKsp ksp)
{
  PetscFunctionBegin;
  if (ksp->ebe) PetscCall(EasEbeCheckSymmetric(ksp->ebe, 1e-12));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspSetUp_CG(EasKsp ksp)
{
  PetscFunctionBegin;
  EAS_MB(EAS_PHASE_SETUP);
  PetscCall(EasKspCheckOperatorSymmetric_Private(ksp));
  for (PetscInt i = 0; i < C_N; i++) PetscCall(EasVecCreate(ksp->op.be, ksp->op.n, &ksp->work[i]));
  ksp->nwork = C_N;
  PetscCall(EasKspSetUpPC_Private(ksp));
  EAS_ME(EAS_PHASE_SETUP);
  PetscFunctionReturn(0);
}

/* Same DIA pattern, new values (EasKspSetUp): refresh the operator's
   backend copy and refill the Jacobi inverse diagonal in place (kept with
   EasKspSetReusePreconditioner). */
static PetscErrorCode EasKspSetUpValues_CG(EasKsp ksp)
{
  PetscFunctionBegin;
  PetscCall(EasDiaSetUp(ksp->A));
  if (!ksp->reuse_pc) PetscCall(EasKspSetUpPC_Private(ksp));
  PetscFunctionReturn(0);
}

/* Local dot over the owned entries. */
static PetscErrorCode EasKspDotOwned_Private(EasKsp ksp, EasVec x, EasVec y, PetscScalar *d)
{
  const PetscScalar *xa, *ya;
  EasBackend         be = ksp->op.be;

  PetscFunctionBegin;
  PetscCall(EasVecGetBackendArrayRead(x, &xa));
  PetscCall(EasVecGetBackendArrayRead(y, &ya));
  PetscCall(PetscLogEventBegin(EAS_VecDot, 0, 0, 0, 0));
  PetscCall((*be->ops->dot_local)(be, ksp->op.nown, xa, ya, d));
  PetscCall(PetscLogEventEnd(EAS_VecDot, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspSolve_CG(EasKsp ksp, EasVec b, EasVec x)
{
  EasVec            *w = ksp->work, r = w[C_R], z = w[C_Z], p = w[C_P], q = w[C_Q];
  EasBackend         be = ksp->op.be;
  PetscScalar        dots[2], rz, pq, alpha, beta;
  PetscScalar       *xa, *ra, *za;
  const PetscScalar *pa, *qa, *da;

  PetscFunctionBegin;
  EAS_MB(EAS_PHASE_COMPUTE);
  PetscCall(EasVecSet(x, 0.0));
  PetscCall(EasVecCopy(b, r));
  PetscCall(EasKspApplyPC_Private(ksp, r, z));
  PetscCall(EasVecCopy(z, p));
  PetscCall(EasKspDotOwned_Private(ksp, r, z, &dots[0]));
  PetscCall(EasKspDotOwned_Private(ksp, r, r, &dots[1]));
  EAS_ME(EAS_PHASE_COMPUTE);
  EAS_MB(EAS_PHASE_EXCHANGE);
  PetscCall(EasKspAllreduce_Private(ksp, dots, 2));
  EAS_ME(EAS_PHASE_EXCHANGE);
  rz = dots[0];
  PetscCall(EasKspLogResidual_Private(ksp, 0, PetscSqrtReal(PetscAbsScalar(dots[1]))));
  for (PetscInt it = 1; !ksp->reason; it++) {
    PetscCall((*ksp->op.mult)(ksp, p, q)); /* q = A p */
    EAS_MB(EAS_PHASE_COMPUTE);
    PetscCall(EasKspDotOwned_Private(ksp, p, q, &pq));
    EAS_ME(EAS_PHASE_COMPUTE);
    EAS_MB(EAS_PHASE_EXCHANGE);
    PetscCall(EasKspAllreduce_Private(ksp, &pq, 1));
    EAS_ME(EAS_PHASE_EXCHANGE);
    if (PetscIsInfOrNanScalar(pq) || pq <= 0.0) {
      ksp->its    = it;
      ksp->reason = PetscIsInfOrNanScalar(pq) ? KSP_DIVERGED_NANORINF : KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "CG: indefinite operator at iteration %" PetscInt_FMT ": p^T A p = %g <= 0\n", it, (double)pq));
      break;
    }
    alpha = rz / pq;
    /* x += alpha p;  r -= alpha q;  z = D^{-1} r;  (r, z), (r, r) */
    EAS_MB(EAS_PHASE_COMPUTE);
    PetscCall(EasVecGetBackendArray(x, &xa));
    PetscCall(EasVecGetBackendArray(r, &ra));
    PetscCall(EasVecGetBackendArrayWrite(z, &za));
    PetscCall(EasVecGetBackendArrayRead(p, &pa));
    PetscCall(EasVecGetBackendArrayRead(q, &qa));
    da = NULL;
    if (ksp->dinv) PetscCall(EasVecGetBackendArrayRead(ksp->dinv, &da));
    PetscCall(PetscLogEventBegin(EAS_CgUpdate, 0, 0, 0, 0));
    PetscCall((*be->ops->cg_update)(be, ksp->op.n, ksp->op.nown, alpha, pa, qa, da, xa, ra, za, dots));
    PetscCall(PetscLogEventEnd(EAS_CgUpdate, 0, 0, 0, 0));
    if (!ksp->dinv) { /* point-block Jacobi: z = B^{-1} r, then (r, z) */
      PetscCall(EasKspApplyPC_Private(ksp, r, z));
      PetscCall(EasKspDotOwned_Private(ksp, r, z, &dots[0]));
    }
    EAS_ME(EAS_PHASE_COMPUTE);
    EAS_MB(EAS_PHASE_EXCHANGE);
    PetscCall(EasKspAllreduce_Private(ksp, dots, 2));
    EAS_ME(EAS_PHASE_EXCHANGE);
    PetscCall(EasKspLogResidual_Private(ksp, it, PetscSqrtReal(PetscAbsScalar(dots[1]))));
    EAS_TRACE(); /* one -eas_trace row per iteration */
    EAS_POLICY(it);
    if (ksp->reason) break;
    if (dots[0] < 0.0) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
      PetscCall(PetscInfo(ksp, "CG: indefinite preconditioner at iteration %" PetscInt_FMT ": (r, M r) = %g < 0\n", it, (double)dots[0]));
      break;
    }
    beta = dots[0] / rz;
    rz   = dots[0];
    EAS_MB(EAS_PHASE_COMPUTE);
    PetscCall(EasVecAXPBY(p, 1.0, beta, z)); /* p = z + beta p */
    EAS_ME(EAS_PHASE_COMPUTE);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspView_CG(EasKsp ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "CG (%s operator), fused x/r/z update, 2 blocking allreduces per iteration\n", ksp->ebe ? "element-by-element" : "DIA"));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspCreate_CG(EasKsp ksp)
{
  PetscFunctionBegin;
  ksp->ops->setup        = EasKspSetUp_CG;
  ksp->ops->setup_values = EasKspSetUpValues_CG;
  ksp->ops->solve        = EasKspSolve_CG;
  ksp->ops->view         = EasKspView_CG;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------- pipecg */

enum { G_R,
       G_U,
       G_W,
       G_M,
       G_N,
       G_Z,
       G_Q,
       G_S,
       G_P,
       G_T, /* b - A x for the residual replacement */
       G_NW };

static PetscErrorCode EasKspSetUp_PipeCG(EasKsp ksp)
{
  PetscFunctionBegin;
  EAS_MB(EAS_PHASE_SETUP);
  PetscCall(EasKspCheckOperatorSymmetric_Private(ksp));
  for (PetscInt i = 0; i < G_NW; i++) PetscCall(EasVecCreate(ksp->op.be, ksp->op.n, &ksp->work[i]));
  ksp->nwork = G_NW;
  PetscCall(EasKspSetUpPC_Private(ksp));
  EAS_ME(EAS_PHASE_SETUP);
  PetscFunctionReturn(0);
}

/*
  Residual replacement (Cools, Vanroose et al.'s remedy for the rounding
  drift of pipelined CG): the recurrences r -= alpha s, u -= alpha q,
  w -= alpha z and s, q, z themselves accumulate rounding errors, so the
  recursive residual drifts from b - A x and stalls the attainable accuracy.
  Every -ksp_pipecg_replace iterations they are recomputed from x and p:
    r = b - A x, u = M r, w = A u, m = M w, s = A p, q = M s, z = A q,
  and the three local sums of the next reduction from the new r, u, w.
*/
static PetscErrorCode EasKspPipeCGReplace(EasKsp ksp, EasVec b, EasVec x, PetscScalar dots[3])
{
  EasVec *w = ksp->work;

  PetscFunctionBegin;
  PetscCall((*ksp->op.mult)(ksp, x, w[G_T]));
  PetscCall(EasVecCopy(b, w[G_R]));
  PetscCall(EasVecAXPBY(w[G_R], -1.0, 1.0, w[G_T]));     /* r = b - A x */
  PetscCall(EasKspApplyPC_Private(ksp, w[G_R], w[G_U])); /* u = M r */
  PetscCall((*ksp->op.mult)(ksp, w[G_U], w[G_W]));       /* w = A u */
  PetscCall(EasKspApplyPC_Private(ksp, w[G_W], w[G_M])); /* m = M w */
  PetscCall((*ksp->op.mult)(ksp, w[G_P], w[G_S]));       /* s = A p */
  PetscCall(EasKspApplyPC_Private(ksp, w[G_S], w[G_Q])); /* q = M s */
  PetscCall((*ksp->op.mult)(ksp, w[G_Q], w[G_Z]));       /* z = A q */
  PetscCall(EasKspDotOwned_Private(ksp, w[G_R], w[G_U], &dots[0]));
  PetscCall(EasKspDotOwned_Private(ksp, w[G_W], w[G_U], &dots[1]));
  PetscCall(EasKspDotOwned_Private(ksp, w[G_R], w[G_R], &dots[2]));
  ksp->nreplace++;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspSolve_PipeCG(EasKsp ksp, EasVec b, EasVec x)
{
  EasVec            *w    = ksp->work;
  EasBackend         be   = ksp->op.be;
  MPI_Comm           comm = PetscObjectComm((PetscObject)ksp);
  PetscMPIInt        size;
  PetscScalar        dots[3], gamma = 0, gamma_old = 1, delta, alpha = 1, alpha_old = 1, beta = 0, denom;
  PetscScalar       *z, *q, *s, *p, *xa, *r, *u, *ww, *m;
  const PetscScalar *nv, *da;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  ksp->nreplace = 0;
  EAS_MB(EAS_PHASE_COMPUTE);
  PetscCall(EasVecSet(x, 0.0));
  for (PetscInt i = G_Z; i <= G_P; i++) PetscCall(EasVecSet(w[i], 0.0));
  PetscCall(EasVecCopy(b, w[G_R]));                      /* r = b */
  PetscCall(EasKspApplyPC_Private(ksp, w[G_R], w[G_U])); /* u = M r */
  EAS_ME(EAS_PHASE_COMPUTE);
  PetscCall((*ksp->op.mult)(ksp, w[G_U], w[G_W])); /* w = A u */
  EAS_MB(EAS_PHASE_COMPUTE);
  PetscCall(EasKspDotOwned_Private(ksp, w[G_R], w[G_U], &dots[0]));
  PetscCall(EasKspDotOwned_Private(ksp, w[G_W], w[G_U], &dots[1]));
  PetscCall(EasKspDotOwned_Private(ksp, w[G_R], w[G_R], &dots[2]));
  PetscCall(EasKspApplyPC_Private(ksp, w[G_W], w[G_M])); /* m = M w */
  EAS_ME(EAS_PHASE_COMPUTE);
  for (PetscInt it = 0;; it++) {
    MPI_Request req = MPI_REQUEST_NULL;
    /* the single reduction of the iteration, overlapped with n = A m */
    if (size > 1) PetscCallMPI(MPI_Iallreduce(MPI_IN_PLACE, dots, 3, MPIU_SCALAR, MPIU_SUM, comm, &req));
    PetscCall((*ksp->op.mult)(ksp, w[G_M], w[G_N]));
    if (size > 1) {
      PetscCall(PetscLogEventBegin(EAS_Allreduce, 0, 0, 0, 0));
      EAS_MB(EAS_PHASE_EXCHANGE); /* the part of the reduction not hidden by the apply */
      PetscCallMPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      EAS_ME(EAS_PHASE_EXCHANGE);
      PetscCall(PetscLogEventEnd(EAS_Allreduce, 0, 0, 0, 0));
    }
    gamma = dots[0];
    delta = dots[1];
    PetscCall(EasKspLogResidual_Private(ksp, it, PetscSqrtReal(PetscAbsScalar(dots[2]))));
    if (it > 0) EAS_TRACE(); /* one -eas_trace row per iteration (the first apply counts with iteration 1) */
    if (it > 0) EAS_POLICY(it);
    if (ksp->reason) break;
    if (gamma < 0.0) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
      PetscCall(PetscInfo(ksp, "pipecg: indefinite preconditioner at iteration %" PetscInt_FMT ": (r, M r) = %g < 0\n", it, (double)gamma));
      break;
    }
    if (it == 0) {
      beta  = 0.0;
      denom = delta;
    } else {
      beta  = gamma / gamma_old;
      denom = delta - beta * gamma / alpha_old; /* = p^T A p */
    }
    if (PetscIsInfOrNanScalar(denom) || denom <= 0.0) {
      ksp->its    = it + 1;
      ksp->reason = PetscIsInfOrNanScalar(denom) ? KSP_DIVERGED_NANORINF : KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "pipecg: indefinite operator at iteration %" PetscInt_FMT ": p^T A p = %g <= 0\n", it + 1, (double)denom));
      break;
    }
    alpha = gamma / denom;
    EAS_MB(EAS_PHASE_COMPUTE);
    PetscCall(EasVecGetBackendArray(w[G_Z], &z));
    PetscCall(EasVecGetBackendArray(w[G_Q], &q));
    PetscCall(EasVecGetBackendArray(w[G_S], &s));
    PetscCall(EasVecGetBackendArray(w[G_P], &p));
    PetscCall(EasVecGetBackendArray(x, &xa));
    PetscCall(EasVecGetBackendArray(w[G_R], &r));
    PetscCall(EasVecGetBackendArray(w[G_U], &u));
    PetscCall(EasVecGetBackendArray(w[G_W], &ww));
    PetscCall(EasVecGetBackendArray(w[G_M], &m));
    PetscCall(EasVecGetBackendArrayRead(w[G_N], &nv));
    da = NULL;
    if (ksp->dinv) PetscCall(EasVecGetBackendArrayRead(ksp->dinv, &da));
    PetscCall(PetscLogEventBegin(EAS_PipeCgUpdate, 0, 0, 0, 0));
    PetscCall((*be->ops->pipecg_update)(be, ksp->op.n, ksp->op.nown, alpha, beta, da, z, q, s, p, xa, r, u, ww, m, nv, dots));
    PetscCall(PetscLogEventEnd(EAS_PipeCgUpdate, 0, 0, 0, 0));
    if (!ksp->dinv) PetscCall(EasKspApplyPC_Private(ksp, w[G_W], w[G_M])); /* point-block Jacobi */
    EAS_ME(EAS_PHASE_COMPUTE);
    if (ksp->pipecg_replace > 0 && (it + 1) % ksp->pipecg_replace == 0) PetscCall(EasKspPipeCGReplace(ksp, b, x, dots));
    gamma_old = gamma;
    alpha_old = alpha;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasKspView_PipeCG(EasKsp ksp, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "pipelined CG (Ghysels-Vanroose, %s operator): one MPI_Iallreduce per iteration overlapped with the operator apply\n", ksp->ebe ? "element-by-element" : "DIA"));
  if (ksp->pipecg_replace > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "residual replacement every %" PetscInt_FMT " iterations (%" PetscInt_FMT " in the last solve)\n", ksp->pipecg_replace, ksp->nreplace));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "no residual replacement (-ksp_pipecg_replace): the recursive residual may drift from b - A x below about 1e-10 relative\n"));
  PetscFunctionReturn(0);
}

PetscErrorCode EasKspCreate_PipeCG(EasKsp ksp)
{
  PetscFunctionBegin;
  ksp->ops->setup        = EasKspSetUp_PipeCG;
  ksp->ops->setup_values = EasKspSetUpValues_CG;
  ksp->ops->solve        = EasKspSolve_PipeCG;
  ksp->ops->view         = EasKspView_PipeCG;
  PetscFunctionReturn(0);
}
