/*
  Built-in test matrices for EasDia.

  "adr": the Jacobian I - dt f'(c) of one implicit Euler step of the 3D
  two-species diurnal advection-diffusion-reaction problem of docs/adr.md (cvDiurnal extended to 3D), on an n x n x n grid that includes the
  boundary planes, with zero-flux boundaries by reflection and upwind
  advection, evaluated at the initial condition at t = 21600 s (noon, so the
  photolysis rates q3, q4 are on).  Unknowns are interleaved point-major,
  species-minor: index = s + 2 (i + n (j + n k)), so the 9 offsets are
  0, +-1, +-2, +-2n, +-2n^2.

  The matrix is not discretized here: an EasAdr on PETSC_COMM_SELF with the
  default diurnal problem (the solver validated against PETSc SNES) builds
  it with EasAdrComputeLocalJacobian(), and A takes over its storage.  On
  one process the local block is the whole Jacobian.
*/
#include "adrimpl.h" /* an EasAdr builds the matrix; diaimpl.h: A takes over its storage */

/* the benchmark matrix's velocity: +1e-3 toward +x (see the top) */
static PetscErrorCode EasDiaGalleryVelocity(PetscReal t, const PetscReal xyz[3], PetscReal a[3], void *ctx)
{
  (void)t;
  (void)xyz;
  (void)ctx;
  a[0] = 1.0e-3;
  a[1] = a[2] = 0;
  return 0;
}

static PetscErrorCode EasDiaGalleryADR(EasDia A, PetscInt n, PetscReal dt)
{
  const PetscReal t = 21600.0; /* noon */
  EasBackend      be;
  EasAdr          adr;
  EasEnergyMeter  meter;
  EasDia          J;

  PetscFunctionBegin;
  PetscCheck(n >= 3, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Gallery adr: n = %" PetscInt_FMT " grid points per direction, expected n >= 3", n);
  PetscCheck(dt > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Gallery adr: dt = %g, expected dt > 0", (double)dt);
  /* assembly is on the host whatever A's backend: an OpenMP CPU backend */
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &be));
  PetscCall(EasAdrCreate(PETSC_COMM_SELF, &adr));
  PetscCall(EasAdrSetBackend(adr, be));
  PetscCall(EasAdrSetGrid(adr, n, n, n));
  PetscCall(EasAdrSetAdvectionType(adr, "upwind"));
  PetscCall(EasAdrSetVelocity(adr, EasDiaGalleryVelocity, NULL));
  /* no sensor probing (and no "sensor disabled" lines) for a matrix build */
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  PetscCall(EasEnergyMeterSetSensorType(meter, "model"));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrComputeLocalJacobian(adr, t, dt, NULL, &J));
  PetscCall(EasDiaMove_Private(J, A)); /* the values move to A, no copy */
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasBackendDestroy(&be));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetFromGallery - sets A to a built-in matrix.

  "adr": 2n^3 rows, the diurnal ADR implicit Euler Jacobian (see the top of
  this file); -dia_gallery_dt <7200> sets the time step.
  Errors: an unknown name; n < 3; dt <= 0.
@*/
PetscErrorCode EasDiaSetFromGallery(EasDia A, const char name[], PetscInt n)
{
  PetscBool isadr;
  PetscReal dt = 7200.0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, EAS_DIA_CLASSID, 1);
  PetscCall(PetscStrcmp(name, "adr", &isadr));
  PetscCheck(isadr, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown EasDia gallery matrix \"%s\": expected adr", name);
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), ((PetscObject)A)->prefix, "EasDia gallery matrices", "Mat");
  PetscCall(PetscOptionsReal("-dia_gallery_dt", "Time step of the adr gallery Jacobian I - dt f'(c)", "EasDiaSetFromGallery", dt, &dt, NULL));
  PetscOptionsEnd();
  PetscCall(EasDiaGalleryADR(A, n, dt));
  PetscFunctionReturn(0);
}
