static const char help[] = "bench_adr_peer: time to accuracy of the eas ADR solver against its peer on the diurnal problem\n"
                           "(issue 9).  The peer is SUNDIALS CVODE with its own Newton iteration, SPGMR and cvDiurnal's 2x2\n"
                           "block-diagonal preconditioner on the same PDE (tests/diurnal_peer.h, written independently of\n"
                           "eas, nvector_parallel over z-slabs); eas runs -eas_ts cvode (CVODE's BDF, stages by the\n"
                           "multisplitting Newton) or beuler (-dt).  Both at -rtol/-atol; errors against a tight reference\n"
                           "(the peer at -ref_rtol, -ref_atol): max over the outputs every 7200 s to 86400 s of the\n"
                           "species-scaled 2-norm difference of c2, and of c1 in day time (t <= 36000 s).  Times: wall\n"
                           "clock of the whole integration (eas: create, setup and solve; peer: create and solve),\n"
                           "median of -reps runs.  One line:\n"
                           "BENCH name=adr_peer problem=diurnal grid=<nx>x<ny>x<nz> ranks=<r> eas_ts=<type> eas_s= eas_err=\n"
                           "      peer=cvode_spgmr peer_s= peer_err= ratio=<peer_s/eas_s>\n"
                           "      matched_rtol= matched_s= matched_err= matched_ratio=<peer_s/matched_s> interp_ratio=\n"
                           "Time to the peer's accuracy (matched_*, cvode only, -match 1): where eas's error is above the\n"
                           "peer's, eas runs again with its rtol scaled by 0.8 peer_err/eas_err (BDF's error follows rtol\n"
                           "about linearly) until its error is at most the peer's (at most 4 tries; matched_err=-1 if\n"
                           "none got there); matched_s is the median of -reps runs at that rtol.  Where eas's first error\n"
                           "is already at most the peer's, the matched figures are the first run's.  interp_ratio: peer_s\n"
                           "over eas's time interpolated to the peer's error exactly (log time linear in log error between\n"
                           "the last two eas runs; an estimate, where matched_ratio is measured).\n"
                           "Work-precision curves (-rtols r1,r2,..., cvode, instead of the above): both codes at each rtol\n"
                           "(-reps runs each, alternating), one line per rtol:\n"
                           "BENCH name=adr_peer_curve ... rtol= eas_s= eas_err= eas_steps= peer_s= peer_err= peer_steps=\n"
                           "then, at each peer point inside the range of eas's errors, eas's time at the peer's error\n"
                           "(log time linear in log error between the two eas points around it, sorted by error; no\n"
                           "extrapolation) and the speed ratio peer_s / eas_s there:\n"
                           "BENCH name=adr_peer_equal_error ... peer_rtol= peer_err= peer_s= eas_s_interp= ratio=\n"
                           "BENCH name=adr_peer_curve_summary ... points= ratio_min= ratio_median= ratio_max=\n"
                           "  -nx <40> -ny <1> -nz <40> -rtol <1e-5> -atol <1e-3> -ref_rtol <1e-9> -ref_atol <1e-5> -reps <3>\n"
                           "  -eas_ts cvode|beuler -dt <60> -match <1> -rtols <r1,...,rk> (2..16 values)\n";

#include <eas.h>
#include <petscdmda.h>
#include "bandwidth.h" /* EasBenchMedian */
#if defined(EAS_HAVE_SUNDIALS)
#  include "../tests/diurnal_peer.h"

#  define NOUT 12

