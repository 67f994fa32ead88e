/*
  The finite-difference discretization of EasAdr on a rank's box
  (Vialle et al. eqs. 1.40-1.41):
    f_p = sum_faces w_f (c_nb(f) - c_p) + R(c_p, t)
  with, in direction x (y, z alike), K at the half points:
    diffusion     kx(x -+ h/2) / h^2 on the -x / +x faces,
    upwind        + a/h on the upstream face (a = a_x at the point),
    central       -+ a/(2h) on the +x / -x faces.
  Neighbours outside the rank's box are the halo (other ranks), the
  Dirichlet value g on a ghost plane at the box boundary (interior grid,
  h = L/(n+1)), or the mirrored first interior neighbour for zero flux
  (vertex grid with the boundary planes, h = L/(n-1)).
  Implicit stage: F(x) = x_old - x + dt f(x, t) (1.43); the rank solves
  J dx = F with J = -F'_ll = I - dt f'_ll (1.45), the couplings across the
  box edge staying on the right-hand side through the halo values.
  The residual and the Jacobian are computed on the backend by the point
  bodies of src/backends/kernels.h; this file fills their inputs.
*/
#include "adrimpl.h"
#include <omp.h>

static void EasAdrKernelParams(EasAdr, PetscReal, PetscReal, EasAdrKParams *);

/*
  EasAdrUpdateCoefficients_Private - transport weights w_f at every local
  point, the local Jacobian's couplings that depend only on them (wl,
  kernels.h EasAdrKLocalCouplingsPoint: read by every Newton iteration's
  assembly) and the Dirichlet values at time t (Vialle et al. eq. 1.40
  discretized).
*/
PetscErrorCode EasAdrUpdateCoefficients_Private(EasAdr adr, PetscReal t)
{
  EasAdrVelocityFn  vel  = adr->velocity ? adr->velocity : EasAdrVelocity_Builtin;
  EasAdrDiffusionFn dif  = adr->diffusion ? adr->diffusion : EasAdrDiffusion_Builtin;
  void             *vctx = adr->velocity ? adr->velocity_ctx : (void *)adr, *dctx = adr->diffusion ? adr->diffusion_ctx : (void *)adr;
  EasAdrValueFn     bfn  = adr->boundary ? adr->boundary : (adr->initial ? adr->initial : EasAdrInitial_Builtin);
  void             *bctx = adr->boundary ? adr->boundary_ctx : (adr->initial ? adr->initial_ctx : (void *)adr);

  PetscFunctionBegin;
  /* the built-in coefficients do not depend on t (the reaction rates, which
     do, are the kernels' parameters): computed once, not at every stage */
  if (adr->coef_t != PETSC_MIN_REAL && !adr->velocity && !adr->diffusion && !(adr->bc == EAS_ADR_BC_DIRICHLET && (adr->boundary || adr->initial))) {
    adr->coef_t = t;
    PetscFunctionReturn(0);
  }
  for (PetscInt p = 0; p < adr->np; p++) {
    const PetscReal *xyz = adr->coords + 3 * p;
    PetscReal        a[3], K[3], q[3];
    PetscCall((*vel)(t, xyz, a, vctx));
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal h = adr->h[d], h2 = h * h;
      PetscReal       km, kp, wm, wp;
      if (adr->N[d] == 1) { /* one plane (2D): no transport in d */
        adr->w[2 * d][p] = adr->w[2 * d + 1][p] = 0;
        continue;
      }
      PetscCall(PetscArraycpy(q, xyz, 3));
      q[d] = xyz[d] - 0.5 * h;
      PetscCall((*dif)(t, q, K, dctx));
      km   = K[d];
      q[d] = xyz[d] + 0.5 * h;
      PetscCall((*dif)(t, q, K, dctx));
      kp = K[d];
      PetscCheck(!PetscIsInfOrNanReal(a[d]) && !PetscIsInfOrNanReal(km) && !PetscIsInfOrNanReal(kp), PETSC_COMM_SELF, PETSC_ERR_FP, "The velocity or diffusion callback returned NaN or Inf at (%g, %g, %g), t = %g", (double)xyz[0], (double)xyz[1], (double)xyz[2], (double)t);
      PetscCheck(km >= 0 && kp >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The diffusion callback returned a negative coefficient at (%g, %g, %g)", (double)xyz[0], (double)xyz[1], (double)xyz[2]);
      wm = km / h2;
      wp = kp / h2;
      if (adr->advection == EAS_ADR_UPWIND) {
        if (a[d] >= 0)
          wm += a[d] / h;
        else
          wp -= a[d] / h;
      } else {
        wm += 0.5 * a[d] / h;
        wp -= 0.5 * a[d] / h;
      }
      adr->w[2 * d][p]     = wm;
      adr->w[2 * d + 1][p] = wp;
    }
  }
  {
    EasAdrKParams P;
    EasAdrKernelParams(adr, t, 0, &P); /* the box and its faces; wl does not depend on the step or the reaction */
    for (PetscInt k = 0; k < adr->nl[2]; k++)
      for (PetscInt j = 0; j < adr->nl[1]; j++)
        for (PetscInt i = 0; i < adr->nl[0]; i++) EasAdrKLocalCouplingsPointIJK((EasKInt)i, (EasKInt)j, (EasKInt)k, &P, adr->w[0], adr->wl);
  }
  if (adr->bc == EAS_ADR_BC_DIRICHLET) {
    for (PetscInt f = 0; f < 6; f++) {
      const PetscInt na = EasAdrFaceDimA(adr, f), nb = EasAdrFaceDimB(adr, f);
      if (!adr->bval[f]) continue;
      for (PetscInt b = 0; b < nb; b++)
        for (PetscInt a = 0; a < na; a++) {
          PetscInt  i, j, k;
          PetscReal xyz[3];
          EasAdrFacePoint(adr, f, a, b, &i, &j, &k, 1);
          EasAdrCoordinates(adr, adr->xs[0] + i, adr->xs[1] + j, adr->xs[2] + k, xyz);
          PetscCall((*bfn)(t, xyz, adr->bval[f] + 2 * (a + na * b), bctx));
        }
    }
  }
  adr->coef_t        = t;
  adr->w_synced      = PETSC_FALSE;
  adr->ghosts_padded = PETSC_FALSE; /* the Dirichlet values changed: the next pad gathers them */
  PetscFunctionReturn(0);
}

