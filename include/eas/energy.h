#pragma once
/*
  eas/energy.h - the energy and time models of the five source papers as
  pure functions.  docs/models.md gives each model's equation, its symbols
  with units and the paper's equation number; docs/references.md the
  papers' full citations:
    Vialle et al.  node and cluster energy models, alpha frontiers
    Lang-Rünger    per-element times and energies of the EBE CG, CPU/GPU split
    Ge-Cameron     power-aware speedup, time prediction, minimal EDP
    Ribeiro        performance index, balanced shares, migration, power budget
    Fanfakh        EPSA, DVFS scaling factor selection for MPI iterative programs

  Every function here is pure: no global state, no I/O, no MPI.  Inputs are
  validated; an invalid input (negative power, ratio beta outside [0,1],
  empty array n <= 0, NULL pointer, non-positive time, NaN/Inf) is an error
  (PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_NULL, PETSC_ERR_ARG_SIZ or
  PETSC_ERR_ARG_WRONG) whose message names the argument and the expected
  form.  Units are SI throughout: seconds, watts, joules, hertz (any
  consistent unit for frequencies is fine, only ratios are used).
*/
#include <petscsys.h>

/* ======================================================= shared data types */

/* Power profile of one node (docs/energy.md, the -eas_power_* keys).
   A unit draws `*_idle` when idle and `*_full` at full load; dram is a
   constant power over the whole run; switch_ is the network switch power
   P_sw of a cluster (Vialle et al. sec. 1.6), not used by node-level models.
   Set the gpu fields to 0 on a node without GPU. */
typedef struct {
  PetscReal cpu_idle, cpu_full; /* W */
  PetscReal gpu_idle, gpu_full; /* W */
  PetscReal dram;               /* W */
  PetscReal switch_;            /* W, P_sw */
} EasPowerProfile;

/* Powers of the nodes of a cluster in one configuration, for the
   synchronous cluster model of Vialle et al. (eqs. 1.33-1.38).
   full[i] = P_F^i(u) (full-load power of node i with units u), idle[i] = P_I^i,
   beta = fraction of the run time spent computing (same on every node).
   idle may be NULL only when beta == 1 (asynchronous case, eq. 1.26). */
typedef struct {
  PetscInt         n;    /* number of nodes, > 0 */
  const PetscReal *full; /* n entries, >= 0 */
  const PetscReal *idle; /* n entries, >= 0, or NULL when beta == 1 */
  PetscReal        beta; /* in [0,1] */
} EasClusterPower;

/* =========================================================== Vialle et al. */

/* EasModelNodeEnergy - energy of one node whose U units are busy a fraction
   beta[i] of the run (Vialle et al. eq. 1.16):  E = T (sum_i beta_i P_C(u_i) + P_I).
   Input:  T > 0 run time, Pidle >= 0 node idle power P_I, n > 0 number of
           units, Pactive[n] >= 0 additional power P_C(u_i) of each unit when
           active, beta[n] in [0,1].
   Output: E (J).
   Errors: T <= 0, negative power, beta outside [0,1], n <= 0, NULL pointer. */
PETSC_EXTERN PetscErrorCode EasModelNodeEnergy(PetscReal T, PetscReal Pidle, PetscInt n, const PetscReal Pactive[], const PetscReal beta[], PetscReal *E);

/* EasModelProfileEnergy - modelled energy of a node described by a power
   profile from its busy fractions (Vialle et al. eq. 1.16, with P_I = cpu_idle +
   gpu_idle + dram and P_C(u) = u_full - u_idle; for one unit this is eq. 1.33).
   Input:  prof (powers >= 0, full >= idle for each unit), T > 0,
           betaCpu, betaGpu in [0,1] busy fractions of the CPU and GPU.
   Output: E (J).
   Errors: NULL prof/E, negative power, full < idle, T <= 0, beta outside [0,1]. */
PETSC_EXTERN PetscErrorCode EasModelProfileEnergy(const EasPowerProfile *prof, PetscReal T, PetscReal betaCpu, PetscReal betaGpu, PetscReal *E);

