static const char help[] = "Element-by-element PCG on a sequence of growing structured hexahedral meshes (docs/ebe.md, Lang-Runger):\n"
                           "each mesh is assembled element by element, solved with eas cg/pipecg, and the work split over the\n"
                           "compute units (-ebe_split_units) is reported as it evolves (Lang-Rünger Fig. 11-12).\n"
                           "  -fem_problem poisson|elasticity  -fem_order 1|2  -fem_n <elements per direction of the first mesh>\n"
                           "  -fem_steps <meshes>  -fem_grow <elements added per direction per step>  -fem_solves <solves per mesh>\n"
                           "  -fem_monitor (one line per solve)  -fem_material varying|constant  plus -ksp_*, -pc_type, -ebe_* options\n"
                           "Each mesh solves the manufactured problem of EasEbeGetManufacturedSolution (Dirichlet data on the whole\n"
                           "  boundary and the body force from a smooth exact solution; docs/fem.md): the summary gives the algebraic\n"
                           "  relative residual and, beside it, the discretization error against the exact solution in the L2 and\n"
                           "  energy norms with the observed orders (Q1: 2 and 1, Q2: 3 and 2 as the mesh grows)\n"
                           "  -fem_view_solution <viewer> (the last mesh's temperature or displacement through a PETSc viewer on a DMDA of the\n"
                           "  node grid: vtk:file.vts for ParaView, binary:file, hdf5:file.h5 where PETSc has HDF5)\n"
                           "Energy of each mesh step (issue 5, include/eas/ebe.h): -eas_sensor auto|rapl|nvml|model, -eas_power_*,\n"
                           "  -eas_energy_view (the meter's table after each step), -eas_trace <file.csv> (one row per CG iteration;\n"
                           "  with several steps, step s writes <file>.<s>.csv)\n"
                           "Automatic backend choice (issue 5 item 5): -eas_backend auto -eas_criterion time|energy|edp|ed2p: at each mesh's\n"
                           "  EasEbeSetUp the energy policies predict cpu/gpu/hybrid for the mesh (elements per rank, iterations estimated from\n"
                           "  the previous mesh) and build the operator on their pick; during the solve they decide again every\n"
                           "  -ebe_policy_interval iterations from the measured per-element times (a changed answer is printed and used for\n"
                           "  the next mesh); after each solve they print predicted against measured time and energy\n";

#include <eas.h>
#include <petscdmda.h>

#define MAXSTEPS 64

/* The solution x of a built-in mesh of nx x ny x nz elements of the given
   order through a PETSc viewer: the nodes form a structured grid of
   (order n + 1) points per direction, so a DMDA with dof 1 (temperature) or
   3 (displacement) describes it; split only in z like the mesh's slabs, its
   global ordering is the operator's (EasEbeVecToPetsc), so VecView writes
   VTK (.vts), binary or HDF5 with the coordinates of the unit cube. */
static PetscErrorCode ViewSolution(EasEbe ebe, PetscInt order, PetscInt nx, PetscInt ny, PetscInt nz, EasVec x, PetscViewer viewer)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)ebe);
  PetscMPIInt size, rank;
  PetscInt    dof, nown, *lz, NX = order * nx + 1, NY = order * ny + 1;
  DM          da;
  Vec         v;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(EasEbeGetSizes(ebe, NULL, NULL, &dof, NULL, &nown));
  PetscCall(PetscMalloc1(size, &lz));
  nown /= NX * NY; /* owned node layers */
  PetscCallMPI(MPI_Allgather(&nown, 1, MPIU_INT, lz, 1, MPIU_INT, comm));
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, NX, NY, order * nz + 1, 1, 1, size, dof, 1, NULL, NULL, lz, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDASetUniformCoordinates(da, 0, 1, 0, 1, 0, 1));
  if (dof == 1)
    PetscCall(DMDASetFieldName(da, 0, "temperature"));
  else {
    const char *names[] = {"displacement_x", "displacement_y", "displacement_z", NULL};
    PetscCall(DMDASetFieldNames(da, names));
  }
  PetscCall(DMCreateGlobalVector(da, &v));
  PetscCall(PetscObjectSetName((PetscObject)v, "solution")); /* VTK fields solution.temperature, solution.displacement_x, ... */
  PetscCall(EasEbeVecToPetsc(ebe, x, v));
  PetscCall(VecView(v, viewer));
  PetscCall(VecDestroy(&v));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFree(lz));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt           n, nel, ndof, its, shares[2];
  KSPConvergedReason reason;
  PetscReal          t_solve, res, t_el[2], E;
  PetscReal          el2, een; /* discretization error, relative: L2 and energy norms */
  PetscInt           nunits;
  PetscReal          joules, watts, edp; /* energy of the step (EasEnergyMeterGetSummary) */
  PetscBool          valid;
  const char        *source; /* EasEnergySummaryGetSource: measured, modelled or measured+modelled */
} StepRow;

