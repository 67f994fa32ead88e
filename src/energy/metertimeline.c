/*
  EasEnergyMeter: the timeline (issue 20).  Begin/End, Start/Stop/Resume
  record events (meter.c): the host clock at the call, or for a GPU unit a
  timer mark on its backend's queue (CUDA: an event on the stream) that is
  resolved at a later natural synchronization, never waited for at a
  boundary.  Here the events whose time is known are processed in time
  order (busy times, phase wall times, running windows), and the sensors'
  samples, taken by their sampler threads (sensor.c), are apportioned to
  the phases between the events: power constant between two consecutive
  samples, a sampling interval's energy shared by the time each phase was
  busy in it.  A boundary costs a clock reading and, when samples arrived,
  a few multiplications: no sensor read, no device synchronization.

  Ordering: a mark not yet resolved is reached at or after the host clock
  at its record (the device cannot pass a mark before it is queued); so the
  known events up to the earliest unresolved mark's record are processed,
  sorted by time, and the samples up to there apportioned, while the later
  events wait for it (marks are reached in the order recorded).  This holds
  for the CUDA events and for /cpu/memcheck, whose marks are known only at
  the next point where CUDA would synchronize.
*/
#include "energyimpl.h"

/* Time processed by a sensor's apportioning: tau gets [tacc, t] by the
   meter's processed state (outside: the whole of it outside the windows). */
static void AccAccumulate(EasEnergyMeter m, EasMeterAcc *a, PetscLogDouble t, PetscBool outside)
{
  const PetscReal dt = (PetscReal)(t - a->tacc);
  PetscInt        busy = 0;

  if (dt <= 0) return;
  a->tacc = t;
  if (outside || !m->running) {
    a->tau[EAS_METER_TAU_OUTSIDE] += dt;
    return;
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) busy += m->cnt[p];
  if (!busy) {
    a->tau[EAS_METER_TAU_UNPHASED] += dt;
    return;
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES; p++) a->tau[p] += dt * (PetscReal)m->cnt[p] / (PetscReal)busy; /* by the units busy in each phase */
}

/* A sample at (ts, Es) closes the sampling interval since the previous one:
   its energy goes to the parts of tau (constant power over the interval).
   A sample is stamped with the middle of its read and published at the
   end, so it may arrive after the meter processed time past ts: then tau
   holds [previous sample, tacc] and the part up to ts is taken in
   proportion (the time is conserved: only its split between the two
   intervals is approximate, within half a read). */
static void AccConsume(EasMeterAcc *a, PetscLogDouble ts, PetscReal Es)
{
  PetscReal f = 1;

  if (a->have && ts > a->ts) {
    const PetscReal P = (Es - a->Es) / (PetscReal)(ts - a->ts); /* W */
    if (ts < a->tacc) f = (PetscReal)((ts - a->ts) / (a->tacc - a->ts));
    for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) a->E[p] += P * f * a->tau[p];
    if (a->tau[EAS_METER_TAU_OUTSIDE] < (PetscReal)(a->tacc - a->ts)) a->nsamples++; /* the interval had running time */
  } else if (a->have) {
    f = 0; /* no time between the two samples */
  } else if (ts < a->tacc && a->tacc > a->ts) {
    f = 0; /* the first sample: nothing before it is known; what follows it stays */
  }
  for (PetscInt p = 0; p < EAS_NUM_PHASES + 2; p++) a->tau[p] *= 1 - f;
  a->have = PETSC_TRUE;
  a->ts   = ts;
  a->Es   = Es;
  if (a->tacc < ts) a->tacc = ts;
}

/* The next sample not yet consumed (fetched into the buffer), or none. */
static PetscErrorCode AccPeek(EasSensor s, EasMeterAcc *a, PetscBool *any, PetscLogDouble *t, PetscReal *E)
{
  PetscFunctionBegin;
  if (a->ib >= a->nb) {
    PetscInt64 lost;
    a->ib = 0;
    PetscCall(EasSensorGetSamples(s, &a->next, EAS_METER_SBUF, a->bt, a->bE, &a->nb, &lost));
    a->nlost += lost;
  }
  *any = (PetscBool)(a->ib < a->nb);
  if (*any) {
    *t = a->bt[a->ib];
    *E = a->bE[a->ib];
  }
  PetscFunctionReturn(0);
}

