static const char help[] = "bench_adr: the eas ADR solver (docs/adr.md).\n"
                           "  On 2+ ranks: sync vs async multisplitting-Newton time to solution under injected halo\n"
                           "  latency (-delays 0,100,1000 microseconds per message), with outer/inner iterations.\n"
                           "  On 1 rank: eas ADR time per step vs PETSc SNES newtonls + KSPBCGS (right Jacobi,\n"
                           "  same Newton and Krylov tolerances) on the same discretized system.\n"
                           "  Each figure is the median of -reps runs (sync and async alternate).  -inner full,inexact\n"
                           "  runs the inner BiCGStab to -adr_ksp_rtol (full) and/or at most 2 iterations per outer\n"
                           "  iteration (inexact Newton, -adr_ksp_max_it 2).\n"
                           "  On 1 rank -ew 0,1 (default) compares like with like: eas without Eisenstat-Walker inner\n"
                           "  tolerances vs PETSc without, eas with -adr_ksp_ew vs PETSc with -snes_ksp_ew (the same\n"
                           "  version and parameters, -adr_ksp_ew_*), one BENCH line each (ew=0|1).\n"
                           "  -jacobian double,single (default both): the precision of the local Jacobian eas's inner\n"
                           "  solver reads (-adr_jacobian_precision; PETSc: double), one BENCH line per (jacobian, ew).\n"
                           "  On 1 rank each solver is set up once and every run restarts it from the initial state;\n"
                           "  one untimed run of each first, then -reps timed runs alternating eas-PETSc and PETSc-eas;\n"
                           "  the figures are the medians (petsc_over_eas: of the per-run ratios, with their range).\n"
                           "  -pcs jacobi,ilu (1 rank): one BENCH line per inner preconditioner, eas's -adr_pc_type and the\n"
                           "  peer's -peer_pc_type set alike (ilu: PETSc PCILU with eas's -adr_pc_factor_levels and, for\n"
                           "  -adr_pc_ilu_axes, the same ordering; natural by default; -adr_lag_preconditioner alike, as\n"
                           "  SNESSetLagPreconditioner, and -adr_lag_jacobian as SNESSetLagJacobian; -adr_pc_ilu_precision single: eas's factor read in float,\n"
                           "  PETSc's in double), in one run; the\n"
                           "  line has eas's inner iterations per Newton iteration (inner_per_newton).  Default: as\n"
                           "  -adr_pc_type and -peer_pc_type say (jacobi).\n"
                           "  With ILU on both, a second line per case: one application of each factor (EasIluApply against\n"
                           "  PETSc's MatSolve, -log_view's events over the timed runs), bytes per row counted as moved to and\n"
                           "  from memory (eas: the factor's offsets x 8 or 4 B + 64 B of vectors, backend.h\n"
                           "  EAS_ILU_APPLY_BYTES_MOVED_PER_ROW; PETSc: 12 B per factor entry + 48 B, 72 with a permutation,\n"
                           "  MatSolve_SeqAIJ[_NaturalOrdering]), their GB/s, and one thread's read9 bandwidth (bandwidth.h)\n"
                           "  measured after each timed pair: the substitutions are sequential.\n"
                           "BENCH name=adr_ilu_apply n= ilu_levels= ilu_axes= ilu_precision= rows= eas_offsets= eas_bytes_per_row=\n"
                           "  eas_ms= eas_GBs= petsc_nz_per_row= petsc_bytes_per_row= petsc_ms= petsc_GBs= read9_GBs= eas_over_read9=\n"
                           "  petsc_over_read9= petsc_over_eas= byte_ratio= (petsc/eas bytes: the speed ratio at equal bandwidth use)\n"
                           "  ws_per_llc= at_bandwidth= (eas's bytes per application against the last-level cache, bandwidth.h:\n"
                           "  below 4 LLCs part of it may stay in the cache, and a ratio to read9 above 1 is then possible)\n"
                           "  and a third: one numeric factorization of each (EasIluFactor against PETSc's MatLUFactorNum, the\n"
                           "  medians over the timed runs; the symbolic parts are once per pattern and not in it), with the\n"
                           "  flops each logs per factorization and row (eas: 2 per pair of its pair table + 2 per offset):\n"
                           "BENCH name=adr_ilu_factor n= ilu_levels= ilu_axes= rows= eas_offsets= eas_flops_per_row=\n"
                           "  petsc_flops_per_row= eas_ms= eas_Mflops= petsc_ms= petsc_Mflops= petsc_over_eas=\n"
                           "  -n <24> -steps <3> -delays 0,100,1000 -problem diurnal|transport -reps <3; 7 on 1 rank> -inner full -ew 0,1\n";

