/*
  Fakes of the energy sensors' hardware for the tests (test_energy_sensors.c,
  test_meter_sampler.c): powercap trees the test creates under /tmp, and the
  path of the fake NVML library (tests/fake_nvml.c) built next to the tests.
*/
#pragma once

#include <petscsys.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes a value atomically (temp + rename) so the sampler never sees a partial file. */
static inline PetscErrorCode WriteFile(const char dir[], const char name[], const char val[])
{
  char  path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN];
  FILE *fp;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, name));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name));
  fp = fopen(tmp, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", tmp);
  fprintf(fp, "%s\n", val);
  fclose(fp);
  PetscCheck(rename(tmp, path) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "rename %s", tmp);
  PetscFunctionReturn(0);
}

static inline PetscErrorCode SetEnergy(const char dom[], double uj)
{
  char v[64];
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(v, sizeof(v), "%.0f", uj));
  PetscCall(WriteFile(dom, "energy_uj", v));
  PetscFunctionReturn(0);
}

/* A fake tree: root/intel-rapl:0 (package-0), root/intel-rapl:0:0 (dram) when dram. */
static inline PetscErrorCode MakeTree(char root[], size_t len, PetscBool dram, PetscBool range, char pkg[], char dr[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(root, "/tmp/eas_rapl_XXXXXX", len));
  PetscCheck(mkdtemp(root), PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdtemp failed");
  PetscCall(PetscSNPrintf(pkg, PETSC_MAX_PATH_LEN, "%s/intel-rapl:0", root));
  PetscCheck(mkdir(pkg, 0755) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", pkg);
  PetscCall(WriteFile(pkg, "name", "package-0"));
  PetscCall(SetEnergy(pkg, 1000000));
  if (range) PetscCall(WriteFile(pkg, "max_energy_range_uj", "10000000"));
  if (dram) {
    PetscCall(PetscSNPrintf(dr, PETSC_MAX_PATH_LEN, "%s/intel-rapl:0:0", root));
    PetscCheck(mkdir(dr, 0755) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdir %s", dr);
    PetscCall(WriteFile(dr, "name", "dram"));
    PetscCall(SetEnergy(dr, 500000));
    if (range) PetscCall(WriteFile(dr, "max_energy_range_uj", "10000000"));
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode RemoveTree(const char root[])
{
  char cmd[PETSC_MAX_PATH_LEN + 16];
  PetscFunctionBegin;
  PetscCheck(!strncmp(root, "/tmp/eas_rapl_", 14), PETSC_COMM_SELF, PETSC_ERR_PLIB, "refusing to remove %s", root);
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "rm -rf '%s'", root));
  PetscCheck(system(cmd) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot remove %s", root);
  PetscFunctionReturn(0);
}

/* The fake NVML next to this program: $(OBJDIR)/tests/libfake_nvml.so. */
static inline PetscErrorCode FakeNvmlPath(char path[], size_t len)
{
  char    exe[PETSC_MAX_PATH_LEN];
  ssize_t n;
  char   *slash;

  PetscFunctionBegin;
  n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "readlink /proc/self/exe failed");
  exe[n] = 0;
  slash  = strrchr(exe, '/');
  PetscCheck(slash, PETSC_COMM_SELF, PETSC_ERR_SYS, "no directory in %s", exe);
  *slash = 0;
  PetscCall(PetscSNPrintf(path, len, "%s/libfake_nvml.so", exe));
  PetscCheck(access(path, R_OK) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s is missing: build it with make (rule $(OBJDIR)/tests/libfake_nvml.so)", path);
  PetscFunctionReturn(0);
}

