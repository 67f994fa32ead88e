static const char help[] = "Energy to solution, GPU against the CPU cores and against -eas_backend auto (docs/performance.md):\n"
                           "the ADR solver (diurnal problem, implicit Euler, default step) and the EBE CG (Q2 elasticity,\n"
                           "manufactured solution), each run on the device, on the CPU cores, and on the backend the\n"
                           "energy policies choose (-eas_backend auto), metered from SetUp to the end of the solve; the\n"
                           "time and energy of each run (labelled measured, modelled or mixed, as the meter says), the measured\n"
                           "winner for -eas_criterion, and whether auto chose it.  Medians of -runs.\n"
                           "  -adr_n <n>         ADR grid n^3 (default 96)\n"
                           "  -steps <s>         ADR time steps per run (default 3)\n"
                           "  -ebe_n <n>         EBE mesh n^3 Q2 elasticity elements (default 32)\n"
                           "  -rtol <r>          CG relative tolerance (default 1e-8)\n"
                           "  -runs <r>          runs per backend (median; default 3)\n"
                           "  -warmup <w>        uncounted runs per backend before them (default 1)\n"
                           "  -device <resource> the device measured and offered to auto (default /gpu/cuda; without it\n"
                           "                     the device runs are skipped and auto must choose the CPU)\n"
                           "  -threads <t>       OpenMP threads of the CPU runs (default: all, omp_get_max_threads)\n"
                           "  -problems <list>   adr,ebe (default both)\n"
                           "  -eas_criterion time|energy|edp|ed2p  what \"winner\" means (the policies read it too)\n";

/*
  Each run creates its solver, as a user's program does: the explicit runs
  give it a backend (EasAdrSetBackend / EasEbeSetBackend), the auto run
  sets -eas_backend auto for its SetUp, where the policies' resolver
  chooses (docs/energy-policies.md: the ADR from the calibrated per-row
  times, -eas_power_profile from eas_calibrate, and what its meter measures
  during the run; the EBE from the per-element times the operators before
  it in this process measured).  The run's figures are its meter's
  summary (EasEnergyMeterGetSummary) after EasEnergyMeterStop: the
  SetUp (uploads included), the solve; energy "measured" where the
  sensors (NVML, RAPL) cover the run, "modelled" without sensors (Vialle
  et al. eq. 1.16), "mixed" where they cover some kinds only: measured for
  those, the model for the others (modelled_part=cpu+dram without RAPL,
  gpu for a device run without NVML; docs/energy.md, "Mixed").  The
  winner is measured, not predicted: the least of T, E, E T or E T^2
  over the device and CPU runs; auto matches when it chose that backend,
  or when its own run is within 5 % of the winner's value (a hybrid split
  that does as well).
*/
#include <eas.h>
#include <eas/adr.h>
#include <eas/ebe.h>
#include <omp.h>
#include "bandwidth.h" /* EasBenchMedian */

/* Where a run's energy comes from (EasEnergySummary: measured, modelled_cpu, modelled_gpu). */
typedef struct {
  PetscBool measured, mcpu, mgpu;
} Source;

/* Of several runs: measured only if all were, a kind modelled if it was in any. */
static void SourceMerge(Source *a, const Source *b)
{
  a->measured = (PetscBool)(a->measured && b->measured);
  a->mcpu     = (PetscBool)(a->mcpu || b->mcpu);
  a->mgpu     = (PetscBool)(a->mgpu || b->mgpu);
}

/* The BENCH fields: energy=measured|modelled|mixed modelled_part=none|cpu+dram|gpu|cpu+dram+gpu|all */
static void SourceLabels(const Source *s, const char **energy, const char **part)
{
  const PetscBool mixed = (PetscBool)(s->measured && (s->mcpu || s->mgpu));
  *energy               = !s->measured ? "modelled" : (mixed ? "mixed" : "measured");
  *part                 = !s->measured ? "all" : (!mixed ? "none" : (s->mcpu ? (s->mgpu ? "cpu+dram+gpu" : "cpu+dram") : "gpu"));
}

