static const char help[] = "adr3d: the two-species advection-diffusion-reaction problem (docs/adr.md; Vialle et al.\n"
                           "sec. 1.7): SUNDIALS' cvDiurnal on an nx x 1 x nz grid, extended in y in 3D, or a transport problem;\n"
                           "implicit Euler or CVODE's BDF in time, multisplitting Newton over the MPI ranks with an eas\n"
                           "BiCGStab inner solver on each rank's backend.  The solver's options (all listed below by -help):\n"
                           "  -adr_problem diurnal|transport  -adr_n <16> (-adr_nx -adr_ny -adr_nz; -adr_ny 1: 2D)  -adr_tfinal  -adr_steps\n"
                           "  -adr_ts_type beuler|cvode  -adr_dt  -adr_ts_rtol -adr_ts_atol -adr_ts_max_order  (time stepping)\n"
                           "  -adr_monitor  -adr_progress  -adr_view  -adr_output_interval <t>  -adr_monitor_points \"x,y,z;...\"\n"
                           "  -adr_view_solution vtk:c.vts|binary:c.bin|hdf5:c.h5  (the solution through PETSc's viewers)\n"
                           "  -eas_mode sync|async|auto  -eas_backend /cpu|/gpu/cuda|auto  -eas_sensor  -eas_energy_view  -eas_trace\n"
                           "  -eas_comm_delay_us -eas_comm_jitter_us  (fault injection)  -adr_ksp_rtol -adr_pc_type  (inner solver)\n";

#include <eas.h>

int main(int argc, char **argv)
{
  EasAdr                adr;
  EasAdrStats           st;
  EasAdrConvergedReason reason;
  PetscMPIInt           size;
  PetscReal             t;
  PetscInt64            msg[3];
  PetscInt              inner;
  EasEnergyMeter        meter;
  EasEnergySummary      S;
  const char           *src;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasPolicyAttachAdrFromOptions(adr)); /* the energy policies above the solver: -eas_dvfs, -eas_power_budget (-eas_backend auto is resolved at SetUp) */
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrSolve(adr, PETSC_DEFAULT));
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  PetscCall(EasEnergyMeterStop(meter)); /* power and EDP over the solve's wall time, not the printing below */
  PetscCall(EasAdrGetConvergedReason(adr, &reason));
  PetscCall(EasAdrGetStats(adr, &st));
  PetscCall(EasAdrGetTime(adr, &t));
  msg[0] = st.msgs_sent;
  msg[1] = st.msgs_recv;
  msg[2] = st.msgs_stale;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, msg, 3, MPIU_INT64, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(MPIU_Allreduce(&st.inner_its, &inner, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "adr3d summary: %d ranks, %" PetscInt_FMT " steps to t = %g, last step %s\n", size, st.steps, (double)t, EasAdrConvergedReasonName(reason)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  outer iterations %" PetscInt_FMT " (max over ranks), inner BiCGStab iterations %" PetscInt_FMT " (max over ranks)\n", st.outer_its_max, inner));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  time %.3f s, %.4f s per step; async messages sent %" PetscInt64_FMT ", received %" PetscInt64_FMT ", stale %" PetscInt64_FMT "\n", (double)st.time_solve, (double)(st.steps ? st.time_solve / st.steps : 0), msg[0], msg[1], msg[2]));
  {
    EasAdrMode     mode;
    PetscBool      automatic;
    EasAdrAutoInfo ai;
    PetscCall(EasAdrGetMode(adr, &mode, &automatic));
    PetscCall(EasAdrGetModeAutoInfo(adr, &ai));
    if (automatic && ai.decided && ai.rule == EAS_ADR_AUTO_FRONTIER && size > 1)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  mode auto (Vialle et al. eqs. 1.49-1.50, criterion %s): sync trial step T=%.4g s, Pbar=%.4g W; async trial step T=%.4g s, Pbar=%.4g W (%s); alpha = T_sync/T_async = %.4g %s frontier %.4g -> %s\n", EasCriterions[ai.criterion], (double)ai.T[0], (double)ai.P[0], (double)ai.T[1], (double)ai.P[1], ai.Emeasured ? (ai.Emixed ? "measured+modelled" : "measured") : "modelled", (double)ai.alpha, ai.alpha > ai.frontier ? ">" : "<=", (double)ai.frontier, ai.mode == EAS_ADR_ASYNC ? "async" : "sync"));
    else if (automatic && ai.decided)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  mode auto (%s): exchange share of the first step %.3g, threshold %.3g -> %s\n", size > 1 ? "threshold rule" : "one rank", (double)ai.share, (double)ai.threshold, ai.mode == EAS_ADR_ASYNC ? "async" : "sync"));
  }
  {
    EasAdrTSType type;
    PetscCall(EasAdrGetTimeStepType(adr, &type));
    if (type == EAS_ADR_TS_CVODE) {
      EasAdrTSStats ts;
      PetscCall(EasAdrGetTimeStepStats(adr, &ts));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  CVODE: %" PetscInt_FMT " steps, %" PetscInt_FMT " error-test failures, %" PetscInt_FMT " nonlinear iterations (%" PetscInt_FMT " failures), last order %" PetscInt_FMT ", last step %g s\n", ts.steps, ts.err_test_fails, ts.nonlin_its, ts.nonlin_conv_fails, ts.last_order, (double)ts.last_step));
    }
  }
  /* energy of the run (EasAdrSetUp to the end of the solve), labelled as the meter says */
  PetscCall(EasAdrGetEnergyMeter(adr, &meter));
  PetscCall(EasEnergyMeterGetSummary(meter, &S));
  PetscCall(EasEnergySummaryGetSource(&S, &src)); /* measured, modelled or measured+modelled (sensors cover some kinds) */
  if (S.valid)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  energy: %.4e J (%s), average power %.4g W (%s), EDP %.4e J s (%s) over %.3f s\n", (double)S.energy, src, (double)S.power, src, (double)S.edp, src, (double)S.time));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  energy: n/a (the requested sensor is absent; see the \"Disabled\" line above)\n"));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return reason > 0 ? 0 : 1;
}

