/*
  /cpu/memcheck (memcheck.c and its subject files): functions for the tests.
*/
#pragma once

#include "../devcommon.h"

/* The last asynchronous unit's busy interval on the worker thread, in
   seconds of CLOCK_MONOTONIC (clock_gettime), so that a test can compare it
   with the host's interval measured on the same clock.  Errors: be is not
   /cpu/memcheck; no unit has finished (ebe_unit_end) yet. */
PETSC_EXTERN PetscErrorCode EasMemcheckGetUnitInterval(EasBackend be, double *t0, double *t1);
/* Counts of the backend: checked pointer arguments, copies poisoned with
   NaN, the backend's own host<->device copies (whoever booked them).
   Any argument may be NULL.  Errors: be is not /cpu/memcheck. */
PETSC_EXTERN PetscErrorCode EasMemcheckGetCounts(EasBackend be, PetscInt *nchecked, PetscInt *npoisoned, PetscInt *ncopies_htod, PetscInt *ncopies_dtoh);
