/*
  DVFS by EPSA (Fanfakh, "Energy optimization of homogeneous platform"),
  online, for MPI iterative solvers (include/eas/policy.h, EasDvfs).

  After the first iterations every rank's computation time T_i and
  communication time (measured by the solver's meter, per iteration) are
  gathered; Alg. EPSA picks, over the available frequencies F_j, the
  scaling factor S = F_max/F_j maximising the distance
  P_norm(S) - E_norm(S) (eq. max1) with P_norm = T_old/T_new (eq. pnorm_en),
  T_new = T_MaxCompOld S + T_MinCommOld (eq. tnew), and E_norm = E(S)/E(1)
  with the energy model e-new:
      E(S) = sum_i S^-2 P_dyn T_i + P_static (T_MaxCompOld S + T_MinCommOld) N
  (EasModelEPSA).  Each rank then gets F_i = F_max T_i / (S_opt T_max)
  (eq. fi): its computation ends with the slowest one's.  cpufreq offers
  discrete frequencies: the rank runs at the lowest available one >= F_i.

  apply sets them through cpufreq (sysfs.c: the userspace governor's
  scaling_setspeed where it is the governor, else scaling_max_freq), on the
  cores of the rank's CPU affinity; a core shared by ranks of a node gets
  the highest of their frequencies.  Everything written is restored at the
  end of the solve, at EasDvfsDestroy, on SIGINT/SIGTERM, at a PETSc error
  and at exit.
*/
#include "policyimpl.h"

const char *const EasDvfsModes[] = {"off", "report", "apply", "EasDvfsMode", "EAS_DVFS_", NULL};

