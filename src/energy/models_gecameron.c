/*
  Ge-Cameron: power-aware speedup, time prediction across frequencies and
  the minimal-EDP choice.

  No global state, no I/O; inputs validated with the checks of modelsimpl.h
  (include/eas/energy.h documents every function, docs/models.md gives the
  equations and docs/references.md the papers).
*/
#include "modelsimpl.h"

/* ============================================================ Ge-Cameron */

PetscErrorCode EasModelGeCameronPredict(PetscReal T1_f, PetscReal T1_f0, PetscReal TN_f0, PetscInt N, PetscReal *TN_f)
{
  PetscReal overhead;

  PetscFunctionBegin;
  EasCheckTime(T1_f, "T1_f");
  EasCheckTime(T1_f0, "T1_f0");
  EasCheckTime(TN_f0, "TN_f0");
  PetscCheck(N > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "N = %" PetscInt_FMT " (processors) must be > 0", N);
  EasCheckNull(TN_f, "TN_f");
  overhead = TN_f0 - T1_f0 / (PetscReal)N;   /* Ge-Cameron eq. (17) */
  *TN_f    = T1_f / (PetscReal)N + overhead; /* Ge-Cameron eq. (18) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelMinEDP(const EasGeCameronTable *tab, PetscReal w, EasEDPChoice *best)
{
  PetscBool found = PETSC_FALSE;

  PetscFunctionBegin;
  EasCheckNull(tab, "tab");
  EasCheckSize(tab->nprocs, "tab->nprocs");
  EasCheckSize(tab->nfreq, "tab->nfreq");
  EasCheckNull(tab->procs, "tab->procs");
  EasCheckNull(tab->freq, "tab->freq");
  PetscCall(CheckTimeArray(tab->nfreq, tab->T1, PETSC_FALSE, "tab->T1"));
  PetscCall(CheckTimeArray(tab->nprocs, tab->TNbase, PETSC_FALSE, "tab->TNbase"));
  PetscCall(CheckPowerArray(tab->nfreq, tab->Pcomp, "tab->Pcomp"));
  EasCheckPower(tab->Pcomm, "tab->Pcomm");
  PetscCheck(tab->base >= 0 && tab->base < tab->nfreq, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "tab->base = %" PetscInt_FMT " must be an index in [0,%" PetscInt_FMT ")", tab->base, tab->nfreq);
  for (PetscInt k = 0; k < tab->nprocs; k++) PetscCheck(tab->procs[k] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "tab->procs[%" PetscInt_FMT "] = %" PetscInt_FMT " must be > 0", k, tab->procs[k]);
  for (PetscInt j = 0; j < tab->nfreq; j++) EasCheckPositive(tab->freq[j], "tab->freq[j]");
  EasCheckNonNeg(w, "w (delay exponent)");
  EasCheckNull(best, "best");

  for (PetscInt k = 0; k < tab->nprocs; k++) {
    const PetscReal N        = (PetscReal)tab->procs[k];
    const PetscReal overhead = tab->TNbase[k] - tab->T1[tab->base] / N; /* Ge-Cameron eq. (17) */
    for (PetscInt j = 0; j < tab->nfreq; j++) {
      PetscReal T, E, m;

      PetscCall(EasModelGeCameronPredict(tab->T1[j], tab->T1[tab->base], tab->TNbase[k], tab->procs[k], &T)); /* Ge-Cameron eq. (18) */
      PetscCheck(T > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "predicted time %g for N = %" PetscInt_FMT ", f = %g is not positive: inconsistent measurements (TNbase[%" PetscInt_FMT "] too small)", (double)T, tab->procs[k], (double)tab->freq[j], k);
      /* Ge-Cameron sec. 6: N nodes, each computing T_1(f)/N at Pcomp(f), then the overhead at Pcomm */
      E = tab->Pcomp[j] * tab->T1[j] + N * tab->Pcomm * PetscMax(overhead, 0.0);
      m = E * PetscPowReal(T, w); /* Ge-Cameron sec. 6: E * D (w = 1) */
      if (!found || m < best->metric) {
        found        = PETSC_TRUE;
        best->iproc  = k;
        best->ifreq  = j;
        best->time   = T;
        best->energy = E;
        best->metric = m;
      }
    }
  }
  PetscFunctionReturn(0);
}