/* EasModelProfileShareEnergy - the energy of one part of a node (e.g. one
   MPI rank) in the node model of Vialle et al. eq. 1.16:
     E = T (idle_share P_I + betaCpu P_C(cpu) + betaGpu P_C(gpu)),
   where betaCpu, betaGpu are the part's contributions to the node's busy
   fractions (sum over its units of weight x busy fraction, the weight being
   the fraction of the node's CPU or GPU the unit occupies).  Summed over
   parts whose idle shares add up to 1 this is EasModelProfileEnergy.
   Input:  prof, T > 0, idle_share in (0,1], betaCpu, betaGpu in [0,1].
   Output: E (J).
   Errors: those of EasModelProfileEnergy; idle_share outside (0,1]. */
PETSC_EXTERN PetscErrorCode EasModelProfileShareEnergy(const EasPowerProfile *prof, PetscReal T, PetscReal idle_share, PetscReal betaCpu, PetscReal betaGpu, PetscReal *E);

/* EasModelNodeFrontier - node-level energy frontier (Vialle et al. eq. 1.24, and
   eq. 1.25 when A is the node with its GPU and B the same node CPU-only):
   node A uses less energy than node B as soon as the speedup
   alpha = T_B/T_A >= PF_A/PF_B.
   Input:  PF_A >= 0 full-load power of A, PF_B > 0 full-load power of B.
   Output: alpha, the minimal speedup of A over B for an energy gain.
   Errors: negative PF_A, PF_B <= 0, NULL alpha. */
PETSC_EXTERN PetscErrorCode EasModelNodeFrontier(PetscReal PF_A, PetscReal PF_B, PetscReal *alpha);

/* EasModelNodeFrontierBeta - node frontier with the measured fraction of GPU
   use (Vialle et al. eq. 1.46):
   alpha >= (beta PF_gpu + (1 - beta) PF_cpu) / PF_cpu.
   beta should already include the slow-decay correction (EasModelSlowDecayBeta).
   Input:  PF_gpu >= 0, PF_cpu > 0, betaGpu in [0,1].
   Output: alpha.
   Errors: negative power, PF_cpu <= 0, beta outside [0,1], NULL alpha. */
PETSC_EXTERN PetscErrorCode EasModelNodeFrontierBeta(PetscReal PF_gpu, PetscReal PF_cpu, PetscReal betaGpu, PetscReal *alpha);

/* EasModelEstimatedAlpha - per-node estimated frontiers of a cluster (the
   "Estimated alpha" row of Vialle et al. Table 1.2): alpha_i = PF_gpu[i]/PF_cpu[i]
   (eq. 1.25), or with betaGpu != NULL the corrected eq. 1.46 per node.
   Input:  n > 0 nodes, PF_gpu[n] >= 0, PF_cpu[n] > 0, betaGpu[n] in [0,1] or NULL.
   Output: alpha[n].
   Errors: n <= 0, NULL arrays, negative/zero power as above, beta outside [0,1]. */
PETSC_EXTERN PetscErrorCode EasModelEstimatedAlpha(PetscInt n, const PetscReal PF_gpu[], const PetscReal PF_cpu[], const PetscReal betaGpu[], PetscReal alpha[]);

/* EasModelSlowDecayBeta - slow power-decay correction of a measured busy
   fraction (Vialle et al. sec. 1.8.2 and eq. 1.48): beta = (beta_measured + 1)/2.
   Input:  betaMeasured in [0,1].   Output: beta in [1/2,1].
   Errors: betaMeasured outside [0,1], NULL beta. */
PETSC_EXTERN PetscErrorCode EasModelSlowDecayBeta(PetscReal betaMeasured, PetscReal *beta);

/* EasModelClusterAveragePower - average power of a cluster configuration,
   the bracket of Vialle et al. eq. 1.34:
   P = beta sum_i P_F^i + (1 - beta) sum_i P_I^i + P_sw
   (eq. 1.26 when beta == 1).  Energy is T * P.
   Input:  c (see EasClusterPower), Psw >= 0.
   Output: P (W).
   Errors: NULL, c->n <= 0, negative power, beta outside [0,1], idle == NULL with beta < 1. */
PETSC_EXTERN PetscErrorCode EasModelClusterAveragePower(const EasClusterPower *c, PetscReal Psw, PetscReal *P);