static inline int EasAdrThreads(EasAdr adr)
{
  return adr->be && adr->be->threads > 0 ? (int)adr->be->threads : omp_get_max_threads();
}

/* The kernels' parameters at time t (kernels.h EasAdrKParams). */
static void EasAdrKernelParams(EasAdr adr, PetscReal t, PetscReal dt, EasAdrKParams *P)
{
  PetscReal q3 = 0, q4 = 0;

  P->nx       = (EasKInt)adr->nl[0];
  P->ny       = (EasKInt)adr->nl[1];
  P->nz       = (EasKInt)adr->nl[2];
  P->np       = (EasKInt)adr->np;
  P->dt       = dt;
  P->reaction = adr->reaction ? EAS_ADRK_REACTION_USER : (adr->reaction_type == EAS_ADR_REACTION_LINEAR ? EAS_ADRK_REACTION_LINEAR : EAS_ADRK_REACTION_DIURNAL);
  for (PetscInt e = 0; e < 4; e++) P->L[e] = adr->L[e];
  if (P->reaction == EAS_ADRK_REACTION_DIURNAL) EasAdrDiurnalRates(t, &q3, &q4);
  P->q1c3 = EAS_ADR_Q1 * EAS_ADR_C3;
  P->q2   = EAS_ADR_Q2;
  P->q3   = q3;
  P->c3   = EAS_ADR_C3;
  P->q4   = q4;
  for (PetscInt f = 0; f < 6; f++) P->fold[f] = adr->nb[f] == MPI_PROC_NULL && adr->bc == EAS_ADR_BC_NEUMANN;
  for (PetscInt f = 0; f < 6; f++) P->skip[f] = (EasKInt)adr->ov[f]; /* the residual's sums over own points */
  P->ycoupled = adr->N[1] > 1;
  P->rw       = NULL; /* the assembly of a Newton iteration sets it (-adr_ts_eps_lin) */
}

/* User reaction on the host (callbacks are host code): Rv, dRv at x. */
static PetscErrorCode EasAdrUserReaction(EasAdr adr, PetscReal t, const PetscScalar *x, PetscScalar *Rv, PetscScalar *dRv)
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < adr->np; p++) PetscCall((*adr->reaction)(t, adr->coords + 3 * p, x + 2 * p, Rv + 2 * p, dRv + 4 * p, adr->reaction_ctx));
  PetscFunctionReturn(0);
}

