/*
  Fanfakh: EPSA, the DVFS scaling factor for MPI iterative programs with the
  energy model e-new.

  No global state, no I/O; inputs validated with the checks of modelsimpl.h
  (include/eas/energy.h documents every function, docs/models.md gives the
  equations and docs/references.md the papers).
*/
#include "modelsimpl.h"

/* ============================================================ Fanfakh */

static PetscErrorCode CheckEPSAInputs(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscReal *Tmaxcomp, PetscReal *Tmincomm)
{
  PetscFunctionBegin;
  EasCheckSize(n, "n (number of tasks)");
  PetscCall(CheckTimeArray(n, Tcomp, PETSC_TRUE, "Tcomp"));
  PetscCall(CheckTimeArray(n, Tcomm, PETSC_TRUE, "Tcomm"));
  EasCheckPower(Pdyn, "Pdyn");
  EasCheckPower(Pstatic, "Pstatic");
  *Tmaxcomp = 0;
  *Tmincomm = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < n; i++) {
    *Tmaxcomp = PetscMax(*Tmaxcomp, Tcomp[i]); /* Fanfakh eq. (tnew): T_MaxCompOld */
    *Tmincomm = PetscMin(*Tmincomm, Tcomm[i]); /* Fanfakh eq. (tnew): T_MinCommOld */
  }
  PetscCheck(*Tmaxcomp > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "max of Tcomp[] = 0: some task must compute");
  PetscFunctionReturn(0);
}

/* energy and time for scaling factor S, inputs already checked */
static void EPSAEval(PetscInt n, const PetscReal Tcomp[], PetscReal Pdyn, PetscReal Pstatic, PetscReal Tmaxcomp, PetscReal Tmincomm, PetscReal S, PetscReal *E, PetscReal *T)
{
  PetscReal dyn = 0, t;
  for (PetscInt i = 0; i < n; i++) dyn += Pdyn * Tcomp[i] / (S * S); /* Fanfakh eq. (Edyn_new), (e-new) */
  t  = Tmaxcomp * S + Tmincomm;                                      /* Fanfakh eq. (tnew) */
  *T = t;
  *E = dyn + Pstatic * t * (PetscReal)n; /* Fanfakh eq. (e-new), static part (Estatic_new) */
}

PetscErrorCode EasModelEPSAEnergy(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscReal S, PetscReal *E, PetscReal *T)
{
  PetscReal Tmaxcomp, Tmincomm, e, t;

  PetscFunctionBegin;
  PetscCall(CheckEPSAInputs(n, Tcomp, Tcomm, Pdyn, Pstatic, &Tmaxcomp, &Tmincomm));
  PetscCheck(!PetscIsInfOrNanReal(S) && S >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "S = %g must be a scaling factor Fmax/Fnew >= 1", (double)S);
  EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, S, &e, &t);
  if (E) *E = e;
  if (T) *T = t;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelEPSA(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscInt nfreq, const PetscReal freqs[], PetscReal *Sopt, PetscReal Fi[], PetscReal *dist)
{
  PetscReal Tmaxcomp, Tmincomm, Fmax = 0, E1, T1, best = 0, S = 1;

  PetscFunctionBegin;
  PetscCall(CheckEPSAInputs(n, Tcomp, Tcomm, Pdyn, Pstatic, &Tmaxcomp, &Tmincomm));
  PetscCheck(Pdyn + Pstatic > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Pdyn + Pstatic = %g must be > 0", (double)(Pdyn + Pstatic));
  EasCheckSize(nfreq, "nfreq (available frequencies)");
  EasCheckNull(freqs, "freqs");
  for (PetscInt j = 0; j < nfreq; j++) {
    PetscCheck(!PetscIsInfOrNanReal(freqs[j]) && freqs[j] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "freqs[%" PetscInt_FMT "] = %g must be a frequency > 0", j, (double)freqs[j]);
    Fmax = PetscMax(Fmax, freqs[j]);
  }
  EasCheckNull(Sopt, "Sopt");
  EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, 1.0, &E1, &T1); /* E_Original, T_Old */
  for (PetscInt j = 0; j < nfreq; j++) {
    const PetscReal Sj = Fmax / freqs[j]; /* Fanfakh Alg. EPSA: S = Fmax/Fnew */
    PetscReal       E, T, Pnorm, Enorm;
    EPSAEval(n, Tcomp, Pdyn, Pstatic, Tmaxcomp, Tmincomm, Sj, &E, &T);
    Enorm = E / E1;             /* Fanfakh eq. (enorm), with the energy of eq. (e-new) */
    Pnorm = T1 / T;             /* Fanfakh eq. (pnorm_en) */
    if (Pnorm - Enorm > best) { /* Fanfakh eq. (max1), Alg. EPSA */
      best = Pnorm - Enorm;
      S    = Sj;
    }
  }
  *Sopt = S;
  if (dist) *dist = best;
  if (Fi)
    for (PetscInt i = 0; i < n; i++) Fi[i] = Fmax * Tcomp[i] / (S * Tmaxcomp); /* Fanfakh eq. (fi) */
  PetscFunctionReturn(0);
}
