#pragma once
/*
  eas/policy.h - the energy policies, the layer above the solvers
  (docs/design.md: core < backends < vec < comm < energy < mat < solvers
  < policy < init < drivers).

  A policy reads what the solvers measure (their EasEnergyMeter: busy time
  per phase and unit), decides with the papers' models (eas/energy.h) and
  acts through the solvers' public setters and hooks (include/eas/sys.h,
  EasAdrAddHook, EasEbeAddHook); no backend, matrix or solver calls into
  this layer.  docs/energy-policies.md gives every equation, its symbols
  and units, the paper and the function.

    backend choice  -eas_backend auto, -eas_criterion: cpu, gpu or hybrid
                    (the EBE split) from calibrated then measured
                    per-element times (Lang-Runger eqs. 22, 26; Vialle et
                    al. eqs. 1.16, 1.24)
    DVFS            -eas_dvfs off|report|apply: EPSA (Fanfakh) after the
                    first iterations, frequencies through cpufreq
    power budget    -eas_power_budget <W>: Ribeiro eqs. 5.3-5.9, caps
                    through powercap (else cpufreq)
*/
#include <eas/adr.h>
#include <eas/ebe.h>
#include <eas/meter.h>

/* ============================================================ backend choice */

typedef enum {
  EAS_CHOICE_CPU,
  EAS_CHOICE_GPU,
  EAS_CHOICE_HYBRID,
  EAS_NUM_CHOICES
} EasBackendChoice;
PETSC_EXTERN const char *const EasBackendChoices[];

/* Inputs of the prediction (Lang-Runger time model, Vialle et al. eq. 1.16
   energy). */
typedef struct {
  EasPowerProfile prof;
  PetscReal       nwork;                  /* elements (or rows) per iteration, > 0 */
  PetscReal       its;                    /* iterations expected (l of Lang-Runger), > 0 */
  PetscReal       t_el_cpu;               /* s per element on the whole CPU (all threads), > 0 */
  PetscReal       t_el_gpu;               /* s per element on the GPU (> 0), ignored when no GPU */
  PetscReal       t_el_copy;              /* s to copy one element's data to the GPU, >= 0 */
  PetscBool       gpu;                    /* a usable GPU with a known per-element time */
  PetscBool       allow[EAS_NUM_CHOICES]; /* candidates considered */
} EasPolicyInput;

/* Predicted time, energy and metric of each choice, and the pick. */
typedef struct {
  PetscReal        time[EAS_NUM_CHOICES], energy[EAS_NUM_CHOICES], metric[EAS_NUM_CHOICES];
  PetscBool        valid[EAS_NUM_CHOICES];
  PetscReal        r;        /* GPU share of the hybrid (Lang-Runger eq. 26) */
  PetscReal        alpha;    /* speedup t_el_cpu/t_el_gpu */
  PetscReal        frontier; /* speedup the GPU needs to win the criterion against the CPU (Vialle et al. eq. 1.24 generalised) */
  EasBackendChoice choice;
} EasPolicyPrediction;

/* EasPolicyPredict - pure function: predictions of cpu, gpu and hybrid and
   the choice minimising the criterion (time T, energy E, EDP E T, ED2P E T^2);
   ties go to the CPU, then the GPU.  CPU: T = l N t_cpu; GPU (Lang-Runger
   eq. 22 with r = 1): T = N t_copy + l N t_gpu; hybrid: r from eq. 26,
   T = r N t_copy + l max((1-r) N t_cpu, r N t_gpu).  Energy of each,
   Vialle et al. eq. 1.16: E = T P_I + busy_cpu (P_cpu,full - P_cpu,idle) +
   busy_gpu (P_gpu,full - P_gpu,idle), P_I = cpu_idle + gpu_idle + dram.
   Errors: invalid inputs (non-positive times or counts, bad profile). */
PETSC_EXTERN PetscErrorCode EasPolicyPredict(const EasPolicyInput *, EasCriterion, EasPolicyPrediction *);