int main(int argc, char **argv)
{
  PetscInt          prob = 0, order = 1, n0 = 4, steps = 3, grow = 2, solves = 1, mat = 0;
  PetscBool         monitor = PETSC_FALSE, vsol = PETSC_FALSE;
  PetscViewer       vsol_viewer = NULL;
  PetscViewerFormat vsol_format;
  PetscMPIInt       size;
  StepRow           row[MAXSTEPS];

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "fem_pcg: element-by-element PCG example", NULL);
  PetscCall(PetscOptionsEList("-fem_problem", "PDE", NULL, EasEbeProblems, 2, EasEbeProblems[prob], &prob, NULL));
  PetscCall(PetscOptionsInt("-fem_order", "Element order: 1 (Q1, 8 nodes) or 2 (Q2, 27 nodes)", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-fem_n", "Elements per direction of the first mesh", NULL, n0, &n0, NULL));
  PetscCall(PetscOptionsInt("-fem_steps", "Number of growing meshes", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-fem_grow", "Elements added per direction at each step", NULL, grow, &grow, NULL));
  PetscCall(PetscOptionsInt("-fem_solves", "Solves per mesh", NULL, solves, &solves, NULL));
  PetscCall(PetscOptionsEList("-fem_material", "Material: k or E = 1 + 0.5 sin(3x+2y+z) (varying) or 1 (constant)", "EasEbeSetMeshMaterial", EasEbeMaterials, 2, EasEbeMaterials[mat], &mat, NULL));
  PetscCall(PetscOptionsBool("-fem_monitor", "One line per solve: iterations, time, shares, per-element times", NULL, monitor, &monitor, NULL));
  PetscCall(PetscOptionsViewer("-fem_view_solution", "The last mesh's solution through a PETSc viewer (vtk:file.vts, binary:file, hdf5:file.h5)", "VecView", &vsol_viewer, &vsol_format, &vsol));
  PetscOptionsEnd();
  PetscCheck(steps >= 1 && steps <= MAXSTEPS, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-fem_steps %" PetscInt_FMT " is invalid: expected 1 to %d meshes", steps, MAXSTEPS);
  PetscCheck(n0 >= 1 && grow >= 0 && solves >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "expected -fem_n >= 1, -fem_grow >= 0, -fem_solves >= 1");

  for (PetscInt s = 0; s < steps; s++) {
    EasEbe           ebe;
    EasKsp           ksp;
    EasVec           ax, b, x;
    EasEbeFieldFn    uex, fex;
    void            *mctx;
    PetscInt         n = n0 + s * grow, nnodes, dof, nown, nel, nu = 0;
    EasEnergyMeter   meter;
    EasEnergySummary S;
    const char      *trace;
    PetscReal        res = 0, nrm = 0, buf[2], derr[2], dnrm[2];
    StepRow         *r = &row[s];

    PetscCall(EasEbeCreate(PETSC_COMM_WORLD, &ebe));
    PetscCall(EasEbeSetMeshBoundary(ebe, EAS_EBE_BC_DIRICHLET)); /* the manufactured problem: Dirichlet data everywhere */
    PetscCall(EasEbeSetMeshMaterial(ebe, (EasEbeMaterial)mat));
    PetscCall(EasEbeSetFromMesh(ebe, (EasEbeProblem)prob, order, n, n, PetscMax(n, size)));
    PetscCall(EasEbeGetEnergyMeter(ebe, &meter)); /* every step is metered: SetFromOptions applies -eas_* */
    PetscCall(EasEbeSetFromOptions(ebe));
    PetscCall(EasEnergyMeterGetTrace(meter, &trace)); /* -eas_trace, read by the meter */
    if (trace && steps > 1) { /* one trace per step */
      char      path[PETSC_MAX_PATH_LEN + 16];
      size_t    len;
      PetscBool csv;
      PetscCall(PetscStrlen(trace, &len));
      PetscCall(PetscStrendswith(trace, ".csv", &csv));
      if (csv)
        PetscCall(PetscSNPrintf(path, sizeof(path), "%.*s.%" PetscInt_FMT ".csv", (int)(len - 4), trace, s));
      else
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s.%" PetscInt_FMT ".csv", trace, s));
      PetscCall(EasEnergyMeterSetTrace(meter, path));
    }
    PetscCall(EasPolicyAttachEbeFromOptions(ebe)); /* -eas_dvfs, -eas_power_budget */
    PetscCall(EasEbeSetUp(ebe));                   /* starts the meter; -eas_backend auto: the policies choose here */
    PetscCall(EasEbeGetSizes(ebe, &nel, NULL, &dof, &nnodes, &nown));
    PetscCall(EasEbeCreateVecs(ebe, &ax, &b));
    PetscCall(EasEbeCreateVecs(ebe, &x, NULL));
    /* the manufactured problem: body force and Dirichlet data of a smooth exact solution */
    PetscCall(EasEbeGetManufacturedSolution(ebe, &uex, &fex, &mctx));
    PetscCall(EasEbeComputeRHS(ebe, fex, uex, mctx, b));

    PetscCall(EasKspCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(EasKspSetType(ksp, EAS_CG));
    PetscCall(EasKspSetOperatorEbe(ksp, ebe));
    PetscCall(EasKspSetFromOptions(ksp));
    for (PetscInt k = 0; k < solves; k++) {
      PetscLogDouble t0, t1;
      PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
      PetscCall(PetscTime(&t0));
      PetscCall(EasKspSolve(ksp, b, x));
      PetscCall(PetscTime(&t1));
      r->t_solve = t1 - t0;
      PetscCall(EasKspGetIterationNumber(ksp, &r->its));
      PetscCall(EasKspGetConvergedReason(ksp, &r->reason));
      {
        const PetscInt  *sh;
        const PetscReal *tel;
        PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, NULL));
        r->nunits = nu;
        for (PetscInt u = 0; u < 2; u++) {
          r->shares[u] = u < nu ? sh[u] : 0;
          r->t_el[u]   = u < nu ? tel[u] : 0;
        }
        r->E = -1;
        if (nu > 0 && tel[0] > 0 && (nu < 2 || tel[1] > 0)) PetscCall(EasEbeSplitEfficiency(ebe, &r->E));
      }
      if (monitor && nu >= 2)
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  mesh %" PetscInt_FMT " solve %" PetscInt_FMT ": %s in %" PetscInt_FMT " its, %.3f s; shares (rank 0) %" PetscInt_FMT "/%" PetscInt_FMT ", t_el %.3e/%.3e s\n", s, k, KSPConvergedReasons[r->reason], r->its, (double)r->t_solve, r->shares[0], r->shares[1], (double)r->t_el[0], (double)r->t_el[1]));
      else if (monitor) /* no split: no shares to print */
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  mesh %" PetscInt_FMT " solve %" PetscInt_FMT ": %s in %" PetscInt_FMT " its, %.3f s\n", s, k, KSPConvergedReasons[r->reason], r->its, (double)r->t_solve));
    }
    /* energy of the step, from EasEbeSetUp to the last solve, labelled as the meter says */
    PetscCall(EasEnergyMeterStop(meter));
    PetscCall(EasEnergyMeterGetSummary(meter, &S));
    r->joules   = S.energy;
    r->watts    = S.power;
    r->edp      = S.edp;
    PetscCall(EasEnergySummaryGetSource(&S, &r->source));
    r->valid    = S.valid;
    PetscCall(EasEnergyMeterViewFromOptions(meter));
    /* algebraic: true relative residual ||b - A x|| / ||b|| over owned entries */
    PetscCall(EasEbeMult(ebe, x, ax));
    {
      const PetscScalar *rv, *bv;
      PetscCall(EasVecGetArrayRead(ax, &rv));
      PetscCall(EasVecGetArrayRead(b, &bv));
      for (PetscInt i = 0; i < nown * dof; i++) {
        res += PetscSqr(bv[i] - rv[i]);
        nrm += PetscSqr(bv[i]);
      }
      PetscCall(EasVecRestoreArrayRead(ax, &rv));
      PetscCall(EasVecRestoreArrayRead(b, &bv));
      buf[0] = res;
      buf[1] = nrm;
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, buf, 2, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
    }
    /* discretization: the finite element field against the exact solution (EasEbeComputeError) */
    PetscCall(EasEbeComputeError(ebe, x, uex, mctx, derr, dnrm));
    r->el2  = derr[0] / dnrm[0];
    r->een  = derr[1] / dnrm[1];
    r->n    = n;
    r->nel  = n * n * PetscMax(n, size);
    r->ndof = (order * n + 1) * (order * n + 1) * (order * PetscMax(n, size) + 1) * dof;
    r->res  = PetscSqrtReal(buf[0] / buf[1]);
    if (vsol && s == steps - 1) {
      PetscCall(PetscViewerPushFormat(vsol_viewer, vsol_format));
      PetscCall(ViewSolution(ebe, order, n, n, PetscMax(n, size), x, vsol_viewer));
      PetscCall(PetscViewerPopFormat(vsol_viewer));
    }
    PetscCall(EasVecDestroy(&ax));
    PetscCall(EasVecDestroy(&b));
    PetscCall(EasVecDestroy(&x));
    PetscCall(EasKspDestroy(&ksp));
    PetscCall(EasEbeDestroy(&ebe));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nfem_pcg summary: %s, Q%" PetscInt_FMT ", %d ranks\n", EasEbeProblems[prob], order, size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4s %5s %9s %9s %5s %-18s %9s %8s %9s %13s %19s %6s\n", "step", "n", "elements", "unknowns", "its", "reason", "solve s", "ms/it", "rel res", "shares(r0)", "t_el u0/u1 (s)", "E_h"));
  for (PetscInt s = 0; s < steps; s++) {
    StepRow *r = &row[s];
    char     sh[2][16], tel[2][16], eh[16];
    /* "-" where there is no split (no units) or no such unit: no placeholder numbers */
    for (PetscInt u = 0; u < 2; u++) {
      if (u < r->nunits) {
        PetscCall(PetscSNPrintf(sh[u], sizeof(sh[u]), "%" PetscInt_FMT, r->shares[u]));
        PetscCall(PetscSNPrintf(tel[u], sizeof(tel[u]), "%.2e", (double)r->t_el[u]));
      } else {
        PetscCall(PetscStrncpy(sh[u], "-", sizeof(sh[u])));
        PetscCall(PetscStrncpy(tel[u], "-", sizeof(tel[u])));
      }
    }
    if (r->E >= 0)
      PetscCall(PetscSNPrintf(eh, sizeof(eh), "%.3f", (double)r->E));
    else
      PetscCall(PetscStrncpy(eh, "-", sizeof(eh)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4" PetscInt_FMT " %5" PetscInt_FMT " %9" PetscInt_FMT " %9" PetscInt_FMT " %5" PetscInt_FMT " %-18s %9.4f %8.3f %9.2e %6s/%-6s %9s/%-9s %6s\n", s, r->n, r->nel, r->ndof, r->its, KSPConvergedReasons[r->reason], (double)r->t_solve,
                          (double)(1e3 * r->t_solve / PetscMax(r->its, 1)), (double)r->res, sh[0], sh[1], tel[0], tel[1], eh));
  }
  /* the physics: discretization error against the exact solution, orders between consecutive meshes (h = 1/n) */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "discretization error against the exact solution (relative; orders from consecutive meshes):\n%4s %5s %12s %8s %12s %8s\n", "step", "n", "L2 err", "order", "energy err", "order"));
  for (PetscInt s = 0; s < steps; s++) {
    StepRow *r = &row[s];
    if (s > 0 && r->n != row[s - 1].n) {
      const PetscReal lh = PetscLogReal((PetscReal)r->n / row[s - 1].n);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4" PetscInt_FMT " %5" PetscInt_FMT " %12.4e %8.3f %12.4e %8.3f\n", s, r->n, (double)r->el2, (double)(PetscLogReal(row[s - 1].el2 / r->el2) / lh), (double)r->een, (double)(PetscLogReal(row[s - 1].een / r->een) / lh)));
    } else
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4" PetscInt_FMT " %5" PetscInt_FMT " %12.4e %8s %12.4e %8s\n", s, r->n, (double)r->el2, "", (double)r->een, ""));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy per mesh step (setup + solves, all ranks):\n%4s %12s %12s %12s %9s\n", "step", "energy J", "avg power W", "EDP J s", "source"));
  for (PetscInt s = 0; s < steps; s++) {
    StepRow *r = &row[s];
    if (r->valid)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4" PetscInt_FMT " %12.4e %12.4g %12.4e %9s\n", s, (double)r->joules, (double)r->watts, (double)r->edp, r->source));
    else
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%4" PetscInt_FMT " %12s %12s %12s %9s\n", s, "n/a", "n/a", "n/a", "n/a"));
  }
  PetscCall(PetscViewerDestroy(&vsol_viewer));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: poisson_q1
    nsize: 1 2
    args: -fem_steps 3 -fem_n 3 -fem_problem poisson -fem_order 1 -ksp_rtol 1e-10
    expect: fem_pcg summary: poisson, Q1
    expect: ^ +2 +7 +[0-9]+ +[0-9]+ +[0-9]+ CONVERGED_RTOL
    expect: ^ +2 +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +(modelled|measured|measured\+modelled)$
    expect: ^ +2 +7 +[0-9.e+-]+ +(1\.9|2\.0|2\.1)[0-9]* +[0-9.e+-]+ +(0\.9|1\.0|1\.1)[0-9]*$
  test:
    suffix: elasticity_q2_pipe
    nsize: 2
    args: -fem_steps 2 -fem_n 2 -fem_grow 1 -fem_problem elasticity -fem_order 2 -ksp_type pipecg -pc_type pbjacobi -ebe_mode async -ksp_rtol 1e-10 -fem_monitor
    expect: mesh 1 solve 0: CONVERGED_RTOL
    expect: fem_pcg summary: elasticity, Q2
    expect: ^ +1 +3 +[0-9.e+-]+ +(2\.[89]|3\.[01])[0-9]* +[0-9.e+-]+ +(1\.[89]|2\.[01])[0-9]*$
  test:
    suffix: disabled_once
    nsize: 1 2
    backends: /cpu/serial
    args: -fem_steps 2 -fem_n 2 -eas_rapl_root /nonexistent/powercap -eas_nvml_library libnvidia-ml-absent-for-test.so.1 -eas_energy_view
    expect_count: 1 ^eas: sensor rapl: Disabled: cannot open /nonexistent/powercap
    expect_count: 1 ^eas: sensor nvml: Disabled: cannot load libnvidia-ml-absent-for-test.so.1
    expect: ^ +1 +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +modelled$
  test:
    suffix: view_solution
    nsize: 1 2
    backends: /cpu/serial
    args: -fem_steps 2 -fem_n 2 -fem_grow 1 -fem_problem elasticity -fem_view_solution vtk:@TMP@/eas_test_fem_pcg_view.vts
    expect: ^ +1 +3 +27 +192 .*CONVERGED_RTOL
  test:
    suffix: disabled_quiet
    nsize: 1 2
    backends: /cpu/serial
    args: -fem_steps 2 -fem_n 2 -eas_rapl_root /nonexistent/powercap -eas_nvml_library libnvidia-ml-absent-for-test.so.1
    expect_count: 0 Disabled
    expect_count: 0 0/0|0\.00e\+00|-1\.000
    expect: ^ +1 +4 +64 +125 +[0-9]+ CONVERGED_RTOL .* +-/- +-/- +- *$
    expect: ^ +1 +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +modelled$
  test:
    suffix: energy_view
    nsize: 2
    backends: /cpu/serial
    args: -fem_steps 1 -fem_n 3 -eas_sensor model -eas_power_cpu_idle 10 -eas_power_cpu_full 50 -eas_energy_view
    expect: compute +[0-9.e+-]+ .*modelled
    expect: ^ +0 +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +modelled$
  test:
    suffix: split
    backends: /cpu/openmp
    args: -fem_steps 2 -fem_n 4 -fem_solves 3 -fem_problem poisson -fem_order 2 -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_test_virtual_time 1e-6 -ebe_rebalance_interval 5 -fem_monitor
    expect: mesh 1 solve 2: CONVERGED_RTOL
    expect: ^ +1 +6 +216 .* 14[0-4]/7[2-6] .*1\.00e-06/2\.00e-06 +0\.9[0-9]+
  test:
    suffix: split_on_device
    nsize: 2
    backends: none
    # the operator on /cpu/memcheck, its vectors kept there, a CPU unit with a gather list per rank (docs/ebe.md
    # "Split on a device operator"), the exchange through the host copy: the unsplit run's iterations (22, 34, 46)
    args: -eas_backend /cpu/memcheck -fem_n 4 -fem_problem poisson -fem_order 2 -ebe_split_units /cpu/memcheck,/cpu:1 -fem_monitor
    expect: ^ +0 +4 +64 +729 +22 CONVERGED_RTOL
    expect: ^ +1 +6 +216 +2197 +34 CONVERGED_RTOL
    expect: ^ +2 +8 +512 +4913 +46 CONVERGED_RTOL
  test:
    suffix: split_device
    nsize: 1 2
    backends: /cpu/openmp
    args: -fem_steps 2 -fem_n 4 -fem_solves 2 -fem_problem poisson -fem_order 2 -ebe_split_units /cpu/memcheck,/cpu:1 -ebe_rebalance_interval 5 -fem_monitor
    expect: mesh 1 solve 1: CONVERGED_RTOL
    expect: ^ +1 +6 +216 +2197 .*CONVERGED_RTOL
  test:
    suffix: auto
    nsize: 1 2
    backends: none
    requires: !cuda-device
    args: -eas_backend auto -eas_criterion energy -fem_steps 2 -fem_n 3 -eas_sensor model
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion energy\): predicted cpu T=[0-9.e+-]+ s E=[0-9.e+-]+ J; gpu and hybrid excluded: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
    expect: ^EasEbe: [1-9][0-9]* online decision\(s\) during the solve, 0 changed the answer; latest /cpu
    expect: ^EasPolicy: /cpu predicted T=[0-9.e+-]+ s E=[0-9.e+-]+ J, measured T=[0-9.e+-]+ s E=[0-9.e+-]+ J \(modelled\), ratios
  test:
    suffix: auto_gpu
    nsize: 1 2
    backends: none
    requires: cuda-device
    args: -eas_backend auto -eas_criterion energy -fem_steps 2 -fem_n 3 -eas_sensor model
    expect: ^eas: -eas_backend auto: chose
    expect_count: 0 is not usable
    expect: ^EasEbe: [1-9][0-9]* online decision\(s\) during the solve
  test:
    suffix: split_gpu
    backends: none
    requires: cuda-device
    args: -fem_steps 2 -fem_n 4 -fem_solves 3 -fem_problem poisson -fem_order 2 -ebe_split_units /gpu/cuda,/cpu:1 -ebe_rebalance_interval 5 -fem_monitor
    expect: mesh 1 solve 2: CONVERGED_RTOL
  test:
    suffix: auto_hybrid
    nsize: 1 2
    backends: none
    args: -eas_backend auto -eas_policy_device /cpu/memcheck -eas_criterion time -eas_power_profile tests/data/profile_hybrid_wins.opts -fem_steps 2 -fem_n 3 -eas_sensor model -fem_monitor
    expect: ^eas: -eas_backend auto: chose hybrid \(criterion time\): predicted cpu T=[0-9.e+-]+ s .*; gpu \(/cpu/memcheck\) T=[0-9.e+-]+ s .*; hybrid \(r=0\.5\) T=
    expect: mesh 0 solve 0: CONVERGED_RTOL in [0-9]+ its, .*shares \(rank 0\) [1-9][0-9]{0,6}/[1-9][0-9]{0,6},
    expect: mesh 1 solve 0: CONVERGED_RTOL
TEST*/