/* EasModelClusterFrontierAsync - asynchronous cluster frontier (Vialle et al.
   eqs. 1.28-1.29): cluster A (nA nodes, powers PF_A) is more energy-efficient
   than cluster B as soon as
   alpha = T_B/T_A > (sum_i PF_A[i] + Psw) / (sum_i PF_B[i] + Psw).
   Input:  nA, nB > 0, PF_A[nA], PF_B[nB] >= 0, Psw >= 0 (denominator > 0).
   Output: alpha.
   Errors: n <= 0, NULL, negative power, zero denominator. */
PETSC_EXTERN PetscErrorCode EasModelClusterFrontierAsync(PetscInt nA, const PetscReal PF_A[], PetscInt nB, const PetscReal PF_B[], PetscReal Psw, PetscReal *alpha);

/* EasModelClusterFrontierSync - synchronous cluster frontier (Vialle et al.
   eqs. 1.36-1.37): alpha > P(A) / P(B) with P() from EasModelClusterAveragePower.
   Input:  A, B cluster configurations (betas in [0,1]), Psw >= 0.
   Output: alpha.
   Errors: as EasModelClusterAveragePower; zero power of B. */
PETSC_EXTERN PetscErrorCode EasModelClusterFrontierSync(const EasClusterPower *A, const EasClusterPower *B, PetscReal Psw, PetscReal *alpha);

/* EasModelClusterFrontierSplit - synchronous frontier with the activity of
   configuration A split into nact kinds (Vialle et al. sec. 1.8.4, the second
   correction, unnumbered equation with gamma):
   alpha > (sum_k beta_k sum_i full[k][i] + (1 - sum_k beta_k) sum_i idle[i] + Psw) / gamma,
   gamma = P(B) from EasModelClusterAveragePower.  In the paper, A = GPU
   version with kinds {GPU, CPU-only}.  Each beta_k must lie in [0,1]; their
   sum is NOT required to be <= 1, because the paper applies the slow-decay
   correction to each beta_k separately (0.565 + 0.737 = 1.302 in its
   example), which makes the idle weight negative; the formula is applied
   as written.
   Input:  n > 0 nodes, nact > 0 kinds, full[nact][n] >= 0, beta[nact] in [0,1],
           idle[n] >= 0, B, Psw >= 0.
   Output: alpha.
   Errors: n or nact <= 0, NULL, negative power, beta outside [0,1], zero P(B). */
PETSC_EXTERN PetscErrorCode EasModelClusterFrontierSplit(PetscInt n, PetscInt nact, const PetscReal *const full[], const PetscReal beta[], const PetscReal idle[], const EasClusterPower *B, PetscReal Psw, PetscReal *alpha);

/* EasModelContextFrontier - comparison of two contexts of use (Vialle et al.
   eqs. 1.49-1.50): context 2 beats context 1 in energy as soon as
   alpha = T(context 1)/T(context 2) > Pbar(context 2)/Pbar(context 1),
   e.g. context 1 = sync, context 2 = async.
   Input:  Pbar1 > 0, Pbar2 >= 0 average powers.   Output: alpha.
   Errors: Pbar1 <= 0, Pbar2 < 0, NULL alpha. */
PETSC_EXTERN PetscErrorCode EasModelContextFrontier(PetscReal Pbar1, PetscReal Pbar2, PetscReal *alpha);

/* ============================================================= Lang-Rünger */

/* Inputs of the Lang-Ruenger model (Lang-Rünger sec. 4, Table 2).  Energies in
   J per element, powers in W, times in s per element; l = mean number of CG
   iterations (calls of the EBE matvec) per FEM step. */
typedef struct {
  PetscReal E_el_cpu;    /* CPU energy per element on one core */
  PetscReal E_el_dram;   /* DRAM energy per element processed on the CPU */
  PetscReal E_el_gpu;    /* GPU energy per element */
  PetscReal E_el_copy;   /* energy of copying one element's data to the GPU */
  PetscReal P_idle_cpu;  /* CPU idle power */
  PetscReal P_idle_dram; /* DRAM idle power */
  PetscReal P_idle_gpu;  /* GPU idle power (0: neglected, as in eq. 38) */
  PetscReal t_el_cpu;    /* time per element on one CPU core (Predict only) */
  PetscReal t_el_gpu;    /* time per element on the GPU */
  PetscReal t_el_copy;   /* time to copy one element to the GPU (Predict only) */
  PetscReal l;           /* CG iterations, > 0 */
  PetscInt  p;           /* CPU cores, > 0 (Predict only) */
} EasLangRungerParams;

