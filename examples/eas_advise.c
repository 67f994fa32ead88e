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
                           "                           per counted unit of work x the N-rank run's counted work, not its time)\n"
                           "Scaling past this machine (ADR): strong (a -advise_scale_n^3 grid) and weak (-advise_scale_box^3 points\n"
                           "per rank) tables for the ranks -advise_scale_ranks <64,256,1024,4096>, sync and async, per time step:\n"
                           "  T_sync  = o(P) (t_row 2 n_loc (1 + i) + 6 alpha + 6 (2 s^2 8 B)/beta + 2 ceil(log2 P) alpha)\n"
                           "  T_async = r_a o(P) t_row 2 n_loc (1 + i) + 4 ceil(log2 P) alpha   (halos overlapped, 2 detection waves)\n"
                           "  E       = T (ceil(P/rpn) P_I + P (P_cpu_full - P_cpu_idle)/rpn)  (Vialle et al. eq. 1.16, ranks busy)\n"
                           "with n_loc = points per rank, s = n_loc^(1/3) (a cubic box), o(P) = o_1 P^g outer iterations per step\n"
                           "(o_1, i = inner per outer and t_row = seconds per row-iteration measured on 1 rank; g from the N-rank\n"
                           "run, o_N = o_1 N^g; r_a = async/sync outer iterations on N ranks), alpha, beta the interconnect's\n"
                           "latency and bandwidth (-advise_net_latency <1.5e-6 s>, -advise_net_bandwidth <1.25e10 B/s>), rpn the\n"
                           "ranks per node (-advise_ranks_per_node <cores>).  -advise_scale_{t_row,outer,inner}, -advise_outer_growth\n"
                           "and -advise_async_outer_ratio replace a measured input (what-if, or another machine's figures).\n";

#include <eas.h>
#include <unistd.h>

typedef struct {
  PetscReal T, Tcomp, Tcomm, E; /* the measured window total (s), its compute and exchange phases (s), energy (J) */
  char      Esource[24]; /* EasEnergySummaryGetSource: measured, modelled or measured+modelled (a copy: RunOnOne broadcasts the bytes) */
  PetscInt  windows, ranks, threads;
  PetscReal W;            /* the counted work of the slowest rank: ADR rows x (BiCGStab + Newton iterations), EBE elements x cg iterations */
  PetscReal outer, inner; /* ADR: Newton and BiCGStab iterations of the slowest rank (max over ranks) */
  PetscInt  decomp[3];    /* ADR: the ranks per direction of the run */
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
      PetscCall(EasAdrGetDecomposition(adr, m->decomp, NULL));
      m->W     = 2.0 * (PetscReal)nxl * nyl * nzl * (PetscReal)(st.inner_its + st.outer_its); /* 2 species per point */
      m->outer = (PetscReal)st.outer_its_max;
      m->inner = (PetscReal)st.inner_its;
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
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &m->inner, 1, MPIU_REAL, MPIU_MAX, comm));
  m->T         = T;
  m->Tcomp     = (S1.phase_time[EAS_PHASE_SETUP] - S0.phase_time[EAS_PHASE_SETUP]) + (S1.phase_time[EAS_PHASE_COMPUTE] - S0.phase_time[EAS_PHASE_COMPUTE]) + (S1.phase_time[EAS_PHASE_TRANSFER] - S0.phase_time[EAS_PHASE_TRANSFER]);
  m->Tcomm     = S1.phase_time[EAS_PHASE_EXCHANGE] - S0.phase_time[EAS_PHASE_EXCHANGE];
  m->E         = S1.energy - S0.energy;
  {
    const char *src;
    PetscCall(EasEnergySummaryGetSource(&S1, &src));
    PetscCall(PetscStrncpy(m->Esource, src, sizeof(m->Esource)));
  }
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
  const PetscReal fr   = c->f > 0 ? f0 / c->f : 1.0;                                /* f0/f */
  const PetscReal fdyn = c->f > 0 && fmax > 0 ? PetscPowReal(c->f / fmax, 3) : 1.0; /* dynamic power at f (Fanfakh: P_dyn ~ F^3) */
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

/* The scaling model's inputs (see the help): measured, or given by options. */
typedef struct {
  PetscReal t_row, outer1, inner, g, ra; /* s per row-iteration; outer its per step on 1 rank; inner per outer; growth; async/sync outer */
  PetscReal alpha, beta;                 /* interconnect: latency (s), bandwidth (B/s) */
  PetscInt  rpn;                         /* ranks per node */
  PetscReal PI, PC;                      /* idle power per node, dynamic power per busy core (W) */
} Scale;