/*
  EasAdrLocalFunction_Private - F = xold - x + dt f(x, t) on the rank's box
  (Vialle et al. eq. 1.43) on the host, with the reaction values and Jacobians
  kept in Rv, dRv: the same point body (kernels.h) as the backends'
  adr_function, for EasAdrComputeFunction/Jacobian.
*/
PetscErrorCode EasAdrLocalFunction_Private(EasAdr adr, PetscReal t, PetscReal dt, const PetscScalar *xold, const PetscScalar *x, PetscScalar *F, PetscBool *bad)
{
  EasAdrKParams P;
  PetscScalar   sum = 0;
  int           nt  = EasAdrThreads(adr);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_AdrFunction, adr, 0, 0, 0));
  PetscCall(EasAdrFillPaddedHost_Private(adr, x));
  EasAdrKernelParams(adr, t, dt, &P);
  if (adr->reaction) PetscCall(EasAdrUserReaction(adr, t, x, adr->Rv, adr->dRv));
#pragma omp parallel for schedule(static) num_threads(nt) reduction(+ \
                                                                    : sum)
  for (PetscInt p = 0; p < adr->np; p++) {
    EasKScalar acc[3] = {0.0, 0.0, 0.0};
    EasAdrKFunctionPoint(p, &P, adr->w[0], adr->xg, xold, adr->Rv, adr->dRv, F, acc);
    sum += acc[0];
  }
  *bad = PetscIsInfOrNanScalar(sum) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscLogEventEnd(EAS_AdrFunction, adr, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The backend array of host data: the host array itself on host-memory
   backends, else a copy into v's backend memory (a metered transfer). */
static PetscErrorCode EasAdrToBackend(EasAdr adr, EasVec v, const PetscScalar *host, PetscInt n, const PetscScalar **dev)
{
  PetscScalar *va;

  PetscFunctionBegin;
  if (!adr->device) {
    *dev = host;
    PetscFunctionReturn(0);
  }
  PetscCall(EasVecGetArrayWrite(v, &va));
  PetscCall(PetscArraycpy(va, host, n));
  PetscCall(EasVecRestoreArrayWrite(v, &va));
  PetscCall(EasVecGetBackendArrayRead(v, dev));
  PetscFunctionReturn(0);
}

/*
  EasAdrLocalAssemble_Private - one Newton iteration's F (into b) and local
  Jacobian J = I - dt f'_ll (into the EasDia's values) on the solver's
  backend (Vialle et al. eqs. 1.43-1.45), with the point bodies of kernels.h
  (backend ops adr_pad, adr_function, adr_jacobian).  The padded state is
  filled on the backend from the state there and the neighbours' planes
  (adrstate.c: only the planes go up); user reaction callbacks run on the
  host (the state comes down, Rv and dRv go up); the Jacobian is assembled
  on the backend: no matrix crosses the bus.  With jac_fold
  (EasAdrFoldJacobi_Private) the inner solver's right Jacobi is assembled
  in (adr_jacobian_jacobi: D^{-1} into adr->dinv, J D^{-1} into J's values),
  else J, scaled by the inner solver's setup (dia_jacobi).  fnorm2: this rank's
  ||F_s||^2, the true residual with the current ghosts; *bad: F or the
  reaction Jacobian is not finite.
*/
PetscErrorCode EasAdrLocalAssemble_Private(EasAdr adr, PetscReal t, PetscReal dt, PetscReal fnorm2[2], PetscBool *bad)
{
  EasBackend         be = adr->be;
  EasAdrKParams      P;
  const PetscScalar *xg, *xold, *w, *wl;
  PetscScalar       *Rv, *dRv, *F, *V, sums[3];
  PetscInt           ld;
  PetscBool          newjac;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_AdrFunction, adr, 0, 0, 0));
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  EasAdrKernelParams(adr, t, dt, &P);
  if (adr->reaction) { /* user callbacks are host code: the state comes down for them */
    PetscCall(EasAdrStateSyncHost_Private(adr));
    PetscCall(EasAdrUserReaction(adr, t, adr->x, adr->Rv, adr->dRv));
  }
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, 0));
  if (adr->device) PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_TRANSFER));
  PetscCall(EasAdrPadded_Private(adr, &xg)); /* the neighbours' planes go up, the padded state is filled there */
  if (!adr->device)
    xold = adr->xold;
  else if (!adr->xold_synced)
    PetscCall(EasAdrToBackend(adr, adr->xold_v, adr->xold, adr->n, &xold));
  else
    PetscCall(EasVecGetBackendArrayRead(adr->xold_v, &xold));
  adr->xold_synced = PETSC_TRUE;
  if (!adr->device) {
    w  = adr->w[0];
    wl = adr->wl;
  } else if (!adr->w_synced) {
    PetscCall(EasAdrToBackend(adr, adr->w_v, adr->w[0], 6 * adr->np, &w));
    PetscCall(EasAdrToBackend(adr, adr->wl_v, adr->wl, 7 * adr->np, &wl));
  } else {
    PetscCall(EasVecGetBackendArrayRead(adr->w_v, &w));
    PetscCall(EasVecGetBackendArrayRead(adr->wl_v, &wl));
  }
  adr->w_synced = PETSC_TRUE;
  if (!adr->device) {
    Rv  = adr->Rv;
    dRv = adr->dRv;
  } else if (adr->reaction) {
    PetscCall(EasAdrToBackend(adr, adr->Rv_v, adr->Rv, 2 * adr->np, (const PetscScalar **)&Rv));
    PetscCall(EasAdrToBackend(adr, adr->dRv_v, adr->dRv, 4 * adr->np, (const PetscScalar **)&dRv));
  } else {
    PetscCall(EasVecGetBackendArrayWrite(adr->Rv_v, &Rv));
    PetscCall(EasVecGetBackendArrayWrite(adr->dRv_v, &dRv));
  }
  if (adr->device) PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_TRANSFER, (PetscReal)adr->n));
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  newjac = (PetscBool) !(adr->stage.reuse_jac && adr->jac_valid);
  if (newjac) { /* -adr_ts_eps_lin: the inner system in CVODE's error weights, fixed with the Jacobian (F is scaled by the same) */
    adr->jac_rw = (PetscBool)(adr->stage.ewt && adr->stage.wtol > 0 && adr->ts_eps_lin > 0 && adr->jac_fold && !adr->ew.use);
    if (adr->jac_rw) {
      const PetscScalar *xh;
      PetscCall(EasAdrStateSyncHost_Private(adr)); /* the box's state, its overlap filled by the pad above (on a device it comes down) */
      xh = adr->x;
      if (!adr->rw) PetscCall(PetscMalloc1(2 * adr->np, &adr->rw));
      for (PetscInt i = 0; i < 2 * adr->np; i++) adr->rw[i] = 1.0 / (adr->ts_rtol * PetscAbsScalar(xh[i]) + adr->ts_atol); /* CVODE's weights of SStolerances */
      PetscCall(EasAdrToBackend(adr, adr->rw_v, adr->rw, 2 * adr->np, &P.rw)); /* up with the Jacobian (the host array on the CPU) */
    }
  } else if (adr->jac_rw) { /* the kept Jacobian's weights */
    if (adr->device) PetscCall(EasVecGetBackendArrayRead(adr->rw_v, &P.rw));
    else P.rw = adr->rw;
  }
  PetscCall(EasVecGetBackendArrayWrite(adr->b, &F));
  PetscCall((*be->ops->adr_function)(be, &P, w, xg, xold, Rv, dRv, F, sums));
  *bad      = PetscIsInfOrNanScalar(sums[0]) ? PETSC_TRUE : PETSC_FALSE;
  if (*bad && newjac) adr->jac_valid = PETSC_FALSE; /* no Jacobian below: a kept one no longer matches the weights just taken */
  fnorm2[0] = PetscRealPart(sums[1]);
  fnorm2[1] = PetscRealPart(sums[2]);
  PetscCall(PetscLogEventEnd(EAS_AdrFunction, adr, 0, 0, 0));
  PetscCall(PetscLogEventBegin(EAS_AdrJacobian, adr, 0, 0, 0));
  adr->stage.dx_scale = 1.0;
  if (!*bad && adr->stage.reuse_jac && adr->jac_valid && adr->jac_gamma != dt) /* a kept J = I - gamma' f': CVODE's own correction of the update, 2/(1 + gamma/gamma') */
    adr->stage.dx_scale = 2.0 / (1.0 + dt / adr->jac_gamma);
  if (!*bad && !(adr->stage.reuse_jac && adr->jac_valid)) { /* modified Newton (CVODE's stages): keep the Jacobian */
    if (adr->jac_fold) {                                    /* right Jacobi folded in: D^{-1} and J D^{-1} in one assembly, J itself never stored; single precision: its float copy too */
      PetscScalar *dv;
      float       *Vf;
      PetscInt     zr;
      PetscCall(EasDiaGetBackendValuesWriteSingle_Private(adr->J, &V, &Vf, &ld));
      PetscCall(EasVecGetBackendArrayWrite(adr->dinv, &dv));
      PetscCall((*be->ops->adr_jacobian_jacobi)(be, &P, wl, dRv, dv, V, Vf, ld, &zr));
      PetscCall(EasDiaRestoreBackendValuesWrite_Private(adr->J, &V));
      PetscCheck(zr < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Zero diagonal entry at row %" PetscInt_FMT " of the local Jacobian: -adr_pc_type jacobi needs a nonzero diagonal (use -adr_pc_type none)", zr);
    } else {
      PetscCall(EasDiaGetBackendValuesWrite_Private(adr->J, &V, &ld));
      PetscCall((*be->ops->adr_jacobian)(be, &P, w, dRv, V, ld));
      PetscCall(EasDiaRestoreBackendValuesWrite_Private(adr->J, &V));
    }
    /* -adr_lag_preconditioner k: the ILU rebuilt at the solve's Newton iterations 0, k, 2k, ... that have a new Jacobian (SNES's
       lag: (iter % k) == 0, tested where SNESComputeJacobian rebuilds); -1: never after the first setup */
    if (adr->pc_lag != 1) {
      PetscCheck(!strcmp(adr->ksp->pc_type, EAS_PCILU), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_INCOMP, "-adr_lag_preconditioner %" PetscInt_FMT " needs -adr_pc_type ilu (the inner preconditioner is %s): Jacobi is folded into the Jacobian's assembly, so rebuilding it costs no extra pass", adr->pc_lag, adr->jac_fold ? EAS_PCJACOBI : adr->ksp->pc_type);
      PetscCall(EasKspSetReusePreconditioner(adr->ksp, (PetscBool)(adr->pc_lag == -1 || adr->lag_it % adr->pc_lag != 0)));
    }
    PetscCall(EasKspSetUp(adr->ksp)); /* values only: the backend copy (float values) of J, or D^{-1} and J D^{-1} without jac_fold */
    adr->jac_valid = PETSC_TRUE;
    adr->jac_gamma = dt;
    adr->stats_jac++;
  }
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->n));
  PetscCall(PetscLogEventEnd(EAS_AdrJacobian, adr, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrComputeFunction - F = Xold - X + dt f(X, t) on the global layout
  (Vialle et al. eq. 1.43); collective.  Errors: Vecs of the wrong layout; a
  NaN/Inf in F (PETSC_ERR_FP).
@*/
PetscErrorCode EasAdrComputeFunction(EasAdr adr, PetscReal t, PetscReal dt, Vec Xold, Vec X, Vec F)
{
  const PetscScalar *xa, *xo;
  PetscScalar       *fa;
  PetscBool          bad;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrComputeFunction"));
  PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrComputeFunction"));
  if (t != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, t));
  PetscCall(VecGetArrayRead(X, &xa));
  PetscCall(VecGetArrayRead(Xold, &xo));
  PetscCall(VecGetArrayWrite(F, &fa));
  if (!adr->overlap) {
    PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xa, (PetscScalar *)xa, PETSC_FALSE)); /* the box is the own box: no copy, x only read */
    PetscCall(EasAdrLocalFunction_Private(adr, t, dt, xo, xa, fa, &bad));
  } else { /* the rows of the own points, computed on the box: x_old and x there with the neighbours' planes */
    PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xo, adr->bxo, PETSC_FALSE));
    PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xa, adr->bx, PETSC_FALSE));
    PetscCall(EasAdrLocalFunction_Private(adr, t, dt, adr->bxo, adr->bx, adr->bf, &bad));
    PetscCall(EasAdrOwnFromBox_Private(adr, adr->bf, fa));
  }
  PetscCall(VecRestoreArrayWrite(F, &fa));
  PetscCall(VecRestoreArrayRead(Xold, &xo));
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscFunctionReturn(0);
}

