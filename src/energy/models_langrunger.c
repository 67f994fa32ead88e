/*
  Lang-Rünger: per-element times and energies of the EBE CG and the CPU/GPU
  split (sec. 4, Table 2).

  No global state, no I/O; inputs validated with the checks of modelsimpl.h
  (include/eas/energy.h documents every function, docs/models.md gives the
  equations and docs/references.md the papers).
*/
#include "modelsimpl.h"

/* ============================================================ Lang-Rünger */

static PetscErrorCode CheckLangRunger(const EasLangRungerParams *prm)
{
  PetscFunctionBegin;
  EasCheckNull(prm, "prm");
  EasCheckEnergy(prm->E_el_cpu, "prm->E_el_cpu");
  EasCheckEnergy(prm->E_el_dram, "prm->E_el_dram");
  EasCheckEnergy(prm->E_el_gpu, "prm->E_el_gpu");
  EasCheckEnergy(prm->E_el_copy, "prm->E_el_copy");
  EasCheckPower(prm->P_idle_cpu, "prm->P_idle_cpu");
  EasCheckPower(prm->P_idle_dram, "prm->P_idle_dram");
  EasCheckPower(prm->P_idle_gpu, "prm->P_idle_gpu");
  EasCheckPositive(prm->l, "prm->l (CG iterations)");
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerEnergyPerElement(const EasLangRungerParams *prm, PetscReal *EcpuStar, PetscReal *EgpuStar, PetscReal *PidleStar)
{
  PetscFunctionBegin;
  PetscCall(CheckLangRunger(prm));
  if (EcpuStar) *EcpuStar = prm->E_el_cpu + prm->E_el_dram;          /* Lang-Rünger eq. (36) */
  if (EgpuStar) *EgpuStar = prm->E_el_gpu + prm->E_el_copy / prm->l; /* Lang-Rünger eq. (39) */
  if (PidleStar) *PidleStar = prm->P_idle_cpu + prm->P_idle_dram;    /* Lang-Rünger eq. (35) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerCase(const EasLangRungerParams *prm, EasLangRungerCase *which, PetscReal *threshold)
{
  PetscReal Ec = 0, Eg = 0, Pi = 0, thr;

  PetscFunctionBegin;
  PetscCall(EasModelLangRungerEnergyPerElement(prm, &Ec, &Eg, &Pi));
  EasCheckTime(prm->t_el_gpu, "prm->t_el_gpu");
  EasCheckNull(which, "which");
  thr = Eg + Pi * prm->t_el_gpu; /* Lang-Rünger sec. 4.3, case 2 right-hand side */
  if (Ec < Eg)
    *which = EAS_LR_CPU_ONLY; /* Lang-Rünger sec. 4.3, case 1 */
  else if (Ec > thr)
    *which = EAS_LR_GPU_ONLY; /* Lang-Rünger sec. 4.3, case 2 */
  else
    *which = EAS_LR_HYBRID; /* Lang-Rünger sec. 4.3, case 3 */
  if (threshold) *threshold = thr;
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerGpuWorthwhile(PetscReal t_el_copy, PetscReal t_el_cpu, PetscReal l, PetscInt p, PetscBool *worthwhile)
{
  PetscFunctionBegin;
  EasCheckTimeNonNeg(t_el_copy, "t_el_copy");
  EasCheckTime(t_el_cpu, "t_el_cpu");
  EasCheckPositive(l, "l (CG iterations)");
  PetscCheck(p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "p = %" PetscInt_FMT " (CPU cores) must be > 0", p);
  EasCheckNull(worthwhile, "worthwhile");
  *worthwhile = (t_el_copy < l * t_el_cpu / (PetscReal)p) ? PETSC_TRUE : PETSC_FALSE; /* Lang-Rünger eq. (23) */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerRatio(PetscReal t_el_cpu, PetscReal t_el_gpu, PetscInt p, PetscInt q, PetscReal *r)
{
  PetscFunctionBegin;
  EasCheckTime(t_el_cpu, "t_el_cpu");
  EasCheckTime(t_el_gpu, "t_el_gpu");
  PetscCheck(p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "p = %" PetscInt_FMT " (CPU cores) must be > 0", p);
  PetscCheck(q > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "q = %" PetscInt_FMT " (GPUs) must be > 0", q);
  EasCheckNull(r, "r");
  *r = 1.0 / (1.0 + (t_el_gpu / t_el_cpu) * ((PetscReal)p / (PetscReal)q)); /* Lang-Rünger eq. (42); (26) for q = 1 */
  PetscFunctionReturn(0);
}

PetscErrorCode EasModelLangRungerPredict(const EasLangRungerParams *prm, PetscReal nel, PetscReal r, PetscReal *t, PetscReal *E)
{
  PetscReal Ec = 0, Pi = 0, ngpu, ncpu, tcpu, tgpu, tidle_cpu, tidle_gpu, l;

  PetscFunctionBegin;
  PetscCall(EasModelLangRungerEnergyPerElement(prm, &Ec, NULL, &Pi));
  EasCheckTime(prm->t_el_cpu, "prm->t_el_cpu");
  EasCheckTime(prm->t_el_gpu, "prm->t_el_gpu");
  EasCheckTimeNonNeg(prm->t_el_copy, "prm->t_el_copy");
  PetscCheck(prm->p > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "prm->p = %" PetscInt_FMT " (CPU cores) must be > 0", prm->p);
  EasCheckPositive(nel, "nel (number of elements)");
  EasCheckBeta(r, "r (GPU fraction)");
  l    = prm->l;
  ngpu = r * nel;                                               /* Lang-Rünger eq. (25) */
  ncpu = (1 - r) * nel / (PetscReal)prm->p;                     /* Lang-Rünger eq. (25), per core */
  tcpu = ncpu * prm->t_el_cpu;                                  /* Lang-Rünger eq. (18) */
  tgpu = ngpu * prm->t_el_gpu;                                  /* Lang-Rünger eq. (19) */
  if (t) *t = ngpu * prm->t_el_copy + l * PetscMax(tcpu, tgpu); /* Lang-Rünger eq. (22) */
  tidle_cpu = l * PetscMax(tgpu - tcpu, 0.0);                   /* CPU waits for the GPU, Lang-Rünger eq. (37) */
  tidle_gpu = l * PetscMax(tcpu - tgpu, 0.0);                   /* GPU waits for the CPU */
  if (E)
    *E = l * ((PetscReal)prm->p * ncpu * Ec + ngpu * prm->E_el_gpu) /* Lang-Rünger eqs. (31)-(33), (37) */
         + ngpu * prm->E_el_copy                                    /* Lang-Rünger eq. (34) */
         + Pi * tidle_cpu + prm->P_idle_gpu * tidle_gpu;            /* Lang-Rünger eq. (37) idle terms */
  PetscFunctionReturn(0);
}