/* ceil(log2 P): the rounds of a tree reduction over P ranks */
static PetscReal Log2Ceil(PetscInt P)
{
  PetscReal r = 0;
  for (PetscInt q = 1; q < P; q *= 2) r += 1;
  return r;
}

/* One time step on P ranks of n_loc points each (a cubic box): T and E, sync and async (the help's formulas). */
static void ScaleStep(const Scale *sc, PetscInt P, PetscReal n_loc, PetscReal T[2], PetscReal E[2], PetscReal *o)
{
  const PetscReal s     = PetscCbrtReal(n_loc);                        /* box side */
  const PetscReal comp  = sc->t_row * 2.0 * n_loc * (1.0 + sc->inner); /* one outer iteration: 2 species x (inner + 1) sweeps */
  const PetscReal halo  = P > 1 ? 6.0 * sc->alpha + 6.0 * 2.0 * s * s * 8.0 / sc->beta : 0.0;
  const PetscReal lg    = Log2Ceil(P);
  const PetscReal nodes = PetscCeilReal((PetscReal)P / (PetscReal)sc->rpn);

  *o   = sc->outer1 * PetscPowReal((PetscReal)P, sc->g);
  T[0] = *o * (comp + halo + 2.0 * lg * sc->alpha);
  T[1] = P > 1 ? sc->ra * *o * comp + 4.0 * lg * sc->alpha : T[0];
  for (PetscInt a = 0; a < 2; a++) E[a] = T[a] * (nodes * sc->PI + (PetscReal)P * sc->PC);
}