/* The three cases of Lang-Rünger sec. 4.3. */
typedef enum {
  EAS_LR_CPU_ONLY = 1, /* case 1: E*_el,cpu < E*_el,gpu */
  EAS_LR_GPU_ONLY = 2, /* case 2: E*_el,cpu > E*_el,gpu + P*_idle,cpu t_el,gpu */
  EAS_LR_HYBRID   = 3  /* case 3: otherwise, split between CPU and GPU */
} EasLangRungerCase;

/* EasModelLangRungerEnergyPerElement - derived quantities of Lang-Rünger:
   E*_el,cpu = E_el,cpu + E_el,dram (eq. 36), E*_el,gpu = E_el,gpu + E_el,copy/l
   (eq. 39), P*_idle,cpu = P_idle,cpu + P_idle,dram (eq. 35).
   Input:  prm (energies and powers >= 0, l > 0).
   Output: EcpuStar, EgpuStar (J/element), PidleStar (W); any may be NULL.
   Errors: NULL prm, negative energy/power, l <= 0. */
PETSC_EXTERN PetscErrorCode EasModelLangRungerEnergyPerElement(const EasLangRungerParams *prm, PetscReal *EcpuStar, PetscReal *EgpuStar, PetscReal *PidleStar);

/* EasModelLangRungerCase - the energy decision of Lang-Rünger sec. 4.3
   (CPU only, GPU only or hybrid), from E*_el,cpu, E*_el,gpu, P*_idle,cpu and
   t_el,gpu.
   Input:  prm (as EasModelLangRungerEnergyPerElement, t_el_gpu > 0).
   Output: which; threshold = E*_el,gpu + P*_idle,cpu t_el,gpu (J/element),
           the right-hand side of case 2 (may be NULL).
   Errors: as EasModelLangRungerEnergyPerElement, t_el_gpu <= 0, NULL which. */
PETSC_EXTERN PetscErrorCode EasModelLangRungerCase(const EasLangRungerParams *prm, EasLangRungerCase *which, PetscReal *threshold);

/* EasModelLangRungerGpuWorthwhile - Lang-Rünger eq. 23: the GPU takes elements
   only if t_el,copy < l t_el,cpu / p.
   Input:  t_el_copy >= 0, t_el_cpu > 0, l > 0, p > 0.
   Output: worthwhile.
   Errors: negative/non-positive times as stated, l <= 0, p <= 0, NULL. */
PETSC_EXTERN PetscErrorCode EasModelLangRungerGpuWorthwhile(PetscReal t_el_copy, PetscReal t_el_cpu, PetscReal l, PetscInt p, PetscBool *worthwhile);

/* EasModelLangRungerRatio - time-optimal fraction of elements on the GPUs,
   Lang-Rünger eq. 42 (eq. 26 for q = 1): r = 1 / (1 + (t_el,gpu/t_el,cpu) (p/q)).
   t_el,cpu is the time per element of one core, t_el,gpu of one GPU.
   Input:  t_el_cpu > 0, t_el_gpu > 0, p > 0 cores, q > 0 GPUs.
   Output: r in (0,1).
   Errors: non-positive time or count, NULL r. */
PETSC_EXTERN PetscErrorCode EasModelLangRungerRatio(PetscReal t_el_cpu, PetscReal t_el_gpu, PetscInt p, PetscInt q, PetscReal *r);

/* EasModelLangRungerPredict - predicted time and energy of one CG solve with
   a fraction r of nel elements on the GPU (Lang-Rünger):
   n_gpu = r nel, n_cpu = (1-r) nel/p (eq. 25),
   t = n_gpu t_el,copy + l max(n_cpu t_el,cpu, n_gpu t_el,gpu)  (eq. 22; the
   copy is charged for the GPU elements, eq. 20 prints n_el,cpu by mistake),
   E = l (p n_cpu E*_el,cpu + n_gpu E_el,gpu) + n_gpu E_el,copy
       + P*_idle,cpu t_idle,cpu + P_idle,gpu t_idle,gpu   (eq. 37, with the
   factor p of eq. 31 that eq. 37 omits), idle times = l x the per-iteration
   imbalance.  r = 0 gives eq. 38 (plus GPU idle energy when P_idle_gpu > 0),
   r = 1 gives eq. 40.
   Input:  prm (all fields), nel > 0, r in [0,1].
   Output: t (s) and E (J); either may be NULL.
   Errors: NULL prm, negative energy/power, non-positive times (t_el_copy >= 0),
           l <= 0, p <= 0, nel <= 0, r outside [0,1]. */
