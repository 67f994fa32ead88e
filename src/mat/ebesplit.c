/*
  The online split of the EBE element work over compute units (docs/ebe.md; Lang-Rünger Alg. 2, eqs. 14, 23, 26/42; Ribeiro eqs. 3.6, 4.1-4.8).

  A unit is a backend: a CPU backend is a group of threads (its thread
  count), a device backend runs its share per Lang-Rünger Alg. 2 (the host
  thread launches it asynchronously, then computes CPU elements too; x goes
  to the device and y_dev comes back each apply; the element matrices of its
  share are copied when the share changes, t_copy of eq. 14).  Unit u takes
  the contiguous elements [start_u, start_u + n_u) of the split range.

  With the operator on a device backend, its vectors stay there and the
  device unit is the operator's backend; a host unit gets only x at its
  gather list and returns its partial result for those dofs (ebesplitdev.c).

  Each apply measures the wall time of every unit's part (CUDA events on a
  device) and its per-element time t_u = time / n_u.  Every
  -ebe_rebalance_interval applies, once the window holds -ebe_split_window
  samples since the last move, a decision is taken and recorded:
    1. t_u = median over the window (EasModelWindowIndexMedian: one spike does
       not move it, Ribeiro eqs. 4.1-4.2 made robust);
    2. a device unit is kept only if worth its copies (Lang-Rünger eq. 23,
       EasModelLangRungerGpuWorthwhile);
    3. balanced shares n_u = N (1/t_u) / sum_v (1/t_v) (EasModelBalancedShares;
       Lang-Rünger eq. 26 for one CPU + one GPU);
    3b. the balanced split over every measured unit must beat the best unit
       alone by -ebe_split_min_gain: T_split <= (1 - g) min_u t_u N, with a
       host element charged t_x = T_x / n_host, T_x the measured crossing
       of the vectors per apply, n_host at the balanced shares (Lang-Rünger eq. 22 with t_el,cpu -> t_el,cpu + t_x;
       docs/ebe.md); with the operator on a device (ebesplitdev.c) only the gather lists cross, and t_x is the
       measured gather/scatter and copy time per host element itself; otherwise the best unit takes all elements and the
       decision says why (steps 3-5 use the same charged host times);
    4. move only if amortized over the remaining applies (Ribeiro eqs.
       4.7-4.8, EasModelMigrationAmortized) and if the predicted gain
       exceeds -ebe_split_tol of the current time (a dead band against
       measurement noise); a move goes -ebe_split_damping of the way to the
       balanced shares (a damped fixed-point iteration: per-element times
       are not exactly share-independent, caches, and are noisy).  Dead
       band, damping and the median are what keep the split from
       oscillating; the window keeps its samples across moves since they
       are per-element times.
*/
#include "ebeimpl.h"
#include <omp.h>
#include <time.h>

/* Clock of a unit's part: wall (default) or the CPU time of the thread that
   drives the unit (-ebe_split_clock thread: insensitive to descheduling on an
   oversubscribed machine; the unit's team shares its work evenly). */
static double EasSplitClock(PetscBool thread)
{
  if (thread) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
  }
  return omp_get_wtime();
}

PetscErrorCode EasEbeSplitCreate_Private(EasEbe ebe)
{
  EasEbeSplit *sp;

  PetscFunctionBegin;
  PetscCall(PetscNew(&sp));
  sp->type      = EAS_EBE_SPLIT_AUTO;
  sp->share0    = -1.0;
  sp->interval  = 10;
  sp->window    = 9;
  sp->tol       = 0.03;
  sp->damping   = 0.5;
  sp->quantile  = 0.5;
  sp->min_gain  = 0.05;
  sp->lcg       = 12345;
  sp->remaining = -1.0;
  for (PetscInt u = 0; u < EAS_EBE_MAXUNITS; u++) sp->slow[u] = sp->spike[u] = 1.0;
  ebe->split = sp;
  PetscFunctionReturn(0);
}

static PetscErrorCode EasEbeSplitFreeBuffers(EasEbe ebe)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (sp->pend) { /* read the marks (the backend's queue holds them), drop the time */
    sp->pend_virtual = PETSC_TRUE;
    PetscCall(EasEbeSplitDeviceResolve_Private(ebe, PETSC_TRUE));
  }
  PetscCall(EasEbeSplitDeviceFree_Private(ebe)); /* a device operator's gather lists */
  for (PetscInt u = 0; u < EAS_EBE_MAXUNITS; u++) {
    PetscCall(PetscFree(sp->sbuf[u]));
    if (sp->unit[u] && !sp->is_host[u]) {
      EasBackend b = sp->unit[u];
      PetscCall(EasBackendHostFree(b, (void **)&sp->ybuf[u]));
      PetscCall(EasBackendHostFree(b, (void **)&sp->xbuf[u]));
      if (sp->xdev[u]) PetscCall((*b->ops->free)(b, sp->xdev[u]));
      if (sp->ydev[u]) PetscCall((*b->ops->free)(b, sp->ydev[u]));
      if (sp->conn_dev[u]) PetscCall((*b->ops->free)(b, sp->conn_dev[u]));
      if (sp->val_dev[u]) PetscCall((*b->ops->free)(b, sp->val_dev[u]));
      if (sp->cel_dev[u]) PetscCall((*b->ops->free)(b, sp->cel_dev[u]));
    }
    PetscCall(PetscFree(sp->ybuf[u])); /* a host unit's (NULL if freed above) */
    sp->xdev[u] = sp->ydev[u] = NULL;
    sp->conn_dev[u]           = NULL;
    sp->val_dev[u]            = NULL;
    sp->cel_dev[u]            = NULL;
    sp->dev_e0[u] = sp->dev_e1[u] = 0;
  }
  PetscCall(PetscFree3(sp->busy, sp->count, sp->xfer));
  sp->setup = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitDestroy_Private(EasEbe ebe)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  if (sp->trace_file[0] && sp->ntrace) PetscCall(EasEbeSplitDumpTrace(ebe, sp->trace_file));
  PetscCall(EasEbeSplitFreeBuffers(ebe));
  for (PetscInt u = 0; u < sp->nunits; u++) PetscCall(EasBackendDestroy(&sp->unit[u]));
  PetscCall(PetscFree(sp->trace));
  PetscCall(PetscFree(ebe->split));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetSplitUnits - the compute units sharing the local elements (at most
  8; n = 0: no split).  Errors: too many units.