static PetscErrorCode ScaleTables(const Scale *sc, const PetscInt ranks[], PetscInt nr, PetscInt scale_n, PetscInt box)
{
  PetscReal T0[2] = {0, 0};
  PetscInt  P0    = 0;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nstrong scaling: a %" PetscInt_FMT "^3 grid (-advise_scale_n), per time step; speedup and efficiency against the first row\n", scale_n));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%7s %12s %8s %12s %12s %8s %8s %8s %12s %12s\n", "ranks", "points/rank", "outer", "T sync [s]", "T async [s]", "S sync", "eff", "S async", "E sync [J]", "E async [J]"));
  for (PetscInt k = 0; k < nr; k++) {
    const PetscReal n_loc = (PetscReal)scale_n * scale_n * scale_n / (PetscReal)ranks[k];
    PetscReal       T[2], E[2], o;
    if (PetscCbrtReal(n_loc) < 2.0) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%7" PetscInt_FMT " %12.4g   fewer than 2 planes per rank: not a decomposition eas runs\n", ranks[k], (double)n_loc));
      continue;
    }
    ScaleStep(sc, ranks[k], n_loc, T, E, &o);
    if (!P0) {
      P0    = ranks[k];
      T0[0] = T[0];
      T0[1] = T[1];
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%7" PetscInt_FMT " %12.4g %8.1f %12.4e %12.4e %8.2f %8.3f %8.2f %12.4e %12.4e\n", ranks[k], (double)n_loc, (double)o, (double)T[0], (double)T[1], (double)(T0[0] / T[0]), (double)(T0[0] / T[0] * P0 / ranks[k]), (double)(T0[0] / T[1]), (double)E[0], (double)E[1]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "weak scaling: %" PetscInt_FMT "^3 points per rank (-advise_scale_box), per time step; efficiency T(first)/T(P)\n", box));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%7s %12s %8s %12s %12s %8s %8s %12s %12s\n", "ranks", "grid", "outer", "T sync [s]", "T async [s]", "eff sync", "eff asyn", "E sync [J]", "E async [J]"));
  P0 = 0;
  for (PetscInt k = 0; k < nr; k++) {
    const PetscReal n_loc = (PetscReal)box * box * box;
    PetscReal       T[2], E[2], o;
    ScaleStep(sc, ranks[k], n_loc, T, E, &o);
    if (!P0) {
      P0    = ranks[k];
      T0[0] = T[0];
      T0[1] = T[1];
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%7" PetscInt_FMT " %11.4g^3 %8.1f %12.4e %12.4e %8.3f %8.3f %12.4e %12.4e\n", ranks[k], (double)(box * PetscCbrtReal((PetscReal)ranks[k])), (double)o, (double)T[0], (double)T[1], (double)(T0[0] / T[0]), (double)(T0[1] / T[1]), (double)E[0], (double)E[1]));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscMPIInt     size;
  PetscInt        maxr, th[16], nth = 16, nf = 32, node, nnodes;
  PetscReal       freqs[32], f0 = 0, fmax = 0;
  PetscBool       check = PETSC_FALSE, flg, gpu, ovs[5] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  PetscInt        sranks[16] = {64, 256, 1024, 4096}, nsr = 16, scale_n = 512, scale_box = 32;
  PetscReal       ov[5] = {0, 0, 0, 0, 0};
  Scale           sc    = {0, 0, 0, 0, 1, 1.5e-6, 1.25e10, 0, 0, 0};
  Meas            base, par[2], *pars = NULL, *para = NULL;
  EasPowerProfile prof;
  Config         *cf;
  PetscInt        ncf = 0, best[3] = {-1, -1, -1};
  const char     *why;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  cores  = (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  maxr   = cores;
  sc.rpn = cores;
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
  PetscCall(PetscOptionsIntArray("-advise_scale_ranks", "ADR: rank counts of the scaling tables", NULL, sranks, &nsr, &flg));
  if (!flg) nsr = 4;
  PetscCall(PetscOptionsInt("-advise_scale_n", "ADR: points per direction of the strong-scaling grid", NULL, scale_n, &scale_n, NULL));
  PetscCall(PetscOptionsInt("-advise_scale_box", "ADR: points per direction and rank of the weak-scaling boxes", NULL, scale_box, &scale_box, NULL));
  PetscCall(PetscOptionsReal("-advise_net_latency", "Interconnect latency (s)", NULL, sc.alpha, &sc.alpha, NULL));
  PetscCall(PetscOptionsReal("-advise_net_bandwidth", "Interconnect bandwidth per rank (B/s)", NULL, sc.beta, &sc.beta, NULL));
  PetscCall(PetscOptionsInt("-advise_ranks_per_node", "Ranks per node of the predicted machine (default: this node's cores)", NULL, sc.rpn, &sc.rpn, NULL));
  PetscCall(PetscOptionsReal("-advise_scale_t_row", "Seconds per row-iteration (default: measured on 1 rank)", NULL, ov[0], &ov[0], &ovs[0]));
  PetscCall(PetscOptionsReal("-advise_scale_outer", "Outer iterations per step on 1 rank (default: measured)", NULL, ov[1], &ov[1], &ovs[1]));
  PetscCall(PetscOptionsReal("-advise_scale_inner", "Inner iterations per outer iteration (default: measured)", NULL, ov[2], &ov[2], &ovs[2]));
  PetscCall(PetscOptionsReal("-advise_outer_growth", "g in o(P) = o_1 P^g (default: from the N-rank run)", NULL, ov[3], &ov[3], &ovs[3]));
  PetscCall(PetscOptionsReal("-advise_async_outer_ratio", "Async/sync outer iterations (default: measured on N ranks)", NULL, ov[4], &ov[4], &ovs[4]));
  PetscOptionsEnd();
  for (PetscInt k = 0; k < nsr; k++) PetscCheck(sranks[k] >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_scale_ranks: entry %" PetscInt_FMT " = %" PetscInt_FMT " is invalid: expected rank counts >= 1", k, sranks[k]);
  PetscCheck(scale_n >= 2 && scale_box >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_scale_n %" PetscInt_FMT " and -advise_scale_box %" PetscInt_FMT ": expected points per direction >= 2", scale_n, scale_box);
  PetscCheck(sc.alpha >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_net_latency %g is invalid: expected a latency >= 0 s", (double)sc.alpha);
  PetscCheck(sc.beta > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_net_bandwidth %g is invalid: expected a bandwidth > 0 B/s", (double)sc.beta);
  PetscCheck(sc.rpn >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_ranks_per_node %" PetscInt_FMT " is invalid: expected at least 1", sc.rpn);
  PetscCheck((!ovs[0] || ov[0] > 0) && (!ovs[1] || ov[1] > 0) && (!ovs[2] || ov[2] >= 0) && (!ovs[4] || ov[4] > 0), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advise_scale_t_row and -advise_scale_outer expect values > 0, -advise_scale_inner >= 0, -advise_async_outer_ratio > 0");
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: %s, measured on 1 rank x 1 thread: %" PetscInt_FMT " %s in %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", driver, base.windows, isadr ? "steps" : "cg iterations", (double)base.T, (double)base.Tcomp, (double)base.Tcomm, (double)base.E, base.Esource));
  if (size > 1) {
    PetscCall(Run(PETSC_COMM_WORLD, 1, EAS_ADR_SYNC, &par[0]));
    pars = &par[0];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: measured on %d ranks x 1 thread (sync): %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", size, (double)par[0].T, (double)par[0].Tcomp, (double)par[0].Tcomm, (double)par[0].E, par[0].Esource));
    if (isadr) {
      PetscCall(Run(PETSC_COMM_WORLD, 1, EAS_ADR_ASYNC, &par[1]));
      para = &par[1];
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "eas_advise: measured on %d ranks x 1 thread (async): %.4g s (compute %.4g s, exchange %.4g s), %.4g J (%s)\n", size, (double)par[1].T, (double)par[1].Tcomp, (double)par[1].Tcomm, (double)par[1].E, par[1].Esource));
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

  if (isadr) { /* scaling past this machine: the model's inputs, then the tables */
    const char *src[5];
    char        gsrc[160] = "";
    sc.t_row  = ovs[0] ? ov[0] : base.Tcomp / base.W;
    sc.outer1 = ovs[1] ? ov[1] : base.outer / (PetscReal)base.windows;
    sc.inner  = ovs[2] ? ov[2] : (base.outer > 0 ? base.inner / base.outer : 0);
    sc.g      = ovs[3] ? ov[3] : (pars && pars->outer > 0 && base.outer > 0 ? PetscLogReal(pars->outer / base.outer) / PetscLogReal((PetscReal)pars->ranks) : 0);
    sc.ra     = ovs[4] ? ov[4] : (para && pars && pars->outer > 0 ? para->outer / pars->outer : 1);
    sc.PI     = prof.cpu_idle + prof.gpu_idle + prof.dram;
    sc.PC     = (prof.cpu_full - prof.cpu_idle) / (PetscReal)sc.rpn; /* the profile's node, one core per rank */
    src[0]    = ovs[0] ? "given" : "measured, 1 rank";
    src[1]    = ovs[1] ? "given" : "measured, 1 rank";
    src[2]    = ovs[2] ? "given" : "measured, 1 rank";
    if (pars) PetscCall(PetscSNPrintf(gsrc, sizeof(gsrc), "from the outer iterations on 1 and N ranks, cut %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, pars->decomp[0], pars->decomp[1], pars->decomp[2]));
    src[3]    = ovs[3] ? "given" : (pars ? gsrc : "not measured (one rank): 0, the tables are lower bounds");
    src[4]    = ovs[4] ? "given" : (para ? "measured on N ranks" : "not measured (one rank): 1");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\neas_advise: predicted scaling past this machine (model in -help; the per-rank work of eq. 18, outer iterations o_1 P^g, a latency-bandwidth interconnect)\n"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "inputs: t_row %.4e s per row-iteration (%s), o_1 %.3f outer iterations per step (%s), i %.3f inner per outer (%s), g %.4f (%s), r_a %.4f (%s)\n", (double)sc.t_row, src[0], (double)sc.outer1, src[1], (double)sc.inner, src[2], (double)sc.g, src[3], (double)sc.ra, src[4]));
    if (!ovs[3] && pars) { /* g from one kind of cut: a larger run cuts more axes, and each costs its own growth */
      PetscInt ncut = 0, dcut = 0;
      for (PetscInt d = 0; d < 3; d++)
        if (pars->decomp[d] > 1) {
          ncut++;
          dcut = d;
        }
      if (ncut == 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "note: g was measured with cuts along %c only; a larger run also cuts other axes, whose growth can be larger (the diurnal problem, 16 ranks at 32^3 with the overlap: y slabs 0, z slabs 0.18, x slabs 0.43, docs/energy-policies.md): give it with -advise_outer_growth for a bound\n", (char)('x' + dcut)));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interconnect: alpha %.3g s, beta %.4g B/s; %" PetscInt_FMT " ranks per node; P_I %.4g W per node, P_C %.4g W per busy core (the power profile: energy modelled)\n", (double)sc.alpha, (double)sc.beta, sc.rpn, (double)sc.PI, (double)sc.PC));
    PetscCall(ScaleTables(&sc, sranks, nsr, scale_n, scale_box));
  }

  if (check) { /* predicted against measured */
    Meas     m[2];
    PetscInt nm = 0;
    if (cores >= 2) PetscCall(RunOnOne(2, &m[nm++]));
    if (size > 1) m[nm++] = par[0];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\neas_advise: predicted against measured (the base is 1 rank x 1 thread; energy %s)\n", strcmp(base.Esource, "modelled") ? base.Esource : "modelled from the measured busy times"));
    for (PetscInt i = 0; i < nm; i++) {
      Config c = {m[i].ranks, m[i].threads, 0, PETSC_FALSE, 0, 0, 0, PETSC_FALSE};
      if (m[i].ranks == 1)
        Predict(&base, NULL, &prof, f0, fmax, &c); /* from the base alone */
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
    # the scaling model by hand (numbers derived from the help's formulas, not measured): t_row 1e-8 s,
    # o_1 4, i 9, g 0.5, r_a 1.5, alpha 1e-6 s, beta 1e10 B/s, 16 ranks per node, P_I 40 + 10 = 50 W,
    # P_C (200 - 40)/16 = 10 W.  Strong, 256^3 on 64 ranks: n_loc 262144, s 64, o 4 sqrt(64) = 32,
    # one outer iteration 1e-8 x 2 x 262144 x 10 = 0.0524288 s, halo 6e-6 + 6 x 2 x 64^2 x 8 / 1e10 =
    # 4.53216e-5 s, detection 2 x 6 x 1e-6: T_sync 32 x 0.0524861216 = 1.67956 s, T_async 1.5 x 32 x
    # 0.0524288 + 4 x 6e-6 = 2.51661 s, E = T (4 x 50 + 64 x 10): 1410.83 and 2113.95 J.  On 4096
    # ranks: n_loc 4096, o 256: T_sync 0.218024, T_async 0.314621 s, speedup 7.70, efficiency
    # 7.70 x 64/4096 = 0.120.  Weak, 32^3 per rank: 64 ranks 0.210606 / 0.314597 s, 4096 ranks
    # 1.68792 / 2.51663 s (efficiency 0.125 both), E 4096 ranks (256 x 50 + 4096 x 10) T = 90742 J
    suffix: scaling_by_hand
    backends: none
    args: -advise_driver adr -adr_n 6 -advise_steps 1 -advise_max_ranks 1 -advise_threads 1 -eas_sensor model -advise_scale_ranks 64,4096 -advise_scale_n 256 -advise_scale_box 32 -advise_scale_t_row 1e-8 -advise_scale_outer 4 -advise_scale_inner 9 -advise_outer_growth 0.5 -advise_async_outer_ratio 1.5 -advise_net_latency 1e-6 -advise_net_bandwidth 1e10 -advise_ranks_per_node 16 -eas_power_cpu_idle 40 -eas_power_cpu_full 200 -eas_power_gpu_idle 0 -eas_power_dram 10
    expect: ^inputs: t_row 1.0000e-08 s per row-iteration \(given\), o_1 4.000 .*\(given\), i 9.000 .*\(given\), g 0.5000 \(given\), r_a 1.5000 \(given\)
    expect: ^interconnect: alpha 1e-06 s, beta 1e\+10 B/s; 16 ranks per node; P_I 50 W per node, P_C 10 W per busy core
    expect: ^ +64 +2.621e\+05 +32.0 +1.6796e\+00 +2.5166e\+00 +1.00 +1.000 +0.67 +1.4108e\+03 +2.1139e\+03$
    expect: ^ +4096 +4096 +256.0 +2.1802e-01 +3.1462e-01 +7.70 +0.120 +5.34 +1.1721e\+04 +1.6914e\+04$
    expect: ^ +64 +128\^3 +32.0 +2.1061e-01 +3.1460e-01 +1.000 +1.000 +1.7691e\+02 +2.6426e\+02$
    expect: ^ +4096 +512\^3 +256.0 +1.6879e\+00 +2.5166e\+00 +0.125 +0.125 +9.0742e\+04 +1.3529e\+05$
  test:
    # measured inputs: g from 1 and 2 ranks, r_a from the 2-rank async run; 4 ranks of a 4^3 grid per
    # direction cannot go below 2 planes: the strong table says so
    suffix: scaling_measured
    nsize: 2
    backends: none
    args: -advise_driver adr -adr_n 8 -advise_steps 1 -advise_max_ranks 2 -advise_threads 1 -eas_sensor model -advise_scale_ranks 2,64,4096 -advise_scale_n 16
    expect: ^inputs: t_row [0-9.e+-]+ s per row-iteration \(measured, 1 rank\), .* g -?[0-9.]+ \(from the outer iterations on 1 and N ranks, cut 1 x 2 x 1\), r_a [0-9.]+ \(measured on N ranks\)
    expect: ^note: g was measured with cuts along y only; a larger run also cuts other axes
    expect: ^ +4096 +1 +fewer than 2 planes per rank: not a decomposition eas runs
    expect: ^weak scaling: 32\^3 points per rank
  test:
    suffix: bad_net
    backends: none
    args: -advise_driver adr -adr_n 6 -advise_steps 1 -advise_net_bandwidth 0
    expect_error: -advise_net_bandwidth 0\.? is invalid: expected a bandwidth > 0 B/s
  test:
    suffix: bad_driver
    backends: none
    args: -advise_driver foo
    expect_error: -advise_driver foo is invalid: expected adr or ebe
TEST*/
