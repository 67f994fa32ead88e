/*
  Private header of the models (models*.c): the input checks every model
  makes, each error naming the argument and the expected form
  (include/eas/energy.h), and the sum of an array.
*/
#pragma once

#include <eas/energy.h>

#define EasCheckNull(p, name) PetscCheck((p) != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s must not be NULL", name)
#define EasCheckSize(n, name) \
  PetscCheck((n) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s = %" PetscInt_FMT " must be > 0 (an empty array is not allowed)", name, (PetscInt)(n))
#define EasCheckPower(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite power >= 0 W", name, (double)(v))
#define EasCheckEnergy(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite energy >= 0 J", name, (double)(v))
#define EasCheckBeta(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0 && (v) <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must lie in [0,1]", name, (double)(v))
#define EasCheckTime(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite time > 0 s", name, (double)(v))
#define EasCheckTimeNonNeg(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be a finite time >= 0 s", name, (double)(v))
#define EasCheckPositive(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be finite and > 0", name, (double)(v))
#define EasCheckNonNeg(v, name) \
  PetscCheck(!PetscIsInfOrNanReal(v) && (v) >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %g must be finite and >= 0", name, (double)(v))

static inline PetscErrorCode CheckPowerArray(PetscInt n, const PetscReal a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a finite power >= 0 W", name, i, (double)a[i]);
  PetscFunctionReturn(0);
}

static inline PetscErrorCode CheckBetaArray(PetscInt n, const PetscReal a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0 && a[i] <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must lie in [0,1]", name, i, (double)a[i]);
  PetscFunctionReturn(0);
}

static inline PetscErrorCode CheckTimeArray(PetscInt n, const PetscReal a[], PetscBool allowZero, const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(!PetscIsInfOrNanReal(a[i]) && a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a finite time >= 0 s", name, i, (double)a[i]);
    PetscCheck(allowZero || a[i] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %g must be a time > 0 s", name, i, (double)a[i]);
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode CheckCountArray(PetscInt n, const PetscInt a[], const char name[])
{
  PetscFunctionBegin;
  EasCheckNull(a, name);
  for (PetscInt i = 0; i < n; i++) PetscCheck(a[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s[%" PetscInt_FMT "] = %" PetscInt_FMT " must be >= 0", name, i, a[i]);
  PetscFunctionReturn(0);
}

static inline PetscReal SumArray(PetscInt n, const PetscReal a[])
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < n; i++) s += a[i];
  return s;
}