@*/
PetscErrorCode EasEbeSetSplitUnits(EasEbe ebe, PetscInt n, const EasBackend units[])
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(n >= 0 && n <= EAS_EBE_MAXUNITS, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_units: %" PetscInt_FMT " units given, expected 0 to %d", n, EAS_EBE_MAXUNITS);
  PetscCall(EasEbeSplitFreeBuffers(ebe));
  for (PetscInt u = 0; u < n; u++) PetscCall(PetscObjectReference((PetscObject)units[u]));
  for (PetscInt u = 0; u < sp->nunits; u++) PetscCall(EasBackendDestroy(&sp->unit[u]));
  for (PetscInt u = 0; u < n; u++) {
    sp->unit[u]    = units[u];
    sp->is_host[u] = units[u]->host_is_device;
  }
  sp->nunits = n;
  if (ebe->setupcalled) { /* re-run the split setup only */
    if (ebe->mode == EAS_EBE_ASYNC && ebe->be->host_is_device) /* the range EasEbeSetUp gives the split */
      PetscCall(EasEbeSplitSetUp_Private(ebe, ebe->ifc_e[0][1], ebe->ifc_e[1][0]));
    else
      PetscCall(EasEbeSplitSetUp_Private(ebe, 0, ebe->nel));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSetSplitType(EasEbe ebe, EasEbeSplitType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  ebe->split->type = type;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetGpuShare - fraction of the elements given to unit 0 (the device
  unit, if any) at start and, in fixed mode, always.
  Errors: a share outside [0,1].
@*/
PetscErrorCode EasEbeSetGpuShare(EasEbe ebe, PetscReal r)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(r >= 0.0 && r <= 1.0, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_gpu_share %g is invalid: expected a fraction of the elements in [0, 1]", (double)r);
  ebe->split->share0 = r;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitSetMinGain - the split is chosen only when its predicted time
  beats the best unit alone by this fraction: T_split <= (1 - g) min_u T_u
  (-ebe_split_min_gain, default 0.05); otherwise the best unit keeps all
  the elements.  Errors: g outside [0, 1) or NaN.
@*/
PetscErrorCode EasEbeSplitSetMinGain(EasEbe ebe, PetscReal g)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(g >= 0.0 && g < 1.0, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_min_gain %g is invalid: expected a fraction g in [0, 1) (0.05: the split must be 5%% faster than the best unit alone)", (double)g);
  ebe->split->min_gain = g;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitGetMinGain - the margin of EasEbeSplitSetMinGain.
@*/
PetscErrorCode EasEbeSplitGetMinGain(EasEbe ebe, PetscReal *g)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscValidRealPointer(g, 2);
  *g = ebe->split->min_gain;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSetRebalanceInterval(EasEbe ebe, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(k >= 1, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_rebalance_interval %" PetscInt_FMT " is invalid: expected a number of applies >= 1", k);
  ebe->split->interval = k;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSetTestSlowdown - TEST ONLY: unit repeats its element work (into a
  scratch vector) so that it runs factor times slower.
  Errors: unit outside [0,8), factor < 1.
@*/
PetscErrorCode EasEbeSetTestSlowdown(EasEbe ebe, PetscInt unit, PetscReal factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(unit >= 0 && unit < EAS_EBE_MAXUNITS, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_test_slowdown: unit %" PetscInt_FMT " is invalid: expected <unit>:<factor> with unit in [0, %d)", unit, EAS_EBE_MAXUNITS);
  PetscCheck(factor >= 1.0, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "-ebe_test_slowdown: factor %g is invalid: expected <unit>:<factor> with factor >= 1", (double)factor);
  ebe->split->slow[unit] = factor;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitInjectSpike(EasEbe ebe, PetscInt unit, PetscReal factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(unit >= 0 && unit < ebe->split->nunits && factor > 0, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSplitInjectSpike: unit %" PetscInt_FMT " factor %g: expected a unit in [0, %" PetscInt_FMT ") and factor > 0", unit, (double)factor, ebe->split->nunits);
  ebe->split->spike[unit] = factor;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitSetRemaining(EasEbe ebe, PetscReal remaining)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(remaining >= 0 || remaining == PETSC_DEFAULT, PetscObjectComm((PetscObject)ebe), PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSplitSetRemaining: remaining %g: expected >= 0 applies, or PETSC_DEFAULT", (double)remaining);
  ebe->split->remaining = remaining == PETSC_DEFAULT ? -1.0 : remaining;
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitSetFromOptions_Private(EasEbe ebe, PetscOptionItems *PetscOptionsObject)
{
  EasEbeSplit *sp = ebe->split;
  char         str[PETSC_MAX_PATH_LEN];
  PetscBool    flg;
  PetscReal    r = sp->share0;
  PetscInt     k = sp->interval;

  PetscFunctionBegin;
  PetscCall(PetscOptionsString("-ebe_split_units", "Compute units sharing the elements: comma-separated <resource>[:threads], e.g. /cpu:1,/cpu:1 or /gpu/cuda,/cpu", "EasEbeSetSplitUnits", "", str, sizeof(str), &flg));
  if (flg && str[0]) {
    EasBackend units[EAS_EBE_MAXUNITS];
    PetscInt   n = 0;
    char      *tok, *save = NULL;
    for (tok = strtok_r(str, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      char    *colon = strchr(tok, ':');
      PetscInt th    = 0;
      PetscCheck(n < EAS_EBE_MAXUNITS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_units: at most %d units", EAS_EBE_MAXUNITS);
      if (colon) {
        *colon = 0;
        th     = (PetscInt)atoi(colon + 1);
        PetscCheck(th >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_units: \"%s:%s\" is invalid: expected <resource>[:threads] with threads >= 1", tok, colon + 1);
      }
      PetscCall(EasBackendCreate(PETSC_COMM_SELF, tok, &units[n]));
      if (th) PetscCall(EasBackendSetThreads(units[n], th));
      n++;
    }
    PetscCall(EasEbeSetSplitUnits(ebe, n, units));
    for (PetscInt u = 0; u < n; u++) PetscCall(EasBackendDestroy(&units[u]));
  }
  PetscCall(PetscOptionsEnum("-ebe_split", "Split of the elements over the units: auto (measured) or fixed", "EasEbeSetSplitType", EasEbeSplitTypes, (PetscEnum)sp->type, (PetscEnum *)&sp->type, NULL));
  PetscCall(PetscOptionsReal("-ebe_gpu_share", "Fraction of the elements on unit 0 (the GPU) at start, always when fixed", "EasEbeSetGpuShare", r, &r, &flg));
  if (flg) PetscCall(EasEbeSetGpuShare(ebe, r));
  PetscCall(PetscOptionsInt("-ebe_rebalance_interval", "Applies between split decisions", "EasEbeSetRebalanceInterval", k, &k, &flg));
  if (flg) PetscCall(EasEbeSetRebalanceInterval(ebe, k));
  r = sp->min_gain;
  PetscCall(PetscOptionsReal("-ebe_split_min_gain", "Fraction by which the predicted split time must beat the best unit alone, in [0,1)", "EasEbeSplitSetMinGain", r, &r, &flg));
  if (flg) PetscCall(EasEbeSplitSetMinGain(ebe, r));
  PetscCall(PetscOptionsInt("-ebe_split_window", "Samples in the smoothing window (median)", "", sp->window, &sp->window, NULL));
  PetscCheck(sp->window >= 1 && sp->window <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_window %" PetscInt_FMT " is invalid: expected 1 to 64 samples", sp->window);
  PetscCall(PetscOptionsReal("-ebe_split_tol", "Relative predicted gain below which the split is kept", "", sp->tol, &sp->tol, NULL));
  PetscCall(PetscOptionsBool("-ebe_split_thread_clock", "Time CPU units by the CPU time of their driving thread instead of wall time (robust on oversubscribed machines)", "", sp->thread_clock, &sp->thread_clock, NULL));
  PetscCall(PetscOptionsReal("-ebe_test_virtual_time", "TEST ONLY: replace the measured unit times by <t> x slowdown x elements (deterministic split tests)", "", sp->virtual_tel, &sp->virtual_tel, NULL));
  PetscCall(PetscOptionsReal("-ebe_test_virtual_noise", "TEST ONLY: relative uniform jitter of the virtual times (fixed seed)", "", sp->virtual_noise, &sp->virtual_noise, NULL));
  PetscCall(PetscOptionsReal("-ebe_split_quantile", "Quantile of the window's per-element times used as the unit's time (0.5: median)", "", sp->quantile, &sp->quantile, NULL));
  PetscCheck(sp->quantile >= 0.0 && sp->quantile <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_quantile %g is invalid: expected a quantile in [0, 1]", (double)sp->quantile);
  PetscCall(PetscOptionsReal("-ebe_split_damping", "Fraction of the way to the balanced shares moved per decision, in (0,1]", "", sp->damping, &sp->damping, NULL));
  PetscCheck(sp->damping > 0.0 && sp->damping <= 1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_split_damping %g is invalid: expected a fraction in (0, 1]", (double)sp->damping);
  PetscCall(PetscOptionsString("-ebe_split_trace", "CSV file receiving the split decisions", "EasEbeSplitDumpTrace", sp->trace_file, sp->trace_file, sizeof(sp->trace_file), NULL));
  PetscCall(PetscOptionsString("-ebe_test_slowdown", "TEST ONLY: <unit>:<factor> makes a unit repeat its element work", "EasEbeSetTestSlowdown", "", str, sizeof(str), &flg));
  if (flg && str[0]) {
    char *colon = strchr(str, ':');
    PetscCheck(colon, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-ebe_test_slowdown \"%s\" is invalid: expected <unit>:<factor>", str);
    *colon = 0;
    PetscCall(EasEbeSetTestSlowdown(ebe, (PetscInt)atoi(str), (PetscReal)atof(colon + 1)));
  }
  PetscFunctionReturn(0);
}

/* Sets the shares: element starts, node ranges of the private outputs and
   device copies of the device units' elements (timed: t_copy, eq. 14). */
static PetscErrorCode EasEbeSplitApplyShares(EasEbe ebe, const PetscInt shares[])
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt m = ebe->nen * ebe->dof, n = ebe->nnodes * ebe->dof;
  const size_t   eb   = (size_t)EasEbeStorageBytes(ebe->k.storage, m);                                 /* bytes per element in the storage the units read */
  const void    *vals = ebe->k.storage == EAS_EBE_STORAGE_FULL ? (const void *)ebe->ael : ebe->k.aels; /* host: the operator is on a host backend */
  PetscInt       s    = sp->e0;

  PetscFunctionBegin;
  if (sp->on_device) { /* the device unit's elements are resident: only the host units' gather lists change */
    for (PetscInt u = 0; u < sp->nunits; u++) {
      sp->shares[u] = shares[u];
      sp->start[u]  = s;
      s += shares[u];
    }
    PetscCall(EasEbeSplitDeviceShares_Private(ebe));
    PetscFunctionReturn(0);
  }
  for (PetscInt u = 0; u < sp->nunits; u++) {
    sp->shares[u] = shares[u];
    sp->start[u]  = s;
    s += shares[u];
    sp->lo[u] = n;
    sp->hi[u] = 0;
    for (PetscInt e = sp->start[u]; e < s; e++)
      for (PetscInt a = 0; a < ebe->nen; a++) {
        sp->lo[u] = PetscMin(sp->lo[u], ebe->conn[e * ebe->nen + a] * ebe->dof);
        sp->hi[u] = PetscMax(sp->hi[u], (ebe->conn[e * ebe->nen + a] + 1) * ebe->dof);
      }
    if (sp->lo[u] > sp->hi[u]) sp->lo[u] = sp->hi[u] = 0;
    if (!sp->ybuf[u] && sp->is_host[u]) PetscCall(PetscMalloc1(PetscMax(n, 1), &sp->ybuf[u]));
    if (!sp->ybuf[u] && !sp->is_host[u]) { /* Lang-Rünger Alg. 2 overlaps only if the unit's copies are asynchronous: host staging (pinned) buffers */
      PetscCall(EasBackendHostAlloc(sp->unit[u], sizeof(PetscScalar) * PetscMax(n, 1), (void **)&sp->ybuf[u]));
      PetscCall(EasBackendHostAlloc(sp->unit[u], sizeof(PetscScalar) * PetscMax(n, 1), (void **)&sp->xbuf[u]));
    }
    if (!sp->is_host[u] && shares[u] > 0 && (sp->dev_e0[u] != sp->start[u] || sp->dev_e1[u] != s)) {
      EasBackend     b = sp->unit[u];
      PetscLogDouble t0, t1;
      const PetscInt e0 = sp->start[u], ne = shares[u];
      if (ebe->meter && u < ebe->nmunits) PetscCall(EasEnergyMeterBegin(ebe->meter, EAS_PHASE_TRANSFER, ebe->munit[u]));
      t0 = MPI_Wtime();
      if (!sp->conn_dev[u]) {
        /* sizes in size_t (issue 10, C2; EasEbeSetUp checked them with EasSizeMul) */
        PetscCall((*b->ops->malloc)(b, sizeof(PetscInt) * PetscMax((size_t)ebe->nel * ebe->nen, 1), (void **)&sp->conn_dev[u]));
        PetscCall((*b->ops->malloc)(b, PetscMax((size_t)ebe->nel * eb, 1), &sp->val_dev[u]));
        PetscCall((*b->ops->malloc)(b, sizeof(PetscInt) * PetscMax(ebe->nel, 1), (void **)&sp->cel_dev[u]));
        PetscCall((*b->ops->malloc)(b, sizeof(PetscScalar) * PetscMax(n, 1), (void **)&sp->xdev[u]));
        PetscCall((*b->ops->malloc)(b, sizeof(PetscScalar) * PetscMax(n, 1), (void **)&sp->ydev[u]));
        PetscCall(EasBackendCopyHtoD(b, sp->cel_dev[u], ebe->color_elem, sizeof(PetscInt) * ebe->nel));
      }
      /* Lang-Rünger eq. 14: the element matrices (and connectivity) of the share */
      PetscCall(EasBackendCopyHtoD(b, sp->conn_dev[u] + (size_t)e0 * ebe->nen, ebe->conn + (size_t)e0 * ebe->nen, sizeof(PetscInt) * ne * ebe->nen));
      PetscCall(EasBackendCopyHtoD(b, (char *)sp->val_dev[u] + (size_t)e0 * eb, (const char *)vals + (size_t)e0 * eb, (size_t)ne * eb)); /* the bytes of the storage the unit reads (-ebe_storage) */
      t1               = MPI_Wtime();
      sp->t_copy_el[u] = (t1 - t0) / ne;
      if (ebe->meter && u < ebe->nmunits) PetscCall(EasEnergyMeterEnd(ebe->meter, EAS_PHASE_TRANSFER, ebe->munit[u], (PetscReal)ne)); /* t_copy, Lang-Rünger eq. 14 */
      sp->dev_e0[u] = e0;
      sp->dev_e1[u] = s;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitSetUp_Private(EasEbe ebe, PetscInt e0, PetscInt e1)
{
  EasEbeSplit *sp = ebe->split;
  PetscInt     shares[EAS_EBE_MAXUNITS], N = e1 - e0, nhost = 0, maxth = 1;
  PetscReal    rate[EAS_EBE_MAXUNITS];

  PetscFunctionBegin;
  if (!sp->nunits) PetscFunctionReturn(0);
  PetscCall(EasEbeSplitFreeBuffers(ebe));
  for (PetscInt u = 0; u < sp->nunits; u++) {
    if (sp->is_host[u])
      nhost++;
    else if (ebe->be->host_is_device) /* a device unit beside a host operator (a device operator's is the operator's backend) */
      PetscCheck(sp->unit[u]->ops->ebe_unit_begin && sp->unit[u]->ops->ebe_unit_end, PETSC_COMM_SELF, PETSC_ERR_SUP, "Split unit %" PetscInt_FMT " (%s) cannot run asynchronously", u, sp->unit[u]->resource);
    maxth = PetscMax(maxth, sp->unit[u]->threads);
  }
  PetscCheck(nhost > 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "-ebe_split_units: at least one CPU unit is needed (Lang-Rünger Alg. 2: the host thread computes CPU elements)");
  if (maxth > 1 && omp_get_max_active_levels() < 2) omp_set_max_active_levels(2); /* thread groups: nested teams */
  if (!ebe->be->host_is_device) PetscCall(EasEbeSplitDeviceSetUp_Private(ebe)); /* x and y stay on the device: gather lists (ebesplitdev.c) */
  sp->e0 = e0;
  sp->e1 = e1;
  for (PetscInt u = 0; u < sp->nunits; u++) rate[u] = 1.0;
  if (sp->share0 >= 0.0 && sp->nunits > 1) {
    shares[0] = (PetscInt)PetscFloorReal(sp->share0 * N + 0.5);
    PetscCall(EasModelBalancedShares(sp->nunits - 1, rate + 1, N - shares[0], shares + 1));
  } else
    PetscCall(EasModelBalancedShares(sp->nunits, rate, N, shares));
  PetscCall(PetscCalloc3((size_t)sp->window * sp->nunits, &sp->busy, (size_t)sp->window * sp->nunits, &sp->count, (size_t)sp->window, &sp->xfer));
  for (PetscInt k = 0; k < sp->window; k++) sp->xfer[k] = -1.0;
  sp->t_xfer = 0.0;
  sp->nsamples = sp->since = 0;
  PetscCall(EasEbeSplitApplyShares(ebe, shares));
  sp->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* One host unit's elements [e0,e1) with nth threads: the shared body
   (kernels.h) colour by colour, as the CPU backend does; plain C (runs
   inside the units' OpenMP team, so no PETSc calls). */
static void EasEbeApplyHostUnit(const EasEbeKernel *K, PetscInt e0, PetscInt e1, const PetscScalar *x, PetscScalar *y, int nth)
{
  if (e1 <= e0) return;
#pragma omp parallel num_threads(nth)
  for (PetscInt c = 0; c < K->ncolors; c++) {
    PetscInt k0, k1;
    EasEbeColorSlice(K, c, e0, e1, &k0, &k1);
#pragma omp for schedule(static)
    for (PetscInt k = k0; k < k1; k++) EasEbeElementApplyStored(K, k, k1, x, y);
  }
}

double EasEbeSplitRunHostUnit_Private(EasEbe ebe, PetscInt u, const EasEbeKernel *K, const PetscScalar *x, PetscScalar *y)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt e0 = sp->start[u], e1 = e0 + sp->shares[u];
  const int      th = (int)sp->unit[u]->threads;
  const double   t0 = EasSplitClock(sp->thread_clock);

  EasEbeApplyHostUnit(K, e0, e1, x, y, th);
  if (sp->slow[u] > 1.0 && sp->virtual_tel <= 0.0) { /* TEST ONLY: repeat the element work into a scratch output */
    const PetscReal extra = sp->slow[u] - 1.0;
    const PetscInt  full  = (PetscInt)extra;
    const PetscInt  part  = (PetscInt)((extra - full) * (e1 - e0));
    for (PetscInt r = 0; r < full; r++) EasEbeApplyHostUnit(K, e0, e1, x, sp->sbuf[u], th);
    if (part > 0) EasEbeApplyHostUnit(K, e0, e0 + part, x, sp->sbuf[u], th);
  }
  return EasSplitClock(sp->thread_clock) - t0;
}

static PetscErrorCode EasEbeSplitRecord(EasEbeSplit *sp, EasEbeDecision *d)
{
  PetscFunctionBegin;
  if (sp->ntrace == sp->maxtrace) {
    EasEbeDecision *t;
    sp->maxtrace = PetscMax(64, 2 * sp->maxtrace);
    PetscCall(PetscMalloc1(sp->maxtrace, &t));
    if (sp->ntrace) PetscCall(PetscArraycpy(t, sp->trace, sp->ntrace));
    PetscCall(PetscFree(sp->trace));
    sp->trace = t;
  }
  sp->trace[sp->ntrace++] = *d;
  PetscFunctionReturn(0);
}

/* The decision of the header comment, steps 1-4. */
static PetscErrorCode EasEbeSplitDecide(EasEbe ebe)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt U = sp->nunits, W = PetscMin(sp->nsamples, sp->window), N = sp->e1 - sp->e0;
  EasEbeDecision d;
  PetscReal      rate[EAS_EBE_MAXUNITS], inv_host = 0.0, cost       = 0.0;
  PetscInt       Nnew[EAS_EBE_MAXUNITS], idx[EAS_EBE_MAXUNITS], nin = 0, hostth = 0;
  PetscBool      include[EAS_EBE_MAXUNITS], anydev = PETSC_FALSE;
  PetscReal      xel = 0.0; /* the crossing time charged per host element (step 3b) */

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&d, sizeof(d)));
  { /* the transfer time (host operator: per apply; device operator: per host element): median of the window's applies that split (kept when none did, e.g. after a decline) */
    PetscReal xs[64];
    PetscInt  nx = 0;
    for (PetscInt k = 0; k < W; k++)
      if (sp->xfer[k] >= 0) xs[nx++] = sp->xfer[k];
    if (nx) {
      PetscCall(PetscSortReal(nx, xs));
      sp->t_xfer = xs[nx / 2];
    }
    d.t_xfer = sp->t_xfer;
  }
  d.apply     = sp->napplies;
  d.solve     = sp->nsolves;
  d.gpu_worth = PETSC_TRUE;
  d.remaining = sp->remaining >= 0 ? sp->remaining : (sp->applies_last_solve > 0 ? (PetscReal)sp->applies_last_solve : 10.0 * sp->interval);
  for (PetscInt u = 0; u < U; u++) {
    PetscReal busy[64];
    PetscInt  cnt[64], tot = 0;
    for (PetscInt k = 0; k < W; k++) {
      busy[k] = sp->busy[k * U + u];
      cnt[k]  = sp->count[k * U + u];
      tot += cnt[k];
    }
    if (tot > 0) PetscCall(EasModelWindowIndexQuantile(W, busy, cnt, sp->quantile, &sp->t_el[u])); /* step 1 */
    d.t_raw[u]      = sp->t_raw[u];
    d.t_el[u]       = sp->t_el[u];
    d.shares_old[u] = sp->shares[u];
    include[u]      = (PetscBool)(sp->t_el[u] > 0);
    if (sp->is_host[u] && sp->t_el[u] > 0) {
      inv_host += 1.0 / sp->t_el[u];
      hostth += sp->unit[u]->threads;
    }
  }
  /* step 2: Lang-Rünger eq. 23, t_el,copy < l t_el,cpu / p with t_el,cpu the
     time of one core: (parallel time per element of the CPU units) x p */
  for (PetscInt u = 0; u < U; u++) {
    if (sp->is_host[u] || !include[u] || inv_host <= 0 || sp->on_device) continue; /* a device operator's unit copies no elements */
    {
      const PetscInt  m     = ebe->nen * ebe->dof;
      const PetscReal tcopy = sp->t_copy_el[u] > 0 ? sp->t_copy_el[u] : (PetscReal)(m * m * 8) / 10e9; /* not yet measured: 10 GB/s */
      const PetscReal tcpu  = (1.0 / inv_host) * hostth;
      PetscBool       worth;
      PetscCall(EasModelLangRungerGpuWorthwhile(tcopy, tcpu, PetscMax(d.remaining, 1.0), PetscMax(hostth, 1), &worth));
      if (!worth) {
        include[u]  = PETSC_FALSE;
        d.gpu_worth = PETSC_FALSE;
      }
    }
  }
  for (PetscInt u = 0; u < U; u++)
    if (include[u] && !sp->is_host[u]) anydev = PETSC_TRUE;
  for (PetscInt u = 0; u < U; u++) {
    Nnew[u] = 0;
    if (include[u]) {
      idx[nin]    = u;
      rate[nin++] = sp->t_el[u]; /* a host unit's gets the crossings in step 3b */ /* docs/ebe.md: a host element also pays its vectors' crossing */
    }
  }
  if (sp->type == EAS_EBE_SPLIT_FIXED) {
    PetscCall(PetscStrncpy(d.why, "fixed split (-ebe_split fixed)", sizeof(d.why)));
    for (PetscInt u = 0; u < U; u++) d.shares_new[u] = sp->shares[u];
  } else if (nin == 0) {
    PetscCall(PetscStrncpy(d.why, "no unit measured yet", sizeof(d.why)));
    for (PetscInt u = 0; u < U; u++) d.shares_new[u] = sp->shares[u];
  } else {
    PetscInt  sh[EAS_EBE_MAXUNITS], Ncur[EAS_EBE_MAXUNITS];
    PetscReal r_all[EAS_EBE_MAXUNITS];
    PetscBool mig;
    { /* step 3b: a split only if it beats the best unit alone by -ebe_split_min_gain (docs/ebe.md): the
         balanced split over every measured unit, a host element paying the crossing of its vectors */
      PetscInt  best = -1, nm = 0, sh2[EAS_EBE_MAXUNITS];
      PetscReal Tbest = PETSC_MAX_REAL, Tsplit = 0.0, rr[EAS_EBE_MAXUNITS];
      PetscBool dev = PETSC_FALSE;
      for (PetscInt u = 0; u < U; u++)
        if (!sp->is_host[u] && sp->t_el[u] > 0) dev = PETSC_TRUE;
      for (PetscInt u = 0; u < U; u++) {
        if (sp->t_el[u] > 0) nm++;
        rr[u] = sp->t_el[u];
        if (sp->t_el[u] > 0 && sp->t_el[u] * N < Tbest) {
          Tbest = sp->t_el[u] * N;
          best  = u;
        }
      }
      if (nm == U && U > 1) {
        /* T_x per apply charged per element of the host share it buys: t_x = T_x / n_host at the balanced
           shares, a fixed point (a few sweeps; n_host -> 0 when the crossings cost more than they save) */
        if (sp->on_device) { /* device operator: the measured gather/scatter time per host element (ebesplitdev.c), the lists ~ the shares */
          xel = sp->t_xfer;
          for (PetscInt u = 0; u < U; u++) rr[u] = sp->t_el[u] + (sp->is_host[u] ? xel : 0.0);
        }
        for (PetscInt it = 0; it < (sp->on_device ? 0 : 8); it++) {
          PetscInt nh = 0;
          PetscCall(EasModelBalancedShares(U, rr, N, sh2));
          for (PetscInt u = 0; u < U; u++)
            if (sp->is_host[u]) nh += sh2[u];
          xel = dev && nh > 0 ? sp->t_xfer / nh : 0.0;
          for (PetscInt u = 0; u < U; u++) rr[u] = sp->t_el[u] + (sp->is_host[u] ? xel : 0.0);
        }
        PetscCall(EasModelBalancedShares(U, rr, N, sh2));
        for (PetscInt i = 0; i < nin; i++)
          if (sp->is_host[idx[i]] && anydev) rate[i] = sp->t_el[idx[i]] + xel; /* steps 3-5 charge the crossings too */
        for (PetscInt u = 0; u < U; u++) {
          Tsplit = PetscMax(Tsplit, rr[u] * sh2[u]);
        }
        d.Tsplit = Tsplit;
        d.Tbest  = Tbest;
      }
      if (nm == U && U > 1 && Tsplit > (1.0 - sp->min_gain) * Tbest) { /* also when the balanced split leaves a unit idle (nsplit 1): one unit, said so */
        char why[128];
        PetscCall(PetscSNPrintf(why, sizeof(why), "split declined: predicted %.3g ms vs best unit %s alone %.3g ms (min gain %.1f %%)", 1e3 * (double)Tsplit, sp->unit[best]->resource, 1e3 * (double)Tbest, 100.0 * (double)sp->min_gain));
        for (PetscInt u = 0; u < U; u++) Nnew[u] = u == best ? N : 0;
        if (sp->shares[best] == N) {
          PetscCall(PetscSNPrintf(d.why, sizeof(d.why), "keep: %s", why));
          for (PetscInt u = 0; u < U; u++) d.shares_new[u] = sp->shares[u];
        } else { /* a categorical choice: no damping, no dead band */
          PetscCall(PetscStrncpy(d.why, why, sizeof(d.why)));
          for (PetscInt u = 0; u < U; u++) d.shares_new[u] = Nnew[u];
          d.migrate = PETSC_TRUE;
          PetscCall(EasEbeSplitApplyShares(ebe, Nnew));
          sp->nmigrations++;
        }
        goto record;
      }
    }
    PetscCall(EasModelBalancedShares(nin, rate, N, sh)); /* step 3 */
    for (PetscInt i = 0; i < nin; i++) Nnew[idx[i]] = sh[i];
    for (PetscInt u = 0; u < U; u++) {
      Ncur[u]  = sp->shares[u];
      r_all[u] = sp->t_el[u] > 0 ? sp->t_el[u] + (sp->is_host[u] && anydev ? xel : 0.0) : 1e300; /* never measured: not used with Nnew = 0 */
      if (!sp->is_host[u] && Nnew[u] > 0) {
        const PetscInt moved = PetscAbsInt(Nnew[u] - Ncur[u]) + (Nnew[u] > 0 && sp->start[u] != sp->e0 ? Nnew[u] : 0);
        cost += moved * (sp->t_copy_el[u] > 0 ? sp->t_copy_el[u] : 0.0); /* eq. 14 */
      }
    }
    for (PetscInt u = 0; u < U; u++)
      if (Ncur[u] > 0 && r_all[u] >= 1e300) r_all[u] = 0.0;
    {
      /* units with current work but no time yet cannot be judged: keep */
      PetscBool ok = PETSC_TRUE;
      for (PetscInt u = 0; u < U; u++)
        if (r_all[u] <= 0) ok = PETSC_FALSE;
      if (!ok) {
        PetscCall(PetscStrncpy(d.why, "a unit has no time yet", sizeof(d.why)));
        for (PetscInt u = 0; u < U; u++) d.shares_new[u] = sp->shares[u];
        goto record;
      }
    }
    PetscCall(EasModelMigrationAmortized(U, r_all, Ncur, Nnew, d.remaining, cost, &mig, &d.Tbar, &d.Tdist)); /* step 4 */
    d.cost = cost;
    if (!mig)
      PetscCall(PetscStrncpy(d.why, "keep: not amortized (Ribeiro eq. 4.8)", sizeof(d.why)));
    else {
      /* dead band; twice as wide for a move reversing the previous one (hysteresis) */
      const PetscInt  dir = Nnew[0] > sp->shares[0] ? 1 : (Nnew[0] < sp->shares[0] ? -1 : 0);
      const PetscReal tol = (dir && sp->lastdir && dir != sp->lastdir) ? 2.0 * sp->tol : sp->tol;
      if (d.Tbar - d.Tdist <= tol * d.Tbar) {
        mig = PETSC_FALSE;
        PetscCall(PetscSNPrintf(d.why, sizeof(d.why), "keep: gain %.1f%% within the dead band %.1f%%%s", 100.0 * (d.Tbar - d.Tdist) / d.Tbar, 100.0 * tol, tol > sp->tol ? " (reversal)" : ""));
      } else
        sp->lastdir = dir;
    }
    if (mig) PetscCall(PetscSNPrintf(d.why, sizeof(d.why), "move: gain %.1f%% amortized%s", 100.0 * (d.Tbar - d.Tdist) / d.Tbar, d.gpu_worth ? "" : "; GPU not worth its copies (Lang-Rünger eq. 23)"));
    d.migrate = mig;
    for (PetscInt u = 0; u < U; u++) d.shares_new[u] = mig ? Nnew[u] : sp->shares[u];
    if (mig) {
      if (sp->damping < 1.0) { /* move part of the way (damped fixed-point iteration); the last unit takes the rest */
        PetscInt sum = 0, last = -1;
        for (PetscInt u = 0; u < U; u++) {
          if (Nnew[u] > 0 || sp->shares[u] > 0) last = u;
        }
        for (PetscInt u = 0; u < U; u++) {
          if (u == last) continue;
          Nnew[u] = sp->shares[u] + (PetscInt)PetscFloorReal(sp->damping * (Nnew[u] - sp->shares[u]) + 0.5);
          sum += Nnew[u];
        }
        if (last >= 0) Nnew[last] = N - sum;
      }
      for (PetscInt u = 0; u < U; u++) d.shares_new[u] = Nnew[u];
      PetscCall(EasEbeSplitApplyShares(ebe, Nnew));
      sp->nmigrations++; /* the window keeps its samples: they are per element */
    }
  }
record:
  PetscCall(EasEbeSplitRecord(sp, &d));
  PetscCall(PetscInfo(ebe, "split decision at apply %" PetscInt_FMT ": %s\n", d.apply, d.why));
  PetscFunctionReturn(0);
}

/* A host operator's apply (host arrays): Alg. 2 of seed 001 generalised to
   U units; t[u] each unit's seconds, *xfer the vectors' crossing time of an
   apply with a device and a host share (whole vectors cross, whatever the
   shares), else -1. */
static PetscErrorCode EasEbeSplitApplyHost(EasEbe ebe, const PetscScalar *x, PetscScalar *y, PetscReal t[], PetscReal *xfer)
{
  EasEbeSplit    *sp = ebe->split;
  const PetscInt  U = sp->nunits, n              = ebe->nnodes * ebe->dof;
  PetscInt        hostu[EAS_EBE_MAXUNITS], nhost = 0, first = -1;
  PetscErrorCode  merr[EAS_EBE_MAXUNITS] = {0};
  const PetscBool metered                = (PetscBool)(ebe->meter && ebe->nmunits >= U);
  double          txfer = 0.0, tx0; /* the vectors' crossings between the units, measured where they happen (host side) */
  PetscBool       devshare = PETSC_FALSE, hostshare = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt u = 0; u < U; u++) {
    t[u] = 0.0;
    if (sp->is_host[u]) {
      if (first < 0) first = u;
      hostu[nhost++] = u;
    }
  }
  /* device units first, asynchronously (the host thread then computes CPU elements) */
  for (PetscInt u = 0; u < U; u++) {
    EasEbeKernel kd;
    if (sp->is_host[u] || !sp->shares[u]) continue;
    kd            = ebe->k;
    kd.conn       = sp->conn_dev[u];
    kd.ael        = ebe->k.storage == EAS_EBE_STORAGE_FULL ? (const PetscScalar *)sp->val_dev[u] : NULL;
    kd.aels       = ebe->k.storage == EAS_EBE_STORAGE_FULL ? NULL : sp->val_dev[u];
    kd.color_elem = sp->cel_dev[u];
    kd.lanes      = 1; /* the unit's share is copied in the host layout */
    if (metered) PetscCall(EasEnergyMeterBegin(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u]));
    tx0 = omp_get_wtime();
    PetscCall(PetscArraycpy(sp->xbuf[u], x, n)); /* x is pageable: the unit copies from its staging buffer */
    txfer += omp_get_wtime() - tx0;
    devshare = PETSC_TRUE;
    PetscCall((*sp->unit[u]->ops->ebe_unit_begin)(sp->unit[u], &kd, sp->start[u], sp->start[u] + sp->shares[u], n, sp->xbuf[u], sp->xdev[u], sp->ydev[u], sp->ybuf[u]));
  }
  for (PetscInt u = 0; u < U; u++)
    if (sp->slow[u] > 1.0 && !sp->sbuf[u]) PetscCall(PetscMalloc1(PetscMax(n, 1), &sp->sbuf[u]));
#pragma omp parallel num_threads((int)nhost)
  for (PetscInt h = omp_get_thread_num(); h < nhost; h += omp_get_num_threads()) {
    const PetscInt u  = hostu[h];
    PetscScalar   *yo = (u == first) ? y : sp->ybuf[u];

    if (metered) { /* the meter is not thread-safe: one thread at a time */
#pragma omp critical(eas_ebe_meter)
      merr[u] = EasEnergyMeterBegin(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u]);
    }
    if (u != first)
      for (PetscInt i = sp->lo[u]; i < sp->hi[u]; i++) yo[i] = 0.0;
    t[u] = (PetscReal)EasEbeSplitRunHostUnit_Private(ebe, u, &ebe->k, x, yo);
    if (metered && !merr[u]) {
#pragma omp critical(eas_ebe_meter)
      merr[u] = EasEnergyMeterEnd(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u], (PetscReal)sp->shares[u]);
    }
  }
  for (PetscInt u = 0; u < U; u++) PetscCall(merr[u]);
  for (PetscInt u = 0; u < U; u++) {
    PetscLogDouble sec;
    if (sp->is_host[u] || !sp->shares[u]) continue;
    PetscCall((*sp->unit[u]->ops->ebe_unit_end)(sp->unit[u], &sec));
    if (metered) PetscCall(EasEnergyMeterEnd(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u], (PetscReal)sp->shares[u])); /* includes the x/y copies */
    t[u] = sec;
  }
  /* sum the private outputs */
  for (PetscInt u = 0; u < U; u++) {
    if (sp->is_host[u] && sp->shares[u]) hostshare = PETSC_TRUE;
    if (u == first || !sp->shares[u]) continue;
    tx0 = omp_get_wtime();
#pragma omp parallel for schedule(static) num_threads((int)ebe->be->threads)
    for (PetscInt i = sp->lo[u]; i < sp->hi[u]; i++) y[i] += sp->ybuf[u][i];
    if (!sp->is_host[u]) txfer += omp_get_wtime() - tx0; /* a device unit's result joins the host's */
  }
  PetscCall(PetscLogFlops(2.0 * ebe->nen * ebe->dof * ebe->nen * ebe->dof * (sp->e1 - sp->e0)));
  *xfer = (devshare && hostshare) ? (PetscReal)txfer : -1.0; /* per apply: whole vectors cross, whatever the shares; only applies that really split */
  PetscFunctionReturn(0);
}

/* y += A x over the split range on all units: the host operator's apply
   (host arrays) or the device operator's (device arrays, ebesplitdev.c),
   then the measurements and, every -ebe_rebalance_interval applies, a
   decision. */
PetscErrorCode EasEbeSplitApply_Private(EasEbe ebe, const PetscScalar *x, PetscScalar *y)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt U  = sp->nunits;
  PetscReal      t[EAS_EBE_MAXUNITS], xfer;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(EAS_EbeSplit, ebe, 0, 0, 0));
  if (sp->on_device) PetscCall(EasEbeSplitDeviceApply_Private(ebe, x, y, t, &xfer));
  else PetscCall(EasEbeSplitApplyHost(ebe, x, y, t, &xfer));
  if (sp->virtual_tel > 0.0) /* TEST ONLY: deterministic unit times (device units' too), with a reproducible jitter; the transfers stay measured */
    for (PetscInt u = 0; u < U; u++) {
      double r01;
      sp->lcg = sp->lcg * 6364136223846793005ULL + 1442695040888963407ULL;
      r01     = (double)(sp->lcg >> 11) / 9007199254740992.0;
      t[u]    = sp->virtual_tel * sp->slow[u] * sp->shares[u] * (1.0 + sp->virtual_noise * (2.0 * r01 - 1.0));
    }
  { /* measurements: one window slot per apply */
    const PetscInt slot = sp->nsamples % sp->window;
    if (sp->pend) { /* the device unit alone: its time is read later into this slot (EasEbeSplitDeviceResolve_Private) */
      sp->pend_slot    = slot;
      sp->pend_count   = sp->shares[sp->dev_unit];
      sp->pend_spike   = sp->spike[sp->dev_unit];
      sp->pend_virtual = (PetscBool)(sp->virtual_tel > 0.0);
    }
    for (PetscInt u = 0; u < U; u++) {
      const PetscBool later = (PetscBool)(sp->pend && !sp->pend_virtual && u == sp->dev_unit);
      const PetscReal tu    = later ? 0.0 : t[u] * sp->spike[u];
      sp->spike[u]          = 1.0;
      if (!later) {
        sp->t_unit[u] = tu;
        sp->t_raw[u]  = sp->shares[u] ? tu / sp->shares[u] : 0.0;
      }
      sp->busy[slot * U + u]  = tu;
      sp->count[slot * U + u] = later ? 0 : sp->shares[u]; /* a pending slot counts no elements until read */
    }
    sp->xfer[slot] = xfer; /* host operator: per apply; device operator: per host element */
    sp->nsamples++;
  }
  sp->napplies++;
  sp->applies_this_solve++;
  sp->since++;
  PetscCall(PetscLogEventEnd(EAS_EbeSplit, ebe, 0, 0, 0));
  if (sp->since >= sp->interval && sp->nsamples >= PetscMin(sp->window, sp->interval)) {
    sp->since = 0;
    PetscCall(EasEbeSplitDeviceResolve_Private(ebe, PETSC_FALSE)); /* this apply's device time if already known; else its slot counts no elements (no wait) */
    PetscCall(EasEbeSplitDecide(ebe));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitSolveBegin_Private(EasEbe ebe)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (sp->applies_this_solve > 0) sp->applies_last_solve = sp->applies_this_solve;
  sp->applies_this_solve = 0;
  sp->nsolves++;
  if (ebe->meter && ebe->trace && ebe->nmunits) { /* trace rows count from the start of the solve */
    PetscCall(PetscTime(&ebe->tr_t));
    for (PetscInt u = 0; u < PetscMax(sp->nunits, 1); u++) PetscCall(EasEnergyMeterGetPhase(ebe->meter, EAS_PHASE_COMPUTE, ebe->munit[u], &ebe->tr_busy[u], &ebe->tr_work[u], NULL));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitGetState(EasEbe ebe, PetscInt *nunits, const PetscInt *shares[], const PetscReal *t_el[], const PetscReal *t_unit[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (ebe->split->setup) PetscCall(EasEbeSplitDeviceResolve_Private(ebe, PETSC_TRUE)); /* the last apply's time, if pending */
  if (nunits) *nunits = ebe->split->nunits;
  if (shares) *shares = ebe->split->shares;
  if (t_el) *t_el = ebe->split->t_el;
  if (t_unit) *t_unit = ebe->split->t_unit;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitGetNoise - the timing noise of the window: max over units of
  the interquartile range of the per-element times over their median.
@*/
PetscErrorCode EasEbeSplitGetNoise(EasEbe ebe, PetscReal *noise)
{
  EasEbeSplit   *sp = ebe->split;
  const PetscInt U = sp->nunits, W = PetscMin(sp->nsamples, sp->window);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  *noise = 0.0;
  for (PetscInt u = 0; u < U && W > 0; u++) {
    PetscReal busy[64], q1, q2, q3;
    PetscInt  cnt[64], tot = 0;
    for (PetscInt k = 0; k < W; k++) {
      busy[k] = sp->busy[k * U + u];
      cnt[k]  = sp->count[k * U + u];
      tot += cnt[k];
    }
    if (!tot) continue;
    PetscCall(EasModelWindowIndexQuantile(W, busy, cnt, 0.25, &q1));
    PetscCall(EasModelWindowIndexQuantile(W, busy, cnt, 0.5, &q2));
    PetscCall(EasModelWindowIndexQuantile(W, busy, cnt, 0.75, &q3));
    if (q2 > 0) *noise = PetscMax(*noise, (q3 - q1) / q2);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitGetDecisionCount(EasEbe ebe, PetscInt *nd, PetscInt *nm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (nd) *nd = ebe->split->ntrace;
  if (nm) *nm = ebe->split->nmigrations;
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitEfficiency - Ribeiro eq. 3.6 from the smoothed times:
  T_D = max_u t_u n_u, T_u = t_u N (each unit alone on all elements).
  Errors: a unit without a measured time.
@*/
PetscErrorCode EasEbeSplitEfficiency(EasEbe ebe, PetscReal *E)
{
  EasEbeSplit *sp = ebe->split;
  PetscReal    TD = 0.0, Tdev[EAS_EBE_MAXUNITS];
  PetscInt     N  = sp->e1 - sp->e0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCheck(sp->nunits > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEbeSplitEfficiency: no split units (-ebe_split_units)");
  for (PetscInt u = 0; u < sp->nunits; u++) {
    PetscCheck(sp->t_el[u] > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEbeSplitEfficiency: unit %" PetscInt_FMT " has no smoothed time yet (needs a split decision)", u);
    TD      = PetscMax(TD, sp->t_el[u] * sp->shares[u]);
    Tdev[u] = sp->t_el[u] * N;
  }
  PetscCall(EasModelHeterogeneousEfficiency(TD, sp->nunits, Tdev, E));
  PetscFunctionReturn(0);
}

PetscErrorCode EasEbeSplitView_Private(EasEbe ebe, PetscViewer viewer)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  if (sp->setup) PetscCall(EasEbeSplitDeviceResolve_Private(ebe, PETSC_TRUE)); /* the last apply's time, if pending */
  if (!sp->nunits) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "split: none (all elements on %s)\n", ebe->be ? ebe->be->resource : "-eas_backend"));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "split: %s over %" PetscInt_FMT " units, rebalance every %" PetscInt_FMT " applies, median window %" PetscInt_FMT ", tol %g, damping %g; %" PetscInt_FMT " decisions, %" PetscInt_FMT " moves\n", EasEbeSplitTypes[sp->type], sp->nunits, sp->interval, sp->window, (double)sp->tol, (double)sp->damping, sp->ntrace, sp->nmigrations));
  for (PetscInt u = 0; u < sp->nunits; u++)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  unit %" PetscInt_FMT ": %s x %" PetscInt_FMT " threads, %" PetscInt_FMT " elements, t_el %.3e s%s\n", u, sp->unit[u]->resource, sp->unit[u]->threads, sp->shares[u], (double)sp->t_el[u], sp->slow[u] > 1 ? " (test slowdown)" : ""));
  if (sp->on_device) {
    PetscInt L = 0;
    for (PetscInt u = 0; u < sp->nunits; u++) L += sp->glen[u];
    PetscCall(PetscViewerASCIIPrintf(viewer, "  operator on %s: device unit %" PetscInt_FMT ", gather lists of %" PetscInt_FMT " dofs (%.0f bytes per apply)\n", ebe->be->resource, sp->dev_unit, L, 2.0 * sizeof(PetscScalar) * L));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  min gain %.1f %%, gather/scatter transfer %.3e s per CPU element\n", 100.0 * (double)sp->min_gain, (double)sp->t_xfer));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  min gain %.1f %%, vector transfer %.3e s per apply\n", 100.0 * (double)sp->min_gain, (double)sp->t_xfer));
  if (sp->ntrace) PetscCall(PetscViewerASCIIPrintf(viewer, "  last decision: %s\n", sp->trace[sp->ntrace - 1].why));
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitViewTrace - one line per split decision.
@*/
PetscErrorCode EasEbeSplitViewTrace(EasEbe ebe, PetscViewer viewer)
{
  EasEbeSplit *sp = ebe->split;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ebe), &viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "split trace: %" PetscInt_FMT " decisions\n", sp->ntrace));
  for (PetscInt i = 0; i < sp->ntrace; i++) {
    const EasEbeDecision *d = &sp->trace[i];
    PetscCall(PetscViewerASCIIPrintf(viewer, "  apply %5" PetscInt_FMT " solve %3" PetscInt_FMT ":", d->apply, d->solve));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt u = 0; u < sp->nunits; u++) PetscCall(PetscViewerASCIIPrintf(viewer, " [u%" PetscInt_FMT " t_el %.2e n %" PetscInt_FMT "->%" PetscInt_FMT "]", u, (double)d->t_el[u], d->shares_old[u], d->shares_new[u]));
    PetscCall(PetscViewerASCIIPrintf(viewer, " T %.3e->%.3e cost %.1e: %s\n", (double)d->Tbar, (double)d->Tdist, (double)d->cost, d->why));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasEbeSplitDumpTrace - the decisions as CSV (rank 0 of the operator's
  communicator writes): decision,apply,solve,unit,resource,t_el_raw,t_el,
  share_old,share_new,Tbar,Tdist,cost,remaining,migrate,why.
@*/
PetscErrorCode EasEbeSplitDumpTrace(EasEbe ebe, const char path[])
{
  EasEbeSplit *sp = ebe->split;
  FILE        *f;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  PetscCall(PetscFOpen(PetscObjectComm((PetscObject)ebe), path, "w", &f));
  PetscCall(PetscFPrintf(PetscObjectComm((PetscObject)ebe), f, "decision,apply,solve,unit,resource,t_el_raw,t_el,share_old,share_new,Tbar,Tdist,cost,remaining,migrate,why\n"));
  for (PetscInt i = 0; i < sp->ntrace; i++) {
    const EasEbeDecision *d = &sp->trace[i];
    for (PetscInt u = 0; u < sp->nunits; u++)
      PetscCall(PetscFPrintf(PetscObjectComm((PetscObject)ebe), f, "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%.6e,%.6e,%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.6e,%g,%d,\"%s\"\n", i, d->apply, d->solve, u, sp->unit[u]->resource, (double)d->t_raw[u], (double)d->t_el[u], d->shares_old[u], d->shares_new[u], (double)d->Tbar, (double)d->Tdist, (double)d->cost, (double)d->remaining, (int)d->migrate, d->why));
  }
  PetscCall(PetscFClose(PetscObjectComm((PetscObject)ebe), f));
  PetscFunctionReturn(0);
}

static int EasCompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/*@C
  EasEbeSplitMeasureEfficiency - the heterogeneous efficiency (Ribeiro
  eq. 3.6) measured in one run, under the same conditions, on the current
  shares (see include/eas/ebe.h).
@*/
PetscErrorCode EasEbeSplitMeasureEfficiency(EasEbe ebe, EasVec xv, EasVec yv, PetscInt reps, PetscReal *E, PetscReal Talone[], PetscReal *TD)
{
  EasEbeSplit       *sp;
  PetscInt           U, N, interval;
  const PetscScalar *x;
  PetscScalar       *y, *scratch;
  double            *ta, *td;
  PetscReal          Tdev[EAS_EBE_MAXUNITS], Tu[EAS_EBE_MAXUNITS];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ebe, EAS_EBE_CLASSID, 1);
  sp = ebe->split;
  PetscCheck(sp && sp->nunits > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEbeSplitMeasureEfficiency: no split units (EasEbeSetSplitUnits, -ebe_split_units)");
  PetscCheck(reps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "EasEbeSplitMeasureEfficiency: reps %" PetscInt_FMT " is invalid: expected >= 1", reps);
  U = sp->nunits;
  N = sp->e1 - sp->e0;
  for (PetscInt u = 0; u < U; u++) {
    PetscCheck(sp->is_host[u], PETSC_COMM_SELF, PETSC_ERR_SUP, "EasEbeSplitMeasureEfficiency: unit %" PetscInt_FMT " (%s) is a device unit: the alone/together measurement covers host units only", u, sp->unit[u]->resource);
    PetscCheck(sp->shares[u] > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "EasEbeSplitMeasureEfficiency: unit %" PetscInt_FMT " has no elements: nothing to measure", u);
    if (sp->slow[u] > 1.0 && !sp->sbuf[u]) PetscCall(PetscMalloc1(PetscMax((size_t)ebe->nnodes * ebe->dof, 1), &sp->sbuf[u]));
  }
  PetscCall(PetscMalloc3(PetscMax((size_t)ebe->nnodes * ebe->dof, 1), &scratch, (size_t)reps * U, &ta, reps, &td));
  interval     = sp->interval; /* no rebalancing while measuring: the shares are what is measured */
  sp->interval = PETSC_MAX_INT;
  PetscCall(EasVecGetArrayRead(xv, &x));
  PetscCall(EasVecGetArray(yv, &y));
  for (PetscInt r = 0; r < reps; r++) { /* interleaved: alone, alone, ..., together */
    for (PetscInt u = 0; u < U; u++) {
      /* unit u's own team of threads (nested teams are enabled at set-up, so in the split apply it has the same team), the other units idle: no idle thread spins on a core */
      const double t   = EasEbeSplitRunHostUnit_Private(ebe, u, &ebe->k, x, scratch);
      ta[u * reps + r] = t;
    }
    PetscCall(EasEbeSplitApply_Private(ebe, x, y)); /* together */
    td[r] = 0;
    for (PetscInt u = 0; u < U; u++) td[r] = PetscMax(td[r], (double)sp->t_unit[u]);
  }
  PetscCall(EasVecRestoreArray(yv, &y));
  PetscCall(EasVecRestoreArrayRead(xv, &x));
  sp->interval = interval;
  sp->since    = 0;
  for (PetscInt u = 0; u < U; u++) {
    qsort(&ta[u * reps], (size_t)reps, sizeof(double), EasCompareDouble);
    Tu[u]   = (PetscReal)ta[u * reps + reps / 2];
    Tdev[u] = Tu[u] * (PetscReal)N / (PetscReal)sp->shares[u]; /* unit u alone on all N elements, at the rate measured on its share */
    if (Talone) Talone[u] = Tu[u];
  }
  qsort(td, (size_t)reps, sizeof(double), EasCompareDouble);
  if (TD) *TD = (PetscReal)td[reps / 2];
  PetscCall(EasModelHeterogeneousEfficiency((PetscReal)td[reps / 2], U, Tdev, E)); /* (1/T_D) / sum_u (1/T_dev_u) */
  PetscCall(PetscFree3(scratch, ta, td));
  PetscFunctionReturn(0);
}
