/*
  Power profiles (docs/energy.md): the -eas_power_* keys of the options
  database, the built-in default profile, and writing a profile file (used
  by examples/eas_calibrate.c).
*/
#include "energyimpl.h"

/*@C
  EasPowerProfileDefault - the built-in profile, identical to
  share/eas/default_profile.opts: Vialle et al. Table 1.1 means over the 16
  nodes (P_I = 141.4375 W, P_F(CPU2) = 171.5625 W, P_F(GPU) = 229.3125 W,
  P_sw = 34 W) with the DRAM idle power of Lang-Rünger Table 2 (1.3 W) taken
  out of the CPU figures and the GPU idle power neglected (Lang-Rünger sec. 4.3).
@*/
PetscErrorCode EasPowerProfileDefault(EasPowerProfile *p)
{
  PetscFunctionBegin;
  PetscValidPointer(p, 1);
  p->cpu_idle = 140.1375; /* 141.4375 - 1.3 */
  p->cpu_full = 170.2625; /* 171.5625 - 1.3 */
  p->gpu_idle = 0.0;
  p->gpu_full = 87.875; /* 229.3125 - 141.4375: node at full GPU load minus node idle */
  p->dram     = 1.3;
  p->switch_  = 34.0;
  PetscFunctionReturn(0);
}

/*@C
  EasGetNodeIndex - index of this process's node (shared-memory domain)
  and the number of nodes of comm (collective).
@*/
PetscErrorCode EasGetNodeIndex(MPI_Comm comm, PetscInt *node, PetscInt *nnodes)
{
  MPI_Comm    shm;
  PetscMPIInt srank, leader, idx, n;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_rank(shm, &srank));
  leader = srank == 0 ? 1 : 0;
  PetscCallMPI(MPI_Exscan(&leader, &idx, 1, MPI_INT, MPI_SUM, comm));
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    if (rank == 0) idx = 0;
  }
  /* idx = number of leaders before me; my node's index is that of my leader */
  PetscCallMPI(MPI_Bcast(&idx, 1, MPI_INT, 0, shm));
  PetscCallMPI(MPI_Allreduce(&leader, &n, 1, MPI_INT, MPI_SUM, comm));
  PetscCallMPI(MPI_Comm_free(&shm));
  if (node) *node = idx;
  if (nnodes) *nnodes = n;
  PetscFunctionReturn(0);
}

