/*
  EasAdrSetUp: the Cartesian decomposition over the ranks, the local arrays,
  the halo, the backend objects (the local Jacobian in DIA, the inner
  solver) and the initial condition; and the choice of folding the inner
  solver's right Jacobi into the Jacobian assembly.
*/
#include "adrimpl.h"
#include "core/size.h"

/*
  EasAdrFoldJacobi_Private - right Jacobi of the inner BiCGStab folded into
  the Jacobian assembly.  BiCGStab with right Jacobi solves (J D^{-1}) y = F
  and returns dx = D^{-1} y (bicgstab.c); built from J, that is one more pass
  over the matrix per Newton iteration (read J, write J D^{-1}) after the
  assembly wrote J.  Assembled directly (kernels.h EasAdrKInvDiagPoint,
  EasAdrKJacobianJacobiPoint; backend op adr_jacobian_jacobi), J D^{-1} is
  the inner solver's operator, the solver runs without preconditioner, and
  the update applies D^{-1} (msnewton.c): the same products, one matrix
  pass and one matrix in memory less.  Decided from the preconditioner the
  user chose for the inner solver (-adr_pc_type, default jacobi) and its
  type (bicgstab; cg and pipecg keep their own Jacobi).  options: the
  inner solver's options were just read (EasKspSetFromOptions, the one
  parser of -adr_pc_type), so an explicit -adr_pc_type is the user's choice
  (the inner solver shows none while folded).
*/
PetscErrorCode EasAdrFoldJacobi_Private(EasAdr adr, PetscBool options)
{
  EasKsp    ksp = adr->ksp;
  char      want[16];
  PetscBool bcgs, jacobi;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(want, adr->jac_fold && !(options && ksp->pc_type_option) ? EAS_PCJACOBI : ksp->pc_type, sizeof(want)));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, EAS_BICGSTAB, &bcgs));
  PetscCall(PetscStrcmp(want, EAS_PCJACOBI, &jacobi));
  if (adr->jac_fold != (PetscBool)(bcgs && jacobi)) adr->jac_valid = PETSC_FALSE; /* a kept J holds the other form */
  adr->jac_fold = (PetscBool)(bcgs && jacobi);
  PetscCall(EasKspSetPCType(ksp, adr->jac_fold ? EAS_PCNONE : want));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------- decomposition */

