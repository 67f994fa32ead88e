/*
  Test hooks of the energy layer: not part of the installed API
  (docs/design.md, "Test hooks").  Tests and benchmarks include it with
  -Isrc ("energy/testing.h"); the shared library exports the functions, so
  they link it as any program does.
*/
#pragma once

#include <eas/meter.h>

/* EasSensorRaplSetReadFault - every later file read of the RAPL sensor
   fails with errno err (0 clears it), since as root chmod 000 does not stop
   reads.  Call before SetUp to test an unreadable tree. */
PETSC_EXTERN PetscErrorCode EasSensorRaplSetReadFault(EasSensor, int err);
/* EasEnergyMeterSetTimeFunction - the clock used instead of the host clock
   (synthetic timelines in tests; -eas_sensor model only: the sensors'
   samples are on the host clock). */
PETSC_EXTERN PetscErrorCode EasEnergyMeterSetTimeFunction(EasEnergyMeter, PetscErrorCode (*)(void *, PetscLogDouble *), void *);