PETSC_EXTERN PetscErrorCode EasModelLangRungerPredict(const EasLangRungerParams *prm, PetscReal nel, PetscReal r, PetscReal *t, PetscReal *E);

/* ============================================================== Ge-Cameron */

/* EasModelGeCameronPredict - power-aware speedup time prediction (Ge-Cameron
   eqs. 17-18): T_N(f) = T_1(f)/N + [T_N(f0) - T_1(f0)/N], the bracket being
   the parallel overhead of eq. 17 (measured at base frequency f0, assumed
   independent of f).
   Input:  T1_f > 0 sequential time at f, T1_f0 > 0 sequential time at f0,
           TN_f0 > 0 time on N processors at f0, N > 0.
   Output: TN_f (s).
   Errors: non-positive time, N <= 0, NULL TN_f. */
PETSC_EXTERN PetscErrorCode EasModelGeCameronPredict(PetscReal T1_f, PetscReal T1_f0, PetscReal TN_f0, PetscInt N, PetscReal *TN_f);

/* Measurements for the minimal-EDP search of Ge-Cameron sec. 6: sequential
   times at every frequency, parallel times at the base frequency for every
   processor count, and the two-power energy model of sec. 6 (one power while
   computing, depending on f; one power while communicating). */
typedef struct {
  PetscInt         nprocs; /* number of processor counts, > 0 */
  const PetscInt  *procs;  /* processor counts N_k > 0 */
  PetscInt         nfreq;  /* number of frequencies, > 0 */
  const PetscReal *freq;   /* frequencies f_j > 0 (reported only) */
  PetscInt         base;   /* index of the base frequency f0 in freq */
  const PetscReal *T1;     /* T_1(f_j) > 0, nfreq entries */
  const PetscReal *TNbase; /* T_{N_k}(f0) > 0, nprocs entries */
  const PetscReal *Pcomp;  /* per-node power while computing at f_j, nfreq entries */
  PetscReal        Pcomm;  /* per-node power during parallel overhead */
} EasGeCameronTable;

/* The configuration chosen by EasModelMinEDP. */
typedef struct {
  PetscInt  iproc, ifreq; /* indices in procs and freq */
  PetscReal time;         /* predicted T_N(f), eq. 18 */
  PetscReal energy;       /* Pcomp(f) T_1(f) + N Pcomm max(overhead,0) */
  PetscReal metric;       /* energy * time^w */
} EasEDPChoice;

/* EasModelMinEDP - the system configuration (N, f) minimising E * T^w over
   the table (Ge-Cameron sec. 6; w = 1 is the energy-delay product, w = 2 ED2P,
   w = 0 energy).  T from eq. 18; the energy of sec. 6 is
   N (Pcomp(f) T_1(f)/N + Pcomm o_N), o_N = T_N(f0) - T_1(f0)/N (eq. 17); a
   negative measured overhead (superlinear speedup) is kept in T (eq. 18 as
   written) but charged zero communication energy.  Ties: first in
   (proc-major, freq-minor) order.
   Input:  tab, w >= 0.
   Output: best.
   Errors: NULL, empty arrays, non-positive times/counts, negative powers,
           base out of range, w < 0. */
PETSC_EXTERN PetscErrorCode EasModelMinEDP(const EasGeCameronTable *tab, PetscReal w, EasEDPChoice *best);

/* ================================================================= Ribeiro */

/* EasModelHeterogeneousSpeedup - heterogeneous speedup (Ribeiro eq. 3.5):
   S_h(D) = T_ref / T_D.
   Input:  Tref > 0, TD > 0.  Output: S.  Errors: non-positive time, NULL. */