/* The work the per-element times of a policy are about (EasPolicySetWorkload):
   rows of the DIA SpMV and BiCGStab (the ADR solver; calibrated keys
   -eas_calib_t_el_cpu, -eas_calib_t_el_gpu, -eas_calib_t_el_copy), or
   elements of the EBE apply (the EBE PCG; -eas_calib_ebe_t_el_cpu,
   -eas_calib_ebe_t_el_gpu, -eas_calib_ebe_t_el_copy).  eas_calibrate writes
   both. */
typedef enum {
  EAS_WORKLOAD_DIA,
  EAS_WORKLOAD_EBE
} EasWorkload;
PETSC_EXTERN const char *const EasWorkloads[];

typedef struct _p_EasPolicy *EasPolicy;
PETSC_EXTERN PetscClassId    EAS_POLICY_CLASSID;

/* EasPolicyInitializePackage - classes and log events of the policies
   (called by every Create). */
PETSC_EXTERN PetscErrorCode EasPolicyInitializePackage(void);

/* EasPolicyCreate - the backend-choice policy on comm (criterion energy,
   DIA workload, device /gpu/cuda, no per-element time known). */
PETSC_EXTERN PetscErrorCode EasPolicyCreate(MPI_Comm, EasPolicy *);
/* EasPolicySetWorkload - which calibrated per-element times are read
   (before EasPolicySetFromOptions). */
PETSC_EXTERN PetscErrorCode EasPolicySetWorkload(EasPolicy, EasWorkload);
/* EasPolicySetFromOptions - -eas_criterion time|energy|edp|ed2p (default
   energy), the profile keys (-eas_power_*, -eas_power_profile <file>), the
   calibrated per-element times of the workload (s; written by eas_calibrate,
   read from the profile file too), -eas_policy_device <resource> (the
   device candidate, default /gpu/cuda), -eas_policy_work <N> and
   -eas_policy_its <l>. */
PETSC_EXTERN PetscErrorCode EasPolicySetFromOptions(EasPolicy);
PETSC_EXTERN PetscErrorCode EasPolicySetCriterion(EasPolicy, EasCriterion);
PETSC_EXTERN PetscErrorCode EasPolicySetProfile(EasPolicy, const EasPowerProfile *);
/* EasPolicySetDevice - the device candidate ("gpu" of the choice): a
   resource of the registry, default /gpu/cuda; its usability comes from
   EasBackendIsAvailable. */
PETSC_EXTERN PetscErrorCode EasPolicySetDevice(EasPolicy, const char resource[]);
/* EasPolicySetWork - work per iteration and expected iterations. */
PETSC_EXTERN PetscErrorCode EasPolicySetWork(EasPolicy, PetscReal nwork, PetscReal its);
/* EasPolicySetElementTimes - per-element times (calibrated or measured;
   a value <= 0 keeps the current one).  Without a GPU (device) time the
   GPU and the hybrid are excluded with that reason; without a CPU time the
   answer is the CPU (nothing to compare with) until one is measured. */
PETSC_EXTERN PetscErrorCode EasPolicySetElementTimes(EasPolicy, PetscReal t_el_cpu, PetscReal t_el_gpu, PetscReal t_el_copy);
/* EasPolicySetGpuAvailable - overrides the registry's answer on whether
   the device can be used (why: the reason printed when not; a static
   string).  The availability is an input of the decision like the times. */
PETSC_EXTERN PetscErrorCode EasPolicySetGpuAvailable(EasPolicy, PetscBool, const char why[]);
/* EasPolicySetCandidates - which of cpu, gpu, hybrid may be chosen. */
PETSC_EXTERN PetscErrorCode EasPolicySetCandidates(EasPolicy, PetscBool cpu, PetscBool gpu, PetscBool hybrid);
/* EasPolicyChooseBackend - predicts and chooses; prints "eas: -eas_backend
   auto: <explanation>" on rank 0.  resource is "/cpu", the device resource
   or "hybrid"; explanation a line owned by the policy. */
