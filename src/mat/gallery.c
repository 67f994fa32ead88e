/*
  Built-in test matrices for EasDia.

  "adr": the Jacobian I - dt f'(c) of one implicit Euler step of the 3D
  two-species diurnal advection-diffusion-reaction problem of DESIGN.md
  sec. 4 (cvDiurnal extended to 3D), on an n x n x n grid that includes the
  boundary planes, with zero-flux boundaries by reflection and upwind
  advection, evaluated at the initial condition at t = 21600 s (noon, so the
  photolysis rates q3, q4 are on).  Unknowns are interleaved point-major,
  species-minor: index = s + 2 (i + n (j + n k)), so the 9 offsets are
  0, +-1, +-2, +-2n, +-2n^2.
*/
#include "diaimpl.h"

/* Diurnal kinetics constants (DESIGN.md sec. 4). */
#define EAS_Q1 1.63e-16
#define EAS_Q2 4.66e-16
#define EAS_C3 3.7e16

static PetscReal EasDiurnalA(PetscReal x)
{
  const PetscReal u = 0.1 * x - 1.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}

static PetscReal EasDiurnalB(PetscReal z)
{
  const PetscReal u = 0.1 * z - 4.0;
  return 1.0 - u * u + 0.5 * u * u * u * u;
}

static PetscErrorCode EasDiaGalleryADR(EasDia A, PetscInt n, PetscReal dt)
{
  const PetscReal x0 = 0, x1 = 20, z0 = 30, z1 = 50, kh = 4.0e-6, vel = 1.0e-3;
  const PetscReal t = 21600.0, omega = PETSC_PI / 43200.0, s = PetscSinReal(omega * t);
  /* q3(t) enters R only through the constant 2 q3 c3, so not the Jacobian */
  const PetscReal q4 = s > 0 ? PetscExpReal(-7.601 / s) : 0;
  const PetscReal h = (x1 - x0) / (n - 1), hz = (z1 - z0) / (n - 1);
  const PetscInt  N = 2 * n * n * n, nd = 9;
  const PetscInt  off[9] = {-2 * n * n, -2 * n, -2, -1, 0, 1, 2, 2 * n, 2 * n * n};
  PetscScalar    *val;

  PetscFunctionBegin;
  PetscCheck(n >= 3, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Gallery adr: n = %" PetscInt_FMT " grid points per direction, expected n >= 3", n);
  PetscCheck(dt > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Gallery adr: dt = %g, expected dt > 0", (double)dt);
  PetscCall(PetscCalloc1((size_t)nd * N, &val));
#define V(d, row) val[(size_t)(d)*N + (row)]
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal z = z0 + k * hz, kzu = 1e-8 * PetscExpReal((z + 0.5 * hz) / 5.0), kzd = 1e-8 * PetscExpReal((z - 0.5 * hz) / 5.0);
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal y = j * h;
      for (PetscInt i = 0; i < n; i++) {
        const PetscReal x = x0 + i * h, prof = EasDiurnalA(x) * EasDiurnalA(y) * EasDiurnalB(z);
        const PetscReal c1 = 1e6 * prof, c2 = 1e12 * prof;
        /* reaction Jacobian dR/dc (2x2) at (c1, c2) */
        const PetscReal j11 = -EAS_Q1 * EAS_C3 - EAS_Q2 * c2, j12 = -EAS_Q2 * c1 + q4;
        const PetscReal j21 = EAS_Q1 * EAS_C3 - EAS_Q2 * c2, j22 = -EAS_Q2 * c1 - q4;
        /* transport: diffusion kh/h^2 and kz/hz^2, upwind advection vel/h (vel > 0);
           zero flux: the ghost value mirrors the first interior neighbour */
        PetscReal cxm = kh / (h * h) + vel / h, cxp = kh / (h * h), cym = kh / (h * h), cyp = kh / (h * h);
        PetscReal czm = kzd / (hz * hz), czp = kzu / (hz * hz), diag = cxm + cxp + cym + cyp + czm + czp;
        if (i == 0) {
          cxp += cxm;
          cxm = 0;
        }
        if (i == n - 1) {
          cxm += cxp;
          cxp = 0;
        }
        if (j == 0) {
          cyp += cym;
          cym = 0;
        }
        if (j == n - 1) {
          cym += cyp;
          cyp = 0;
        }
        if (k == 0) {
          czp += czm;
          czm = 0;
        }
        if (k == n - 1) {
          czm += czp;
          czp = 0;
        }
        for (PetscInt sp = 0; sp < 2; sp++) {
          const PetscInt r = sp + 2 * (i + n * (j + n * k));
          /* A = I - dt (transport + dR/dc) */
          V(0, r) = -dt * czm;
          V(1, r) = -dt * cym;
          V(2, r) = -dt * cxm;
          V(4, r) = 1.0 + dt * diag - dt * (sp == 0 ? j11 : j22);
          V(6, r) = -dt * cxp;
          V(7, r) = -dt * cyp;
          V(8, r) = -dt * czp;
          if (sp == 0)
            V(5, r) = -dt * j12; /* row c1, column c2 of the same point */
          else
            V(3, r) = -dt * j21; /* row c2, column c1 */
        }
      }
    }
  }
#undef V
  PetscCall(EasDiaSetDiagonals(A, N, nd, off, val));
  PetscCall(PetscFree(val));
  PetscFunctionReturn(0);
}

/*@C
  EasDiaSetFromGallery - sets A to a built-in matrix.

  "adr": 2n^3 rows, the diurnal ADR implicit Euler Jacobian (see the top of
  this file); -dia_gallery_dt <7200> sets the time step.
  Errors: an unknown name; n < 3.
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