/* the peer's slabs gathered on rank 0 in natural ordering (they are contiguous natural ranges) */
static PetscErrorCode GatherPeer(DiurnalPeer *p, const double *loc, double *all)
{
  PetscMPIInt n = (PetscMPIInt)DiurnalPeerLocalSize(p), *cnt = NULL, *dsp = NULL;

  PetscFunctionBegin;
  if (p->rank == 0) PetscCall(PetscMalloc2(p->size, &cnt, p->size, &dsp));
  PetscCallMPI(MPI_Gather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, p->comm));
  if (p->rank == 0) {
    dsp[0] = 0;
    for (PetscMPIInt r = 1; r < p->size; r++) dsp[r] = dsp[r - 1] + cnt[r - 1];
  }
  PetscCallMPI(MPI_Gatherv((void *)loc, n, MPI_DOUBLE, all, cnt, dsp, MPI_DOUBLE, 0, p->comm));
  if (p->rank == 0) PetscCall(PetscFree2(cnt, dsp));
  PetscFunctionReturn(0);
}

/* max over outputs of the species-scaled 2-norm difference (c2 always, c1 in day time) */
static double FieldError(PetscInt n, double **a, double **ref)
{
  double e = 0;
  for (int o = 0; o < NOUT; o++) {
    const double t     = 7200.0 * (o + 1);
    double       d2[2] = {0, 0}, r2[2] = {0, 0};
    for (PetscInt q = 0; q < n; q++)
      for (int s = 0; s < 2; s++) {
        const double d = a[o][2 * q + s] - ref[o][2 * q + s];
        d2[s] += d * d;
        r2[s] += ref[o][2 * q + s] * ref[o][2 * q + s];
      }
    e = PetscMax(e, sqrt(d2[1] / r2[1]));
    if (t <= 36000) e = PetscMax(e, sqrt(d2[0] / r2[0]));
  }
  return e;
}

/* the peer from t = 0 through the outputs; fields on rank 0 (all != NULL) */
static PetscErrorCode RunPeer(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscInt nz, double rtol, double atol, double **all, double *sec, long int *steps)
{
  DiurnalPeer *p;
  double      *loc[NOUT], touts[NOUT];

  PetscFunctionBegin;
  PetscCheck(!DiurnalPeerCreate(comm, (int)nx, (int)ny, (int)nz, &p), PETSC_COMM_SELF, PETSC_ERR_MEM, "DiurnalPeerCreate failed");
  PetscCheck(p->nzl >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the peer needs at least 2 z planes per rank");
  for (int o = 0; o < NOUT; o++) {
    touts[o] = 7200.0 * (o + 1);
    PetscCall(PetscMalloc1(DiurnalPeerLocalSize(p), &loc[o]));
  }
  PetscCheck(!DiurnalPeerRun(p, rtol, atol, NOUT, touts, loc, sec, steps), PETSC_COMM_SELF, PETSC_ERR_LIB, "the peer's CVODE run failed");
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sec, 1, MPI_DOUBLE, MPI_MAX, comm));
  for (int o = 0; o < NOUT; o++) {
    PetscCall(GatherPeer(p, loc[o], all[o]));
    PetscCall(PetscFree(loc[o]));
  }
  DiurnalPeerDestroy(&p);
  PetscFunctionReturn(0);
}