PETSC_EXTERN PetscErrorCode EasModelHeterogeneousSpeedup(PetscReal Tref, PetscReal TD, PetscReal *S);

/* EasModelHeterogeneousEfficiency - heterogeneous efficiency (Ribeiro
   eq. 3.6): E_h(D) = (1/T_D) / sum_i (1/T_dev_i), used capacity over the sum
   of the devices' capacities (1 = the split reaches the sum of throughputs).
   Input:  TD > 0 time on the set, n > 0 devices, Tdev[n] > 0 time of the same
           work on each device alone.
   Output: E.
   Errors: non-positive time, n <= 0, NULL. */
PETSC_EXTERN PetscErrorCode EasModelHeterogeneousEfficiency(PetscReal TD, PetscInt n, const PetscReal Tdev[], PetscReal *E);

/* EasModelWindowIndex - performance index of one compute unit over a window
   of iterations (Ribeiro eqs. 4.1-4.2): r_k = busy_k / count_k per iteration
   (eq. 4.1); the windowed index is their average weighted by the work counts,
   r~ = sum_k busy_k / sum_k count_k, so iterations with more work weigh more
   and changing shares are accounted for.  Predicted time: T = r~ N (eq. 4.2).
   Input:  n > 0 iterations in the window, busy[n] >= 0 busy times,
           count[n] >= 0 work units (sum > 0).
   Output: r (s per work unit).
   Errors: n <= 0, NULL, negative busy time or count, zero total count. */
PETSC_EXTERN PetscErrorCode EasModelWindowIndex(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r);

/* EasModelWindowIndexMedian - robust variant of EasModelWindowIndex: the
   median of the per-iteration indexes r_k = busy_k / count_k (Ribeiro
   eq. 4.1) over the iterations of the window with count_k > 0, so a single
   timing spike (or a few, less than half the window) does not move it.
   Input/errors as EasModelWindowIndex (n <= 64). */
PETSC_EXTERN PetscErrorCode EasModelWindowIndexMedian(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal *r);
/* EasModelWindowIndexQuantile - as EasModelWindowIndexMedian with the
   q-quantile (q in [0,1], linear interpolation; q = 0.5 is the median): a
   low quantile estimates the undisturbed speed when interference only adds
   time (shared machines). */
PETSC_EXTERN PetscErrorCode EasModelWindowIndexQuantile(PetscInt n, const PetscReal busy[], const PetscInt count[], PetscReal q, PetscReal *r);

/* EasModelBalancedShares - balanced distribution of N work units over n units
   of index rate[u] s/unit (Ribeiro eq. 4.4; docs/ebe.md:
   n_u = N (1/t_u)/sum_v (1/t_v); Lang-Rünger eq. 26/42 for CPU+GPU).  The
   integer shares sum exactly to N and minimise max_u rate[u] shares[u]:
   floor of the real shares, then each remaining unit to the unit finishing
   first with it (ties: lowest index).
   Input:  n > 0, rate[n] > 0, N >= 0.
   Output: shares[n].
   Errors: n <= 0, NULL, non-positive rate, N < 0. */
PETSC_EXTERN PetscErrorCode EasModelBalancedShares(PetscInt n, const PetscReal rate[], PetscInt N, PetscInt shares[]);

/* EasModelMigrationAmortized - whether a new distribution pays for its
   migration (Ribeiro eqs. 4.5-4.8):
   Tbar = max_u rate[u] Ncur[u] (4.5), Tdist = max_u rate[u] Nnew[u] (4.6;
   the max makes it exact for non-exactly balanced integer shares),
   migrate iff remaining Tbar > cost + remaining Tdist (4.7, i.e. 4.8).
   Input:  n > 0, rate[n] > 0, Ncur[n], Nnew[n] >= 0, remaining >= 0
           iterations left, cost >= 0 migration time.
   Output: migrate; Tbar, Tdist (may be NULL).
   Errors: n <= 0, NULL, non-positive rate, negative counts/remaining/cost. */
PETSC_EXTERN PetscErrorCode EasModelMigrationAmortized(PetscInt n, const PetscReal rate[], const PetscInt Ncur[], const PetscInt Nnew[], PetscReal remaining, PetscReal cost, PetscBool *migrate, PetscReal *Tbar, PetscReal *Tdist);