#include <eas.h>
#include <petscsnes.h>

#include "../tests/adr_snes_peer.h"
#include "backends/backend.h" /* EAS_ILU_APPLY_BYTES_MOVED_PER_ROW */
#include "bandwidth.h"        /* the read9 reference */
#include "../tests/axes_perm.h" /* AxesOrderingRegister: PETSc's ILU in the order of eas's -adr_pc_ilu_axes */

static PetscErrorCode SetOpt(const char name[], PetscReal v)
{
  char buf[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%g", (double)v));
  PetscCall(PetscOptionsSetValue(NULL, name, buf));
  PetscFunctionReturn(0);
}

/* one eas run; returns wall time of EasAdrSolve (max over ranks) and iterations */
static PetscErrorCode RunEas(const char problem[], PetscInt n, PetscInt steps, EasAdrMode mode, PetscReal delay, PetscInt ew, PetscInt prec, PetscReal *time, PetscInt *outer, PetscInt *inner, PetscInt64 *stale, EasAdrConvergedReason *reason)
{
  EasAdr      adr;
  EasAdrStats st;

  PetscFunctionBegin;
  PetscCall(SetOpt("-eas_comm_delay_us", delay));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetProblem(adr, problem));
  PetscCall(EasAdrSetGrid(adr, n, n, n));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetMode(adr, mode));
  if (ew >= 0) PetscCall(EasAdrSetKspEW(adr, ew ? PETSC_TRUE : PETSC_FALSE));    /* else as -adr_ksp_ew says */
  if (prec >= 0) PetscCall(EasAdrSetJacobianPrecision(adr, (EasPrecision)prec)); /* else as -adr_jacobian_precision says */
  PetscCall(EasAdrSetUp(adr));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetConvergedReason(adr, reason));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(MPIU_Allreduce(&st.time_solve, time, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(&st.inner_its, inner, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(&st.msgs_stale, stale, 1, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
  *outer = st.outer_its_max;
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;
  PetscInt    n = 24, steps = 3, ndel = 8, reps = 3, ninner = 2, ews[2] = {0, 1}, new = 2, njac = 2, npc = 4;
  char       *pcs[4] = {NULL, NULL, NULL, NULL}, ilu_axes[8] = "xyz", ilu_prec[8] = "double";
  PetscInt    ilu_levels = 0, lag = 1, jlag = 1;
  char       *jacs[2]     = {NULL, NULL};
  char       *inner[2]    = {NULL, NULL};
  PetscReal   delays[8]   = {0, 100, 1000};
  char        problem[32] = "diurnal";
  PetscBool   flg;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, &flg));
  if (!flg && size == 1) reps = 7; /* one rank: a run takes milliseconds at n = 24, the ratio needs more samples */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-delays", delays, &ndel, &flg));
  if (!flg) ndel = 3;
  PetscCheck(reps >= 1 && reps <= 64, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": expected 1..64", reps);
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-ew", ews, &new, &flg));
  if (!flg) new = 2;
  for (PetscInt i = 0; i < new; i++) PetscCheck(ews[i] == 0 || ews[i] == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ew %" PetscInt_FMT ": expected 0 or 1 (a list: 0,1)", ews[i]);
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-jacobian", jacs, &njac, &flg));
  if (!flg) {
    njac = 2;
    PetscCall(PetscStrallocpy("double", &jacs[0]));
    PetscCall(PetscStrallocpy("single", &jacs[1]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-pcs", pcs, &npc, &flg));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-adr_pc_factor_levels", &ilu_levels, NULL)); /* eas's ILU settings, given to the peer alike */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_pc_ilu_axes", ilu_axes, sizeof(ilu_axes), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-adr_pc_ilu_precision", ilu_prec, sizeof(ilu_prec), NULL)); /* eas's factor read in float; PETSc's stays double */
  if (!flg) {
    npc = 1;
    PetscCall(PetscStrallocpy("", &pcs[0])); /* as the options say */
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-inner", inner, &ninner, &flg));
  if (!flg) {
    ninner = 1;
    PetscCall(PetscStrallocpy("full", &inner[0]));
  }

  if (size > 1) {
    for (PetscInt iv = 0; iv < ninner; iv++) {
      PetscBool inexact;
      PetscCall(PetscStrcmp(inner[iv], "inexact", &inexact));
      if (!inexact) {
        PetscBool full;
        PetscCall(PetscStrcmp(inner[iv], "full", &full));
        PetscCheck(full, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-inner %s: expected full or inexact", inner[iv]);
      }
      if (inexact) PetscCall(PetscOptionsSetValue(NULL, "-adr_ksp_max_it", "2"));
      for (PetscInt d = 0; d < ndel; d++) {
        PetscLogDouble        ts[64], ta[64];
        PetscInt              os = 0, oa = 0, is = 0, ia = 0;
        PetscInt64            stale = 0;
        EasAdrConvergedReason rs, ra;
        PetscBool             allok = PETSC_TRUE; /* every rep of both modes converged: else no speedup is printed */
        char                  speedup[32];
        for (PetscInt r = 0; r < reps; r++) {
          PetscCall(RunEas(problem, n, steps, EAS_ADR_SYNC, delays[d], -1, -1, &ts[r], &os, &is, &stale, &rs));
          PetscCall(RunEas(problem, n, steps, EAS_ADR_ASYNC, delays[d], -1, -1, &ta[r], &oa, &ia, &stale, &ra));
          if (rs <= 0 || ra <= 0) allok = PETSC_FALSE;
        }
        PetscCall(PetscSortReal(reps, ts));
        PetscCall(PetscSortReal(reps, ta));
        if (allok)
          PetscCall(PetscSNPrintf(speedup, sizeof(speedup), "%.3f", (double)(ts[reps / 2] / ta[reps / 2])));
        else
          PetscCall(PetscStrncpy(speedup, "n/a", sizeof(speedup)));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_sync_async problem=%s np=%d n=%" PetscInt_FMT " steps=%" PetscInt_FMT " inner=%s delay_us=%g sync_s=%.4f async_s=%.4f async_speedup=%s sync_outer=%" PetscInt_FMT " async_outer=%" PetscInt_FMT " sync_inner=%" PetscInt_FMT " async_inner=%" PetscInt_FMT " async_stale=%" PetscInt64_FMT " sync_reason=%s async_reason=%s\n", problem, size, n, steps, inexact ? "inexact" : "full", (double)delays[d], ts[reps / 2], ta[reps / 2], speedup, os, oa, is, ia, stale, EasAdrConvergedReasonName(rs), EasAdrConvergedReasonName(ra)));
      }
      if (inexact) PetscCall(PetscOptionsClearValue(NULL, "-adr_ksp_max_it"));
    }
  } else {
    for (PetscInt ij = 0; ij < npc * njac * new; ij++) {
      const PetscInt        ie = ij % new, ip = ij / (njac * new);
      const char           *pcname;
      PC                    ppc;
      PetscInt              prec, eo = 0, ei = 0, newton = 0, lin = 0, nfa = 0, nfp = 0;
      PetscBool             match, same = PETSC_TRUE, allok = PETSC_TRUE;
      EasAdr                ea, adr;
      EasAdrConvergedReason reason = EAS_ADR_CONVERGED_ITERATING;
      PetscLogDouble        te[64], tp[64], tr[64], ta[64], ts[64], tref[64], tfa[64], tfp[64], ffa = 0, ffp = 0; /* ta, ts: one ILU application of eas, PETSc; tref: read9; tfa, tfp: one numeric factorization (the runs that factored: nfa, nfp), ffa, ffp: its flops */
      PetscBool             ilu = PETSC_FALSE;
      PetscLogEvent         ev_apply = -1, ev_solve = -1, ev_efac = -1, ev_pfac = -1;
      EasBenchRef           ref;
      PetscReal             rtol, krtol, t0s, dt;
      AdrPeerCtx            c;
      SNES                  snes;
      Mat                   J;
      Vec                   X, X0;
      SNESConvergedReason   sreason = SNES_CONVERGED_ITERATING;
      char                  ratio[32], rmin[32], rmax[32];

      PetscCall(PetscStrcmp(jacs[(ij / new) % njac], "single", &match));
      prec = match ? EAS_PRECISION_SINGLE : EAS_PRECISION_DOUBLE;
      if (!match) {
        PetscCall(PetscStrcmp(jacs[(ij / new) % njac], "double", &match));
        PetscCheck(match, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-jacobian %s: expected double or single (a list: double,single)", jacs[(ij / new) % njac]);
      }
      if (pcs[ip][0]) { /* the same preconditioner for both (eas's parser checks the name) */
        PetscCall(PetscOptionsSetValue(NULL, "-adr_pc_type", pcs[ip]));
        PetscCall(PetscOptionsSetValue(NULL, "-peer_pc_type", pcs[ip]));
      }
      /* eas: one solver for all runs, restarted from the initial state at t0 (EasAdrSetTime,
         EasAdrSetSolution): its setup (allocations, the inner solver's first full setup) is not
         in the time per step, as PETSc's is not below */
      PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &ea));
      PetscCall(EasAdrSetProblem(ea, problem));
      PetscCall(EasAdrSetGrid(ea, n, n, n));
      PetscCall(EasAdrSetMaxSteps(ea, steps));
      PetscCall(EasAdrSetFromOptions(ea));
      PetscCall(EasAdrSetMode(ea, EAS_ADR_SYNC));
      PetscCall(EasAdrSetKspEW(ea, ews[ie] ? PETSC_TRUE : PETSC_FALSE));
      PetscCall(EasAdrSetJacobianPrecision(ea, (EasPrecision)prec));
      PetscCall(EasAdrSetUp(ea));
      PetscCall(EasAdrGetLagPreconditioner(ea, &lag)); /* eas's own reading of -adr_lag_preconditioner, for the peer's SNESSetLagPreconditioner */
      PetscCall(EasAdrGetLagJacobian(ea, &jlag));      /* and of -adr_lag_jacobian, for SNESSetLagJacobian (eas's -1 is SNES's -2) */
      /* PETSc on the same system, same tolerances, EW with eas's choices when eas has it */
      PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
      PetscCall(EasAdrSetProblem(adr, problem));
      PetscCall(EasAdrSetGrid(adr, n, n, n));
      PetscCall(EasAdrSetFromOptions(adr));
      PetscCall(EasAdrSetUp(adr));
      PetscCall(EasAdrCreateGlobalVec(adr, &X));
      PetscCall(VecDuplicate(X, &c.Xold));
      PetscCall(VecDuplicate(X, &X0));
      PetscCall(EasAdrGetSolution(adr, X0));
      PetscCall(EasAdrGetTime(adr, &t0s));
      PetscCall(EasAdrGetTimeStep(adr, &dt));
      rtol = 1e-8;
      PetscCall(PetscOptionsGetReal(NULL, NULL, "-adr_newton_rtol", &rtol, NULL));
      krtol = 1e-8;
      PetscCall(PetscOptionsGetReal(NULL, NULL, "-adr_ksp_rtol", &krtol, NULL));
      c.adr  = adr;
      c.dt   = dt;
      c.rtol = rtol;
      PetscCall(EasAdrCreateJacobianMat(adr, &J));
      PetscCall(AdrPeerCreateSNES(&c, J, krtol, ews[ie] ? PETSC_TRUE : PETSC_FALSE, "peer_", &snes));
      PetscCall(SNESSetFromOptions(snes));
      if (lag != 1) PetscCall(SNESSetLagPreconditioner(snes, lag));
      if (jlag != 1) PetscCall(SNESSetLagJacobian(snes, jlag == -1 ? -2 : jlag));
      {
        KSP pksp;
        PetscCall(SNESGetKSP(snes, &pksp));
        PetscCall(KSPGetPC(pksp, &ppc));
        PetscCall(PCGetType(ppc, &pcname));
        if (!strcmp(pcname, PCILU)) { /* what eas factors: ILU(levels) in the order of its axes (natural: xyz) */
          PetscCall(PCFactorSetLevels(ppc, ilu_levels));
          if (strcmp(ilu_axes, "xyz")) {
            PetscCall(AxesOrderingRegister(n, ilu_axes));
            PetscCall(PCFactorSetMatOrderingType(ppc, "eas_axes"));
          } else
            PetscCall(PCFactorSetMatOrderingType(ppc, MATORDERINGNATURAL));
        }
      }
      /* run -1 warms both up (first touches, the solvers' setups), untimed; then the timed runs
         alternate eas-PETSc and PETSc-eas, so that a drift of the machine's speed hits both */
      for (PetscInt r = -1; r < reps; r++) {
        if (r == 0) { /* after the warm-up, both factored: with ILU on both, time their applications too (-log_view's events; logging turned on here) */
          EasKsp   eksp;
          PetscInt nd;
          PetscCall(EasAdrGetKsp(ea, &eksp));
          PetscCall(EasKspGetILUOffsets(eksp, &nd, NULL));
          ilu = (PetscBool)(nd > 0 && !strcmp(pcname, PCILU));
          if (ilu) {
            PetscCall(PetscLogDefaultBegin());
            PetscCall(PetscLogEventGetId("EasIluApply", &ev_apply));
            PetscCall(PetscLogEventGetId("MatSolve", &ev_solve));
            PetscCall(PetscLogEventGetId("EasIluFactor", &ev_efac));
            PetscCall(PetscLogEventGetId("MatLUFactorNum", &ev_pfac));
            PetscCall(EasBenchRefCreate(0, 1, &ref)); /* one thread: the substitutions are sequential */
          }
        }
        for (PetscInt half = 0; half < 2; half++) {
          PetscEventPerfInfo pi0, pi1, pf0, pf1;
          if (ilu) {
            PetscCall(PetscLogEventGetPerfInfo(0, (half == 0) == (r % 2 == 0 || r < 0) ? ev_apply : ev_solve, &pi0));
            PetscCall(PetscLogEventGetPerfInfo(0, (half == 0) == (r % 2 == 0 || r < 0) ? ev_efac : ev_pfac, &pf0));
          }
          if ((half == 0) == (r % 2 == 0 || r < 0)) { /* eas */
            EasAdrStats st0, st1;
            PetscCall(EasAdrSetTime(ea, t0s));
            PetscCall(EasAdrSetSolution(ea, X0));
            PetscCall(EasAdrGetStats(ea, &st0));
            PetscCall(EasAdrSolve(ea, PETSC_DEFAULT));
            PetscCall(EasAdrGetStats(ea, &st1));
            PetscCall(EasAdrGetConvergedReason(ea, &reason));
            if (reason <= 0) allok = PETSC_FALSE;
            if (r >= 0) {
              te[r] = st1.time_solve - st0.time_solve;
              if (r >= 0 && (eo != st1.outer_its_max - st0.outer_its_max || ei != st1.inner_its - st0.inner_its)) same = PETSC_FALSE;
            }
            eo = st1.outer_its_max - st0.outer_its_max;
            ei = st1.inner_its - st0.inner_its;
          } else { /* PETSc */
            PetscLogDouble t0;
            PetscInt       nn = 0, nl = 0;
            PetscCall(VecCopy(X0, X));
            sreason = SNES_CONVERGED_ITERATING + 1; /* > 0 until a step fails */
            PetscCall(PetscTime(&t0));
            for (PetscInt k = 0; k < steps && sreason > 0; k++) {
              PetscInt its, lits;
              c.t = t0s + (k + 1) * dt;
              PetscCall(VecCopy(X, c.Xold));
              PetscCall(SNESSolve(snes, NULL, X));
              PetscCall(SNESGetIterationNumber(snes, &its));
              PetscCall(SNESGetLinearSolveIterations(snes, &lits));
              PetscCall(SNESGetConvergedReason(snes, &sreason));
              nn += its;
              nl += lits;
            }
            PetscCall(PetscTimeSubtract(&t0));
            if (sreason <= 0) allok = PETSC_FALSE;
            if (r >= 0) {
              tp[r] = -t0;
              if (r >= 0 && (newton != nn || lin != nl)) same = PETSC_FALSE;
            }
            newton = nn;
            lin    = nl;
          }
          if (ilu && r >= 0) { /* seconds per application in this run */
            PetscCall(PetscLogEventGetPerfInfo(0, (half == 0) == (r % 2 == 0) ? ev_apply : ev_solve, &pi1));
            ((half == 0) == (r % 2 == 0) ? ta : ts)[r] = pi1.count > pi0.count ? (pi1.time - pi0.time) / (pi1.count - pi0.count) : 0.0;
            PetscCall(PetscLogEventGetPerfInfo(0, (half == 0) == (r % 2 == 0) ? ev_efac : ev_pfac, &pf1)); /* seconds and flops per numeric factorization */
            if (pf1.count > pf0.count) {
              const PetscBool e = (PetscBool)((half == 0) == (r % 2 == 0));
              (e ? tfa : tfp)[e ? nfa++ : nfp++] = (pf1.time - pf0.time) / (pf1.count - pf0.count);
              *(e ? &ffa : &ffp)                 = (pf1.flops - pf0.flops) / (pf1.count - pf0.count);
            }
          }
        }
        if (r >= 0) tr[r] = tp[r] / te[r];
        if (ilu && r >= 0) tref[r] = EasBenchRead9(&ref, 1);
      }
      /* a ratio only when both solved every step: a failed run's time is not the time of the work */
      PetscCall(PetscSortReal(reps, te));
      PetscCall(PetscSortReal(reps, tp));
      PetscCall(PetscSortReal(reps, tr));
      if (allok) {
        PetscCall(PetscSNPrintf(ratio, sizeof(ratio), "%.3f", (double)tr[reps / 2]));
        PetscCall(PetscSNPrintf(rmin, sizeof(rmin), "%.3f", (double)tr[0]));
        PetscCall(PetscSNPrintf(rmax, sizeof(rmax), "%.3f", (double)tr[reps - 1]));
      } else {
        PetscCall(PetscStrncpy(ratio, "n/a", sizeof(ratio)));
        PetscCall(PetscStrncpy(rmin, "n/a", sizeof(rmin)));
        PetscCall(PetscStrncpy(rmax, "n/a", sizeof(rmax)));
      }
      /* 1 rank, 1 thread: every run does the same arithmetic, so the same counts */
      if (!same) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "WARNING bench_adr: the Newton or inner counts differ between runs (the last run's are printed)\n"));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_vs_petsc problem=%s np=1 n=%" PetscInt_FMT " steps=%" PetscInt_FMT " jacobian=%s ew=%" PetscInt_FMT " pc=%s petsc_pc=%s ilu_levels=%" PetscInt_FMT " ilu_axes=%s ilu_precision=%s lag=%" PetscInt_FMT " inner_per_newton=%.1f eas_ms_per_step=%.3f petsc_ms_per_step=%.3f petsc_over_eas=%s eas_newton=%" PetscInt_FMT " petsc_newton=%" PetscInt_FMT " eas_inner=%" PetscInt_FMT " petsc_inner=%" PetscInt_FMT " eas_reason=%s petsc_reason=%s reps=%" PetscInt_FMT " ratio_min=%s ratio_max=%s jac_lag=%" PetscInt_FMT "\n", problem, n, steps, EasPrecisions[prec], ews[ie], pcs[ip][0] ? pcs[ip] : "options", pcname, ilu_levels, ilu_axes, ilu_prec, lag, eo ? (double)ei / eo : 0.0, 1e3 * te[reps / 2] / steps, 1e3 * tp[reps / 2] / steps, ratio, eo, newton, ei, lin, EasAdrConvergedReasonName(reason), SNESConvergedReasons[sreason], reps, rmin, rmax, jlag));
      if (ilu) {
        EasKsp          eksp;
        EasPrecision    fprec;
        PetscInt        nd, rows;
        const PetscInt *off;
        Mat             F;
        MatInfo         info;
        double          eb, pb, ea_s, pa_s, ref_s, ref_GBs, eas_GBs, petsc_GBs;
        PetscCall(EasAdrGetKsp(ea, &eksp));
        PetscCall(EasKspGetILUOffsets(eksp, &nd, &off));
        PetscCall(EasKspGetILUPrecision(eksp, &fprec));
        PetscCall(MatGetSize(J, &rows, NULL));
        PetscCall(PCFactorGetMatrix(ppc, &F));
        PetscCall(MatGetInfo(F, MAT_LOCAL, &info));
        eb      = EAS_ILU_APPLY_BYTES_MOVED_PER_ROW(nd, fprec == EAS_PRECISION_SINGLE ? 4.0 : 8.0);
        pb      = 12.0 * info.nz_used / rows + (strcmp(ilu_axes, "xyz") ? 72.0 : 48.0); /* the permuted MatSolve gathers b through r, scatters x through c and keeps tmp */
        ea_s    = EasBenchMedian(reps, ta);
        pa_s    = EasBenchMedian(reps, ts);
        ref_s   = EasBenchMedian(reps, tref);
        ref_GBs = EAS_BENCH_READ9_BYTES * ref.n / ref_s * 1e-9;
        eas_GBs = eb * rows / ea_s * 1e-9;
        petsc_GBs = pb * rows / pa_s * 1e-9;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_ilu_apply n=%" PetscInt_FMT " ilu_levels=%" PetscInt_FMT " ilu_axes=%s ilu_precision=%s rows=%" PetscInt_FMT " eas_offsets=%" PetscInt_FMT " eas_bytes_per_row=%.0f eas_ms=%.3f eas_GBs=%.2f petsc_nz_per_row=%.2f petsc_bytes_per_row=%.0f petsc_ms=%.3f petsc_GBs=%.2f read9_GBs=%.2f eas_over_read9=%.2f petsc_over_read9=%.2f petsc_over_eas=%.3f byte_ratio=%.3f ws_per_llc=%.2f at_bandwidth=%s\n", n, ilu_levels, ilu_axes, EasPrecisions[fprec], rows, nd, eb, 1e3 * ea_s, eas_GBs, info.nz_used / rows, pb, 1e3 * pa_s, petsc_GBs, ref_GBs, eas_GBs / ref_GBs, petsc_GBs / ref_GBs, pa_s / ea_s, pb / eb, EasBenchPerLLC(&ref, eb * rows), EasBenchAtBandwidth(&ref, eb * rows)));
        PetscCall(EasBenchRefDestroy(&ref));
        {
          const double fa_s = nfa ? EasBenchMedian(nfa, tfa) : 0.0, fp_s = nfp ? EasBenchMedian(nfp, tfp) : 0.0;
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=adr_ilu_factor n=%" PetscInt_FMT " ilu_levels=%" PetscInt_FMT " ilu_axes=%s rows=%" PetscInt_FMT " eas_offsets=%" PetscInt_FMT " eas_flops_per_row=%.0f petsc_flops_per_row=%.1f eas_ms=%.3f eas_Mflops=%.0f petsc_ms=%.3f petsc_Mflops=%.0f petsc_over_eas=%.3f\n", n, ilu_levels, ilu_axes, rows, nd, ffa / rows, ffp / rows, 1e3 * fa_s, fa_s > 0 ? 1e-6 * ffa / fa_s : 0.0, 1e3 * fp_s, fp_s > 0 ? 1e-6 * ffp / fp_s : 0.0, fa_s > 0 ? fp_s / fa_s : 0.0));
        }
      }
      PetscCall(SNESDestroy(&snes));
      PetscCall(MatDestroy(&J));
      PetscCall(VecDestroy(&X));
      PetscCall(VecDestroy(&X0));
      PetscCall(VecDestroy(&c.Xold));
      PetscCall(EasAdrDestroy(&adr));
      PetscCall(EasAdrDestroy(&ea));
    }
  }
  for (PetscInt iv = 0; iv < ninner; iv++) PetscCall(PetscFree(inner[iv]));
  for (PetscInt iv = 0; iv < njac; iv++) PetscCall(PetscFree(jacs[iv]));
  for (PetscInt iv = 0; iv < npc; iv++) PetscCall(PetscFree(pcs[iv]));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: smoke
    nsize: 1 2
    backends: /cpu/serial
    args: -n 8 -steps 1 -delays 0,100 -reps 1 -inner full,inexact
    expect: BENCH name=adr_(sync_async|vs_petsc) problem=diurnal
  test:
    # issue 13 item 5: one like-with-like line per (jacobian, ew), with the counts and the per-run range
    suffix: fields
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 1 -reps 1
    expect_count: 4 BENCH name=adr_vs_petsc problem=diurnal np=1 n=8 steps=1 jacobian=(double|single) ew=[01] pc=options petsc_pc=jacobi ilu_levels=0 ilu_axes=xyz ilu_precision=double lag=1 inner_per_newton=[0-9.]+ eas_ms_per_step=[0-9.]+ petsc_ms_per_step=[0-9.]+ petsc_over_eas=[0-9.]+ eas_newton=[0-9]+ petsc_newton=[0-9]+ .* reps=1 ratio_min=[0-9.]+ ratio_max=[0-9.]+
    expect: jacobian=single ew=1
  test:
    # issue 21 item 3: eas ILU(0) against PETSc PCILU, and Jacobi, in one run
    suffix: ilu
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 1 -reps 1 -ew 0 -jacobian double -pcs jacobi,ilu -adr_dt 3600
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=jacobi petsc_pc=jacobi ilu_levels=0 ilu_axes=xyz ilu_precision=double lag=1 inner_per_newton=[0-9.]+ .* eas_reason=CONVERGED
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=ilu petsc_pc=ilu ilu_levels=0 ilu_axes=xyz ilu_precision=double lag=1 inner_per_newton=[0-9.]+ .* eas_reason=CONVERGED
    # the application's bytes by hand (backend.h): 9 offsets x 8 B + 64 B of vectors = 136; only for the ILU case
    expect_count: 1 BENCH name=adr_ilu_apply n=8 ilu_levels=0 ilu_axes=xyz ilu_precision=double rows=1024 eas_offsets=9 eas_bytes_per_row=136 eas_ms=[0-9.]+ eas_GBs=[0-9.]+ petsc_nz_per_row=[0-9.]+ petsc_bytes_per_row=[0-9]+ petsc_ms=[0-9.]+ petsc_GBs=[0-9.]+ read9_GBs=[0-9.]+ .* byte_ratio=[0-9.]+ ws_per_llc=\S+ at_bandwidth=(yes|no|unknown)
    # the factorization's flops by hand: offsets -128 -16 -2 -1 0 1 2 16 128 (species, x, y, z); ILU(0)'s pairs
    # (l_ik u_kj with k, j in the pattern): u_ii from -128/128, -16/16, -2/2, -1/1; u_i,i+1 from -1/2; l_i,i-1
    # from -2/1: 6 pairs x 2 + 9 offsets x 2 = 30 per row
    expect_count: 1 BENCH name=adr_ilu_factor n=8 ilu_levels=0 ilu_axes=xyz rows=1024 eas_offsets=9 eas_flops_per_row=30 petsc_flops_per_row=[0-9.]+ eas_ms=[0-9.]+ eas_Mflops=[0-9]+ petsc_ms=[0-9.]+ petsc_Mflops=[0-9]+ petsc_over_eas=[0-9.]+
  test:
    # ILU(2) with the z-lines innermost, PETSc's PCILU at the same levels and ordering (tests/axes_perm.h)
    suffix: ilu2_zxy
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 1 -reps 1 -ew 0 -jacobian double -pcs ilu -adr_pc_factor_levels 2 -adr_pc_ilu_axes zxy -adr_dt 3600
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=ilu petsc_pc=ilu ilu_levels=2 ilu_axes=zxy ilu_precision=double lag=1 inner_per_newton=[0-9.]+ .* eas_reason=CONVERGED
    # 37 offsets x 8 B + 64 = 360 B per row (the factor read by rows, EAS_ILU_APPLY_ROWS_ND)
    expect_count: 1 BENCH name=adr_ilu_apply n=8 ilu_levels=2 ilu_axes=zxy ilu_precision=double rows=1024 eas_offsets=37 eas_bytes_per_row=360 .* petsc_over_eas=[0-9.]+ byte_ratio=[0-9.]+
  test:
    # the ILU rebuilt at every third Newton iteration, PETSc's SNESSetLagPreconditioner alike
    suffix: ilu_lag
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 2 -reps 1 -ew 0 -jacobian double -pcs ilu -adr_lag_preconditioner 3 -adr_dt 3600
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=ilu petsc_pc=ilu ilu_levels=0 ilu_axes=xyz ilu_precision=double lag=3 inner_per_newton=[0-9.]+ .* eas_reason=CONVERGED
  test:
    # the Jacobian rebuilt at every third Newton iteration (a chord between), PETSc's SNESSetLagJacobian alike
    suffix: jac_lag
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 2 -reps 1 -ew 0 -jacobian double -pcs jacobi -adr_lag_jacobian 3 -adr_dt 3600
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=jacobi petsc_pc=jacobi .* eas_reason=CONVERGED_DX petsc_reason=CONVERGED_SNORM_RELATIVE .* jac_lag=3
  test:
    # eas's factor read in float (PETSc's in double): half the bytes per application
    suffix: ilu_single
    nsize: 1
    backends: /cpu/serial
    args: -n 8 -steps 1 -reps 1 -ew 0 -jacobian double -pcs ilu -adr_pc_factor_levels 1 -adr_pc_ilu_precision single -adr_dt 3600
    expect_count: 1 BENCH name=adr_vs_petsc .* pc=ilu petsc_pc=ilu ilu_levels=1 ilu_axes=xyz ilu_precision=single lag=1 inner_per_newton=[0-9.]+ .* eas_reason=CONVERGED
    # the float factor: 19 offsets x 4 B + 64 B of double vectors = 140
    expect_count: 1 BENCH name=adr_ilu_apply n=8 ilu_levels=1 ilu_axes=xyz ilu_precision=single rows=1024 eas_offsets=19 eas_bytes_per_row=140 .* byte_ratio=[0-9.]+
TEST*/
