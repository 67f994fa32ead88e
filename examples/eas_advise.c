static const char help[] = "eas_advise: predicted time, energy and EDP of the configurations this machine offers, from a power profile\n"
                           "and short measured runs, with the min-T, min-E and min-EDP choices and the reason for each.\n"
                           "Measured: the driver's solver on 1 rank x 1 thread (the base: T_1(f0), Ge-Cameron eq. 18), and on all the\n"
                           "ranks of the run, sync and (ADR) async (the parallel overhead T_N(f0) - T_1(f0) W_N/W_1, eq. 17).  Predicted\n"
                           "for N ranks x h threads at frequency f: T = T_1(f0) (f0/f) (W_N/W_1)/h + o_N (eq. 18 with the counted work\n"
                           "W of the slowest rank: W_N/W_1 = 1/N unless N ranks were measured (the multisplitting Newton does more\n"
                           "outer iterations on more ranks); o_1 = the base's non-compute time, o_N = the overhead measured on all\n"
                           "ranks), E = T P_I + (N h/cores) P_C (T_comp (f/f_max)^3\n"
                           "+ o_N) (Vialle et al. eq. 1.16, dynamic power ~ f^3 as Fanfakh's model e-new), EDP = E T.\n"
                           "  -advise_driver adr|ebe   the solver (adr: -adr_* options, -advise_steps <2>; ebe: Q1 Poisson on\n"
                           "                           -advise_ebe_n <12>^3 elements, -advise_its <40> cg iterations)\n"
                           "  -advise_max_ranks <cores>, -advise_threads <1,2,...>   the configurations (ranks x threads <= cores)\n"
                           "  -eas_dvfs_freqs <kHz,...>  the frequencies (default: cpufreq's list; none: the current one only)\n"
                           "  -advise_check            also measure 1 rank x 2 threads (and 2 x 1 on 2 ranks) and print predicted\n"
                           "                           against measured with the errors (N ranks: the compute from the base's time\n"
                           "                           per counted unit of work x the N-rank run's counted work, not its time)\n";

#include <eas.h>
#include <unistd.h>

typedef struct {
  PetscReal T, Tcomp, Tcomm, E; /* the measured window total (s), its compute and exchange phases (s), energy (J) */
  PetscBool Emeasured;
  PetscInt  windows, ranks, threads;
  PetscReal W; /* the counted work of the slowest rank: ADR rows x (BiCGStab + Newton iterations), EBE elements x cg iterations */
} Meas;

static char      driver[8] = "adr";
static PetscInt  steps = 2, ebe_n = 12, its = 40, cores = 1;
static PetscBool isadr = PETSC_TRUE;

/* The driver's solver on comm with a /cpu backend of threads threads; the
   solve's figures from the meter (difference of the summaries around it). */