/*@C
  EasAdrComputeLocalJacobian - J_ll = I - dt f'_ll(X, t) of this rank's box
  in the solver's EasDia (borrowed), at X or, for X = NULL, at the current
  solution; the matrix the inner solver of a Newton iteration uses
  (Vialle et al. eq. 1.45).  Collective.  Errors: before EasAdrSetUp; a Vec of
  the wrong layout; NaN/Inf (PETSC_ERR_FP).
@*/
PetscErrorCode EasAdrComputeLocalJacobian(EasAdr adr, PetscReal t, PetscReal dt, Vec X, EasDia *J)
{
  const PetscScalar *xa;
  PetscBool          bad;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscValidPointer(J, 5);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrComputeLocalJacobian"));
  PetscCheck(dt > 0 && !PetscIsInfOrNanReal(dt), PetscObjectComm((PetscObject)adr), PETSC_ERR_ARG_OUTOFRANGE, "EasAdrComputeLocalJacobian: dt = %g, expected a time step > 0", (double)dt);
  if (t != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, t));
  if (X) {
    const PetscScalar *xv;
    PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrComputeLocalJacobian"));
    PetscCall(VecGetArrayRead(X, &xv));
    xa = adr->overlap ? adr->bx : xv; /* the box's values of X */
    PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xv, (PetscScalar *)xa, PETSC_FALSE));
    PetscCall(EasAdrLocalFunction_Private(adr, t, dt, xa, xa, adr->F, &bad)); /* for dR/dc at X */
    PetscCall(VecRestoreArrayRead(X, &xv));
  } else { /* the current solution: the box's state, refreshed on the overlap */
    PetscCall(EasAdrStateSyncHost_Private(adr));
    xa = adr->x;
    PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xa, adr->x, PETSC_FALSE));
    if (adr->overlap) PetscCall(EasAdrStateHostWritten_Private(adr)); /* the overlap's planes were written */
    PetscCall(EasAdrLocalFunction_Private(adr, t, dt, xa, xa, adr->F, &bad)); /* for dR/dc at X */
  }
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FP, "EasAdrComputeLocalJacobian: the function or the reaction Jacobian is NaN or Inf at t = %g", (double)t);
  PetscCall(PetscLogEventBegin(EAS_AdrJacobian, adr, 0, 0, 0));
  {
    EasAdrKParams P;
    PetscScalar  *V;
    PetscInt      ld;
    int           nt = EasAdrThreads(adr);
    EasAdrKernelParams(adr, t, dt, &P);
    PetscCall(EasDiaGetValuesWrite(adr->J, &V, &ld)); /* host values, the backend copy follows at its next use */
#pragma omp parallel for schedule(static) num_threads(nt)
    for (PetscInt p = 0; p < adr->np; p++) EasAdrKJacobianPoint(p, &P, adr->w[0], adr->dRv, V, ld); /* the backends' body */
    PetscCall(EasDiaRestoreValuesWrite(adr->J, &V));
  }
  adr->jac_valid = PETSC_FALSE; /* J now holds J_ll at X, not the Newton iteration's (J D^{-1} with jac_fold): a kept one is rebuilt */
  PetscCall(PetscLogEventEnd(EAS_AdrJacobian, adr, 0, 0, 0));
  *J = adr->J;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrCreateJacobianMat - an MPIAIJ matrix preallocated for EasAdrComputeJacobian().
