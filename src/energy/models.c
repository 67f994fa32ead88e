/*
  The papers' energy and time models as pure functions (see include/eas/energy.h
  for the documentation of every function, docs/models.md for the equations
  and docs/references.md for the papers).  No global state, no I/O.

  One file per paper: models_vialle.c (node and cluster energy, alpha
  frontiers), models_langrunger.c (EBE CG per-element times and energies,
  the CPU/GPU split), models_gecameron.c (power-aware speedup, minimal EDP),
  models_ribeiro.c (performance index, balanced shares, migration, power
  budget) and models_fanfakh.c (EPSA); the input checks they share are in
  modelsimpl.h.  This file: the criteria E T^w of issue 5.
*/
#include <eas/energy.h>
#include "modelsimpl.h"

/* ======================================================= criteria (issue 5) */

PetscErrorCode EasModelCriterionFrontier(PetscReal PF_A, PetscReal PF_B, PetscReal w, PetscReal *alpha)
{
  PetscReal a0;

  PetscFunctionBegin;
  EasCheckNonNeg(w, "w (delay exponent)");
  EasCheckNull(alpha, "alpha");
  PetscCall(EasModelNodeFrontier(PF_A, PF_B, &a0)); /* Vialle et al. eq. (1.24) */
  *alpha = PetscPowReal(a0, 1.0 / (w + 1.0));       /* E T^w = P T^(w+1): eq. (1.24) generalised */
  PetscFunctionReturn(0);
}

const char *const EasCriterions[] = {"time", "energy", "edp", "ed2p", "EasCriterion", "EAS_CRITERION_", NULL};

/*@C
  EasCriterionExponent - w of the metric E T^w (energy 0, edp 1, ed2p 2;
  time: PETSC_INFINITY).
@*/
PetscReal EasCriterionExponent(EasCriterion c)
{
  switch (c) {
  case EAS_CRITERION_ENERGY:
    return 0.0;
  case EAS_CRITERION_EDP:
    return 1.0;
  case EAS_CRITERION_ED2P:
    return 2.0;
  default:
    return PETSC_INFINITY;
  }
}
