/*
  Test hooks of the mat layer (the EBE split): not part of the installed
  API (docs/design.md, "Test hooks").  Tests and benchmarks include it with
  -Isrc ("mat/testing.h"); the shared library exports the functions, so
  they link it as any program does.
*/
#pragma once

#include <eas/ebe.h>

/* EasEbeSetTestSlowdown - unit repeats its element work so it runs factor
   (>= 1) times slower (-ebe_test_slowdown <unit>:<factor>). */
PETSC_EXTERN PetscErrorCode EasEbeSetTestSlowdown(EasEbe, PetscInt unit, PetscReal factor);
/* EasEbeSplitInjectSpike - the next measured time of unit is multiplied by
   factor (a timing spike). */
PETSC_EXTERN PetscErrorCode EasEbeSplitInjectSpike(EasEbe, PetscInt unit, PetscReal factor);