/* One compute unit of the power-budget problem (Ribeiro sec. 5.3.3).
   Time with power W (eq. 5.6): T(W) = rate fcap work / Phi(W).
   Phi (power -> frequency) is either linear (eq. 5.9, nlevels == 0):
   Phi(W) = fmax W / tdp with fmin <= Phi(W) <= fmax, i.e. W in
   [fmin tdp/fmax, tdp]; or tabular (nlevels > 0): the unit can run only at
   the (levelPower[l], levelFreq[l]) pairs (footnote 3 of sec. 5.3.3). */
typedef struct {
  PetscReal        rate;       /* r~_p^k: s per work unit measured at fcap (eq. 5.5), > 0 */
  PetscReal        fcap;       /* frequency at which rate was measured, > 0 */
  PetscReal        work;       /* N_p work units for the next iteration, >= 0 */
  PetscReal        fmin, fmax; /* linear Phi: 0 < fmin <= fcap <= fmax */
  PetscReal        tdp;        /* linear Phi: TDP_p > 0 */
  PetscInt         nlevels;    /* 0: linear Phi; > 0: tabular */
  const PetscReal *levelPower; /* tabular: power of each level, >= 0 */
  const PetscReal *levelFreq;  /* tabular: frequency of each level, > 0 */
} EasPowerUnit;

/* Result of EasModelPowerBudget. */
typedef struct {
  PetscBool feasible;  /* PETSC_FALSE: no schedule meets the budget and T <= T(W^cap) */
  PetscReal time;      /* T(W) = max_p T_p(W_p) (eq. 5.3) */
  PetscReal power;     /* ||W||_1 */
  PetscReal objective; /* alpha1 time + alpha2 power */
  PetscReal tcap;      /* T(W^cap) = max_p rate_p work_p, the time at the caps */
} EasPowerBudgetResult;

/* EasModelPowerUnitTime - eq. 5.6 for one unit: T = rate fcap work / Phi(W).
   For a tabular unit W must equal one of its level powers (the first match
   is used); for a linear unit Phi(W) is eq. 5.9 and W must lie in
   [fmin tdp/fmax, tdp].
   Input:  u, W.   Output: T (s), f = Phi(W) (may be NULL).
   Errors: invalid unit, W not allowed, NULL. */
PETSC_EXTERN PetscErrorCode EasModelPowerUnitTime(const EasPowerUnit *u, PetscReal W, PetscReal *T, PetscReal *f);

/* EasModelPowerBudget - power schedule under a budget (Ribeiro eqs. 5.3,
   5.6, 5.7, 5.9): minimise alpha1 T(W) + alpha2 ||W||_1 subject to
   ||W||_1 <= budget, T(W) <= T(W^cap), each unit within its allowed powers.
   Exact method (docs/models.md, no external optimiser): for a target time Z
   each unit takes the least power W_p(Z) meeting T_p(W_p) <= Z; an optimal
   schedule is of this form with Z = its time.  The budget sum W_p(Z) is
   non-increasing in Z: bisection on Z gives the least feasible Z.  Between
   consecutive level times of the tabular units the objective is
   alpha1 Z + alpha2 (const + sum_linear max(c_p/Z, Wmin_p)), convex in Z;
   bisection on the sign of its derivative gives the minimiser on each piece,
   and the best piece wins.
   Input:  P > 0 units, units[P], budget > 0 (W), alpha1, alpha2 >= 0, not both 0.
   Output: W[P] powers, freq[P] = Phi_p(W_p) (may be NULL), res.  When
           infeasible, W holds the least-power settings and res->feasible is
           PETSC_FALSE (not an error).
   Errors: P <= 0, NULL, invalid unit fields (non-positive rate/frequency/tdp,
           negative work or power, fmin > fcap or fcap > fmax for a linear
           unit), budget <= 0, negative alpha. */
PETSC_EXTERN PetscErrorCode EasModelPowerBudget(PetscInt P, const EasPowerUnit units[], PetscReal budget, PetscReal alpha1, PetscReal alpha2, PetscReal W[], PetscReal freq[], EasPowerBudgetResult *res);

/* ================================================================= Fanfakh */