typedef struct {
  double    T, E; /* medians over the runs */
  Source    src;  /* merged over the runs */
  PetscBool ran;
  char      chosen[64]; /* the backend (auto: what the policies chose, "hybrid" for the EBE split) */
  char      kind[8];    /* cpu, gpu (a device backend) or hybrid */
  PetscInt  threads;    /* the OpenMP threads of the (host part of the) backend */
  PetscInt  its;        /* ADR: outer iterations; EBE: CG iterations (last run) */
} Run;

/* The criterion's value of a run (Vialle et al. sec. 1.6: E, E T, E T^2). */
static double Criterion(EasCriterion c, double T, double E)
{
  switch (c) {
  case EAS_CRITERION_TIME:
    return T;
  case EAS_CRITERION_EDP:
    return E * T;
  case EAS_CRITERION_ED2P:
    return E * T * T;
  default:
    return E;
  }
}

/* -eas_backend auto for the objects set up until AutoOff (the resolver reads it at SetUp). */
static PetscErrorCode AutoOn(void)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-eas_backend", "auto"));
  PetscFunctionReturn(0);
}
static PetscErrorCode AutoOff(void)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsClearValue(NULL, "-eas_backend"));
  PetscFunctionReturn(0);
}

/* The run's meter figures: time and energy from SetUp to the end of the solve. */
static PetscErrorCode MeterFigures(EasEnergyMeter m, double *T, double *E, Source *src)
{
  EasEnergySummary S;

  PetscFunctionBegin;
  PetscCall(EasEnergyMeterStop(m));
  PetscCall(EasEnergyMeterGetSummary(m, &S));
  *T        = S.time;
  *E        = S.energy;
  src->measured = S.measured;
  src->mcpu     = S.modelled_cpu;
  src->mgpu     = S.modelled_gpu;
  PetscFunctionReturn(0);
}

/* What ran: the backend's resource, kind and threads. */
static PetscErrorCode Describe(EasBackend used, PetscBool hybrid, Run *r)
{
  const char *res;
  PetscBool   host;

  PetscFunctionBegin;
  PetscCall(EasBackendGetResource(used, &res));
  PetscCall(EasBackendIsHost(used, &host));
  PetscCall(EasBackendGetThreads(used, &r->threads));
  PetscCall(PetscStrncpy(r->chosen, hybrid ? "hybrid" : res, sizeof(r->chosen)));
  PetscCall(PetscStrncpy(r->kind, hybrid ? "hybrid" : (host ? "cpu" : "gpu"), sizeof(r->kind)));
  PetscFunctionReturn(0);
}

/* One ADR run on be (NULL: -eas_backend auto). */
static PetscErrorCode RunAdr(EasBackend be, PetscInt n, PetscInt steps, double *T, double *E, Source *src, Run *r)
{
  EasAdr                adr;
  EasBackend            used;
  EasEnergyMeter        m;
  EasAdrConvergedReason reason;
  EasAdrStats           st;

  PetscFunctionBegin;
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetGrid(adr, n, n, n));
  PetscCall(EasAdrSetMaxSteps(adr, steps));
  PetscCall(EasAdrSetFromOptions(adr));
  if (be) PetscCall(EasAdrSetBackend(adr, be));
  else PetscCall(AutoOn());
  PetscCall(EasAdrSetUp(adr));
  if (!be) PetscCall(AutoOff());
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetEnergyMeter(adr, &m));
  PetscCall(MeterFigures(m, T, E, src));
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "bench_energy: the ADR run did not converge (%s)", EasAdrConvergedReasonName(reason));
  PetscCall(EasAdrGetStats(adr, &st));
  r->its = st.outer_its;
  PetscCall(EasAdrGetBackend(adr, &used)); /* auto: where the run ended (the policy may move it) */
  PetscCall(Describe(used, PETSC_FALSE, r));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