PETSC_EXTERN PetscErrorCode EasPolicyChooseBackend(EasPolicy, const char *resource[], const char *explanation[]);
/* EasPolicyUpdate - online: new measured per-element times (<= 0 keeps);
   decides again and sets changed when the answer changes (printed). */
PETSC_EXTERN PetscErrorCode EasPolicyUpdate(EasPolicy, PetscReal t_el_cpu, PetscReal t_el_gpu, PetscBool *changed, const char *resource[]);
/* EasPolicySetMeasured - measured time and energy of the run, for the
   final predicted-vs-measured line (energy < 0: n/a). */
PETSC_EXTERN PetscErrorCode EasPolicySetMeasured(EasPolicy, PetscReal T, PetscReal E, PetscBool energy_measured);
PETSC_EXTERN PetscErrorCode EasPolicyGetPrediction(EasPolicy, EasPolicyPrediction *);
/* EasPolicyGetUpdates - online updates and changed answers since the last
   EasPolicyAttachAdr/EasPolicyAttachEbe, and the latest answer (NULL
   before any update). */
PETSC_EXTERN PetscErrorCode EasPolicyGetUpdates(EasPolicy, PetscInt *nupdates, PetscInt *nchanges, const char *resource[]);
/* EasPolicyCreateBackend - chooses (EasPolicyChooseBackend, unless already
   decided) between the CPU and the device and creates the chosen backend
   on comm with the policy's options prefix (EasBackendSetFromOptions).
   Errors: the hybrid is a candidate (it is a split of the EBE operator:
   use EasPolicyConfigureEbe). */
PETSC_EXTERN PetscErrorCode EasPolicyCreateBackend(EasPolicy, MPI_Comm, EasBackend *);
/* EasPolicyConfigureEbe - chooses for the operator (before EasEbeSetUp)
   and configures it: cpu -> the operator on /cpu; gpu -> on the device;
   hybrid -> the operator on /cpu with the split units (device, /cpu)
   balanced online by the EBE split (Lang-Runger Alg. 2, eq. 26). */
PETSC_EXTERN PetscErrorCode EasPolicyConfigureEbe(EasPolicy, EasEbe);
/* EasPolicyAttachAdr - online choice for an ADR solver (a reference to
   pol is taken): every interval >= 1 converged steps the compute time per
   row and BiCGStab iteration measured since the previous update (max over
   ranks) goes to EasPolicyUpdate, with the work of the solve re-estimated
   from the measured inner iterations per step; an answer of the other
   kind moves the solver (EasAdrSetBackend) if that backend is usable on
   every rank, else it says why and stays.  At the end of each EasAdrSolve
   it prints predicted against measured time and energy (EasPolicyView).
   Errors: interval < 1, a policy that has not decided. */
PETSC_EXTERN PetscErrorCode EasPolicyAttachAdr(EasPolicy, EasAdr, PetscInt interval);
/* EasPolicyAttachEbe - online choice during the Krylov solves of an EBE
   operator (a reference to pol is taken): after the first iteration and
   every interval iterations (<= 0: 10), the meter's measured per-element times (max over ranks) go to
   EasPolicyUpdate.  The operator is not rebuilt mid-solve: the answer
   (EasPolicyGetUpdates) is for the next operator, whose choice (-eas_backend
   auto) starts from the times measured here.  At the end of each solve it
   prints the solve's online decisions and predicted against measured time
   and energy (modelled; EasPolicyView).  Needs the operator's energy meter
   (EasEbeGetEnergyMeter; created here). */
PETSC_EXTERN PetscErrorCode EasPolicyAttachEbe(EasPolicy, EasEbe, PetscInt interval);
/* EasPolicyView - the decision and, when measured, predicted vs measured. */
PETSC_EXTERN PetscErrorCode EasPolicyView(EasPolicy, PetscViewer);
PETSC_EXTERN PetscErrorCode EasPolicyDestroy(EasPolicy *);

/* ============================================================ DVFS (Fanfakh) */