/*@C
  EasDvfsCreate - DVFS by EPSA on comm (mode off).
@*/
PetscErrorCode EasDvfsCreate(MPI_Comm comm, EasDvfs *dvfs)
{
  EasDvfs d;

  PetscFunctionBegin;
  PetscValidPointer(dvfs, 2);
  PetscCall(EasPolicyInitializePackage());
  PetscCall(PetscHeaderCreate(d, EAS_DVFS_CLASSID, "EasDvfs", "DVFS by EPSA (Fanfakh)", "Sys", comm, EasDvfsDestroy, EasDvfsView));
  d->mode   = EAS_DVFS_OFF;
  d->warmup = 1;
  PetscCall(PetscStrncpy(d->root, "/sys/devices/system/cpu", sizeof(d->root)));
  PetscCall(PetscStrncpy(d->window, "iteration", sizeof(d->window)));
  PetscCall(EasSysfsNewOwner(&d->owner));
  *dvfs = d;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsSetMode(EasDvfs d, EasDvfsMode mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCheck(mode >= EAS_DVFS_OFF && mode <= EAS_DVFS_APPLY, PetscObjectComm((PetscObject)d), PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs: expected off, report or apply");
  d->mode = mode;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsGetMode(EasDvfs d, EasDvfsMode *mode)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  *mode = d->mode;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsSetFrequencies(EasDvfs d, PetscInt n, const PetscReal kHz[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCheck(n >= 1 && n <= EAS_DVFS_MAX_FREQS, PetscObjectComm((PetscObject)d), PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs_freqs: %" PetscInt_FMT " frequencies given, expected 1 to %d (kHz, comma-separated)", n, EAS_DVFS_MAX_FREQS);
  for (PetscInt j = 0; j < n; j++) {
    PetscCheck(kHz[j] > 0 && !PetscIsInfOrNanReal(kHz[j]), PetscObjectComm((PetscObject)d), PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs_freqs: entry %" PetscInt_FMT " = %g is invalid: expected frequencies in kHz > 0, e.g. 2500000,2000000,1500000", j, (double)kHz[j]);
    d->freq[j] = kHz[j];
  }
  d->nfreq    = n;
  d->freq_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsSetCpufreqRoot(EasDvfs d, const char root[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCall(PetscStrncpy(d->root, root, sizeof(d->root)));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsSetPowers(EasDvfs d, PetscReal Pdyn, PetscReal Pstatic)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCheck(Pdyn >= 0 && Pstatic >= 0 && Pdyn + Pstatic > 0, PetscObjectComm((PetscObject)d), PETSC_ERR_ARG_OUTOFRANGE, "EasDvfsSetPowers: P_dyn = %g W and P_static = %g W must be >= 0, not both 0", (double)Pdyn, (double)Pstatic);
  d->Pdyn       = Pdyn;
  d->Pstatic    = Pstatic;
  d->powers_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasDvfsSetFromOptions - -eas_dvfs, -eas_dvfs_freqs, -eas_cpufreq_root,
  -eas_dvfs_warmup, and P_dyn, P_static from the power profile.
@*/
PetscErrorCode EasDvfsSetFromOptions(EasDvfs d)
{
  MPI_Comm  comm;
  PetscInt  mode = d->mode, n = EAS_DVFS_MAX_FREQS, node, nnodes;
  PetscReal f[EAS_DVFS_MAX_FREQS];
  PetscBool flg;
  char      root[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)d, &comm));
  PetscCall(PetscStrncpy(root, d->root, sizeof(root)));
  f[0] = d->nfreq ? d->freq[0] : 0; /* the default -help shows */
  PetscObjectOptionsBegin((PetscObject)d);
  PetscCall(PetscOptionsEList("-eas_dvfs", "DVFS by EPSA (Fanfakh) after the first iterations: off, report (print the frequencies) or apply (set them through cpufreq, restored at the end)", "EasDvfsSetMode", EasDvfsModes, 3, EasDvfsModes[d->mode], &mode, &flg));
  if (flg) PetscCall(EasDvfsSetMode(d, (EasDvfsMode)mode));
  {
    PetscBool rootset;
    PetscCall(EasCpufreqSetFromOptions_Private(PetscOptionsObject, "EasDvfsSetFrequencies", "EasDvfsSetCpufreqRoot", root, sizeof(root), &rootset, f, &n, &flg));
    if (flg) PetscCall(EasDvfsSetFrequencies(d, n, f));
    if (rootset) PetscCall(EasDvfsSetCpufreqRoot(d, root));
  }
  PetscCall(PetscOptionsInt("-eas_dvfs_warmup", "Iterations (EBE) or time steps (ADR) measured before EPSA and the power budget decide", "EasDvfsDecide", d->warmup, &d->warmup, NULL));
  PetscCheck(d->warmup >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs_warmup %" PetscInt_FMT " is invalid: expected a number of iterations >= 1", d->warmup);
  PetscOptionsEnd();
  if (!d->powers_set) { /* P_dyn and P_static of one rank from the node's profile (docs/energy-policies.md) */
    EasPowerProfile prof;
    MPI_Comm        shm;
    PetscMPIInt     ppn;
    PetscCall(EasGetNodeIndex(comm, &node, &nnodes));
    PetscCall(EasPowerProfileGetFromOptions(comm, ((PetscObject)d)->prefix, node, nnodes, &prof, NULL));
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    PetscCallMPI(MPI_Comm_size(shm, &ppn));
    PetscCallMPI(MPI_Comm_free(&shm));
    d->Pdyn    = (prof.cpu_full - prof.cpu_idle) / ppn;
    d->Pstatic = (prof.cpu_idle + prof.gpu_idle + prof.dram) / ppn;
  }
  PetscFunctionReturn(0);
}

/* The frequency list: given, else rank 0's first core's scaling_available_frequencies. */
static PetscErrorCode DvfsFrequencies(EasDvfs d)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)d);
  PetscInt n    = 0;

  PetscFunctionBegin;
  if (d->freq_set) PetscFunctionReturn(0);
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    if (!rank) {
      PetscInt cores[1], nc;
      PetscCall(EasCpufreqAffinity(1, cores, &nc));
      if (nc) PetscCall(EasCpufreqAvailable(d->root, cores[0], EAS_DVFS_MAX_FREQS, d->freq, &n));
    }
  }
  PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, comm));
  PetscCheck(n > 0, comm, PETSC_ERR_SUP_SYS, "-eas_dvfs: no frequency list: %s/cpu<N>/cpufreq/scaling_available_frequencies is not readable here; give the frequencies with -eas_dvfs_freqs <kHz,kHz,...>", d->root);
  PetscCallMPI(MPI_Bcast(d->freq, (PetscMPIInt)n, MPIU_REAL, 0, comm));
  d->nfreq    = n;
  d->freq_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* apply: each node's first rank sets the cores of its ranks' affinities (a
   shared core: the highest frequency asked), counts per node, totals. */
static PetscErrorCode DvfsApply(EasDvfs d)
{
  MPI_Comm      comm = PetscObjectComm((PetscObject)d), shm;
  PetscMPIInt   srank, ssize, rank;
  unsigned char mask[EAS_CPU_MAX / 8], *masks = NULL;
  PetscReal    *fs = NULL;
  PetscInt      cores[EAS_CPU_MAX], nc, cnt[3] = {0, 0, 0}, tot[3];
  char          how[64] = "", why[256] = "", mwhy[256] = "";

  PetscFunctionBegin;
  PetscCall(PetscMemzero(mask, sizeof(mask)));
  PetscCall(EasCpufreqAffinity(EAS_CPU_MAX, cores, &nc));
  for (PetscInt k = 0; k < nc; k++) mask[cores[k] / 8] |= (unsigned char)(1u << (cores[k] % 8));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  PetscCallMPI(MPI_Comm_rank(shm, &srank));
  PetscCallMPI(MPI_Comm_size(shm, &ssize));
  if (!srank) PetscCall(PetscMalloc2(ssize * sizeof(mask), &masks, ssize, &fs));
  PetscCallMPI(MPI_Gather(mask, (PetscMPIInt)sizeof(mask), MPI_UNSIGNED_CHAR, masks, (PetscMPIInt)sizeof(mask), MPI_UNSIGNED_CHAR, 0, shm));
  PetscCallMPI(MPI_Gather(&d->dec.Fset, 1, MPIU_REAL, fs, 1, MPIU_REAL, 0, shm));
  if (!srank) {
    for (PetscInt c = 0; c < EAS_CPU_MAX; c++) {
      PetscReal f = 0;
      for (PetscMPIInt r = 0; r < ssize; r++)
        if (masks[r * sizeof(mask) + c / 8] & (1u << (c % 8))) f = PetscMax(f, fs[r]);
      if (f > 0) {
        PetscBool ok, missing;
        char      h[64], w[256];
        PetscCall(EasCpufreqSet(d->owner, d->root, c, f, &ok, &missing, h, sizeof(h), w, sizeof(w)));
        if (ok) {
          if (!cnt[0]) PetscCall(PetscStrncpy(how, h, sizeof(how)));
          cnt[0]++;
        } else if (missing) {
          if (!cnt[2]) PetscCall(PetscStrncpy(mwhy, w, sizeof(mwhy)));
          cnt[2]++;
        } else {
          if (!cnt[1]) PetscCall(PetscStrncpy(why, w, sizeof(why)));
          cnt[1]++;
        }
      }
    }
    PetscCall(PetscFree2(masks, fs));
  }
  PetscCallMPI(MPI_Bcast(cnt, 3, MPIU_INT, 0, shm));
  PetscCallMPI(MPI_Comm_free(&shm));
  d->dec.napplied  = cnt[0];
  d->dec.nreadonly = cnt[1];
  d->dec.nmissing  = cnt[2];
  if (srank) cnt[0] = cnt[1] = cnt[2] = 0; /* totals over the nodes */
  PetscCall(MPIU_Allreduce(cnt, tot, 3, MPIU_INT, MPI_SUM, comm));
  PetscCall(PetscStrncpy(d->dec.how, tot[0] ? how : "report only: nothing writable", sizeof(d->dec.how)));
  PetscCall(PetscPrintf(comm, "eas: -eas_dvfs apply: %" PetscInt_FMT " core(s) set%s%s", tot[0], tot[0] ? " through " : "", tot[0] ? how : ""));
  if (tot[1]) PetscCall(PetscPrintf(comm, "; %" PetscInt_FMT " not writable (%s)", tot[1], why));
  if (tot[2]) PetscCall(PetscPrintf(comm, "; %" PetscInt_FMT " without cpufreq (%s)", tot[2], mwhy));
  PetscCall(PetscPrintf(comm, "%s\n", tot[0] ? "; restored at the end" : ": the frequencies are only reported"));
  PetscFunctionReturn(0);
}

/*@C
  EasDvfsDecide - gathers the times, runs EPSA, reports, applies (see
  include/eas/policy.h).
@*/
PetscErrorCode EasDvfsDecide(EasDvfs d, PetscReal Tcomp, PetscReal Tcomm)
{
  MPI_Comm         comm;
  PetscMPIInt      size, rank;
  PetscReal        loc[2], *all, *Tc, *Tm, *Fi, P[2];
  EasDvfsDecision *dec = &d->dec;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  if (d->mode == EAS_DVFS_OFF) PetscFunctionReturn(0);
  PetscCall(PetscObjectGetComm((PetscObject)d, &comm));
  PetscCheck(Tcomp >= 0 && Tcomm >= 0 && !PetscIsInfOrNanReal(Tcomp) && !PetscIsInfOrNanReal(Tcomm), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasDvfsDecide: T_comp = %g s and T_comm = %g s must be times >= 0", (double)Tcomp, (double)Tcomm);
  PetscCall(PetscLogEventBegin(EAS_DvfsDecide, d, 0, 0, 0));
  PetscCall(DvfsFrequencies(d));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMalloc4((size_t)2 * size, &all, size, &Tc, size, &Tm, size, &Fi));
  loc[0] = Tcomp;
  loc[1] = Tcomm;
  PetscCallMPI(MPI_Allgather(loc, 2, MPIU_REAL, all, 2, MPIU_REAL, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    Tc[r] = all[2 * r];
    Tm[r] = all[2 * r + 1];
  }
  P[0] = d->Pdyn;
  P[1] = d->Pstatic;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, P, 2, MPIU_REAL, MPIU_SUM, comm)); /* EPSA's model has one P_dyn, one P_static: the ranks' mean */
  PetscCall(PetscMemzero(dec, sizeof(*dec)));
  dec->nranks = size;
  dec->Pdyn   = P[0] / size;
  dec->Ps     = P[1] / size;
  PetscCall(EasModelEPSA(size, Tc, Tm, dec->Pdyn, dec->Ps, d->nfreq, d->freq, &dec->S, Fi, &dec->dist)); /* Alg. EPSA, eqs. tnew, e-new, max1, fi */
  PetscCall(EasModelEPSAEnergy(size, Tc, Tm, dec->Pdyn, dec->Ps, 1.0, &dec->E1, &dec->T1));
  PetscCall(EasModelEPSAEnergy(size, Tc, Tm, dec->Pdyn, dec->Ps, dec->S, &dec->ES, &dec->TS));
  dec->Fmax     = 0;
  dec->Tmaxcomp = 0;
  dec->Tmincomm = PETSC_MAX_REAL;
  for (PetscInt j = 0; j < d->nfreq; j++) dec->Fmax = PetscMax(dec->Fmax, d->freq[j]);
  for (PetscMPIInt r = 0; r < size; r++) {
    dec->Tmaxcomp = PetscMax(dec->Tmaxcomp, Tc[r]);
    dec->Tmincomm = PetscMin(dec->Tmincomm, Tm[r]);
  }
  dec->F    = Fi[rank];
  dec->Fset = dec->Fmax;
  for (PetscInt j = 0; j < d->nfreq; j++) /* the lowest available frequency >= F_i */
    if (d->freq[j] >= dec->F * (1 - 1e-12)) dec->Fset = PetscMin(dec->Fset, d->freq[j]);
  dec->decided = PETSC_TRUE;
  PetscCall(PetscPrintf(comm, "eas: -eas_dvfs %s: EPSA (Fanfakh) over %d rank(s), per %s: T_comp max %.4g s, T_comm (slowest rank) %.4g s, P_dyn %.4g W, P_static %.4g W per rank (modelled): S_opt = %.4g (F_max %.0f kHz / F_new %.0f kHz), distance P_norm - E_norm = %.4g; predicted T %.4g -> %.4g s (%+.1f%%), E %.4g -> %.4g J (%+.1f%%, model e-new)\n", EasDvfsModes[d->mode], size, d->window, (double)dec->Tmaxcomp, (double)dec->Tmincomm, (double)dec->Pdyn, (double)dec->Ps, (double)dec->S, (double)dec->Fmax,
                        (double)(dec->Fmax / dec->S), (double)dec->dist, (double)dec->T1, (double)dec->TS, (double)(100 * (dec->TS / dec->T1 - 1)), (double)dec->E1, (double)dec->ES, (double)(100 * (dec->ES / dec->E1 - 1))));
  {
    PetscReal *fset;
    PetscCall(PetscMalloc1(size, &fset));
    PetscCallMPI(MPI_Gather(&dec->Fset, 1, MPIU_REAL, fset, 1, MPIU_REAL, 0, comm));
    PetscCall(PetscPrintf(comm, "eas: -eas_dvfs %s: F_i = F_max T_i/(S_opt T_max) (eq. fi) -> available frequency:", EasDvfsModes[d->mode]));
    for (PetscMPIInt r = 0; r < size && r < 16; r++) PetscCall(PetscPrintf(comm, " rank %d %.0f -> %.0f kHz%s", (int)r, (double)Fi[r], rank ? 0.0 : (double)fset[r], r + 1 < size && r < 15 ? ";" : ""));
    PetscCall(PetscPrintf(comm, "%s\n", size > 16 ? " ..." : ""));
    PetscCall(PetscFree(fset));
  }
  PetscCall(PetscFree4(all, Tc, Tm, Fi));
  if (d->mode == EAS_DVFS_APPLY)
    PetscCall(DvfsApply(d));
  else
    PetscCall(PetscStrncpy(dec->how, "report only (-eas_dvfs report)", sizeof(dec->how)));
  PetscCall(PetscLogEventEnd(EAS_DvfsDecide, d, 0, 0, 0));
  PetscFunctionReturn(0);
}

/*@C
  EasDvfsRestore - writes back what this object changed (collective: the
  count restored is printed on rank 0).
@*/
PetscErrorCode EasDvfsRestore(EasDvfs d)
{
  PetscInt n, tot;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCall(EasSysfsRestore(d->owner, &n));
  PetscCall(MPIU_Allreduce(&n, &tot, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)d)));
  if (tot) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)d), "eas: -eas_dvfs apply: %" PetscInt_FMT " cpufreq value(s) restored\n", tot));
  PetscFunctionReturn(0);
}