/* eas from t = 0 through the outputs; fields in natural ordering on rank 0 */
static PetscErrorCode RunEas(PetscInt nx, PetscInt ny, PetscInt nz, EasAdrTSType type, PetscReal dt, double rtol, double atol, double **all, double *sec, PetscInt *steps, EasAdrConvergedReason *reason)
{
  EasAdr      adr;
  DM          da;
  Vec         N, Z;
  VecScatter  sc;
  double      t0;
  PetscMPIInt rank;
  EasAdrStats st;
  Vec         Zs[NOUT];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetGrid(adr, nx, ny, nz));
  PetscCall(EasAdrSetTimeStepType(adr, type));
  PetscCall(EasAdrSetTimeStep(adr, dt));
  if (type == EAS_ADR_TS_CVODE) PetscCall(EasAdrSetTimeStepTolerances(adr, rtol, atol));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrGetDM(adr, &da));
  PetscCall(DMDACreateNaturalVector(da, &N));
  PetscCall(VecScatterCreateToZero(N, &sc, &Z));
  for (int o = 0; o < NOUT; o++) {
    PetscCall(EasAdrSolve(adr, 7200.0 * (o + 1)));
    PetscCall(EasAdrGetConvergedReason(adr, reason));
    if (*reason < 0) break;
    PetscCall(EasAdrGetSolutionNatural(adr, N)); /* kept aside, gathered after the clock stops */
    PetscCall(VecDuplicate(Z, &Zs[o]));
    PetscCall(VecScatterBegin(sc, N, Zs[o], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, N, Zs[o], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  *sec = MPI_Wtime() - t0;
  PetscCall(EasAdrGetStats(adr, &st));
  *steps = st.steps;
  for (int o = 0; o<NOUT && * reason> 0; o++) {
    const PetscScalar *a;
    PetscInt           n;
    PetscCall(VecGetLocalSize(Zs[o], &n));
    PetscCall(VecGetArrayRead(Zs[o], &a));
    if (rank == 0)
      for (PetscInt i = 0; i < n; i++) all[o][i] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(Zs[o], &a));
    PetscCall(VecDestroy(&Zs[o]));
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&Z));
  PetscCall(VecDestroy(&N));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

/* eas's time at error e on its curve (np points (err, sec)): log t linear in log err between the two
   points around e in the order of error; *inside false (and no time) outside the curve's range */
static void CurveTimeAt(PetscInt np, const double err[], const double sec[], double e, double *t, PetscBool *inside)
{
  PetscInt idx[16];

  for (PetscInt i = 0; i < np; i++) idx[i] = i;
  for (PetscInt i = 1; i < np; i++) /* insertion sort by error (np <= 16) */
    for (PetscInt j = i; j > 0 && err[idx[j]] < err[idx[j - 1]]; j--) {
      PetscInt k = idx[j];
      idx[j]     = idx[j - 1];
      idx[j - 1] = k;
    }
  *inside = PETSC_FALSE;
  *t      = 0;
  for (PetscInt i = 0; i + 1 < np; i++) {
    const double e0 = err[idx[i]], e1 = err[idx[i + 1]], t0 = sec[idx[i]], t1 = sec[idx[i + 1]];
    if (e < e0 || e > e1 || !(e0 > 0)) continue;
    *inside = PETSC_TRUE;
    *t      = e1 > e0 ? t0 * pow(t1 / t0, log(e / e0) / log(e1 / e0)) : 0.5 * (t0 + t1);
    return;
  }
}

/* -rtols: both codes at each rtol, then the ratios at equal error (see help) */
static PetscErrorCode WorkPrecision(PetscInt nx, PetscInt ny, PetscInt nz, PetscReal dt, PetscInt nrt, const PetscReal rtols[], PetscReal atol, PetscInt reps, double **ref, double **fe, double **fp)
{
  const PetscInt nall = nx * ny * nz;
  double         ee[16], et[16], pe[16], pt[16], ts_eas[16], ts_peer[16], ratios[16];
  PetscInt       es = 0, npts = 0;
  long int       ps = 0;
  PetscMPIInt    rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt k = 0; k < nrt; k++) {
    EasAdrConvergedReason reason = EAS_ADR_CONVERGED_ITERATING;
    double                err[2] = {0, 0};
    for (PetscInt r = 0; r < reps; r++) { /* alternate the two codes */
      PetscCall(RunPeer(PETSC_COMM_WORLD, nx, ny, nz, rtols[k], atol, fp, &ts_peer[r], &ps));
      PetscCall(RunEas(nx, ny, nz, EAS_ADR_TS_CVODE, dt, rtols[k], atol, fe, &ts_eas[r], &es, &reason)); /* dt: CVODE's first step bound, as in the single-rtol runs */
      PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas at rtol %g stopped: %s", (double)rtols[k], EasAdrConvergedReasonName(reason));
    }
    if (rank == 0) {
      err[0] = FieldError(nall, fe, ref);
      err[1] = FieldError(nall, fp, ref);
    }
    PetscCallMPI(MPI_Bcast(err, 2, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
    ee[k] = err[0];
    pe[k] = err[1];
    et[k] = EasBenchMedian(reps, ts_eas);
    pt[k] = EasBenchMedian(reps, ts_peer);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_peer_curve problem=diurnal grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d rtol=%.3g eas_s=%.4f eas_err=%.3e eas_steps=%" PetscInt_FMT " peer_s=%.4f peer_err=%.3e peer_steps=%ld reps=%" PetscInt_FMT "\n", nx, ny, nz, (int)size, (double)rtols[k], et[k], ee[k], es, pt[k], pe[k], ps, reps));
  }
  for (PetscInt k = 0; k < nrt; k++) {
    double    t;
    PetscBool inside;
    CurveTimeAt(nrt, ee, et, pe[k], &t, &inside);
    if (!inside || !(t > 0)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# the peer's point at rtol %.3g (error %.3e) is outside eas's errors: no ratio\n", (double)rtols[k], pe[k]));
      continue;
    }
    ratios[npts++] = pt[k] / t;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_peer_equal_error problem=diurnal grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d peer_rtol=%.3g peer_err=%.3e peer_s=%.4f eas_s_interp=%.4f ratio=%.3f\n", nx, ny, nz, (int)size, (double)rtols[k], pe[k], pt[k], t, pt[k] / t));
  }
  if (npts) {
    double lo = ratios[0], hi = ratios[0];
    for (PetscInt i = 1; i < npts; i++) {
      lo = PetscMin(lo, ratios[i]);
      hi = PetscMax(hi, ratios[i]);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_peer_curve_summary problem=diurnal grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d points=%" PetscInt_FMT " ratio_min=%.3f ratio_median=%.3f ratio_max=%.3f\n", nx, ny, nz, (int)size, npts, lo, EasBenchMedian(npts, ratios), hi));
  } else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_peer_curve_summary problem=diurnal grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d points=0 (no peer error inside eas's range: widen -rtols)\n", nx, ny, nz, (int)size));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt              nx = 40, ny = 1, nz = 40, reps = 3, eas_steps = 0, nall;
  PetscReal             rtol = 1e-5, atol = 1e-3, ref_rtol = 1e-9, ref_atol = 1e-5, dt = 60;
  PetscMPIInt           rank, size;
  double               *ref[NOUT], *fe[NOUT], *fp[NOUT], ts_eas[16], ts_peer[16], ref_sec, eas_err = 0, peer_err = 0;
  long int              ref_steps, peer_steps = 0;
  PetscBool             match = PETSC_TRUE, curve;
  PetscReal             rtols[16];
  PetscInt              nrt = 16;
  PetscReal             m_rtol, m_err = -1;
  double                m_sec, e_prev = 0, t_prev = 0, t_interp, t_eas, t_peer;
  EasAdrConvergedReason reason     = EAS_ADR_CONVERGED_ITERATING;
  char                  tsname[16] = "cvode";
  EasAdrTSType          type;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_adr_peer", "bench");
  PetscCall(PetscOptionsInt("-nx", "grid points in x", NULL, nx, &nx, NULL));
  PetscCall(PetscOptionsInt("-ny", "grid points in y (1: 2D)", NULL, ny, &ny, NULL));
  PetscCall(PetscOptionsInt("-nz", "grid points in z", NULL, nz, &nz, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative tolerance of both codes", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-atol", "absolute tolerance of both codes", NULL, atol, &atol, NULL));
  PetscCall(PetscOptionsReal("-ref_rtol", "the reference's relative tolerance", NULL, ref_rtol, &ref_rtol, NULL));
  PetscCall(PetscOptionsReal("-ref_atol", "the reference's absolute tolerance", NULL, ref_atol, &ref_atol, NULL));
  PetscCall(PetscOptionsInt("-reps", "timed runs of each code (median)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsString("-eas_ts", "eas time stepping: cvode or beuler", NULL, tsname, tsname, sizeof(tsname), NULL));
  PetscCall(PetscOptionsReal("-dt", "eas beuler time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsBool("-match", "cvode: also the time eas takes to the peer's accuracy (a tighter eas rtol)", NULL, match, &match, NULL));
  PetscCall(PetscOptionsRealArray("-rtols", "cvode: work-precision curves, both codes at each of these rtols (2..16, comma-separated), instead of -rtol", NULL, rtols, &nrt, &curve));
  PetscOptionsEnd();
  PetscCheck(reps >= 1 && reps <= 16, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": expected 1..16", reps);
  {
    PetscBool cv;
    PetscCall(PetscStrcmp(tsname, "cvode", &cv));
    type = cv ? EAS_ADR_TS_CVODE : EAS_ADR_TS_BEULER;
  }
  if (curve) {
    PetscCheck(type == EAS_ADR_TS_CVODE, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-rtols: work-precision curves need -eas_ts cvode (beuler has no tolerance)");
    PetscCheck(nrt >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rtols: expected 2 to 16 comma-separated tolerances, got %" PetscInt_FMT, nrt);
    for (PetscInt k = 0; k < nrt; k++) PetscCheck(rtols[k] > 0 && rtols[k] < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rtols: %g is not a relative tolerance in (0, 1)", (double)rtols[k]);
  }
  nall = nx * ny * nz;
  for (int o = 0; o < NOUT; o++) PetscCall(PetscMalloc3(2 * nall, &ref[o], 2 * nall, &fe[o], 2 * nall, &fp[o]));
  PetscCall(RunPeer(PETSC_COMM_WORLD, nx, ny, nz, ref_rtol, ref_atol, ref, &ref_sec, &ref_steps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# reference: the peer at rtol %g atol %g: %ld steps, %.2f s\n", (double)ref_rtol, (double)ref_atol, ref_steps, ref_sec));
  if (curve) {
    PetscCall(WorkPrecision(nx, ny, nz, dt, nrt, rtols, atol, reps, ref, fe, fp));
    for (int o = 0; o < NOUT; o++) PetscCall(PetscFree3(ref[o], fe[o], fp[o]));
    PetscCall(EasFinalize());
    return 0;
  }
  for (PetscInt r = 0; r < reps; r++) { /* alternate the two codes */
    PetscCall(RunPeer(PETSC_COMM_WORLD, nx, ny, nz, rtol, atol, fp, &ts_peer[r], &peer_steps));
    PetscCall(RunEas(nx, ny, nz, type, dt, rtol, atol, fe, &ts_eas[r], &eas_steps, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas stopped: %s", EasAdrConvergedReasonName(reason));
  }
  if (rank == 0) {
    eas_err  = FieldError(nall, fe, ref);
    peer_err = FieldError(nall, fp, ref);
  }
  PetscCallMPI(MPI_Bcast(&eas_err, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&peer_err, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  t_eas  = EasBenchMedian(reps, ts_eas);
  t_peer = EasBenchMedian(reps, ts_peer);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# eas %s: %" PetscInt_FMT " steps%s; peer: %ld steps\n", tsname, eas_steps, type == EAS_ADR_TS_BEULER ? "" : " (CVODE)", peer_steps));
  /* time to the peer's accuracy: eas at a tighter rtol until its error is at most the peer's */
  m_rtol = rtol;
  m_sec  = t_eas;
  if (eas_err <= peer_err)
    m_err = eas_err;
  else if (match && type == EAS_ADR_TS_CVODE) {
    double e = eas_err, tm[16];
    for (int k = 0; k < 4 && m_err < 0; k++) {
      e_prev = e;
      t_prev = m_sec;
      m_rtol *= 0.8 * peer_err / e; /* the BDF's global error about proportional to rtol */
      for (PetscInt r = 0; r < reps; r++) {
        PetscCall(RunEas(nx, ny, nz, type, dt, m_rtol, atol, fe, &tm[r], &eas_steps, &reason));
        PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas at rtol %g stopped: %s", (double)m_rtol, EasAdrConvergedReasonName(reason));
      }
      if (rank == 0) e = FieldError(nall, fe, ref);
      PetscCallMPI(MPI_Bcast(&e, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
      m_sec = EasBenchMedian(reps, tm);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# eas at rtol %.3g: %" PetscInt_FMT " steps, %.4f s, error %.3e\n", (double)m_rtol, eas_steps, m_sec, e));
      if (e <= peer_err) m_err = e;
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_peer problem=diurnal grid=%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " ranks=%d eas_ts=%s eas_s=%.4f eas_err=%.3e peer=cvode_spgmr peer_s=%.4f peer_err=%.3e ratio=%.3f", nx, ny, nz, (int)size, type == EAS_ADR_TS_BEULER ? "beuler" : "cvode", t_eas, eas_err, t_peer, peer_err, t_peer / t_eas));
  /* log t linear in log err between the last two runs, at err = peer_err (the first run's time where it already was as accurate) */
  t_interp = m_sec;
  if (m_err >= 0 && e_prev > peer_err && m_err < peer_err) t_interp = t_prev * PetscPowReal(m_sec / t_prev, PetscLogReal(peer_err / e_prev) / PetscLogReal(m_err / e_prev));
  if (type == EAS_ADR_TS_CVODE && (match || m_err >= 0)) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " matched_rtol=%.3g matched_s=%.4f matched_err=%.3e matched_ratio=%.3f interp_ratio=%.3f", (double)m_rtol, m_sec, m_err, m_err >= 0 ? t_peer / m_sec : 0.0, m_err >= 0 ? t_peer / t_interp : 0.0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  for (int o = 0; o < NOUT; o++) PetscCall(PetscFree3(ref[o], fe[o], fp[o]));
  PetscCall(EasFinalize());
  return 0;
}
#else
int main(int argc, char **argv)
{
  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_adr_peer: SUNDIALS CVODE is not compiled in: nothing to compare\n"));
  PetscCall(EasFinalize());
  return 0;
}
#endif

/*TEST
  test:
    suffix: smoke
    nsize: 1 2
    backends: /cpu/serial
    requires: sundials
    args: -nx 10 -nz 10 -reps 1 -ref_rtol 1e-7
    expect: BENCH name=adr_peer problem=diurnal grid=10x1x10 ranks=[12] eas_ts=cvode .* matched_rtol=[0-9.e-]+ matched_s=[0-9.]+ matched_err=[0-9].* interp_ratio=[0-9]
  test:
    # work-precision curves: a line per rtol, then the ratios at the peer's errors inside eas's range
    suffix: curve
    nsize: 1 2
    backends: /cpu/serial
    requires: sundials
    args: -nx 10 -nz 10 -reps 1 -ref_rtol 1e-7 -rtols 1e-3,1e-4,1e-5
    expect_count: 3 BENCH name=adr_peer_curve problem=diurnal grid=10x1x10 ranks=[12] rtol=[0-9.e-]+ eas_s=[0-9.]+ eas_err=[0-9.e+-]+ eas_steps=[0-9]+ peer_s=[0-9.]+ peer_err=[0-9.e+-]+ peer_steps=[0-9]+ reps=1
    expect: BENCH name=adr_peer_curve_summary problem=diurnal grid=10x1x10 ranks=[12] points=[0-9]+
  test:
    suffix: bad_rtols
    nsize: 1
    backends: /cpu/serial
    requires: sundials
    args: -nx 10 -nz 10 -reps 1 -ref_rtol 1e-7 -rtols 1e-4
    expect_error: -rtols: expected 2 to 16 comma-separated tolerances, got 1
TEST*/