typedef enum {
  EAS_DVFS_OFF,
  EAS_DVFS_REPORT, /* decide and print the frequencies */
  EAS_DVFS_APPLY   /* decide, set them through cpufreq where writable, restore at the end */
} EasDvfsMode;
PETSC_EXTERN const char *const EasDvfsModes[];

/* One EPSA decision (EasDvfsGetDecision).  Frequencies in kHz (cpufreq's
   unit); times of the measured window (s), energies of the window (J, all
   ranks, model e-new). */
typedef struct {
  PetscBool decided;
  PetscInt  nranks;
  PetscReal S;         /* S_opt = F_max/F_new (Alg. EPSA) */
  PetscReal dist;      /* the maximal distance P_norm - E_norm (eq. max1) */
  PetscReal Fmax;      /* highest available frequency */
  PetscReal F;         /* this rank's F_i = F_max T_i / (S_opt T_max) (eq. fi) */
  PetscReal Fset;      /* the available frequency set for this rank: the lowest >= F_i */
  PetscReal Tmaxcomp;  /* max over ranks of the computation time of the window */
  PetscReal Tmincomm;  /* the communication time of the slowest rank (Fanfakh's T_MinCommOld) */
  PetscReal T1, TS;    /* predicted window time at F_max and at S_opt (eq. tnew) */
  PetscReal E1, ES;    /* predicted window energy at F_max and at S_opt (eq. e-new) */
  PetscReal Pdyn, Ps;  /* per-rank dynamic and static powers used (W) */
  PetscInt  napplied;  /* cores set on this node (apply), counted on its first rank */
  PetscInt  nreadonly; /* cores whose cpufreq files are not writable */
  PetscInt  nmissing;  /* cores of this rank's affinity without a cpufreq directory */
  char      how[64];   /* "scaling_setspeed (userspace)", "scaling_max_freq", "report only" ... */
} EasDvfsDecision;

typedef struct _p_EasDvfs *EasDvfs;
PETSC_EXTERN PetscClassId  EAS_DVFS_CLASSID;

/* EasDvfsCreate - DVFS by EPSA on comm (mode off). */
PETSC_EXTERN PetscErrorCode EasDvfsCreate(MPI_Comm, EasDvfs *);
/* EasDvfsSetFromOptions - -eas_dvfs off|report|apply, -eas_dvfs_freqs
   <f1,f2,...> (kHz; default: scaling_available_frequencies of the first
   core, else error), -eas_cpufreq_root <dir> (default
   /sys/devices/system/cpu), -eas_dvfs_warmup <k> (iterations or steps
   measured before deciding), the profile keys (P_dyn, P_static). */
PETSC_EXTERN PetscErrorCode EasDvfsSetFromOptions(EasDvfs);
PETSC_EXTERN PetscErrorCode EasDvfsSetMode(EasDvfs, EasDvfsMode);
PETSC_EXTERN PetscErrorCode EasDvfsGetMode(EasDvfs, EasDvfsMode *);
/* EasDvfsSetFrequencies - the available frequencies (kHz, > 0). */
PETSC_EXTERN PetscErrorCode EasDvfsSetFrequencies(EasDvfs, PetscInt n, const PetscReal kHz[]);
/* EasDvfsSetCpufreqRoot - the cpufreq tree (default /sys/devices/system/cpu). */
PETSC_EXTERN PetscErrorCode EasDvfsSetCpufreqRoot(EasDvfs, const char root[]);
/* EasDvfsSetPowers - P_dyn and P_static per rank (W; default from the
   profile: P_dyn = w (cpu_full - cpu_idle) with w the rank's share of the
   node's cores, P_static = (cpu_idle + gpu_idle + dram)/ppn). */
PETSC_EXTERN PetscErrorCode EasDvfsSetPowers(EasDvfs, PetscReal Pdyn, PetscReal Pstatic);
/* EasDvfsDecide - collective: this rank's computation and communication
   times of the measured window; gathers them, runs EPSA (EasModelEPSA),
   prints the decision on rank 0 and, in apply mode, sets each rank's
   frequency on the cores of its CPU affinity (a core shared by ranks of a
   node gets the highest of their frequencies, so no rank is slowed more
   than EPSA asks).  Errors: no frequency list. */