/* Moves the processed time to t: the samples up to t close their
   intervals, the rest of the time goes to tau. */
static PetscErrorCode MeterAdvance(EasEnergyMeter m, PetscLogDouble t)
{
  PetscFunctionBegin;
  if (t < m->tproc) t = m->tproc;
  for (PetscInt k = 0; k < m->nsensors; k++) {
    EasMeterAcc *a = &m->acc[k];
    for (;;) {
      PetscBool      any;
      PetscLogDouble ts = 0;
      PetscReal      Es = 0;
      if (a->ib >= a->nb && EasSensorNumSamples(m->sensor[k]) <= a->next) break; /* nothing new: no lock */
      PetscCall(AccPeek(m->sensor[k], a, &any, &ts, &Es));
      if (!any || ts > t) break;
      AccAccumulate(m, a, ts, PETSC_FALSE);
      AccConsume(a, ts, Es);
      a->ib++;
    }
    AccAccumulate(m, a, t, PETSC_FALSE);
  }
  m->tproc = t;
  PetscFunctionReturn(0);
}

/* The end of an interval of the unphased row (no unit busy) at t. */
static void UnphasedEnd(EasEnergyMeter m, PetscLogDouble t)
{
  if (m->running && t - m->ut0 < m->resolution) m->ushort += (PetscReal)(t - m->ut0);
}

/* Applies one event at its time t (the processed state machine). */
static void MeterApply(EasEnergyMeter m, const EasMeterEvent *e, PetscLogDouble t)
{
  const EasPhase p = e->phase;

  switch (e->kind) {
  case EAS_METER_EV_START:
    for (PetscInt u = 0; u < m->nunits; u++)
      for (PetscInt q = 0; q < EAS_NUM_PHASES; q++) {
        m->unit[u].busy[q] = m->unit[u].work[q] = 0;
        m->unit[u].t0[q]                        = t;
      }
    for (PetscInt q = 0; q < EAS_NUM_PHASES; q++) {
      m->pwall[q] = m->pshort[q] = 0;
      m->pt0[q]                  = t;
    }
    for (PetscInt k = 0; k < m->nsensors; k++) { /* the sampling interval's time so far is before the run */
      EasMeterAcc *a = &m->acc[k];
      for (PetscInt q = 0; q <= EAS_NUM_PHASES; q++) {
        a->tau[EAS_METER_TAU_OUTSIDE] += a->tau[q];
        a->tau[q] = 0;
        a->E[q]   = 0;
      }
      a->nsamples = a->nlost = 0;
    }
    m->awall = m->ushort = 0;
    m->at0 = m->ut0 = t;
    m->elapsed      = 0;
    m->tstart       = t;
    m->running      = PETSC_TRUE;
    break;
  case EAS_METER_EV_STOP:
    if (!m->running) break;
    m->tstop = t;
    for (PetscInt u = 0; u < m->nunits; u++) /* phases still open: their time up to Stop counts, the rest after Resume */
      for (PetscInt q = 0; q < EAS_NUM_PHASES; q++)
        if (m->unit[u].depth[q] > 0) m->unit[u].busy[q] += (PetscReal)(t - m->unit[u].t0[q]);
    for (PetscInt q = 0; q < EAS_NUM_PHASES; q++)
      if (m->pdepth[q] > 0) m->pwall[q] += (PetscReal)(t - m->pt0[q]);
    if (m->adepth > 0)
      m->awall += (PetscReal)(t - m->at0);
    else
      UnphasedEnd(m, t);
    m->elapsed += (PetscReal)(t - m->tstart);
    m->running = PETSC_FALSE;
    break;
  case EAS_METER_EV_RESUME:
    if (m->running) break;
    for (PetscInt u = 0; u < m->nunits; u++)
      for (PetscInt q = 0; q < EAS_NUM_PHASES; q++) m->unit[u].t0[q] = t;
    for (PetscInt q = 0; q < EAS_NUM_PHASES; q++) m->pt0[q] = t;
    m->at0 = m->ut0 = t;
    m->tstart       = t;
    m->running      = PETSC_TRUE;
    break;
  case EAS_METER_EV_BEGIN:
    if (m->unit[e->unit].depth[p]++ == 0) {
      m->unit[e->unit].t0[p] = t;
      m->cnt[p]++;
    }
    if (m->adepth++ == 0) {
      UnphasedEnd(m, t);
      m->at0 = t;
    }
    if (m->pdepth[p]++ == 0) m->pt0[p] = t;
    break;
  case EAS_METER_EV_END:
    m->unit[e->unit].work[p] += e->work;
    if (--m->unit[e->unit].depth[p] == 0) {
      m->cnt[p]--;
      if (m->running) m->unit[e->unit].busy[p] += (PetscReal)(t - m->unit[e->unit].t0[p]); /* no time counted while stopped */
    }
    if (--m->adepth == 0) {
      if (m->running) m->awall += (PetscReal)(t - m->at0);
      m->ut0 = t;
    }
    if (--m->pdepth[p] == 0 && m->running) {
      const PetscReal dt = (PetscReal)(t - m->pt0[p]);
      m->pwall[p] += dt;
      if (dt < m->resolution) m->pshort[p] += dt; /* shorter than a sampling interval: its energy is apportioned */
    }
    break;
  }
}