/*
  EasAdrCouplingWeights - w_d = max over the box of dt (|V_d|/h_d + 2 K_d/h_d^2)
  at t0: the size of the couplings of a row of I - dt J to its two neighbours
  in d against a diagonal of about 1 (advection: dt |V_d|/h_d for central
  differences, at most that for upwind; diffusion: dt K_d/h_d^2 per side,
  docs/adr.md sec. 2), the entries that a cut normal to d drops from each
  rank's block (the multisplitting is block Jacobi on J, Vialle et al.
  sec. 1.7).  0 for a direction of one plane.  Every rank evaluates the
  coefficients at a share of the global points, then the maximum over ranks.
*/
static PetscErrorCode EasAdrCouplingWeights(EasAdr adr, MPI_Comm comm, PetscMPIInt rank, PetscMPIInt size, PetscReal w[3])
{
  EasAdrVelocityFn  vel  = adr->velocity ? adr->velocity : EasAdrVelocity_Builtin;
  EasAdrDiffusionFn dif  = adr->diffusion ? adr->diffusion : EasAdrDiffusion_Builtin;
  void             *vctx = adr->velocity ? adr->velocity_ctx : (void *)adr, *dctx = adr->diffusion ? adr->diffusion_ctx : (void *)adr;
  const PetscInt64  ntot  = (PetscInt64)adr->N[0] * adr->N[1] * adr->N[2];
  PetscReal         wl[3] = {0, 0, 0};

  PetscFunctionBegin;
  for (PetscInt64 g = rank; g < ntot; g += size) {
    const PetscInt gi = (PetscInt)(g % adr->N[0]), gj = (PetscInt)((g / adr->N[0]) % adr->N[1]), gk = (PetscInt)(g / ((PetscInt64)adr->N[0] * adr->N[1]));
    PetscReal      xyz[3], a[3], K[3];
    EasAdrCoordinates(adr, gi, gj, gk, xyz);
    PetscCall((*vel)(adr->t0, xyz, a, vctx));
    PetscCall((*dif)(adr->t0, xyz, K, dctx));
    for (PetscInt d = 0; d < 3; d++) {
      const PetscReal c = PetscAbsReal(a[d]) / adr->h[d] + 2 * K[d] / (adr->h[d] * adr->h[d]);
      PetscCheck(!PetscIsInfOrNanReal(c), PETSC_COMM_SELF, PETSC_ERR_FP, "The velocity or diffusion callback returned NaN or Inf at (%g, %g, %g), t = %g", (double)xyz[0], (double)xyz[1], (double)xyz[2], (double)adr->t0);
      if (adr->N[d] > 1) wl[d] = PetscMax(wl[d], adr->dt * c);
    }
  }
  PetscCall(MPIU_Allreduce(wl, w, 3, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(0);
}

/*
  EasAdrDecompose_Private - adr->dims: the given -adr_decomp, checked, or
  (auto) the grid px x py x pz = size with at least 2 planes per rank in
  each direction that cuts the least coupling,

      cost(p) = sum_d (p_d - 1) w_d N / N_d,

  the coupling dropped from the Jacobian by the p_d - 1 cuts normal to d, each
  of N / N_d rows on either side with couplings up to w_d.  With axes of very
  different weights (the diurnal problem: y only carries dt Kh/h^2) the
  weakest axes are cut first; with equal weights the cut area decides (2 x 2
  before 4 x 1).  Ties: the smaller largest box, then the first found
  (px, then py, ascending).  dt scales every weight alike, so the choice does
  not depend on the step.
*/
static PetscErrorCode EasAdrDecompose_Private(EasAdr adr, MPI_Comm comm)
{
  PetscMPIInt rank;
  PetscReal   best     = PETSC_MAX_REAL;
  PetscInt64  best_box = PETSC_MAX_INT;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  /* one pass of the coefficient callbacks over the grid (N / size points per
     rank): only where there is a choice to make and to report; on one rank
     the weights are not evaluated (-1 in EasAdrGetDecomposition and View) */
  if (adr->size > 1)
    PetscCall(EasAdrCouplingWeights(adr, comm, rank, adr->size, adr->decomp_w));
  else
    adr->decomp_w[0] = adr->decomp_w[1] = adr->decomp_w[2] = -1;
  if (adr->decomp[0] != PETSC_DECIDE) {
    /* the product is the rank count (EasAdrSetDecomposition); the planes per rank depend on the grid */
    for (PetscInt d = 0; d < 3; d++) {
      PetscCheck(adr->N[d] / adr->decomp[d] >= 2 || (adr->N[d] == 1 && adr->decomp[d] == 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_decomp %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " (EasAdrSetDecomposition): %" PetscInt_FMT " points in %c (-adr_n%c) over %" PetscInt_FMT " ranks leave fewer than 2 planes per rank; expected at most %" PetscInt_FMT " ranks in %c, or -adr_decomp auto", adr->decomp[0], adr->decomp[1], adr->decomp[2], adr->N[d], (char)('x' + d), (char)('x' + d), adr->decomp[d], adr->N[d] == 1 ? 1 : adr->N[d] / 2, (char)('x' + d));
      adr->dims[d] = (PetscMPIInt)adr->decomp[d];
    }
    PetscFunctionReturn(0);
  }
  adr->dims[0] = adr->dims[1] = adr->dims[2] = 0;
  for (PetscMPIInt px = 1; px <= adr->size; px++) {
    if (adr->size % px) continue;
    for (PetscMPIInt py = 1; py <= adr->size / px; py++) {
      const PetscMPIInt p[3] = {px, py, adr->size / px / py};
      PetscReal         cost = 0;
      PetscInt64        box  = 1;
      PetscBool         ok   = PETSC_TRUE;
      if ((adr->size / px) % py) continue;
      for (PetscInt d = 0; d < 3; d++) {
        ok = (PetscBool)(ok && (adr->N[d] / p[d] >= 2 || (adr->N[d] == 1 && p[d] == 1)));
        cost += (p[d] - 1) * adr->decomp_w[d] * ((PetscReal)adr->N[0] * adr->N[1] * adr->N[2] / adr->N[d]);
        box *= (adr->N[d] + p[d] - 1) / p[d];
      }
      if (!ok) continue;
      if (cost < best * (1 - 1e-12) || (cost <= best * (1 + 1e-12) && box < best_box)) {
        best     = cost;
        best_box = box;
        for (PetscInt d = 0; d < 3; d++) adr->dims[d] = p[d];
      }
    }
  }
  PetscCheck(adr->dims[0] > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid too small for %d ranks: no px x py x pz = %d leaves at least 2 planes per rank in every direction of the %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " grid (-adr_nx, -adr_ny, -adr_nz); use more points or fewer ranks", adr->size, adr->size, adr->N[0], adr->N[1], adr->N[2]);
  PetscFunctionReturn(0);
}

/* ----------------------------------------------------------------- setup */

/*@C
  EasAdrSetUp - the Cartesian decomposition (-adr_decomp: by coupling or
  given; MPI_Cart_create), the local arrays, the local Jacobian in DIA on the
  backend, the inner solver, and the initial condition.
  Errors: fewer than 2 points per rank in a direction ("grid too small";
  with -adr_decomp px,py,pz the error names it).
@*/
PetscErrorCode EasAdrSetUp(EasAdr adr)
{
  MPI_Comm      comm;
  PetscMPIInt   periods[3] = {0, 0, 0}, level;
  PetscInt      cnt[6], *ns;
  EasAdrValueFn ifn;
  void         *ictx;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adr, EAS_ADR_CLASSID, 1);
  if (adr->setupcalled) PetscFunctionReturn(0);
  comm = PetscObjectComm((PetscObject)adr);
  PetscCallMPI(MPI_Comm_size(comm, &adr->size));
  /* the backend and the energy meter first: SetUp itself is the setup phase */
  if (!adr->be) PetscCall(EasBackendCreateFor_Private((PetscObject)adr, PETSC_COMM_SELF, &adr->be)); /* -eas_backend auto: the energy policies' resolver */
  adr->device = adr->be->host_is_device ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(EasAdrMeterCreate_Private(adr));
  PetscCall(EasAdrMeterUnit_Private(adr));
  {
    MPI_Comm shm;
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    PetscCallMPI(MPI_Comm_size(shm, &adr->ppn));
    PetscCallMPI(MPI_Comm_free(&shm));
  }
  PetscCall(EasEnergyMeterStart(adr->meter));
  PetscCall(PetscTime(&adr->trace_tstart));
  adr->trace_tprev = adr->trace_tstart;
  PetscCall(EasAdrMeterBegin(adr, EAS_PHASE_SETUP));
  if (adr->async_thread) {
    PetscCall(EasGetMPIThreadLevel(&level));
    PetscCheck(level >= MPI_THREAD_MULTIPLE, comm, PETSC_ERR_SUP_SYS, "-eas_async_thread needs MPI_THREAD_MULTIPLE but MPI provides level %d; start with EasInitialize() (which asks for it) or drop -eas_async_thread", (int)level);
  }
  /* the spacing first (it does not depend on the decomposition): the step's
     default bound (beuler) and the coupling weights of the decomposition use it */
  for (PetscInt d = 0; d < 3; d++) {
    if (adr->N[d] == 1) { /* one plane in the middle of the box; no coupling in d */
      adr->h[d]     = adr->hi[d] - adr->lo[d];
      adr->shift[d] = 0.5;
    } else if (adr->bc == EAS_ADR_BC_DIRICHLET) {
      adr->h[d]     = (adr->hi[d] - adr->lo[d]) / (adr->N[d] + 1);
      adr->shift[d] = 1;
    } else {
      adr->h[d]     = (adr->hi[d] - adr->lo[d]) / (adr->N[d] - 1);
      adr->shift[d] = 0;
    }
  }
  PetscCall(EasAdrCheckLagJacobian_Private(adr, adr->ts_type, adr->jac_lag));
  if (adr->ts->setup) PetscCall((*adr->ts->setup)(adr)); /* beuler: the diurnal default step bounded by the grid */
  {                                                      /* the global size before any pass over the grid (the per-rank sizes below, once decomposed) */
    PetscInt chk;
    PetscCall(EasIntMul(comm, "ADR global unknowns 2*Nx*Ny*Nz", &chk, 2, adr->N[0], adr->N[1], adr->N[2]));
  }
  PetscCall(EasAdrDecompose_Private(adr, comm));
  PetscCallMPI(MPI_Cart_create(comm, 3, adr->dims, periods, 0, &adr->cart));
  PetscCallMPI(MPI_Comm_rank(adr->cart, &adr->rank));
  PetscCallMPI(MPI_Cart_coords(adr->cart, adr->rank, 3, adr->cc));
  adr->overlap = adr->size > 1 ? adr->overlap_opt : 0; /* one rank: nothing to overlap */
  for (PetscInt d = 0; d < 3; d++) {
    const PetscInt P = adr->dims[d], q = adr->N[d] / P, r = adr->N[d] % P;
    PetscCall(PetscMalloc1(P + 1, &adr->starts[d]));
    for (PetscInt p = 0; p <= P; p++) adr->starts[d][p] = p * q + PetscMin(p, r);
    adr->xso[d] = adr->starts[d][adr->cc[d]];
    adr->nlo[d] = adr->starts[d][adr->cc[d] + 1] - adr->xso[d];
    PetscCallMPI(MPI_Cart_shift(adr->cart, (int)d, 1, &adr->nb[2 * d], &adr->nb[2 * d + 1]));
    /* -adr_overlap d: the box takes d planes of each neighbour (restricted
       additive Schwarz, docs/adr.md); a neighbour sends them and one ghost
       plane beyond, d + 1 of its own planes */
    if (adr->overlap > 0 && adr->dims[d] > 1) {
      PetscInt thin = PETSC_MAX_INT;
      for (PetscInt p = 0; p < adr->dims[d]; p++) thin = PetscMin(thin, adr->starts[d][p + 1] - adr->starts[d][p]);
      PetscCheck(thin >= adr->overlap + 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_overlap %" PetscInt_FMT " (EasAdrSetOverlap): the thinnest rank's box has %" PetscInt_FMT " planes in %c, and an overlap of d planes needs d + 1 planes per rank there; expected -adr_overlap at most %" PetscInt_FMT ", fewer ranks in %c or a finer grid", adr->overlap, thin, (char)('x' + d), thin - 1, (char)('x' + d));
    }
    for (PetscInt s = 0; s < 2; s++) adr->ov[2 * d + s] = adr->nb[2 * d + s] != MPI_PROC_NULL ? adr->overlap : 0;
    adr->xs[d] = adr->xso[d] - adr->ov[2 * d];
    adr->nl[d] = adr->nlo[d] + adr->ov[2 * d] + adr->ov[2 * d + 1];
  }
  /* sizes checked (core/size.h; docs/design.md, Limits): the six transport
     weights are one backend vector of 6 np entries, the padded box is
     indexed in PetscInt, and the global state is a PETSc vector */
  {
    PetscInt chk;
    PetscCall(EasIntMul(adr->cart, "ADR transport weights per rank 6*nx*ny*nz", &chk, 6, adr->nl[0], adr->nl[1], adr->nl[2]));
    PetscCall(EasIntMul(adr->cart, "ADR padded box per rank 2*(nx+2)*(ny+2)*(nz+2)", &chk, 2, adr->nl[0] + 2, adr->nl[1] + 2, adr->nl[2] + 2));
  }
  adr->np  = adr->nl[0] * adr->nl[1] * adr->nl[2];
  adr->n   = 2 * adr->np;
  adr->npo = adr->nlo[0] * adr->nlo[1] * adr->nlo[2];
  adr->no  = 2 * adr->npo;
  PetscCall(PetscMalloc1(adr->size + 1, &adr->rank_rstart));
  PetscCall(PetscMalloc1(adr->size, &ns));
  PetscCallMPI(MPI_Allgather(&adr->no, 1, MPIU_INT, ns, 1, MPIU_INT, adr->cart)); /* the global vector: own points */
  adr->rank_rstart[0] = 0;
  for (PetscMPIInt r = 0; r < adr->size; r++) adr->rank_rstart[r + 1] = adr->rank_rstart[r] + ns[r];
  adr->rstart = adr->rank_rstart[adr->rank];
  PetscCall(PetscFree(ns));

  /* local arrays */
  /* the counts fit PetscInt (checked above); computed in size_t all the same */
  PetscCall(PetscCalloc4(adr->n, &adr->x, adr->n, &adr->xold, adr->n, &adr->F, (size_t)2 * (adr->nl[0] + 2) * (adr->nl[1] + 2) * (adr->nl[2] + 2), &adr->xg));
  PetscCall(PetscCalloc3((size_t)2 * adr->np, &adr->Rv, (size_t)4 * adr->np, &adr->dRv, (size_t)3 * adr->np, &adr->coords));
  PetscCall(PetscCalloc1(6 * (size_t)adr->np, &adr->w[0])); /* one array: w[f] = w[0] + f np, the kernels' layout */
  for (PetscInt f = 1; f < 6; f++) adr->w[f] = adr->w[0] + (size_t)f * adr->np;
  PetscCall(PetscCalloc1(7 * (size_t)adr->np, &adr->wl));
  for (PetscInt k = 0; k < adr->nl[2]; k++)
    for (PetscInt j = 0; j < adr->nl[1]; j++)
      for (PetscInt i = 0; i < adr->nl[0]; i++) EasAdrCoordinates(adr, adr->xs[0] + i, adr->xs[1] + j, adr->xs[2] + k, adr->coords + 3 * (i + adr->nl[0] * (j + adr->nl[1] * k)));
  if (adr->overlap > 0) {
    PetscCall(PetscMalloc1(PetscMax(adr->no, 1), &adr->xown));
    PetscCall(PetscCalloc4(adr->n, &adr->bx, adr->n, &adr->bxo, adr->n, &adr->bf, adr->n, &adr->bewt));
  }
  for (PetscInt f = 0; f < 6; f++) {
    cnt[f] = 2 * EasAdrFaceDimA(adr, f) * EasAdrFaceDimB(adr, f) * (adr->nb[f] != MPI_PROC_NULL ? adr->ov[f] + 1 : 1); /* with a neighbour: its d overlap planes and the ghost plane */
    if (adr->nb[f] == MPI_PROC_NULL && adr->bc == EAS_ADR_BC_DIRICHLET) PetscCall(PetscCalloc1(cnt[f], &adr->bval[f]));
  }
  PetscCall(EasHaloCreate(adr->cart, adr->nb, cnt, &adr->halo));
  adr->halo->faults.delay_us  = adr->delay_us;
  adr->halo->faults.jitter_us = adr->jitter_us;
  adr->halo->faults.seed      = adr->comm_seed;
  adr->halo->use_thread       = adr->async_thread;
  PetscCall(EasFaultsSetUp(&adr->halo->faults, adr->rank));

  PetscCall(EasAdrFoldJacobi_Private(adr, PETSC_FALSE));
  PetscCall(EasAdrCreateBackendObjects_Private(adr));

  /* initial condition */
  ifn    = adr->initial ? adr->initial : EasAdrInitial_Builtin;
  ictx   = adr->initial ? adr->initial_ctx : (void *)adr;
  adr->t = adr->t0;
  for (PetscInt p = 0; p < adr->np; p++) {
    PetscCall((*ifn)(adr->t0, adr->coords + 3 * p, adr->x + 2 * p, ictx));
    PetscCheck(!PetscIsInfOrNanReal(adr->x[2 * p]) && !PetscIsInfOrNanReal(adr->x[2 * p + 1]), PETSC_COMM_SELF, PETSC_ERR_FP, "The initial condition is NaN or Inf at (%g, %g, %g)", (double)adr->coords[3 * p], (double)adr->coords[3 * p + 1], (double)adr->coords[3 * p + 2]);
  }
  PetscCall(EasAdrStateHostWritten_Private(adr));
  adr->coef_t       = PETSC_MIN_REAL;
  adr->halo_scalars = 0;
  for (PetscInt f = 0; f < 6; f++)
    if (adr->nb[f] != MPI_PROC_NULL) adr->halo_scalars += cnt[f];
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->n));
  adr->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(0);
}