/* One EBE CG run on be (NULL: -eas_backend auto). */
static PetscErrorCode RunEbe(EasBackend be, PetscInt n, PetscReal rtol, double *T, double *E, Source *src, Run *r)
{
  EasEbe             ebe;
  EasKsp             ksp;
  EasVec             b, x;
  EasBackend         used;
  EasEnergyMeter     m;
  EasEbeFieldFn      uex, fex;
  void              *mctx;
  KSPConvergedReason reason;
  PetscInt           nu;
  const PetscInt    *sh;

  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
  PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_DIRICHLET));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_ELASTICITY, 2, n, n, n));
  PetscCall(EasEbeGetEnergyMeter(ebe, &m)); /* created before SetUp, which starts it: the run is metered from there */
  PetscCall(EasEbeSetFromOptions(ebe));
  if (be) PetscCall(EasEbeSetBackend(ebe, be));
  else PetscCall(AutoOn());
  PetscCall(EasEbeSetUp(ebe)); /* starts the meter; auto: the policies choose here */
  if (!be) PetscCall(AutoOff());
  PetscCall(EasEbeCreateVecs(ebe, &x, &b));
  PetscCall(EasEbeGetManufacturedSolution(ebe, &uex, &fex, &mctx));
  PetscCall(EasEbeComputeRHS(ebe, fex, uex, mctx, b));
  PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 100000));
  PetscCall(EasKspSolve(ksp, b, x));
  PetscCall(MeterFigures(m, T, E, src));
  PetscCall(EasKspGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "bench_energy: the EBE CG did not converge (%s)", KSPConvergedReasons[reason]);
  PetscCall(EasKspGetIterationNumber(ksp, &r->its));
  PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, NULL, NULL));
  PetscCall(EasEbeGetBackend(ebe, &used));
  PetscCall(Describe(used, (PetscBool)(nu >= 2 && sh[0] > 0 && sh[1] > 0), r));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

