/*
  The PETSc plug-in's entry points (include/eas/petsc.h,
  docs/petsc-plugin.md): PetscDLLibraryRegister_eas, which PETSc calls when
  it loads libeas through -dll_append; the registration of the types; the
  backend of the plug-in's matrices; the energy report at PetscFinalize.

  A program linked with libeas but calling only PETSc gets the types too:
  when libeas is loaded before PetscInitialize (by the dynamic linker, MPI
  not yet initialized), a constructor puts libeas's own path in the options
  database as -dll_append (PetscOptionsSetValue may be called before
  PetscInitialize), so PETSc's PetscInitialize loads it again (the same
  handle) and calls PetscDLLibraryRegister_eas.  A -dll_append on the
  command line replaces that value: name libeas in it too.
*/
#if !defined(_GNU_SOURCE)
#  define _GNU_SOURCE /* dladdr */
#endif
#include "petscimpl.h"
#include <dlfcn.h>
#include <stdint.h>

static PetscBool      eas_petsc_registered = PETSC_FALSE;
static EasEnergyMeter eas_petsc_meter      = NULL;
static PetscInt       eas_petsc_unit       = -1;
static PetscBool      eas_petsc_meter_off  = PETSC_FALSE; /* no -eas_energy_view: nothing metered */

/* PetscFinalize: the energy report (-eas_energy_view), then the types are
   forgotten with PETSc's registries (a later PetscInitialize registers them again). */
static PetscErrorCode EasPetscFinalize(void)
{
  PetscFunctionBegin;
  if (eas_petsc_meter) {
    PetscCall(EasEnergyMeterStop(eas_petsc_meter));
    PetscCall(EasEnergyMeterSetNote(eas_petsc_meter, "plugin", "eas PETSc plug-in: the solves of KSPEASBCGS and KSPEASCG (compute) and their setups"));
    PetscCall(EasEnergyMeterViewFromOptions(eas_petsc_meter));
    PetscCall(EasEnergyMeterDestroy(&eas_petsc_meter));
  }
  eas_petsc_unit       = -1;
  eas_petsc_meter_off  = PETSC_FALSE;
  eas_petsc_registered = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
  EasPetscRegisterAll - registers MATEASDIA, MATEASEBE, KSPEASBCGS and
  KSPEASCG with PETSc, and eas's classes and log events; idempotent.
@*/
PetscErrorCode EasPetscRegisterAll(void)
{
  PetscFunctionBegin;
  if (eas_petsc_registered) PetscFunctionReturn(0);
  eas_petsc_registered = PETSC_TRUE;
  PetscCall(EasInitializePackage());
  PetscCall(MatRegister(MATEASDIA, MatCreate_EasDia));
  PetscCall(MatRegister(MATEASEBE, MatCreate_EasEbe));
  PetscCall(KSPRegister(KSPEASBCGS, KSPCreate_EasBCGS));
  PetscCall(KSPRegister(KSPEASCG, KSPCreate_EasCG));
  PetscCall(PetscRegisterFinalize(EasPetscFinalize));
  PetscFunctionReturn(0);
}

/*@C
  PetscDLLibraryRegister_eas - called by PETSc when it loads libeas
  (-dll_append /path/to/libeas.so).
@*/
PetscErrorCode PetscDLLibraryRegister_eas(void)
{
  PetscFunctionBegin;
  PetscCall(EasPetscRegisterAll());
  PetscFunctionReturn(0);
}

/* Linked into a program (loaded before main): ask PETSc to load libeas as a
   plug-in at PetscInitialize.  Not when MPI is already up: then libeas was
   dlopen'ed, by PETSc's -dll_append or by the program, after initialization. */
__attribute__((constructor)) static void EasPetscPluginConstructor(void)
{
  Dl_info info;
  int     mpi_up = 0;

  if (PetscInitializeCalled || MPI_Initialized(&mpi_up) != MPI_SUCCESS || mpi_up) return;
  if (!dladdr((void *)(uintptr_t)EasPetscRegisterAll, &info) || !info.dli_fname || info.dli_fname[0] != '/') return;
  if (PetscOptionsSetValue(NULL, "-dll_append", info.dli_fname)) return; /* no PETSc options: nothing to do */
}

PetscErrorCode EasPetscBackendFromOptions(MPI_Comm comm, const char prefix[], const char option[], EasBackend *be)
{
  char      res[256];
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, prefix, option, res, sizeof(res), &flg));
  if (!flg) {
    PetscCall(EasBackendCreateFromOptions(comm, NULL, be)); /* -eas_backend, default /cpu */
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(res, "auto", &flg));
  PetscCheck(!flg, comm, PETSC_ERR_ARG_WRONG, "%s auto: the energy policies' backend choice is not available to the PETSc plug-in; name a backend: /cpu, /cpu/serial, /cpu/memcheck, /gpu/cuda", option);
  PetscCall(EasBackendCreate(comm, res, be));
  PetscCall(EasBackendSetFromOptions(*be));
  PetscFunctionReturn(0);
}

PetscErrorCode EasPetscMeterGet(MPI_Comm comm, EasBackend be, EasEnergyMeter *m, PetscInt *unit)
{
  PetscFunctionBegin;
  *m    = NULL;
  *unit = -1;
  if (eas_petsc_meter_off) PetscFunctionReturn(0);
  if (!eas_petsc_meter) {
    PetscBool   view, host;
    PetscInt    threads;
    const char *res;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-eas_energy_view", &view));
    if (!view) {
      eas_petsc_meter_off = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
    PetscCall(EasBackendIsHost(be, &host));
    PetscCall(EasBackendGetResource(be, &res));
    PetscCall(EasEnergyMeterCreate(comm, &eas_petsc_meter));
    PetscCall(EasEnergyMeterSetFromOptions(eas_petsc_meter));
    PetscCall(EasEnergyMeterSetBackend(eas_petsc_meter, be));
    PetscCall(EasEnergyMeterAddUnit(eas_petsc_meter, res, host ? EAS_UNIT_CPU : EAS_UNIT_GPU, &eas_petsc_unit));
    PetscCall(EasBackendGetThreads(be, &threads));
    threads = host ? PetscMax(threads, 1) : 1;
    PetscCall(EasEnergyMeterSetUnitWeightsFromThreads(eas_petsc_meter, &threads));
    PetscCall(EasEnergyMeterSetUp(eas_petsc_meter));
    PetscCall(EasEnergyMeterStart(eas_petsc_meter));
  }
  {
    PetscMPIInt cmp;
    PetscCallMPI(MPI_Comm_compare(comm, PetscObjectComm((PetscObject)eas_petsc_meter), &cmp));
    if (cmp != MPI_IDENT && cmp != MPI_CONGRUENT) {
      PetscCall(PetscInfo(NULL, "eas plug-in: a solve on another communicator than the first one is not metered\n"));
      PetscFunctionReturn(0);
    }
  }
  *m    = eas_petsc_meter;
  *unit = eas_petsc_unit;
  PetscFunctionReturn(0);
}