PETSC_EXTERN PetscErrorCode EasDvfsDecide(EasDvfs, PetscReal Tcomp, PetscReal Tcomm);
/* EasDvfsRestore - collective: writes back every cpufreq value this object
   changed (also done on SIGINT/SIGTERM, at a PETSc error and at exit). */
PETSC_EXTERN PetscErrorCode EasDvfsRestore(EasDvfs);
/* EasDvfsGetDecision - a copy of the last EPSA decision (decided = false
   before EasDvfsDecide). */
PETSC_EXTERN PetscErrorCode EasDvfsGetDecision(EasDvfs, EasDvfsDecision *);
/* EasDvfsSetSaving - the windows (iterations or steps) run after the
   decision and the energy before/after it per window, for the saving line:
   predicted = (E1 - ES) x windows (model e-new); measured (when measured is
   true, a sensor) = (E_before - E_after) x windows.  E < 0: n/a. */
PETSC_EXTERN PetscErrorCode EasDvfsSetSaving(EasDvfs, PetscReal windows, PetscReal Ebefore, PetscReal Eafter, PetscBool measured);
/* EasDvfsGetSavingLine - the report line of the saving (owned by the object). */
PETSC_EXTERN PetscErrorCode EasDvfsGetSavingLine(EasDvfs, const char *line[]);
/* EasDvfsView - the mode, the frequency list and the decision. */
PETSC_EXTERN PetscErrorCode EasDvfsView(EasDvfs, PetscViewer);
/* EasDvfsDestroy - restores what was changed, then frees the object. */
PETSC_EXTERN PetscErrorCode EasDvfsDestroy(EasDvfs *);

/* ============================================================ power budget (Ribeiro) */

/* The decision of EasPowerBudgetDecide. */
typedef struct {
  PetscBool            decided;
  PetscInt             nunits;   /* CPU units (one per node) + GPU units (reported only) */
  EasPowerBudgetResult res;      /* of EasModelPowerBudget */
  PetscReal            W;        /* this node's CPU power (W) */
  PetscReal            f;        /* its frequency Phi(W) (kHz) */
  PetscReal            Wgpu;     /* this rank's GPU power (reported only; 0 without) */
  PetscReal            Wuniform; /* budget share of the node under a uniform distribution (UDP) */
  char                 how[96];  /* "powercap constraint_0_power_limit_uw", "cpufreq scaling_max_freq", "report only: ..." */
} EasPowerBudgetDecision;

typedef struct _p_EasPowerBudget *EasPowerBudget;
PETSC_EXTERN PetscClassId         EAS_POWERBUDGET_CLASSID;

/* EasPowerBudgetCreate - power-budget distribution on comm (no budget). */
PETSC_EXTERN PetscErrorCode EasPowerBudgetCreate(MPI_Comm, EasPowerBudget *);
/* EasPowerBudgetSetFromOptions - -eas_power_budget <W> (total, all nodes),
   -eas_power_budget_alpha <a1,a2> (weights of time and power, default
   0.5,0.5 as Ribeiro sec. 5.4), -eas_power_budget_apply <bool> (default
   true: set the caps; false: report), -eas_rapl_root (powercap),
   -eas_cpufreq_root, -eas_dvfs_freqs (the frequency range when cpufreq
   does not give it), the profile keys (TDP when powercap does not give it). */