/* One key: the options database first, then the profile file (fileopts). */
static PetscErrorCode GetPowerKey(PetscOptionItems *PetscOptionsObject, PetscOptions fileopts, const char prefix[], const char key[], const char help[], PetscInt node, PetscInt nnodes, PetscReal *v, PetscBool *any, PetscErrorCode *err, char msg[], size_t len)
{
  PetscReal vals[1024];
  PetscInt  n = 1024;
  PetscBool flg;

  PetscFunctionBegin;
  vals[0] = *v; /* the default shown by -help */
  PetscCall(PetscOptionsRealArray(key, help, "EasPowerProfileGetFromOptions", vals, &n, &flg));
  if (!flg && fileopts) {
    n = 1024;
    PetscCall(PetscOptionsGetRealArray(fileopts, prefix, key, vals, &n, &flg));
  }
  if (!flg) PetscFunctionReturn(0);
  /* errors are reported after PetscOptionsEnd (no error inside the options block) */
  if (*err) PetscFunctionReturn(0);
  if (n < 1) {
    *err = PETSC_ERR_ARG_WRONG;
    PetscCall(PetscSNPrintf(msg, len, "%s needs a value in W (or a comma-separated list, one per node)", key));
    PetscFunctionReturn(0);
  }
  if (n != 1 && n < nnodes) {
    *err = PETSC_ERR_ARG_SIZ;
    PetscCall(PetscSNPrintf(msg, len, "%s has %" PetscInt_FMT " values for %" PetscInt_FMT " nodes: give one value, or one per node", key, n, nnodes));
    PetscFunctionReturn(0);
  }
  *v = vals[n == 1 ? 0 : node];
  if (!(*v >= 0) || PetscIsInfOrNanReal(*v)) {
    *err = PETSC_ERR_ARG_OUTOFRANGE;
    PetscCall(PetscSNPrintf(msg, len, "%s: %g is not a power >= 0 W", key, (double)*v));
    PetscFunctionReturn(0);
  }
  *any = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* EasPowerProfileGetFile_Private - the keys of the profile file named by
   -eas_power_profile under prefix in a new options database, below those
   of the command line (NULL when no file is given): its one reader, for the
   power keys here and the calibrated times of the policies. */
PetscErrorCode EasPowerProfileGetFile_Private(MPI_Comm comm, const char prefix[], PetscOptions *fileopts)
{
  char      file[PETSC_MAX_PATH_LEN] = "";
  PetscBool flg;

  PetscFunctionBegin;
  *fileopts = NULL;
  PetscCall(PetscOptionsGetString(NULL, prefix, "-eas_power_profile", file, sizeof(file), &flg));
  if (flg) {
    PetscCall(PetscOptionsCreate(fileopts));
    PetscCall(PetscOptionsInsertFile(comm, *fileopts, file, PETSC_TRUE));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasPowerProfileGetFromOptions - the profile of node `node` from the
  -eas_power_* keys (defaults: EasPowerProfileDefault).
@*/
PetscErrorCode EasPowerProfileGetFromOptions(MPI_Comm comm, const char prefix[], PetscInt node, PetscInt nnodes, EasPowerProfile *prof, PetscBool *from_defaults)
{
  char           file[PETSC_MAX_PATH_LEN] = "";
  PetscBool      any      = PETSC_FALSE;
  PetscOptions   fileopts = NULL;
  PetscErrorCode err      = 0;
  char           msg[256] = "";

  PetscFunctionBegin;
  PetscValidPointer(prof, 5);
  PetscCall(EasPowerProfileDefault(prof));
  PetscCall(EasPowerProfileGetFile_Private(comm, prefix, &fileopts)); /* the file's keys, below those of the command line and options database */
  PetscOptionsBegin(comm, prefix, "eas power profile (EasPowerProfile)", "Sys");
  PetscCall(PetscOptionsString("-eas_power_profile", "Profile file (PETSc options) to read first", "EasPowerProfileGetFromOptions", file, file, sizeof(file), NULL));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_cpu_idle", "CPU idle power (W), one value or one per node", node, nnodes, &prof->cpu_idle, &any, &err, msg, sizeof(msg)));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_cpu_full", "CPU full-load power (W)", node, nnodes, &prof->cpu_full, &any, &err, msg, sizeof(msg)));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_gpu_idle", "GPU idle power (W)", node, nnodes, &prof->gpu_idle, &any, &err, msg, sizeof(msg)));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_gpu_full", "GPU full-load power (W)", node, nnodes, &prof->gpu_full, &any, &err, msg, sizeof(msg)));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_dram", "DRAM power (W)", node, nnodes, &prof->dram, &any, &err, msg, sizeof(msg)));
  PetscCall(GetPowerKey(PetscOptionsObject, fileopts, prefix, "-eas_power_switch", "Network switch power P_sw (W)", node, nnodes, &prof->switch_, &any, &err, msg, sizeof(msg)));
  PetscOptionsEnd();
  PetscCall(PetscOptionsDestroy(&fileopts));
  PetscCheck(!err, comm, err, "%s", msg);
  PetscCheck(prof->cpu_full >= prof->cpu_idle, comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_power_cpu_full %g is below -eas_power_cpu_idle %g", (double)prof->cpu_full, (double)prof->cpu_idle);
  PetscCheck(prof->gpu_full >= prof->gpu_idle, comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_power_gpu_full %g is below -eas_power_gpu_idle %g", (double)prof->gpu_full, (double)prof->gpu_idle);
  if (from_defaults) *from_defaults = any ? PETSC_FALSE : PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasPowerProfileWrite - writes prof as a PETSc options file (readable with
  -options_file or -eas_power_profile).
@*/
PetscErrorCode EasPowerProfileWrite(const EasPowerProfile *p, const char comment[], FILE *fp)
{
  PetscFunctionBegin;
  PetscValidPointer(p, 1);
  PetscValidPointer(fp, 3);
  if (comment) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s", comment));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_cpu_idle %.10g\n", (double)p->cpu_idle));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_cpu_full %.10g\n", (double)p->cpu_full));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_gpu_idle %.10g\n", (double)p->gpu_idle));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_gpu_full %.10g\n", (double)p->gpu_full));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_dram %.10g\n", (double)p->dram));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "-eas_power_switch %.10g\n", (double)p->switch_));
  PetscFunctionReturn(0);
}
