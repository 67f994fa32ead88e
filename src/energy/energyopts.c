/*
  The energy options that several objects read, each parsed here only
  (docs/design.md, "One owner per option"): the objects call these in
  their own options blocks and apply the value through their setters.
    -eas_criterion     what the energy decisions minimise: the backend
                       choice (EasPolicySetCriterion) and the frontier rule
                       of -eas_mode auto (EasAdrSetModeAutoCriterion)
    -eas_rapl_root     the powercap tree: the RAPL sensor reads it, the
                       power budget writes its caps there
    -eas_trace,        the outputs of an energy meter: whether a solver's
    -eas_energy_view   options ask for them (it then creates its meter,
                       which parses them), and the meter's trace file
*/
#include "energyimpl.h"

/* EasCriterionSetFromOptions_Private - -eas_criterion in the caller's
   options block; *crit is the default shown and the value read (*set). */
PetscErrorCode EasCriterionSetFromOptions_Private(PetscOptionItems *PetscOptionsObject, const char manpage[], EasCriterion *crit, PetscBool *set)
{
  PetscInt c = (PetscInt)*crit;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEList("-eas_criterion", "What the energy decisions minimise (-eas_backend auto; -eas_mode auto, frontier rule): time, energy, edp (E T) or ed2p (E T^2)", manpage, EasCriteria, 4, EasCriteria[*crit], &c, set));
  if (*set) *crit = (EasCriterion)c;
  PetscFunctionReturn(0);
}

/* EasRaplRootSetFromOptions_Private - -eas_rapl_root in the caller's
   options block; root holds the default shown and the value read (*set). */
PetscErrorCode EasRaplRootSetFromOptions_Private(PetscOptionItems *PetscOptionsObject, const char manpage[], char root[], size_t len, PetscBool *set)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsString("-eas_rapl_root", "powercap root directory (the RAPL sensor's energy counters; the power budget's caps; tests use fake trees)", manpage, root, root, len, set));
  PetscFunctionReturn(0);
}

/* EasEnergyOutputRequested_Private - whether obj's options ask for a
   trace (-eas_trace) or the energy report (-eas_energy_view): a solver
   that creates its meter only then asks this before the meter exists. */
PetscErrorCode EasEnergyOutputRequested_Private(PetscObject obj, PetscBool *trace, PetscBool *view)
{
  PetscFunctionBegin;
  if (trace) PetscCall(PetscOptionsHasName(obj->options, obj->prefix, "-eas_trace", trace));
  if (view) PetscCall(PetscOptionsHasName(obj->options, obj->prefix, "-eas_energy_view", view));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterGetTrace - the meter's CSV trace file (-eas_trace,
  EasEnergyMeterSetTrace), NULL when it has none.
@*/
PetscErrorCode EasEnergyMeterGetTrace(EasEnergyMeter m, const char *path[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscValidPointer(path, 2);
  *path = m->trace_on ? m->trace_path : NULL;
  PetscFunctionReturn(0);
}