PETSC_EXTERN PetscErrorCode EasPowerBudgetSetFromOptions(EasPowerBudget);
/* EasPowerBudgetSetBudget - W > 0 (0: off). */
PETSC_EXTERN PetscErrorCode EasPowerBudgetSetBudget(EasPowerBudget, PetscReal W);
/* EasPowerBudgetGetBudget - the budget in W (0: off). */
PETSC_EXTERN PetscErrorCode EasPowerBudgetGetBudget(EasPowerBudget, PetscReal *W);
/* EasPowerBudgetDecide - collective: this rank's computation time per
   iteration (s, at the current frequency) and whether it runs on a GPU;
   forms one CPU unit per node (the slowest of its ranks) and one GPU unit
   per GPU rank, solves Ribeiro eq. 5.7 (EasModelPowerBudget), prints the
   schedule on rank 0 and applies each node's power (the node's first rank
   writes): powercap constraint_0_power_limit_uw of its packages where
   writable, else the frequency Phi(W) (eq. 5.9) through cpufreq, else
   reported; GPU powers are only reported. */
PETSC_EXTERN PetscErrorCode EasPowerBudgetDecide(EasPowerBudget, PetscReal Tcomp, PetscBool gpu);
/* EasPowerBudgetRestore - collective: writes back the limits changed. */
PETSC_EXTERN PetscErrorCode EasPowerBudgetRestore(EasPowerBudget);
/* EasPowerBudgetGetDecision - a copy of the last distribution (decided =
   false before EasPowerBudgetDecide). */
PETSC_EXTERN PetscErrorCode EasPowerBudgetGetDecision(EasPowerBudget, EasPowerBudgetDecision *);
/* EasPowerBudgetView - the budget, the weights and the distribution. */
PETSC_EXTERN PetscErrorCode EasPowerBudgetView(EasPowerBudget, PetscViewer);
/* EasPowerBudgetDestroy - restores the limits changed, then frees the object. */
PETSC_EXTERN PetscErrorCode EasPowerBudgetDestroy(EasPowerBudget *);

/* ============================================================ attaching them */

/* -eas_backend auto needs no call: the registry parses -eas_backend and,
   at the SetUp of a solver without a backend, calls the resolver this
   package registers (EasPolicyInitializePackage, done by EasInitialize):
     EasAdr: a policy (EasPolicySetFromOptions, DIA workload, candidates cpu
       and gpu) predicts the run (rows per rank x -adr_policy_its_per_step
       <100> inner iterations x the steps), the chosen backend is created
       and the policy stays attached (EasPolicyAttachAdr,
       -adr_policy_interval <1>);
     EasEbe: a policy (EBE workload, candidates cpu, gpu, hybrid) predicts
       a solve (local elements x the iterations expected: the last solve's
       in this process scaled by (N/N_last)^(1/3), else 10 p N^(1/3) for
       order p and N elements), seeded with the per-element times measured
       by earlier operators of this process; it configures the operator
       (EasPolicyConfigureEbe) and stays attached (EasPolicyAttachEbe,
       -ebe_policy_interval <10>).
   EasPolicyAttachAdrFromOptions - the hardware policies of an ADR solver
   from its options (call after EasAdrSetFromOptions, before EasAdrSetUp):
     -eas_dvfs report|apply: after -eas_dvfs_warmup <1> steps each rank's
       computation (setup, compute and transfer phases) and communication
       (exchange phase) times feed EasDvfsDecide; restored at the end of
       the solve; the saving line is added to the energy report;
     -eas_power_budget <W>: after the same steps each rank's computation
       time per step feeds EasPowerBudgetDecide; restored at the end. */
PETSC_EXTERN PetscErrorCode EasPolicyAttachAdrFromOptions(EasAdr);
/* EasPolicyAttachEbeFromOptions - the same for an EBE operator (before its
   first solve; the operator's meter is created): -eas_dvfs and
   -eas_power_budget after -eas_dvfs_warmup <5> Krylov iterations of each
   solve (computation: the units' compute phase; communication: the
   exchange phase), restored at the end of the solve.  The backend choice
   of an EBE operator is EasPolicyConfigureEbe + EasPolicyAttachEbe (what
   the resolver of -eas_backend auto does at EasEbeSetUp). */
PETSC_EXTERN PetscErrorCode EasPolicyAttachEbeFromOptions(EasEbe);