/* EasModelEPSAEnergy - predicted time and energy of N synchronous tasks with
   frequency scaling factor S = Fmax/Fnew (Fanfakh):
   T = Tmaxcomp S + Tmincomm (eq. tnew), Tmaxcomp = max_i Tcomp[i],
   Tmincomm = min_i Tcomm[i] (the slowest task's communication);
   E = sum_i S^-2 Pdyn Tcomp[i] + Pstatic T N (eq. e-new).
   Input:  n > 0 tasks, Tcomp[n] >= 0 (max > 0), Tcomm[n] >= 0 measured at Fmax,
           Pdyn, Pstatic >= 0, S >= 1.
   Output: E (J), T (s); either may be NULL.
   Errors: n <= 0, NULL arrays, negative times/powers, all Tcomp zero, S < 1. */
PETSC_EXTERN PetscErrorCode EasModelEPSAEnergy(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscReal S, PetscReal *E, PetscReal *T);

/* EasModelEPSA - energy-to-performance scaling factor selection (Fanfakh,
   algorithm EPSA with the energy model e-new): over the available
   frequencies F_j (S_j = Fmax/F_j), maximise the distance
   Pnorm(S) - Enorm(S) with Pnorm = T(1)/T(S) (eq. pnorm_en) and
   Enorm = E(S)/E(1) (E from e-new); S = 1 (distance 0) unless a factor has
   a strictly positive distance; ties keep the first in the list.
   The per-task frequencies are F_i = Fmax Tcomp[i] / (Sopt max_k Tcomp[k])
   (eq. fi, with T_i the computation times, so every task's computation
   ends with the slowest one's).
   Input:  n > 0, Tcomp[n], Tcomm[n], Pdyn, Pstatic as EasModelEPSAEnergy
           (Pdyn + Pstatic > 0), nfreq > 0 available frequencies freqs[] > 0.
   Output: Sopt, Fi[n] (may be NULL), dist = the maximal distance (may be NULL).
   Errors: as EasModelEPSAEnergy, nfreq <= 0, non-positive frequency. */
PETSC_EXTERN PetscErrorCode EasModelEPSA(PetscInt n, const PetscReal Tcomp[], const PetscReal Tcomm[], PetscReal Pdyn, PetscReal Pstatic, PetscInt nfreq, const PetscReal freqs[], PetscReal *Sopt, PetscReal Fi[], PetscReal *dist);

/* ====================================================== criteria (issue 5) */

/* What a choice minimises: time T, energy E, EDP E T or ED2P E T^2
   (-eas_criterion time|energy|edp|ed2p). */
typedef enum {
  EAS_CRITERION_TIME,
  EAS_CRITERION_ENERGY,
  EAS_CRITERION_EDP,
  EAS_CRITERION_ED2P
} EasCriterion;
PETSC_EXTERN const char *const EasCriterions[];
/* EasCriteria: the name before 0.2 of EasCriterions (the names of an enum are
   its type's name plus "s", as EasPrecisions; deprecated since 0.2; removed
   in 0.3). */
#define EasCriteria PETSC_DEPRECATED_MACRO("GCC warning \"Use EasCriterions (deprecated since 0.2; removed in 0.3)\"") EasCriterions
/* EasCriterionExponent - w of the metric E T^w of a criterion (energy 0,
   edp 1, ed2p 2; time: PETSC_INFINITY, the metric is T). */
PETSC_EXTERN PetscReal EasCriterionExponent(EasCriterion);

/* EasModelCriterionFrontier - the speedup alpha = T_B/T_A from which
   configuration A beats B for the metric E T^w (w = 0 energy, 1 EDP, 2 ED2P)
   when both run at constant full-load power (Vialle et al. eq. 1.24 generalised):
   E_A T_A^w < E_B T_B^w  <=>  PF_A T_A^(w+1) < PF_B T_B^(w+1)
   <=>  alpha > (PF_A/PF_B)^(1/(w+1)).  w = 0 is eq. 1.24 exactly.
   Input:  PF_A >= 0, PF_B > 0, w >= 0.   Output: alpha.
   Errors: negative power, PF_B <= 0, w < 0, NULL alpha. */
PETSC_EXTERN PetscErrorCode EasModelCriterionFrontier(PetscReal PF_A, PetscReal PF_B, PetscReal w, PetscReal *alpha);