/* runs of one problem on be (NULL: auto): medians of T and E */
static PetscErrorCode Measure(PetscInt problem, EasBackend be, PetscInt size, PetscInt steps, PetscReal rtol, PetscInt warmup, PetscInt runs, Run *r)
{
  double *Tv, *Ev;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(runs, &Tv, runs, &Ev));
  r->src.measured = PETSC_TRUE;
  r->src.mcpu = r->src.mgpu = PETSC_FALSE;
  for (PetscInt k = -warmup; k < runs; k++) { /* k < 0: warm-up runs (first touch, first kernels), not counted */
    Source    src  = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
    double    T = 0, E = 0;
    if (problem == 0) PetscCall(RunAdr(be, size, steps, &T, &E, &src, r));
    else PetscCall(RunEbe(be, size, rtol, &T, &E, &src, r));
    if (k < 0) continue;
    Tv[k]       = T;
    Ev[k]       = E;
    SourceMerge(&r->src, &src);
  }
  r->T   = EasBenchMedian(runs, Tv);
  r->E   = EasBenchMedian(runs, Ev);
  r->ran = PETSC_TRUE;
  PetscCall(PetscFree2(Tv, Ev));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char         device[64] = "/gpu/cuda", problems[64] = "adr,ebe";
  PetscInt     adr_n = 96, steps = 3, ebe_n = 32, runs = 3, warmup = 1, threads = omp_get_max_threads();
  PetscReal    rtol  = 1e-8;
  EasCriterion crit  = EAS_CRITERION_ENERGY;
  PetscBool    dev_ok, flg;
  const char  *why;
  EasBackend   gpu = NULL, cpu;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-eas_backend", &flg));
  PetscCheck(!flg, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "bench_energy chooses the backends itself: drop -eas_backend and use -device <resource> and -threads <t>");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "bench_energy", NULL);
  PetscCall(PetscOptionsInt("-adr_n", "ADR grid n^3", NULL, adr_n, &adr_n, NULL));
  PetscCall(PetscOptionsInt("-steps", "ADR time steps per run", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-ebe_n", "EBE mesh: n^3 Q2 elasticity elements", NULL, ebe_n, &ebe_n, NULL));
  PetscCall(PetscOptionsReal("-rtol", "CG relative tolerance", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsInt("-runs", "runs per backend (median)", NULL, runs, &runs, NULL));
  PetscCall(PetscOptionsInt("-warmup", "uncounted runs per backend before the measured ones", NULL, warmup, &warmup, NULL));
  PetscCall(PetscOptionsInt("-threads", "OpenMP threads of the CPU runs", NULL, threads, &threads, NULL));
  PetscCall(PetscOptionsString("-device", "The device measured and offered to auto", NULL, device, device, sizeof(device), NULL));
  PetscCall(PetscOptionsString("-problems", "adr,ebe", NULL, problems, problems, sizeof(problems), NULL));
  PetscCall(PetscOptionsEnum("-eas_criterion", "What the winner minimizes (the policies read it too)", NULL, EasCriterions, (PetscEnum)crit, (PetscEnum *)&crit, NULL));
  PetscOptionsEnd();
  PetscCheck(adr_n >= 2 && steps >= 1 && ebe_n >= 1 && runs >= 1 && warmup >= 0 && threads >= 1 && rtol > 0 && rtol < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "bench_energy: expected -adr_n >= 2, -steps, -ebe_n, -runs, -threads >= 1, -warmup >= 0 and 0 < -rtol < 1");

  PetscCall(EasBackendIsAvailable(device, &dev_ok, &why));
  if (dev_ok) {
    PetscCall(EasBackendCreate(PETSC_COMM_SELF, device, &gpu));
    PetscCall(EasBackendSetFromOptions(gpu));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-eas_policy_device", &flg));
    if (!flg) PetscCall(PetscOptionsSetValue(NULL, "-eas_policy_device", device)); /* auto's device candidate is the one measured */
  } else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_energy: %s is not usable here (%s): no device runs; auto must choose the CPU\n", device, why));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &cpu));
  PetscCall(EasBackendSetThreads(cpu, threads));

  for (PetscInt problem = 0; problem < 2; problem++) {
    const char *pname = problem == 0 ? "adr" : "ebe";
    Run         rg = {0}, rc = {0}, ra = {0};
    PetscInt    size = problem == 0 ? adr_n : ebe_n;
    double      vg, vc, va, vbest;
    const char *winner, *all_energy, *all_part;
    PetscBool   match;
    Source      all;

    {
      char *hit;
      PetscCall(PetscStrstr(problems, pname, &hit));
      if (!hit) continue;
    }
    /* the device and the CPU first: the EBE policy of the auto run starts from what they measured */
    if (gpu) PetscCall(Measure(problem, gpu, size, steps, rtol, warmup, runs, &rg));
    PetscCall(Measure(problem, cpu, size, steps, rtol, warmup, runs, &rc));
    PetscCall(Measure(problem, NULL, size, steps, rtol, warmup, runs, &ra));
    for (PetscInt k = 0; k < 3; k++) {
      const Run  *r    = k == 0 ? &rg : (k == 1 ? &rc : &ra);
      const char *unit = k == 0 ? "gpu" : (k == 1 ? "cpu" : "auto");
      const char *energy, *part;
      if (!r->ran) continue;
      SourceLabels(&r->src, &energy, &part);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=energy_to_solution problem=%s n=%" PetscInt_FMT " run=%s backend=%s kind=%s threads=%" PetscInt_FMT " its=%" PetscInt_FMT " time_s=%.4f energy_J=%.4g energy=%s modelled_part=%s power_W=%.4g\n", pname, size, unit, r->chosen, r->kind, r->threads, r->its, r->T, r->E, energy, part, r->T > 0 ? r->E / r->T : 0.0));
    }
    all = rc.src;
    SourceMerge(&all, &ra.src);
    if (rg.ran) SourceMerge(&all, &rg.src);
    SourceLabels(&all, &all_energy, &all_part);
    vc     = Criterion(crit, rc.T, rc.E);
    vg     = rg.ran ? Criterion(crit, rg.T, rg.E) : PETSC_MAX_REAL;
    va     = Criterion(crit, ra.T, ra.E);
    winner = vg < vc ? "gpu" : "cpu";
    vbest  = PetscMin(vg, vc);
    PetscCall(PetscStrcmp(winner, ra.kind, &match));
    match = (PetscBool)(match || va <= 1.05 * vbest);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH name=energy_auto problem=%s n=%" PetscInt_FMT " criterion=%s gpu_over_cpu=%.3f winner=%s auto_chose=%s auto_backend=%s auto_over_best=%.3f auto_matches=%s energy=%s modelled_part=%s\n", pname, size, EasCriterions[crit], rg.ran ? vg / vc : -1.0, winner, ra.kind, ra.chosen, va / vbest, match ? "yes" : "no", all_energy, all_part));
  }
  PetscCall(EasBackendDestroy(&cpu));
  PetscCall(EasBackendDestroy(&gpu));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: nodevice
    backends: none
    requires: !cuda-device
    args: -adr_n 8 -steps 1 -ebe_n 2 -runs 1 -threads 1
    expect: bench_energy: /gpu/cuda is not usable here
    expect: BENCH name=energy_to_solution problem=adr n=8 run=cpu backend=/cpu\S* kind=cpu threads=1 its=[1-9][0-9]* time_s=[0-9.]+ energy_J=[0-9.e+-]+ energy=(measured|modelled|mixed) modelled_part=(none|all|cpu\+dram|cpu\+dram\+gpu|gpu) 
    expect: BENCH name=energy_auto problem=adr n=8 criterion=energy gpu_over_cpu=-1.000 winner=cpu auto_chose=cpu .* auto_matches=yes
    expect: BENCH name=energy_auto problem=ebe n=2 criterion=energy gpu_over_cpu=-1.000 winner=cpu auto_chose=cpu .* auto_matches=yes
    expect_count: 4 BENCH name=energy_to_solution
  test:
    suffix: nvml_fake
    backends: none
    requires: !cuda-device
    args: -adr_n 8 -steps 1 -ebe_n 2 -runs 1 -warmup 0 -threads 1 -problems adr -eas_sensor nvml -eas_nvml_library @OBJDIR@/tests/libfake_nvml.so
    expect: BENCH name=energy_to_solution problem=adr n=8 run=cpu .* energy=mixed modelled_part=cpu\+dram power_W=
    expect: BENCH name=energy_auto problem=adr .* auto_matches=yes energy=mixed modelled_part=cpu\+dram$
  test:
    suffix: memcheck
    backends: none
    args: -device /cpu/memcheck -adr_n 8 -steps 1 -ebe_n 2 -runs 1 -threads 1 -eas_criterion time
    expect: BENCH name=energy_to_solution problem=adr n=8 run=gpu backend=/cpu/memcheck kind=gpu
    expect: BENCH name=energy_to_solution problem=ebe n=2 run=gpu backend=/cpu/memcheck kind=gpu
    expect: BENCH name=energy_auto problem=ebe n=2 criterion=time gpu_over_cpu=[0-9.]+ winner=(gpu|cpu) auto_chose=(cpu|gpu|hybrid) auto_backend=\S+ auto_over_best=[0-9.]+ auto_matches=(yes|no)
    expect_count: 6 BENCH name=energy_to_solution
  test:
    suffix: gpu
    backends: none
    requires: cuda-device
    args: -adr_n 32 -steps 1 -ebe_n 8 -runs 1
    expect: BENCH name=energy_auto problem=adr .* auto_matches=
    expect: BENCH name=energy_auto problem=ebe .* auto_matches=
TEST*/
