/*
  EasEnergyMeter: the CSV trace (-eas_trace), one row per iteration of the
  split: shares, per-element times, predicted and measured time and energy.
*/
#include "energyimpl.h"

/*@C
  EasEnergyMeterSetTrace - opens the CSV trace (rank 0 writes); NULL closes it.
@*/
PetscErrorCode EasEnergyMeterSetTrace(EasEnergyMeter m, const char path[])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)m), &rank));
  if (m->trace) {
    PetscBool same = PETSC_FALSE;
    PetscCall(PetscFClose(PETSC_COMM_SELF, m->trace));
    if (path) PetscCall(PetscStrcmp(path, m->trace_path, &same));
    if (!m->trace_header && !same) (void)remove(m->trace_path); /* switched to another file before any row: leave no empty file */
  }
  m->trace        = NULL;
  m->trace_header = PETSC_FALSE;
  m->trace_on     = (path && path[0]) ? PETSC_TRUE : PETSC_FALSE;
  if (path && path[0] && rank == 0) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "w", &m->trace));
    PetscCall(PetscStrncpy(m->trace_path, path, sizeof(m->trace_path)));
    PetscCheck(m->trace, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-eas_trace %s: cannot open the file for writing", path);
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyTraceRow - one CSV row: it, shares and per-element times of each
  unit, predicted time/energy, measured time/energy since the previous row.
  Energy: the sensors' (node leaders' sum) when the interval is at least
  the sensors' resolution long, plus the model's for the kinds they do not
  cover (source measured+modelled), else the model; the sensors' energy is
  what the samples so far apportioned (no read is waited for: it lags the
  row by up to a sampling period, the rows' sum being exact at the end).
  Collective.
@*/
PetscErrorCode EasEnergyTraceRow(EasEnergyMeter m, PetscInt it, PetscInt n, const PetscReal shares[], const PetscReal t_el[], PetscReal Tpred, PetscReal Epred)
{
  PetscLogDouble t;
  PetscReal      Em, Ec, Es = 0, dT, dE, loc[3], glob[3];
  PetscBool      measured, mixed;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->trace_on) PetscFunctionReturn(0); /* no trace (same on every rank) */
  PetscCheck(m->started, PetscObjectComm((PetscObject)m), PETSC_ERR_ORDER, "EasEnergyTraceRow: start the meter first (EasEnergyMeterStart)");
  PetscCall(EasEnergyMeterGetModelEnergy(m, &Em)); /* processes what is known */
  PetscCall(EasMeterComplementEnergy(m, &mixed, &Ec)); /* the model's part of the kinds no sensor covers */
  t = m->tproc;
  for (PetscInt k = 0; k < m->nsensors; k++) /* apportioned so far: up to the newest sample, not waited for */
    for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) Es += m->acc[k].E[p];
  dT     = t - m->trace_t;
  loc[0] = Em - m->trace_Emodel;
  loc[1] = Es - m->trace_E;
  loc[2] = Ec - m->trace_Ecomp;
  PetscCallMPI(MPI_Allreduce(loc, glob, 3, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)m)));
  measured        = ((m->cover_cpu || m->cover_gpu) && dT >= m->resolution) ? PETSC_TRUE : PETSC_FALSE;
  dE              = measured ? glob[1] + glob[2] : glob[0];
  m->trace_t      = t;
  m->trace_Emodel = Em;
  m->trace_E      = Es;
  m->trace_Ecomp  = Ec;
  if (m->trace) {
    if (!m->trace_header) {
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, "iteration"));
      for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",share_%" PetscInt_FMT, u));
      for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",t_el_%" PetscInt_FMT "_s", u));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",time_pred_s,energy_pred_J,time_meas_s,energy_meas_J,energy_source\n"));
      m->trace_header = PETSC_TRUE;
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, "%" PetscInt_FMT, it));
    for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)shares[u]));
    for (PetscInt u = 0; u < n; u++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)t_el[u]));
    if (Tpred >= 0 && !PetscIsNanReal(Tpred))
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)Tpred));
    else
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ","));
    if (Epred >= 0 && !PetscIsNanReal(Epred))
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g", (double)Epred));
    else
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ","));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, m->trace, ",%.6g,%.6g,%s\n", (double)dT, (double)dE, measured ? (mixed ? "measured+modelled" : "measured") : "modelled"));
  }
  PetscFunctionReturn(0);
}
