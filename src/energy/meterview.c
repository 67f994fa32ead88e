/*
  EasEnergyMeter: the energy report (EasEnergyMeterView), as a table or as CSV
  (-eas_energy_view :file.csv:ascii_csv), its notes, and the report at the
  end of a run when -eas_energy_view was given.
*/
#include "energyimpl.h"

/* A figure's label; mixed: the sensors cover some kinds, the model adds the others (docs/energy.md, "Mixed"). */
static const char *Label(const EasEnergySummary *S, PetscBool measured, PetscBool apportioned)
{
  const PetscBool mixed = (PetscBool)(S->modelled_cpu || S->modelled_gpu);

  if (!S->valid) return "n/a";
  if (measured) return apportioned ? (mixed ? "apportioned+modelled" : "apportioned") : (mixed ? "measured+modelled" : "measured");
  return "modelled";
}

static PetscErrorCode PrintNum(char buf[], size_t len, PetscBool valid, PetscReal v)
{
  PetscFunctionBegin;
  if (valid)
    PetscCall(PetscSNPrintf(buf, len, "%12.5g", (double)v));
  else
    PetscCall(PetscSNPrintf(buf, len, "%12s", "n/a"));
  PetscFunctionReturn(0);
}

/* The report as CSV (-eas_energy_view :file.csv:ascii_csv): one value per
   row, columns record,phase,unit,quantity,value,source (docs/energy.md). */
