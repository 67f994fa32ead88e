/*
  -eas_backend auto: the energy policies' resolver, registered with the
  backend registry by EasPolicyInitializePackage (EasInitialize does it)
  and called by the registry when a solver without a backend reaches its
  SetUp with -eas_backend auto (docs/design.md: the registry parses the
  option; the decision belongs to this layer, above the solvers, so the
  registry calls what was registered and names nothing of it).  A driver
  calls nothing for it.

    EasAdr  a policy (DIA workload, candidates cpu and gpu: the ADR runs each
            rank on one backend) predicts the run: rows per rank (an even
            split) x -adr_policy_its_per_step <100> inner iterations x the
            steps planned; the chosen backend is created and the policy stays
            attached (EasPolicyAttachAdr, every -adr_policy_interval <1>
            steps, moving the solver to a changed answer).
    EasEbe  a policy (EBE workload, candidates cpu, gpu and hybrid) predicts
            a solve: the local elements (max over ranks) x the iterations
            expected, chooses and configures the operator (the hybrid: the
            split units, EasPolicyConfigureEbe) and stays attached
            (EasPolicyAttachEbe, every -ebe_policy_interval <10> iterations).
            An operator set up after another in this process starts from
            what was measured there (EasPolicyEbeMemory: per-element times,
            and the iterations scaled with the mesh, its ~ 1/h ~ N^(1/3) for
            CG on the 3D elliptic problems), as one policy kept over a run
            of growing meshes would; the first guess is 10 p N^(1/3)
            iterations (order p, N global elements).
  Any other object: no rule (the registry says so).
*/
#include "policyimpl.h"

EasPolicyEbeMemory eas_policy_ebe_memory;

static PetscErrorCode EasPolicyResolveAdr(EasAdr adr, MPI_Comm becomm, EasBackend *be)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)adr);
  const char *prefix;
  EasPolicy   pol;
  PetscInt    interval = 1, steps, nx, ny, nz;
  PetscReal   its      = 100;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)adr, &prefix));
  PetscOptionsBegin(comm, prefix, "EasAdr -eas_backend auto", "EasPolicy");
  PetscCall(PetscOptionsInt("-adr_policy_interval", "-eas_backend auto: time steps between online decisions", "EasPolicyAttachAdr", interval, &interval, NULL));
  PetscCall(PetscOptionsReal("-adr_policy_its_per_step", "-eas_backend auto: inner iterations per step assumed before the first one is measured", "EasPolicyAttachAdr", its, &its, NULL));
  PetscOptionsEnd();
  PetscCheck(its > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-adr_policy_its_per_step %g is invalid: expected a number of iterations > 0", (double)its);
  PetscCall(EasAdrGetStepsPlanned(adr, &steps));
  PetscCall(EasAdrGetGrid(adr, &nx, &ny, &nz));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(EasPolicyCreate(comm, &pol));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)pol, prefix));
  PetscCall(EasPolicySetWorkload(pol, EAS_WORKLOAD_DIA));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetCandidates(pol, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE)); /* the ADR runs each rank on one backend: no split */
  PetscCall(EasPolicySetWork(pol, PetscCeilReal(2.0 * nx * ny * nz / size), its * steps));
  PetscCall(EasPolicyCreateBackend(pol, becomm, be)); /* prints the choice and its predicted numbers */
  PetscCall(EasPolicyAttachAdr(pol, adr, interval));
  PetscCall(EasPolicyDestroy(&pol));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasPolicyResolveEbe(EasEbe ebe, MPI_Comm becomm, EasBackend *be)
{
  MPI_Comm            comm = PetscObjectComm((PetscObject)ebe);
  EasPolicyEbeMemory *mem  = &eas_policy_ebe_memory;
  const char         *prefix;
  EasPolicy           pol;
  PetscInt            interval = 10, nel, nen, nloc;
  PetscReal           nglobal, its;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ebe, &prefix));
  PetscOptionsBegin(comm, prefix, "EasEbe -eas_backend auto", "EasPolicy");
  PetscCall(PetscOptionsInt("-ebe_policy_interval", "-eas_backend auto: Krylov iterations between online decisions", "EasPolicyAttachEbe", interval, &interval, NULL));
  PetscOptionsEnd();
  PetscCheck(interval >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ebe_policy_interval %" PetscInt_FMT " is invalid: expected a number of iterations >= 1", interval);
  PetscCall(EasEbeGetSizes(ebe, &nel, &nen, NULL, NULL, NULL));
  PetscCall(MPIU_Allreduce(&nel, &nloc, 1, MPIU_INT, MPI_MAX, comm));
  nglobal = (PetscReal)nel;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nglobal, 1, MPIU_REAL, MPIU_SUM, comm));
  /* iterations: the last solve's here, scaled by (N/N_last)^(1/3) (CG on an h-refined 3D elliptic problem: its ~ 1/h);
     else 10 p N^(1/3) (order p: 27-node elements are Q2) */
  if (mem->its > 0 && mem->nglobal > 0) its = PetscMax(mem->its, 1) * PetscCbrtReal(nglobal / mem->nglobal);
  else its = 10.0 * (nen == 27 ? 2 : 1) * PetscCbrtReal(nglobal);
  PetscCall(PetscInfo(ebe, "-eas_backend auto for %" PetscInt_FMT " elements per rank and ~%.0f iterations\n", nloc, (double)its));
  PetscCall(EasPolicyCreate(comm, &pol));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)pol, prefix));
  PetscCall(EasPolicySetWorkload(pol, EAS_WORKLOAD_EBE));
  PetscCall(EasPolicySetFromOptions(pol));
  PetscCall(EasPolicySetElementTimes(pol, mem->t_el[0], mem->t_el[1], -1)); /* measured before in this process (<= 0: keep the calibrated ones) */
  PetscCall(EasPolicySetWork(pol, (PetscReal)nloc, its));
  PetscCall(EasPolicyChooseEbe_Private(pol, ebe, becomm, be)); /* prints the decision and its predicted numbers */
  PetscCall(EasPolicyAttachEbe(pol, ebe, interval));
  PetscCall(EasPolicyDestroy(&pol));
  PetscFunctionReturn(0);
}

/* The resolver (EasBackendAutoResolver, registered by EasPolicyInitializePackage). */
PetscErrorCode EasPolicyResolveBackend_Private(PetscObject obj, MPI_Comm comm, EasBackend *be)
{
  PetscFunctionBegin;
  *be = NULL;
  if (obj->classid == EAS_ADR_CLASSID) PetscCall(EasPolicyResolveAdr((EasAdr)obj, comm, be));
  else if (obj->classid == EAS_EBE_CLASSID) PetscCall(EasPolicyResolveEbe((EasEbe)obj, comm, be));
  PetscFunctionReturn(0);
}