static PetscErrorCode Run(MPI_Comm comm, PetscInt threads, EasAdrMode mode, Meas *m)
{
  EasBackend       be;
  EasEnergyMeter   meter;
  EasEnergySummary S0, S1;
  PetscLogDouble   t0, t1;
  PetscReal        T;
  PetscMPIInt      size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &be));
  PetscCall(EasBackendSetFromOptions(be));
  PetscCall(EasBackendSetThreads(be, threads));
  if (isadr) {
    EasAdr                adr;
    EasAdrConvergedReason reason;
    PetscCall(EasAdrCreate(comm, &adr));
    PetscCall(EasAdrSetFromOptions(adr));
    PetscCall(EasAdrSetMaxSteps(adr, steps));
    PetscCall(EasAdrSetMode(adr, mode));
    PetscCall(EasAdrSetBackend(adr, be));
    PetscCall(EasAdrSetUp(adr));
    PetscCall(EasAdrGetEnergyMeter(adr, &meter));
    PetscCall(EasEnergyMeterGetSummary(meter, &S0));
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
    PetscCall(PetscTime(&t1));
    PetscCall(EasEnergyMeterGetSummary(meter, &S1));
    PetscCall(EasAdrGetConvergedReason(adr, &reason));
    PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "eas_advise: the measured ADR run did not converge (%s)", EasAdrConvergedReasonName(reason));
    {
      EasAdrStats st;
      PetscInt    xs, ys, zs, nxl, nyl, nzl;
      PetscCall(EasAdrGetStats(adr, &st));
      PetscCall(EasAdrGetLocalGrid(adr, &xs, &ys, &zs, &nxl, &nyl, &nzl));
      m->W = 2.0 * (PetscReal)nxl * nyl * nzl * (PetscReal)(st.inner_its + st.outer_its); /* 2 species per point */
    }
    PetscCall(EasAdrDestroy(&adr));
    m->windows = steps;
  } else {
    EasEbe ebe;
    EasKsp ksp;
    EasVec b, x;
    PetscCall(EasEbeCreate(comm, &ebe));
    PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, ebe_n, ebe_n, PetscMax(ebe_n, size)));
    PetscCall(EasEbeGetEnergyMeter(ebe, &meter));
    PetscCall(EasEbeSetFromOptions(ebe));
    PetscCall(EasEbeSetBackend(ebe, be));
    PetscCall(EasEbeSetUp(ebe));
    PetscCall(EasEbeCreateVecs(ebe, &b, &x));
    PetscCall(EasVecSet(b, 1.0));
    PetscCall(EasKspCreate(comm, &ksp));
    PetscCall(EasKspSetType(ksp, EAS_CG));
    PetscCall(EasKspSetOperatorEbe(ksp, ebe));
    PetscCall(EasKspSetTolerances(ksp, 1e-30, 1e-300, PETSC_DEFAULT, its)); /* exactly its iterations */
    PetscCall(EasKspSetUp(ksp));
    PetscCall(EasEnergyMeterGetSummary(meter, &S0));
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(EasKspSolve(ksp, b, x));
    PetscCall(PetscTime(&t1));
    PetscCall(EasEnergyMeterGetSummary(meter, &S1));
    {
      PetscInt nel, nen, dof, nnodes, nowned, kits;
      PetscCall(EasEbeGetSizes(ebe, &nel, &nen, &dof, &nnodes, &nowned));
      PetscCall(EasKspGetIterationNumber(ksp, &kits));
      m->W = (PetscReal)nel * (PetscReal)kits;
    }
    PetscCall(EasVecDestroy(&b));
    PetscCall(EasVecDestroy(&x));
    PetscCall(EasKspDestroy(&ksp));
    PetscCall(EasEbeDestroy(&ebe));
    m->windows = its;
  }
  PetscCall(EasBackendDestroy(&be));
  T = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &T, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &m->W, 1, MPIU_REAL, MPIU_MAX, comm));
  m->T         = T;
  m->Tcomp     = (S1.phase_time[EAS_PHASE_SETUP] - S0.phase_time[EAS_PHASE_SETUP]) + (S1.phase_time[EAS_PHASE_COMPUTE] - S0.phase_time[EAS_PHASE_COMPUTE]) + (S1.phase_time[EAS_PHASE_TRANSFER] - S0.phase_time[EAS_PHASE_TRANSFER]);
  m->Tcomm     = S1.phase_time[EAS_PHASE_EXCHANGE] - S0.phase_time[EAS_PHASE_EXCHANGE];
  m->E         = S1.energy - S0.energy;
  m->Emeasured = S1.measured;
  m->ranks     = size;
  m->threads   = threads;
  PetscFunctionReturn(0);
}

