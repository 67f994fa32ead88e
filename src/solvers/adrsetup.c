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

/* ----------------------------------------------------------------- setup */

/*@C
  EasAdrSetUp - the Cartesian decomposition (MPI_Dims_create,
  MPI_Cart_create), the local arrays, the local Jacobian in DIA on the
  backend, the inner solver, and the initial condition.
  Errors: fewer than 2 points per rank in a direction ("grid too small").
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
  adr->dims[0] = adr->dims[2] = 0;
  adr->dims[1]                = adr->N[1] == 1 ? 1 : 0; /* one y plane (2D): never split in y */
  PetscCallMPI(MPI_Dims_create(adr->size, 3, adr->dims));
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(adr->N[d] / adr->dims[d] >= 2 || adr->N[d] == 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid too small for %d ranks: %" PetscInt_FMT " points in %c (-adr_n%c) split over %d ranks leaves fewer than 2 points per rank; use at least %d points or fewer ranks", adr->size, adr->N[d], (char)('x' + d), (char)('x' + d), adr->dims[d], 2 * adr->dims[d]);
  }
  PetscCallMPI(MPI_Cart_create(comm, 3, adr->dims, periods, 0, &adr->cart));
  PetscCallMPI(MPI_Comm_rank(adr->cart, &adr->rank));
  PetscCallMPI(MPI_Cart_coords(adr->cart, adr->rank, 3, adr->cc));
  for (PetscInt d = 0; d < 3; d++) {
    const PetscInt P = adr->dims[d], q = adr->N[d] / P, r = adr->N[d] % P;
    PetscCall(PetscMalloc1(P + 1, &adr->starts[d]));
    for (PetscInt p = 0; p <= P; p++) adr->starts[d][p] = p * q + PetscMin(p, r);
    adr->xs[d] = adr->starts[d][adr->cc[d]];
    adr->nl[d] = adr->starts[d][adr->cc[d] + 1] - adr->xs[d];
    PetscCallMPI(MPI_Cart_shift(adr->cart, (int)d, 1, &adr->nb[2 * d], &adr->nb[2 * d + 1]));
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
  if (adr->ts->setup) PetscCall((*adr->ts->setup)(adr)); /* beuler: the diurnal default step bounded by the grid */
  /* sizes checked (core/size.h; README.md, Limits): the six transport
     weights are one backend vector of 6 np entries, the padded box is
     indexed in PetscInt, and the global state is a PETSc vector */
  {
    PetscInt chk;
    PetscCall(EasIntMul(adr->cart, "ADR global unknowns 2*Nx*Ny*Nz", &chk, 2, adr->N[0], adr->N[1], adr->N[2]));
    PetscCall(EasIntMul(adr->cart, "ADR transport weights per rank 6*nx*ny*nz", &chk, 6, adr->nl[0], adr->nl[1], adr->nl[2]));
    PetscCall(EasIntMul(adr->cart, "ADR padded box per rank 2*(nx+2)*(ny+2)*(nz+2)", &chk, 2, adr->nl[0] + 2, adr->nl[1] + 2, adr->nl[2] + 2));
  }
  adr->np = adr->nl[0] * adr->nl[1] * adr->nl[2];
  adr->n  = 2 * adr->np;
  PetscCall(PetscMalloc1(adr->size + 1, &adr->rank_rstart));
  PetscCall(PetscMalloc1(adr->size, &ns));
  PetscCallMPI(MPI_Allgather(&adr->n, 1, MPIU_INT, ns, 1, MPIU_INT, adr->cart));
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
  for (PetscInt f = 0; f < 6; f++) {
    cnt[f] = 2 * EasAdrFaceDimA(adr, f) * EasAdrFaceDimB(adr, f);
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
  adr->coef_t       = PETSC_MIN_REAL;
  adr->halo_scalars = 0;
  for (PetscInt f = 0; f < 6; f++)
    if (adr->nb[f] != MPI_PROC_NULL) adr->halo_scalars += cnt[f];
  PetscCall(EasAdrMeterEnd(adr, EAS_PHASE_SETUP, adr->n));
  adr->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(0);
}