/*TEST
  test:
    suffix: default
    nsize: 2
    args: -adr_n 8 -adr_steps 4 -adr_monitor
    # the default step derived by hand: h_x = 20/7 km, min(3600, h_x/|V|) = 2857.14 s, 31 steps fill
    # the day, dt = 86400/31 = 2787.10 s, 4 steps end at 11148.4 s
    expect: step +4 t 11148\.4
    expect: adr3d summary: 2 ranks, 4 steps to t = 11148\.4, last step CONVERGED_DX
    expect: energy: [0-9.e+-]+ J \((modelled|measured|measured\+modelled)\), average power [0-9.e+-]+ W \((modelled|measured|measured\+modelled)\), EDP [0-9.e+-]+ J s
  test:
    # regression: at 3600 s the 24^3 multisplitting diverged on 2 ranks (DIVERGED_MAX_IT); the grid-bounded
    # default by hand: h_x = 20/23 km, h_x/|V| = 869.57 s, 100 steps fill the day, dt = 864 s
    suffix: default_dt_bound
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 24 -adr_steps 1
    expect: adr3d summary: 2 ranks, 1 steps to t = 864\.?, last step CONVERGED_DX
  test:
    # regression: BiCGStab reported a breakdown at iteration 68 of the first solve (16^3, dt 3600 on
    # one rank), where PETSc's KSPBCGS converges on the same system
    suffix: bicgstab_no_false_breakdown
    backends: /cpu/serial
    args: -adr_n 16 -adr_dt 3600 -adr_steps 1
    expect: adr3d summary: 1 ranks, 1 steps to t = 3600\.?, last step CONVERGED_DX
  test:
    # issue 21 item 3: ILU(0) as the inner preconditioner on every backend (exact on the CPU, the
    # parallel Chow-Patel form on /cpu/memcheck); 16^3 at dt 3600 needs 262 inner iterations with Jacobi
    suffix: ilu
    nsize: 1 2
    args: -adr_n 12 -adr_dt 3600 -adr_steps 2 -adr_pc_type ilu -adr_view
    expect: ILU\(0\) in the operator's DIA pattern, (exact|parallel form)
    expect: adr3d summary: [12] ranks, 2 steps to t = 7200\.?, last step CONVERGED_DX
  test:
    # ILU(1) of the Jacobian with the z-lines innermost (docs/adr.md, issue 21 item 3): the exact and the parallel form
    suffix: ilu_axes
    nsize: 1 2
    backends: /cpu/serial /cpu/memcheck /gpu/cuda
    args: -adr_n 12 -adr_dt 3600 -adr_steps 2 -adr_pc_type ilu -adr_pc_factor_levels 1 -adr_pc_ilu_axes zxy -adr_view
    expect: ILU\(1\) of P A P' \(axes zxy\) on [0-9]+ offsets, (exact|parallel form)
    expect: adr3d summary: [12] ranks, 2 steps to t = 7200\.?, last step CONVERGED_DX
  test:
    suffix: private_copy
    nsize: 2
    backends: /cpu/memcheck
    args: -adr_n 8 -adr_steps 4 -adr_monitor -eas_memcheck_spmv csr
    expect: step +4 t 11148\.4
    expect: adr3d summary: 2 ranks, 4 steps to t = 11148\.4, last step CONVERGED_DX
  test:
    suffix: energy_view
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 2 -eas_sensor model -eas_power_cpu_idle 10 -eas_power_cpu_full 50 -eas_energy_view
    expect: energy: [0-9.e+-]+ J \(modelled\)
    expect: phase +time \[s\].*energy \[J\] +power \[W\]
    expect: compute .*modelled
  test:
    suffix: auto
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 3 -eas_mode auto -eas_mode_auto_rule threshold -eas_mode_auto_threshold 0 -adr_monitor -eas_sensor model
    expect: mode auto: exchange share [0-9.e+-]+ of the first step \(max over ranks\) > threshold 0 -> async
    expect: last step CONVERGED_ASYNC
  test:
    suffix: auto_frontier
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 4 -eas_mode auto -eas_criterion energy -eas_sensor model -eas_power_cpu_idle 10 -eas_power_cpu_full 50
    expect: ^  mode auto \(Vialle et al. eqs. 1.49-1.50, criterion energy\): sync trial step T=[0-9.e+-]+ s, Pbar=[0-9.e+-]+ W; async trial step T=[0-9.e+-]+ s, Pbar=[0-9.e+-]+ W \(modelled\); alpha = T_sync/T_async = [0-9.e+-]+ (>|<=) frontier [0-9.e+-]+ -> (sync|async)
    expect: last step CONVERGED_(DX|ASYNC)
  test:
    suffix: dvfs_report
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 3 -eas_dvfs report -eas_dvfs_freqs 2000000,1500000,1000000 -eas_sensor model -eas_energy_view
    expect: ^eas: -eas_dvfs report: EPSA \(Fanfakh\) over 2 rank\(s\), per step: T_comp max [0-9.e+-]+ s, T_comm \(slowest rank\) [0-9.e+-]+ s
    expect: ^eas: -eas_dvfs report: F_i = F_max T_i/\(S_opt T_max\) \(eq. fi\) -> available frequency: rank 0 [0-9]+ -> [0-9]+ kHz; rank 1
    expect: DVFS \(EPSA, Fanfakh\): S_opt [0-9.e+-]+; predicted saving [0-9.e+-]+ J .* over the 2\.? step\(s\) after the decision; measured saving n/a \(report mode
  test:
    suffix: power_budget_report
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 2 -eas_power_budget 150 -eas_power_budget_apply 0 -eas_dvfs_freqs 2000000,1000000 -eas_cpufreq_root /nonexistent -eas_rapl_root /nonexistent -eas_sensor model
    expect: ^eas: -eas_power_budget 150\.? W \(Ribeiro eq. 5.7, alpha 0.5,0.5\): 1 node unit\(s\)
    expect: ^eas: -eas_power_budget: node 0 report only \(-eas_power_budget_apply 0\) \(TDP from profile cpu_full\)
  test:
    suffix: async
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 3 -eas_mode async -adr_view
    expect: last step CONVERGED_ASYNC
    expect: messages \(async, all ranks\): sent [1-9]
  test:
    suffix: backend_auto
    nsize: 2
    backends: none
    requires: !cuda-device
    args: -adr_n 8 -adr_steps 3 -eas_backend auto -eas_criterion energy -eas_sensor model
    expect: ^eas: -eas_backend auto: chose /cpu \(criterion energy\): no CPU per-element time to compare with \(-eas_calib_t_el_cpu from eas_calibrate, or measured after the first iterations\); gpu and hybrid excluded: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
    expect: ^EasPolicy: /cpu predicted T=[0-9.e+-]+ s E=[0-9.e+-]+ J, measured T=[0-9.e+-]+ s E=[0-9.e+-]+ J \(modelled\), ratios
    expect: ^EasPolicy: the compute phase took [0-9.e+-]+ s \(max over ranks\) of the measured [0-9.e+-]+ s
    expect: last step CONVERGED_DX
  test:
    suffix: async_decentralized
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 3 -eas_mode async -eas_async_detect decentralized -adr_view
    expect: detection decentralized \(tree election, 2 verification waves\)
    expect: last step CONVERGED_ASYNC
  test:
    suffix: detect_timeout
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 1 -eas_mode async -eas_async_detect decentralized -eas_async_detect_timeout 1e-6
    expect_error: last step DIVERGED_MAX_IT
  test:
    suffix: detect_timeout_iallreduce
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 1 -eas_mode async -eas_async_detect_timeout 1e-6
    expect_error: last step DIVERGED_MAX_IT
  test:
    suffix: halo_rtol0
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 16 -adr_steps 2 -eas_mode async -eas_async_halo_rtol 0 -adr_progress 0
    expect: last step CONVERGED_ASYNC
  test:
    suffix: halo_rtol0_decentralized
    nsize: 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 16 -adr_steps 2 -eas_mode async -eas_async_halo_rtol 0 -eas_async_detect decentralized -eas_async_thread -adr_progress 0
    expect: last step CONVERGED_ASYNC
  test:
    suffix: detect_bad
    nsize: 1
    backends: none
    args: -adr_n 4 -adr_steps 1 -eas_async_detect ring
    expect_error: -eas_async_detect
  test:
    suffix: help
    nsize: 1
    backends: none
    args: -help -adr_steps 1 -adr_n 4
    expect: -adr_problem
    expect: -eas_comm_jitter_us
    expect: -adr_ksp_rtol
    expect: -eas_mode_auto_threshold
    expect: -eas_energy_view
  test:
    suffix: bad_dt
    backends: none
    args: -adr_dt 0
    expect_error: -adr_dt 0\.? is invalid: expected a time step > 0
  test:
    suffix: bad_dt_negative
    backends: none
    args: -adr_dt -5
    expect_error: -adr_dt -5\.? is invalid: expected a time step > 0
  test:
    suffix: bad_grid
    nsize: 4
    backends: none
    args: -adr_n 3
    expect_error: Grid too small for 4 ranks: no px x py x pz = 4 leaves at least 2 planes per rank in every direction of the 3 x 3 x 3 grid
  test:
    # -adr_decomp auto against numbers derived by hand from the diurnal coefficients (docs/adr.md):
    # h = 20/7, dt = 86400/31, w_x = dt (1e-3/h + 2 4e-6/h^2) = 0.97822, w_y = dt 2 4e-6/h^2 = 0.0027314,
    # w_z = dt 2 1e-8 e^10/h^2 = 0.15041; the least coupling cut is y on 2 and 4 ranks (3D)
    suffix: decomp_auto_3d
    nsize: 2 4
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 1 -adr_view
    expect: decomposition 1 x [24] x 1 ranks \(auto: least coupling cut\); rank 0 box 8 x [24] x 8
    expect: coupling weights max dt \(\|V_d\|/h_d \+ 2 K_d/h_d\^2\) at setup: x 0\.9782 y 0\.002731 z 0\.1504
    expect: last step CONVERGED_DX
  test:
    # 2D (one y plane, never cut): z, the weaker of x and z (hand-derived weights as above)
    suffix: decomp_auto_2d
    nsize: 2
    backends: /cpu/serial
    args: -adr_nx 8 -adr_ny 1 -adr_nz 8 -adr_steps 1 -adr_view
    expect: decomposition 1 x 1 x 2 ranks \(auto: least coupling cut\); rank 0 box 8 x 1 x 4
    expect: coupling weights .* x 0\.9782 y 0 z 0\.1504
  test:
    # weights of one order: the cut area counts too (transport: a = (1, 0.5, 0.25), K = 0.02, h = 1/9,
    # dt = 0.02: w = dt (a_d/h + 2K/h^2) = 0.2448, 0.1548, 0.1098; cost of 1 x 2 x 2: 0.1548 + 0.1098 = 0.265
    # per plane area, of 1 x 1 x 4: 3 x 0.1098 = 0.329, of 2 x 1 x 2: 0.355)
    suffix: decomp_auto_transport
    nsize: 4
    backends: /cpu/serial
    args: -adr_problem transport -adr_n 8 -adr_steps 1 -adr_view
    expect: decomposition 1 x 2 x 2 ranks \(auto: least coupling cut\)
    expect: coupling weights .* x 0\.2448 y 0\.1548 z 0\.1098
  test:
    suffix: decomp_given
    nsize: 2
    backends: /cpu/serial
    args: -adr_n 8 -adr_steps 1 -adr_decomp 2,1,1 -adr_view
    expect: decomposition 2 x 1 x 1 ranks \(-adr_decomp\); rank 0 box 4 x 8 x 8
    expect: last step CONVERGED_DX
  test:
    suffix: decomp_bad_product
    nsize: 2
    backends: none
    args: -adr_n 8 -adr_decomp 2,2,1
    expect_error: EasAdrSetDecomposition \(-adr_decomp\): 2,2,1 has 4 ranks but the solver runs on 2: expected px,py,pz with px\*py\*pz = 2, or auto
  test:
    suffix: decomp_bad_planes
    nsize: 2
    backends: none
    args: -adr_nx 3 -adr_decomp 2,1,1
    expect_error: -adr_decomp 2,1,1 \(EasAdrSetDecomposition\): 3 points in x \(-adr_nx\) over 2 ranks leave fewer than 2 planes per rank; expected at most 1 ranks in x, or -adr_decomp auto
  test:
    suffix: decomp_bad_form
    backends: none
    args: -adr_decomp 2x1
    expect_error: -adr_decomp 2x1 is invalid: expected auto or px,py,pz \(three counts >= 1 whose product is the number of ranks\)
  test:
    suffix: decomp_bad_count
    backends: none
    args: -adr_decomp 1,0,1
    expect_error: -adr_decomp 1,0,1 is invalid: expected auto or px,py,pz
  test:
    suffix: bad_reaction
    backends: none
    args: -adr_reaction ozone
    expect_error: Unknown value "ozone" for -adr_reaction: expected diurnal or linear
  test:
    suffix: bad_bc
    backends: none
    args: -adr_bc periodic
    expect_error: Unknown value "periodic" for -adr_bc: expected dirichlet or neumann
  test:
    suffix: bad_advection
    backends: none
    args: -adr_advection weno
    expect_error: Unknown value "weno" for -adr_advection: expected upwind or central
  test:
    suffix: bad_problem
    backends: none
    args: -adr_problem navier
    expect_error: Unknown value "navier" for -adr_problem: expected diurnal or transport
  test:
    suffix: bad_mode
    backends: none
    args: -eas_mode fast
    expect_error: Unknown value "fast" for -eas_mode: expected sync, async or auto
  test:
    suffix: bad_dvfs
    backends: none
    args: -adr_n 4 -eas_dvfs fast
    expect_error: Unknown option fast for -eas_dvfs. Available options: off report apply
  test:
    suffix: bad_dvfs_freqs
    backends: none
    args: -adr_n 4 -eas_dvfs report -eas_dvfs_freqs 2000000,-5
    expect_error: -eas_dvfs_freqs: entry 1 = -5\.? is invalid: expected frequencies in kHz > 0
  test:
    suffix: bad_power_budget
    backends: none
    args: -adr_n 4 -eas_power_budget -5
    expect_error: -eas_power_budget -5\.? is invalid: expected a total power in W > 0 \(0: off\)
  test:
    suffix: dvfs_and_budget
    backends: none
    args: -adr_n 4 -eas_dvfs apply -eas_power_budget 100 -eas_dvfs_freqs 2000000,1000000
    expect_error: -eas_dvfs apply and -eas_power_budget both set the CPU frequencies
  test:
    suffix: bad_auto_rule
    backends: none
    args: -adr_n 4 -eas_mode auto -eas_mode_auto_rule guess
    expect_error: Unknown option guess for -eas_mode_auto_rule. Available options: frontier threshold
  test:
    suffix: bad_auto_threshold
    backends: none
    args: -eas_mode auto -eas_mode_auto_threshold 1.5
    expect_error: -eas_mode_auto_threshold 1.5 is invalid: expected a share of the step time in \[0, 1\]
  test:
    suffix: bad_halo_rtol
    backends: none
    args: -eas_mode async -eas_async_halo_rtol -1
    expect_error: -eas_async_halo_rtol -1\.? is invalid: expected a factor >= 0
  test:
    suffix: backend_auto_gpu
    nsize: 2
    backends: none
    requires: cuda-device
    args: -adr_n 8 -adr_steps 3 -eas_backend auto -eas_criterion energy -eas_sensor model
    expect: ^eas: -eas_backend auto: chose
    expect_count: 0 is not usable
    expect: last step CONVERGED
TEST*/