/* A run on rank 0 alone (a communicator of one process); the figures broadcast to every rank. */
static PetscErrorCode RunOnOne(PetscInt threads, Meas *m)
{
  MPI_Comm    one;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_split(PETSC_COMM_WORLD, rank ? MPI_UNDEFINED : 0, 0, &one));
  if (!rank) {
    PetscCall(Run(one, threads, EAS_ADR_SYNC, m));
    PetscCallMPI(MPI_Comm_free(&one));
  }
  { /* the other ranks wait asleep, not polling: a polling rank would take a core from the measured one */
    MPI_Request req;
    int         done = 0;
    PetscCallMPI(MPI_Ibarrier(PETSC_COMM_WORLD, &req));
    while (!done) {
      PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
      if (!done) (void)usleep(1000);
    }
  }
  PetscCallMPI(MPI_Bcast(m, (PetscMPIInt)sizeof(*m), MPI_BYTE, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  N, h;
  PetscReal f; /* kHz, 0: the current frequency */
  PetscBool async;
  PetscReal T, E, EDP;
  PetscBool lower; /* the overhead of N ranks was not measured (N > 1 on a 1-rank run): T and E are lower bounds */
} Config;

/* Ge-Cameron eq. 18 and Vialle et al. eq. 1.16 (see the help) for one configuration, over the base's windows. */
static void Predict(const Meas *base, const Meas *par, const EasPowerProfile *prof, PetscReal f0, PetscReal fmax, Config *c)
{
  const PetscReal w = (PetscReal)base->windows;
  const PetscReal p = (PetscReal)(c->N * c->h), p0 = (PetscReal)(base->ranks * base->threads);
  const PetscReal fr    = c->f > 0 ? f0 / c->f : 1.0;                                /* f0/f */
  const PetscReal fdyn  = c->f > 0 && fmax > 0 ? PetscPowReal(c->f / fmax, 3) : 1.0; /* dynamic power at f (Fanfakh: P_dyn ~ F^3) */
  /* the slowest rank's share of the base's work: eq. 18 assumes the same work, W_N = W_1/N; the
     multisplitting Newton on N ranks does more (more outer iterations), so where the N-rank run was
     measured, its counted work replaces W_1/N */
  const PetscReal wr    = par && par->ranks == c->N && base->W > 0 ? par->W / base->W : 1.0 / (PetscReal)c->N;
  const PetscReal Tcomp = base->Tcomp / w * p0 * wr / (PetscReal)c->h * fr; /* T_1(f) W_N/W_1 of eq. 18, per window */
  PetscReal       o;

  c->lower = PETSC_FALSE;
  if (c->N == 1)
    o = (base->T - base->Tcomp - base->Tcomm) / w; /* one rank: no exchange */
  else if (par)
    o = (par->T - base->Tcomp * p0 * (base->W > 0 ? par->W / base->W : 1.0 / (PetscReal)(par->ranks * par->threads))) / (PetscReal)par->windows; /* eq. 17 at N = the run's ranks, on the counted work */
  else {
    o        = (base->T - base->Tcomp - base->Tcomm) / w;
    c->lower = PETSC_TRUE;
  }
  c->T   = w * (Tcomp + o);
  c->E   = c->T * (prof->cpu_idle + prof->gpu_idle + prof->dram) + p / (PetscReal)cores * (prof->cpu_full - prof->cpu_idle) * w * (Tcomp * fdyn + PetscMax(o, 0.0));
  c->EDP = c->E * c->T;
}

static PetscErrorCode PrintConfig(const char what[], const Config *c, const char tail[])
{
  char f[32];

  PetscFunctionBegin;
  if (c->f > 0)
    PetscCall(PetscSNPrintf(f, sizeof(f), "%.0f kHz", (double)c->f));
  else
    PetscCall(PetscStrncpy(f, "current", sizeof(f)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s /cpu %3" PetscInt_FMT " x %-3" PetscInt_FMT " %-12s %-5s %12.4e %12.4e %12.4e%s%s\n", what, c->N, c->h, f, c->async ? "async" : "sync", (double)c->T, (double)c->E, (double)c->EDP, c->lower ? "  (lower bound: overhead of N ranks not measured)" : "", tail));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt     size;
  PetscInt        maxr, th[16], nth = 16, nf = 32, node, nnodes;
  PetscReal       freqs[32], f0 = 0, fmax = 0;
  PetscBool       check = PETSC_FALSE, flg, gpu;
  Meas            base, par[2], *pars = NULL, *para = NULL;
  EasPowerProfile prof;
  Config         *cf;
  PetscInt        ncf = 0, best[3] = {-1, -1, -1};
  const char     *why;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  cores = (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  maxr  = cores;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "eas_advise: configuration advisor (Ge-Cameron eq. 18, Vialle et al. eq. 1.16)", NULL);
  PetscCall(PetscOptionsString("-advise_driver", "The solver: adr or ebe", NULL, driver, driver, sizeof(driver), NULL));
  PetscCall(PetscOptionsInt("-advise_steps", "ADR: time steps of each measured run", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-advise_ebe_n", "EBE: elements per direction", NULL, ebe_n, &ebe_n, NULL));
  PetscCall(PetscOptionsInt("-advise_its", "EBE: cg iterations of each measured run", NULL, its, &its, NULL));
  PetscCall(PetscOptionsInt("-advise_max_ranks", "Largest rank count predicted", NULL, maxr, &maxr, NULL));
  for (PetscInt k = 0; k < 16 && k < cores; k++) th[k] = k + 1;
  nth = PetscMin(16, cores);
  {
    PetscInt nset = 16;
    PetscCall(PetscOptionsIntArray("-advise_threads", "Thread counts predicted", NULL, th, &nset, &flg));
    if (flg) nth = nset;
  }
  PetscCall(PetscOptionsRealArray("-eas_dvfs_freqs", "Frequencies predicted (kHz)", NULL, freqs, &nf, &flg));
  if (!flg) nf = 0;
  PetscCall(PetscOptionsBool("-advise_check", "Measure 1 x 2 (and 2 x 1) too and print predicted against measured", NULL, check, &check, NULL));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(driver, "adr", &isadr));
  PetscCheck(isadr || !strcmp(driver, "ebe"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-advise_driver %s is invalid: expected adr or ebe", driver);
  PetscCheck(steps >= 1 && its >= 1 && ebe_n >= 1 && maxr >= 1 && nth >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_steps, -advise_its, -advise_ebe_n, -advise_max_ranks and -advise_threads need values >= 1");
  for (PetscInt k = 0; k < nth; k++) PetscCheck(th[k] >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_threads: entry %" PetscInt_FMT " = %" PetscInt_FMT " is invalid: expected thread counts >= 1", k, th[k]);
  for (PetscInt k = 0; k < nf; k++) {
    PetscCheck(freqs[k] > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-eas_dvfs_freqs: entry %" PetscInt_FMT " = %g is invalid: expected kHz > 0", k, (double)freqs[k]);
    fmax = PetscMax(fmax, freqs[k]);
  }
  f0 = fmax; /* the measured runs ran unrestricted: at the highest frequency */
  PetscCall(EasGetNodeIndex(PETSC_COMM_WORLD, &node, &nnodes));
  PetscCall(EasPowerProfileGetFromOptions(PETSC_COMM_WORLD, NULL, node, nnodes, &prof, NULL));
  PetscCall(EasBackendIsAvailable("/gpu/cuda", &gpu, &why));

  /* the measured runs */
  PetscCall(RunOnOne(1, &base));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: %s, measured on 1 rank x 1 thread: %" PetscInt_FMT " %s in %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", driver, base.windows, isadr ? "steps" : "cg iterations", (double)base.T, (double)base.Tcomp, (double)base.Tcomm, (double)base.E, base.Emeasured ? "measured" : "modelled"));
  if (size > 1) {
    PetscCall(Run(PETSC_COMM_WORLD, 1, EAS_ADR_SYNC, &par[0]));
    pars = &par[0];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: measured on %d ranks x 1 thread (sync): %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", size, (double)par[0].T, (double)par[0].Tcomp, (double)par[0].Tcomm, (double)par[0].E, par[0].Emeasured ? "measured" : "modelled"));
    if (isadr) {
      PetscCall(Run(PETSC_COMM_WORLD, 1, EAS_ADR_ASYNC, &par[1]));
      para = &par[1];
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: measured on %d ranks x 1 thread (async): %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", size, (double)par[1].T, (double)par[1].Tcomp, (double)par[1].Tcomm, (double)par[1].E, par[1].Emeasured ? "measured" : "modelled"));
    }
  }

  /* the table */
  PetscCall(PetscMalloc1(maxr * nth * PetscMax(nf, 1) * 2, &cf));
  for (PetscInt N = 1; N <= maxr; N++)
    for (PetscInt k = 0; k < nth; k++)
      for (PetscInt j = 0; j < PetscMax(nf, 1); j++)
        for (PetscInt a = 0; a < 2; a++) {
          Config *c = &cf[ncf];
          if (N * th[k] > cores) continue;       /* oversubscribed: not a configuration of this node */
          if (a && (!isadr || N == 1)) continue; /* async: the ADR solver on more than one rank */
          c->N     = N;
          c->h     = th[k];
          c->f     = nf ? freqs[j] : 0;
          c->async = (PetscBool)a;
          Predict(&base, a ? para : pars, &prof, f0, fmax, c);
          if (a && !para) c->lower = PETSC_TRUE;
          ncf++;
        }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\neas_advise: predicted for the same work (%" PetscInt_FMT " %s), all modelled from the measured runs; %" PetscInt_FMT " cores on this node\n", base.windows, isadr ? "steps" : "cg iterations", cores));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %-4s %-9s %-12s %-5s %12s %12s %12s\n", "", "be", "ranks x th", "frequency", "mode", "T [s]", "E [J]", "EDP [J s]"));
  for (PetscInt i = 0; i < ncf; i++) {
    PetscCall(PrintConfig("", &cf[i], ""));
    if (cf[i].lower) continue; /* a lower bound is not a prediction to choose on */
    if (best[0] < 0 || cf[i].T < cf[best[0]].T) best[0] = i;
    if (best[1] < 0 || cf[i].E < cf[best[1]].E) best[1] = i;
    if (best[2] < 0 || cf[i].EDP < cf[best[2]].EDP) best[2] = i;
  }
  if (!gpu) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "/gpu/cuda excluded: %s\n", why ? why : "not usable"));
  {
    const char *names[3] = {"min-T", "min-E", "min-EDP"};
    for (PetscInt b = 0; b < 3; b++) {
      char      reason[256];
      PetscReal second = PETSC_MAX_REAL;
      if (best[b] < 0) continue;
      for (PetscInt i = 0; i < ncf; i++) {
        const PetscReal v = b == 0 ? cf[i].T : b == 1 ? cf[i].E
                                                      : cf[i].EDP;
        if (i != best[b] && !cf[i].lower) second = PetscMin(second, v);
      }
      {
        const Config *c = &cf[best[b]];
        if (b == 0)
          PetscCall(PetscSNPrintf(reason, sizeof(reason), "  <- the most cores it can use for the compute (eq. 18: T_1/(N h)) against the measured overhead %.3g s; next best %.4g s", (double)(c->T - base.Tcomp * (PetscReal)(base.ranks * base.threads) / (PetscReal)(c->N * c->h) * (c->f > 0 ? f0 / c->f : 1.0)), (double)second));
        else if (b == 1)
          PetscCall(PetscSNPrintf(reason, sizeof(reason), "  <- the idle power P_I = %.4g W over T dominates the dynamic part: the shortest time at the least dynamic energy; next best %.4g J", (double)(prof.cpu_idle + prof.gpu_idle + prof.dram), (double)second));
        else
          PetscCall(PetscSNPrintf(reason, sizeof(reason), "  <- E T balances both; next best %.4g J s", (double)second));
        PetscCall(PrintConfig(names[b], c, reason));
      }
    }
  }

  if (check) { /* predicted against measured */
    Meas     m[2];
    PetscInt nm = 0;
    if (cores >= 2) PetscCall(RunOnOne(2, &m[nm++]));
    if (size > 1) m[nm++] = par[0];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\neas_advise: predicted against measured (the base is 1 rank x 1 thread; energy %s)\n", base.Emeasured ? "measured" : "modelled from the measured busy times"));
    for (PetscInt i = 0; i < nm; i++) {
      Config c = {m[i].ranks, m[i].threads, 0, PETSC_FALSE, 0, 0, 0, PETSC_FALSE};
      if (m[i].ranks == 1) Predict(&base, NULL, &prof, f0, fmax, &c); /* from the base alone */
      else {
        /* not from the N-rank run's time (eq. 17 would return it): from the base's time per unit of
           work x the N-rank run's counted work, plus its measured exchange and the base's other time */
        Meas q = m[i];
        q.T    = base.Tcomp * (m[i].W / base.W) + m[i].Tcomm + (base.T - base.Tcomp - base.Tcomm) / (PetscReal)base.windows * (PetscReal)m[i].windows;
        Predict(&base, &q, &prof, f0, fmax, &c);
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "check %" PetscInt_FMT " x %" PetscInt_FMT ": T predicted %.4g s, measured %.4g s (error %+.1f%%); E predicted %.4g J, measured %.4g J (error %+.1f%%)%s\n", c.N, c.h, (double)c.T, (double)m[i].T, (double)(100 * (c.T / m[i].T - 1)), (double)c.E, (double)m[i].E, (double)(100 * (c.E / m[i].E - 1)), m[i].ranks > 1 ? " (compute from the base x the counted work ratio, exchange as measured)" : ""));
      if (m[i].ranks > 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "check %" PetscInt_FMT " x %" PetscInt_FMT ": counted work of the slowest rank / the base's = %.3f (eq. 18's same-work assumption: %.3f)\n", c.N, c.h, (double)(m[i].W / base.W), (double)(1.0 / (PetscReal)m[i].ranks)));
    }
  }
  PetscCall(PetscFree(cf));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: adr
    nsize: 2
    backends: none
    args: -advise_driver adr -adr_n 8 -advise_steps 2 -advise_max_ranks 2 -advise_threads 1,2 -eas_dvfs_freqs 2000000,1000000 -eas_sensor model -advise_check
    expect: ^eas_advise: adr, measured on 1 rank x 1 thread: 2 steps in
    expect: ^eas_advise: measured on 2 ranks x 1 thread \(async\)
    expect: ^ +/cpu +2 x 1 +2000000 kHz +async
    expect: ^min-T +/cpu
    expect: ^min-E +/cpu
    expect: ^min-EDP +/cpu
    expect: ^check 2 x 1: T predicted [0-9.e+-]+ s, measured [0-9.e+-]+ s \(error [-+][0-9.]+%\)
    expect: ^check 2 x 1: counted work of the slowest rank / the base's = [0-9.]+ \(eq. 18's same-work assumption: 0.500\)
  test:
    # the EBE work ratio by hand: 6 x 6 x 6 elements, 3 planes of 36 per rank, the same 10 iterations: 108/216 = 0.5
    suffix: ebe2
    nsize: 2
    backends: none
    args: -advise_driver ebe -advise_ebe_n 6 -advise_its 10 -advise_max_ranks 2 -advise_threads 1 -eas_sensor model -advise_check
    expect: ^check 2 x 1: counted work of the slowest rank / the base's = 0.500 \(eq. 18's same-work assumption: 0.500\)
  test:
    suffix: ebe
    backends: none
    args: -advise_driver ebe -advise_ebe_n 6 -advise_its 10 -advise_threads 1,2 -eas_sensor model -advise_check
    expect: ^eas_advise: ebe, measured on 1 rank x 1 thread: 10 cg iterations in
    expect: ^min-EDP +/cpu +1 x
  test:
    suffix: bad_driver
    backends: none
    args: -advise_driver foo
    expect_error: -advise_driver foo is invalid: expected adr or ebe
TEST*/