/*@C
  EasDvfsGetDecision - a copy of the last EPSA decision.
@*/
PetscErrorCode EasDvfsGetDecision(EasDvfs d, EasDvfsDecision *dec)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscValidPointer(dec, 2);
  *dec = d->dec;
  PetscFunctionReturn(0);
}

/*@C
  EasDvfsSetSaving - windows after the decision and measured energy per
  window before/after it; builds the saving line.
@*/
PetscErrorCode EasDvfsSetSaving(EasDvfs d, PetscReal windows, PetscReal Ebefore, PetscReal Eafter, PetscBool measured)
{
  const EasDvfsDecision *dec = &d->dec;
  char                   meas[256];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  PetscCheck(dec->decided, PetscObjectComm((PetscObject)d), PETSC_ERR_ORDER, "EasDvfsSetSaving: EPSA has not decided yet (EasDvfsDecide)");
  d->windows     = windows;
  d->Ebefore     = Ebefore;
  d->Eafter      = Eafter;
  d->Emeasured   = measured;
  d->have_saving = PETSC_TRUE;
  if (d->mode != EAS_DVFS_APPLY || !dec->napplied)
    PetscCall(PetscStrncpy(meas, d->mode != EAS_DVFS_APPLY ? "n/a (report mode: nothing applied)" : "n/a (nothing applied)", sizeof(meas)));
  else if (!measured || Ebefore <= 0 || Eafter < 0)
    PetscCall(PetscStrncpy(meas, "n/a (no sensor of the CPU's energy, RAPL: the modelled energy does not see a frequency change)", sizeof(meas)));
  else
    PetscCall(PetscSNPrintf(meas, sizeof(meas), "%.4g J (%.1f%%, measured: %.4g J per %s before, %.4g after)", (double)((Ebefore - Eafter) * windows), (double)(100 * (Ebefore - Eafter) / Ebefore), (double)Ebefore, d->window, (double)Eafter));
  PetscCall(PetscSNPrintf(d->saving, sizeof(d->saving), "DVFS (EPSA, Fanfakh): S_opt %.4g; predicted saving %.4g J (%.1f%%, model e-new) over the %g %s(s) after the decision; measured saving %s", (double)dec->S, (double)((dec->E1 - dec->ES) * windows), (double)(dec->E1 > 0 ? 100 * (dec->E1 - dec->ES) / dec->E1 : 0), (double)windows, d->window, meas));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsGetSavingLine(EasDvfs d, const char *line[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  *line = d->have_saving ? d->saving : "DVFS (EPSA, Fanfakh): no decision yet";
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsView(EasDvfs d, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(d, EAS_DVFS_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)d), &viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "EasDvfs: mode %s, cpufreq %s, %" PetscInt_FMT " frequencies, warmup %" PetscInt_FMT "\n", EasDvfsModes[d->mode], d->root, d->nfreq, d->warmup));
  if (d->dec.decided) PetscCall(PetscViewerASCIIPrintf(viewer, "  S_opt %g, F_max %g kHz, this rank F_i %g -> %g kHz (%s)\n", (double)d->dec.S, (double)d->dec.Fmax, (double)d->dec.F, (double)d->dec.Fset, d->dec.how));
  if (d->have_saving) PetscCall(PetscViewerASCIIPrintf(viewer, "  %s\n", d->saving));
  PetscFunctionReturn(0);
}

PetscErrorCode EasDvfsDestroy(EasDvfs *dvfs)
{
  PetscInt n;

  PetscFunctionBegin;
  if (!*dvfs) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*dvfs, EAS_DVFS_CLASSID, 1);
  if (--((PetscObject)(*dvfs))->refct > 0) {
    *dvfs = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(EasSysfsRestore((*dvfs)->owner, &n)); /* whatever is still set (not collective) */
  PetscCall(PetscHeaderDestroy(dvfs));
  PetscFunctionReturn(0);
}