static int CmpEvent(const void *a, const void *b)
{
  const EasMeterEvent *x = (const EasMeterEvent *)a, *y = (const EasMeterEvent *)b;
  if (x->mark.t != y->mark.t) return x->mark.t < y->mark.t ? -1 : 1;
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* EasMeterFlush with the time now given (qnow: a clock reading just taken, e.g. the event
   just recorded: a synthetic clock's readings stay those of the calls that mean a time) or read. */
static PetscErrorCode MeterFlushAt(EasEnergyMeter m, PetscBool wait, const PetscLogDouble *qnow)
{
  PetscLogDouble q, tlim;
  PetscInt       nknown = 0, nleft = 0;

  PetscFunctionBegin;
  if (!m->nev && (!m->started || m->stopped)) PetscFunctionReturn(0); /* outside the windows, nothing pending: no clock reading (a synthetic clock's last reading stays the summary's T) */
  if (qnow) q = *qnow;
  else PetscCall(EasMeterNow(m, &q));
  if (m->nmarks) {
    for (PetscInt i = 0; i < m->nev; i++) { /* marks are reached in the order recorded: stop at the first that is not */
      EasMeterEvent *e = &m->ev[i];
      if (e->mark.resolved) continue;
      PetscCall(EasBackendTimerQuery(m->backend, &e->mark, wait));
      if (!e->mark.resolved) break;
      m->nmarks--;
    }
  }
  /* A mark not yet resolved is reached at or after its record (its t until then): the
     timeline is complete up to the earliest of those, and no further. */
  tlim = q;
  for (PetscInt i = 0; i < m->nev; i++)
    if (!m->ev[i].mark.resolved) tlim = PetscMin(tlim, m->ev[i].mark.t);
  /* the events known up to tlim first (sorted), the others kept in their order */
  for (PetscInt i = 0; i < m->nev; i++)
    if (m->ev[i].mark.resolved && m->ev[i].mark.t <= tlim) {
      const EasMeterEvent e = m->ev[i];
      for (PetscInt j = i; j > nknown; j--) m->ev[j] = m->ev[j - 1];
      m->ev[nknown++] = e;
    }
  qsort(m->ev, (size_t)nknown, sizeof(EasMeterEvent), CmpEvent);
  for (PetscInt i = 0; i < nknown; i++) {
    PetscLogDouble t = PetscMax(m->ev[i].mark.t, m->tproc);
    PetscCall(MeterAdvance(m, t));
    MeterApply(m, &m->ev[i], t);
  }
  for (PetscInt i = nknown; i < m->nev; i++) m->ev[nleft++] = m->ev[i];
  m->nev = nleft;
  PetscCall(MeterAdvance(m, tlim));
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterFlush(EasEnergyMeter m, PetscBool wait)
{
  PetscFunctionBegin;
  PetscCall(MeterFlushAt(m, wait, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterFlushEvents(EasEnergyMeter m)
{
  PetscFunctionBegin;
  if (m->nev) PetscCall(MeterFlushAt(m, PETSC_FALSE, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterRecord(EasEnergyMeter m, EasMeterEventKind kind, EasPhase p, PetscInt u, PetscReal work)
{
  EasMeterEvent *e;

  PetscFunctionBegin;
  if (m->nev == m->evcap) {
    EasMeterEvent *ev;
    const PetscInt cap = PetscMax(2 * m->evcap, 16);
    PetscCall(PetscMalloc1(cap, &ev));
    if (m->nev) PetscCall(PetscArraycpy(ev, m->ev, m->nev));
    PetscCall(PetscFree(m->ev));
    m->ev    = ev;
    m->evcap = cap;
  }
  if (kind == EAS_METER_EV_START) m->nboundaries = 0;
  if (kind == EAS_METER_EV_BEGIN || kind == EAS_METER_EV_END) m->nboundaries++;
  e        = &m->ev[m->nev++];
  e->seq   = m->seq++;
  e->kind  = kind;
  e->phase = p;
  e->unit  = u;
  e->work  = work;
  if ((kind == EAS_METER_EV_BEGIN || kind == EAS_METER_EV_END) && m->unit[u].kind == EAS_UNIT_GPU && m->backend && !m->now) {
    PetscCall(EasBackendTimerRecord(m->backend, &e->mark)); /* the device's time: its queue reaches the mark */
    if (!e->mark.resolved) m->nmarks++;
    PetscCall(EasMeterFlush(m, PETSC_FALSE));
  } else {
    PetscLogDouble t;
    PetscCall(EasMeterNow(m, &t));
    e->mark.t        = t;
    e->mark.ticket   = -1;
    e->mark.resolved = PETSC_TRUE;
    PetscCall(MeterFlushAt(m, PETSC_FALSE, &t)); /* every host event so far is at or before t */
  }
  if (m->nmarks > EAS_METER_MAX_MARKS || (m->nmarks && m->nev > 8 * EAS_METER_MAX_MARKS)) { /* the device runs far behind (or the host's events pile up behind its marks): wait for the oldest mark rather than hold more */
    for (PetscInt i = 0; i < m->nev; i++)
      if (!m->ev[i].mark.resolved) {
        PetscCall(EasBackendTimerQuery(m->backend, &m->ev[i].mark, PETSC_TRUE));
        m->nmarks--;
        break;
      }
    PetscCall(EasMeterFlush(m, PETSC_FALSE));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasMeterSensorEnergy(EasEnergyMeter m, PetscReal E[EAS_NUM_PHASES + 1])
{
  PetscLogDouble tq;

  PetscFunctionBegin;
  for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) E[p] = 0;
  if (!m->nsensors) PetscFunctionReturn(0);
  PetscCall(EasMeterFlush(m, m->stopped));
  tq = m->running ? m->tproc : m->tstop; /* the energy up to there; nothing after counts */
  for (PetscInt k = 0; k < m->nsensors; k++) {
    EasMeterAcc a = m->acc[k]; /* a copy: the sample that closes the interval at tq is consumed later by the real one */
    PetscBool   ok, any = PETSC_TRUE;
    if (!(a.have && a.ts >= tq)) {
      PetscCall(EasSensorWaitSample(m->sensor[k], tq, &ok));
      for (;;) {
        PetscLogDouble ts = 0;
        PetscReal      Es = 0;
        PetscCall(AccPeek(m->sensor[k], &a, &any, &ts, &Es));
        if (!any) break;
        a.ib++;
        if (ts <= tq) { /* arrived since the flush: within the processed time */
          AccConsume(&a, ts, Es);
          continue;
        }
        AccAccumulate(m, &a, tq, PETSC_FALSE);
        AccAccumulate(m, &a, ts, PETSC_TRUE); /* after tq: outside */
        AccConsume(&a, ts, Es);
        break;
      }
      if (!any) PetscCall(PetscInfo(m, "sensor %s: no sample after t = %g s; its energy is counted up to its newest sample\n", m->sensor[k]->type, (double)tq));
    }
    for (PetscInt p = 0; p <= EAS_NUM_PHASES; p++) E[p] += a.E[p];
  }
  PetscFunctionReturn(0);
}