static PetscErrorCode MeterViewCSV(EasEnergyMeter m, PetscViewer v, const EasMeterReport *R)
{
  const EasEnergySummary *S     = &R->S;
  PetscReal               alpha = 0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "record,phase,unit,quantity,value,source\n"));
  PetscCall(PetscViewerASCIIPrintf(v, "run,,,ranks,%d,\nrun,,,nodes,%" PetscInt_FMT ",\nrun,,,sensor,%s,\nrun,,,profile,%s,\n", (int)R->size, R->nnodes, R->sensors, m->prof_default ? "default" : "options"));
  PetscCall(PetscViewerASCIIPrintf(v, "profile,,,cpu_idle_W,%.10g,\nprofile,,,cpu_full_W,%.10g,\nprofile,,,gpu_idle_W,%.10g,\nprofile,,,gpu_full_W,%.10g,\nprofile,,,dram_W,%.10g,\nprofile,,,switch_W,%.10g,\n", (double)m->prof.cpu_idle, (double)m->prof.cpu_full, (double)m->prof.gpu_idle, (double)m->prof.gpu_full,
                                   (double)m->prof.dram, (double)m->prof.switch_));
  for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) {
    const PetscBool out  = p == EAS_NUM_PHASES ? PETSC_TRUE : PETSC_FALSE;
    const char     *name = out ? "unphased" : EasPhases[p];
    const PetscReal W = out ? S->other_time : S->phase_time[p], E = out ? S->other_energy : S->phase_energy[p];
    const char     *src = Label(S, S->measured, out ? S->other_apportioned : S->phase_apportioned[p]);
    PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,time_s,%.10g,\n", name, (double)W));
    if (!out) PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,cpu_busy_s,%.10g,\nphase,%s,,gpu_busy_s,%.10g,\n", name, (double)R->pbusy[0][p], name, (double)R->pbusy[1][p]));
    PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,share_of_T,%.10g,\n", name, (double)(S->time > 0 ? W / S->time : 0)));
    if (S->valid) PetscCall(PetscViewerASCIIPrintf(v, "phase,%s,,energy_J,%.10g,%s\nphase,%s,,power_W,%.10g,%s\n", name, (double)E, src, name, (double)(W > 0 ? E / W : 0), src));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "total,,,time_s,%.10g,\n", (double)S->time));
  if (S->valid) {
    const char *src = Label(S, S->measured, S->apportioned);
    PetscCall(PetscViewerASCIIPrintf(v, "total,,,energy_J,%.10g,%s\ntotal,,,power_W,%.10g,%s\ntotal,,,edp_Js,%.10g,%s\n", (double)S->energy, src, (double)S->power, src, (double)S->edp, src));
  }
  if (S->measured) PetscCall(PetscViewerASCIIPrintf(v, "sensors,,,resolution_s,%.10g,\nsensors,,,reads_sampler,%" PetscInt_FMT ",\nsensors,,,reads_caller,%" PetscInt_FMT ",\nsensors,,,boundaries,%" PetscInt_FMT ",\n", (double)S->resolution, S->reads_sampler, S->reads_caller, S->boundaries));
  PetscCall(PetscViewerASCIIPrintf(v, "total,,,model_energy_J,%.10g,modelled\n", (double)S->model_energy));
  if (S->modelled_cpu || S->modelled_gpu) PetscCall(PetscViewerASCIIPrintf(v, "total,,,modelled_part,%s,\ntotal,,,modelled_part_energy_J,%.10g,modelled\n", R->modelled, (double)S->modelled_energy));
  PetscCall(PetscViewerASCIIPrintf(v, "beta,,,cpu,%.10g,\nbeta,,,gpu,%.10g,\nbeta,,,compute_cpu,%.10g,\nbeta,,,compute_gpu,%.10g,\n", (double)R->beta[0], (double)R->beta[1], (double)R->beta_compute[0], (double)R->beta_compute[1]));
  for (PetscInt u = 0; u < m->nunits; u++) {
    char name[sizeof(m->unit[0].name)];
    PetscCall(PetscStrncpy(name, m->unit[u].name, sizeof(name)));
    for (char *c = name; *c; c++)
      if (*c == ',') *c = ';';
    PetscCall(PetscViewerASCIIPrintf(v, "unit,,%s,kind,%s,\n", name, m->unit[u].kind == EAS_UNIT_GPU ? "gpu" : "cpu"));
    PetscCall(PetscViewerASCIIPrintf(v, "unit,,%s,weight,%.10g,\nunit,,%s,busy_s,%.10g,\nunit,,%s,beta,%.10g,\nunit,,%s,work,%.10g,\nunit,,%s,t_el_s,%.10g,\n", name, (double)R->uweight[u], name, (double)R->ubusy[u], name, (double)(S->time > 0 ? R->ubusy[u] / (S->time * R->size) : 0), name, (double)R->uwork[u], name,
                                     (double)(R->uwork[u] > 0 ? R->ucomp[u] / R->uwork[u] : 0)));
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(PetscViewerASCIIPrintf(v, "part,%s,%s,energy_J,%.10g,modelled\n", EasPhases[p], name, (double)R->part[p][u]));
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) PetscCall(PetscViewerASCIIPrintf(v, "part,%s,idle,energy_J,%.10g,modelled\n", EasPhases[p], (double)R->part[p][m->nunits]));
  PetscCall(PetscViewerASCIIPrintf(v, "part,unphased,idle,energy_J,%.10g,%s\n", (double)S->other_energy, Label(S, S->other_measured, PETSC_FALSE)));
  /* Vialle et al. eqs. 1.34-1.37 (EasModelClusterFrontierSync): a mode keeping the computing units
     busy all the time (beta = 1, e.g. async) beats this run's busy fraction beta in energy when its
     speedup T_this/T_that exceeds P(beta = 1)/P(beta); P_sw = 0: the meter's energies leave the switch out */
  {
    const PetscReal full = R->PF, idle = R->PI, b = R->beta_compute[R->gpu_computes ? 1 : 0];
    EasClusterPower A = {1, &full, &idle, 1.0}, B = {1, &full, &idle, PetscMin(1.0, b)};
    if (R->PF > 0) PetscCall(EasModelClusterFrontierSync(&A, &B, 0.0, &alpha));
    PetscCall(PetscViewerASCIIPrintf(v, "frontier,,,kind,%s,\nfrontier,,,nodes,%" PetscInt_FMT ",\nfrontier,,,beta,%.10g,\nfrontier,,,PF_W,%.10g,modelled\nfrontier,,,PI_W,%.10g,modelled\nfrontier,,,Psw_W,0,\nfrontier,,,alpha,%.10g,modelled\n", R->gpu_computes ? "gpu" : "cpu", R->nnodes, (double)B.beta, (double)R->PF, (double)R->PI, (double)alpha));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterView - the energy report: one row per phase, the time
  outside every phase ("unphased"), the total, then one row per unit.  Every
  energy is labelled measured, apportioned (measured, over 1% of the row's
  time in intervals shorter than the sensors' resolution: its energy is its
  time's share of sampling intervals), modelled or n/a.  With the
  viewer format PETSC_VIEWER_ASCII_CSV (-eas_energy_view :file.csv:ascii_csv)
  the same figures, and the modelled parts per phase and unit, as CSV
  (docs/energy.md).
@*/
PetscErrorCode EasEnergyMeterView(EasEnergyMeter m, PetscViewer viewer)
{
  EasMeterReport    R;
  EasEnergySummary *S = &R.S;
  PetscBool         isascii;
  PetscViewerFormat fmt;
  char              e[32], pw[32], edp[32];
  PetscReal         busy_cpu = 0, busy_gpu = 0;
  int               w = 10; /* width of the first column: the longest unit or phase name */

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)m), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  PetscCheck(isascii, PetscObjectComm((PetscObject)m), PETSC_ERR_SUP, "-eas_energy_view supports ASCII viewers only (the table, or CSV with the format ascii_csv)");
  PetscCall(EasMeterFlushDisabled(m)); /* energy output was asked for: say which sensors are missing */
  PetscCall(EasMeterGatherReport(m, &R));
  PetscCall(PetscViewerGetFormat(viewer, &fmt));
  if (fmt == PETSC_VIEWER_ASCII_CSV) {
    PetscCall(MeterViewCSV(m, viewer, &R));
    PetscFunctionReturn(0);
  }
  for (PetscInt u = 0; u < m->nunits; u++) {
    size_t len;
    PetscCall(PetscStrlen(m->unit[u].name, &len));
    w = PetscMax(w, (int)len);
  }

  PetscCall(PetscViewerASCIIPrintf(viewer, "eas energy report: %d rank(s) on %" PetscInt_FMT " node(s), sensor %s, profile %s\n", (int)R.size, R.nnodes, R.sensors, m->prof_default ? "default (share/eas/default_profile.opts)" : "from options"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12s %12s %12s %12s %12s %12s %12s  %s\n", w, "phase", "time [s]", "cpu busy [s]", "gpu busy [s]", "share of T", "energy [J]", "power [W]", "EDP [J s]", "source"));
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) {
    const PetscReal W = S->phase_time[p];
    PetscCall(PrintNum(e, sizeof(e), S->valid, S->phase_energy[p]));
    PetscCall(PrintNum(pw, sizeof(pw), S->valid, W > 0 ? S->phase_energy[p] / W : 0));
    PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->phase_energy[p] * W));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, EasPhases[p], (double)W, (double)R.pbusy[0][p], (double)R.pbusy[1][p], (double)(S->time > 0 ? W / S->time : 0), e, pw, edp, W > 0 ? Label(S, S->phase_measured[p], S->phase_apportioned[p]) : "-"));
    busy_cpu += R.pbusy[0][p];
    busy_gpu += R.pbusy[1][p];
  }
  PetscCall(PrintNum(e, sizeof(e), S->valid, S->other_energy));
  PetscCall(PrintNum(pw, sizeof(pw), S->valid, S->other_time > 0 ? S->other_energy / S->other_time : 0));
  PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->other_energy * S->other_time));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, "unphased", (double)S->other_time, 0.0, 0.0, (double)(S->time > 0 ? S->other_time / S->time : 0), e, pw, edp, S->other_time > 0 ? Label(S, S->other_measured, S->other_apportioned) : "-"));
  PetscCall(PrintNum(e, sizeof(e), S->valid, S->energy));
  PetscCall(PrintNum(pw, sizeof(pw), S->valid, S->power));
  PetscCall(PrintNum(edp, sizeof(edp), S->valid, S->edp));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %12.5g %12.5g %12.5g %12.5g %s %s %s  %s\n", w, "total", (double)S->time, (double)busy_cpu, (double)busy_gpu, 1.0, e, pw, edp, Label(S, S->measured, S->apportioned)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "unphased: run time outside every phase (no unit busy); its energy is %s\n", S->measured ? (S->modelled_cpu || S->modelled_gpu ? "the sensors' energy over that time plus the idle power of the kinds they do not cover" : "the sensors' energy over that time") : "the idle power P_I over that time"));
  if (S->measured) {
    PetscBool apportioned = (PetscBool)(S->other_apportioned || S->apportioned);
    for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) apportioned = (PetscBool)(apportioned || S->phase_apportioned[p]);
    PetscCall(PetscViewerASCIIPrintf(viewer, "measured: the sensors' samples (%s, resolution %g ms) apportioned to the rows by their busy time in each sampling interval; the rows add up to the total\n", R.sensors, (double)(1e3 * S->resolution)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "source of the energies: %s\n", R.source));
    if (S->modelled_cpu || S->modelled_gpu)
      PetscCall(PetscViewerASCIIPrintf(viewer, "measured+modelled: the sensors cover only some kinds; each row adds the model (Vialle et al. eq. 1.16) of the others (%s) over its time and busy fractions: %.5g J of the total (counted once over T)\n", R.modelled, (double)S->modelled_energy));
    if (apportioned) PetscCall(PetscViewerASCIIPrintf(viewer, "apportioned: over 1%% of the row's time in intervals shorter than the resolution; their energy is their time's share of the sampling intervals around them, not a reading of their own\n"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "sensor reads: %" PetscInt_FMT " on the sampler thread(s), %" PetscInt_FMT " on the solver's thread; %" PetscInt_FMT " phase boundaries\n", S->reads_sampler, S->reads_caller, S->boundaries));
  }
  if (S->switch_energy > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "network switch (Vialle et al. eq. 1.34, P_sw %g W over T on %d nodes): %.5g J modelled, %s\n", (double)m->prof.switch_, (int)m->nnodes, (double)S->switch_energy, S->measured ? "not in the measured total" : "in the total"));
  if (S->measured) PetscCall(PetscViewerASCIIPrintf(viewer, "model (Vialle et al. eqs. 1.16, 1.34) for comparison: %.5g J\n", (double)S->model_energy));
  /* node busy fraction: sum over the node's units of weight x busy fraction, mean over the nodes */
  PetscCall(PetscViewerASCIIPrintf(viewer, "busy fraction beta (Vialle et al. eq. 1.16, weighted by the units' node shares): cpu %.5g, gpu %.5g\n", (double)R.beta[0], (double)R.beta[1]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %-5s %12s %12s %12s %12s %14s\n", w, "unit", "kind", "weight [-]", "busy [s]", "beta [-]", "work [el]", "t_el [s/el]"));
  for (PetscInt u = 0; u < m->nunits; u++) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%-*s %-5s %12.5g %12.5g %12.5g %12.5g %14.5g\n", w, m->unit[u].name, m->unit[u].kind == EAS_UNIT_GPU ? "gpu" : "cpu", (double)R.uweight[u], (double)R.ubusy[u], (double)(S->time > 0 ? R.ubusy[u] / (S->time * R.size) : 0), (double)R.uwork[u], (double)(R.uwork[u] > 0 ? R.ucomp[u] / R.uwork[u] : 0)));
  }
  for (PetscInt k = 0; k < m->nnotes; k++) PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", m->note[k]));
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterSetNote - a line at the end of the report, under key.
@*/
PetscErrorCode EasEnergyMeterSetNote(EasEnergyMeter m, const char key[], const char line[])
{
  PetscInt k;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  PetscValidCharPointer(key, 2);
  for (k = 0; k < m->nnotes; k++) {
    PetscBool same;
    PetscCall(PetscStrcmp(m->note_key[k], key, &same));
    if (same) break;
  }
  if (!line) { /* remove */
    if (k < m->nnotes) {
      for (PetscInt j = k + 1; j < m->nnotes; j++) {
        PetscCall(PetscStrncpy(m->note_key[j - 1], m->note_key[j], sizeof(m->note_key[0])));
        PetscCall(PetscStrncpy(m->note[j - 1], m->note[j], sizeof(m->note[0])));
      }
      m->nnotes--;
    }
    PetscFunctionReturn(0);
  }
  PetscCheck(k < EAS_METER_MAX_NOTES, PetscObjectComm((PetscObject)m), PETSC_ERR_ARG_OUTOFRANGE, "EasEnergyMeterSetNote: at most %d notes", EAS_METER_MAX_NOTES);
  PetscCall(PetscStrncpy(m->note_key[k], key, sizeof(m->note_key[0])));
  PetscCall(PetscStrncpy(m->note[k], line, sizeof(m->note[0])));
  if (k == m->nnotes) m->nnotes++;
  PetscFunctionReturn(0);
}

/*@C
  EasEnergyMeterViewFromOptions - the report when -eas_energy_view was given.
@*/
PetscErrorCode EasEnergyMeterViewFromOptions(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(m, EAS_METER_CLASSID, 1);
  if (!m->view_set || !m->viewer) PetscFunctionReturn(0);
  PetscCall(PetscViewerPushFormat(m->viewer, m->vformat));
  PetscCall(EasEnergyMeterView(m, m->viewer));
  PetscCall(PetscViewerPopFormat(m->viewer));
  PetscFunctionReturn(0);
}