@*/
PetscErrorCode EasAdrCreateJacobianMat(EasAdr adr, Mat *J)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrCreateJacobianMat"));
  PetscCall(MatCreateAIJ(PetscObjectComm((PetscObject)adr), adr->no, adr->no, PETSC_DETERMINE, PETSC_DETERMINE, 8, NULL, 6, NULL, J));
  PetscCall(MatSetOption(*J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* The global row of species s at global grid point g: its owner's first
   row and the point's place in the owner's own box. */
static PetscErrorCode EasAdrGlobalRow(EasAdr adr, const PetscInt g[3], PetscInt s, PetscInt *row)
{
  PetscMPIInt c[3], r;
  PetscInt    lo[3], n[3];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    PetscMPIInt p = 0;
    while (p + 1 < adr->dims[d] && g[d] >= adr->starts[d][p + 1]) p++;
    c[d]  = p;
    lo[d] = adr->starts[d][p];
    n[d]  = adr->starts[d][p + 1] - lo[d];
  }
  PetscCallMPI(MPI_Cart_rank(adr->cart, c, &r));
  *row = adr->rank_rstart[r] + 2 * ((g[0] - lo[0]) + n[0] * ((g[1] - lo[1]) + n[1] * (g[2] - lo[2]))) + s;
  PetscFunctionReturn(0);
}

/*@C
  EasAdrComputeJacobian - J = dF/dX of the whole coupled system (MPIAIJ),
  including the couplings across the ranks' boxes; collective.
@*/
PetscErrorCode EasAdrComputeJacobian(EasAdr adr, PetscReal t, PetscReal dt, Vec X, Mat J)
{
  const PetscInt     nx = adr->nl[0], ny = adr->nl[1];
  const PetscScalar *xa;
  const PetscScalar *xb;
  PetscBool          bad;
  EasAdrKParams      P;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  PetscCall(EasAdrCheckSetUp_Private(adr, "EasAdrComputeJacobian"));
  PetscCall(EasAdrCheckVec_Private(adr, X, "EasAdrComputeJacobian"));
  if (t != adr->coef_t) PetscCall(EasAdrUpdateCoefficients_Private(adr, t));
  PetscCall(VecGetArrayRead(X, &xa));
  xb = adr->overlap ? adr->bx : xa; /* X on the box */
  PetscCall(EasAdrBoxFromOwnHalo_Private(adr, xa, (PetscScalar *)xb, PETSC_FALSE));
  PetscCall(EasAdrLocalFunction_Private(adr, t, dt, xb, xb, adr->F, &bad)); /* for dR */
  PetscCall(VecRestoreArrayRead(X, &xa));
  PetscCall(MatZeroEntries(J));
  EasAdrKernelParams(adr, t, dt, &P);
  /* the rows of the own points (with an overlap, inside the box); a coupling
     to a point outside the own box is a column of its owner */
  for (PetscInt k = 0; k < adr->nlo[2]; k++)
    for (PetscInt j = 0; j < adr->nlo[1]; j++)
      for (PetscInt i = 0; i < adr->nlo[0]; i++) {
        const PetscInt p = (i + adr->ov[0]) + nx * ((j + adr->ov[2]) + ny * (k + adr->ov[4])), po = i + adr->nlo[0] * (j + adr->nlo[1] * k);
        const PetscInt g[3] = {adr->xso[0] + i, adr->xso[1] + j, adr->xso[2] + k};
        PetscScalar    eff[6], wsum;
        PetscBool      halo[6];
        const int      out = EasAdrKLocalWeights(p, &P, adr->w[0], eff, &wsum); /* the DIA kernels' body */
        for (PetscInt f = 0; f < 6; f++) halo[f] = (PetscBool)((out >> f & 1) && adr->nb[f] != MPI_PROC_NULL);
        for (PetscInt s = 0; s < 2; s++) {
          PetscInt    row = adr->rstart + 2 * po + s, cols[9], nc = 0;
          PetscScalar v[9];
          /* F' = -I + dt f' (Vialle et al. eq. 1.45) */
          cols[nc] = row;
          v[nc++]  = -1.0 - dt * wsum + dt * adr->dRv[4 * p + 3 * s];
          cols[nc] = adr->rstart + 2 * po + (1 - s);
          v[nc++]  = dt * adr->dRv[4 * p + (s == 0 ? 1 : 2)];
          for (PetscInt f = 0; f < 6; f++) {
            const PetscScalar wf = eff[f] != 0 ? eff[f] : (halo[f] ? adr->w[f][p] : 0);
            PetscInt          gn[3] = {g[0], g[1], g[2]};
            if (wf == 0) continue;
            gn[f / 2] += (f % 2) ? 1 : -1;
            if (gn[f / 2] >= adr->xso[f / 2] && gn[f / 2] < adr->xso[f / 2] + adr->nlo[f / 2]) /* in the own box: a row of this rank (no owner search) */
              cols[nc] = adr->rstart + 2 * ((gn[0] - adr->xso[0]) + adr->nlo[0] * ((gn[1] - adr->xso[1]) + adr->nlo[1] * (gn[2] - adr->xso[2]))) + s;
            else
              PetscCall(EasAdrGlobalRow(adr, gn, s, &cols[nc]));
            v[nc++] = dt * wf;
          }
          PetscCall(MatSetValues(J, 1, &row, nc, cols, v, ADD_VALUES));
        }
      }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}
