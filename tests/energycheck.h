/* Helpers shared by the energy accounting tests (test_adr_energy, test_ebe_energy). */
#pragma once

#include <petscsys.h>

typedef struct {
  PetscLogDouble first, last;
  PetscInt       calls;
} Clock;

/* PetscTime, remembering the first and last readings: the meter's Start and Stop. */
static PetscErrorCode RecordingClock(void *ctx, PetscLogDouble *t)
{
  Clock *c = (Clock *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscTime(t));
  if (!c->calls++) c->first = *t;
  c->last = *t;
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckRel(const char what[], PetscReal got, PetscReal want, PetscReal tol)
{
  const PetscReal rel = PetscAbsReal(got - want) / PetscMax(PetscAbsReal(want), PETSC_SMALL);

  PetscFunctionBegin;
  PetscCheck(rel <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: meter %.12g J, by hand %.12g J, relative difference %g > %g", what, (double)got, (double)want, (double)rel, (double)tol);
  PetscFunctionReturn(0);
}
