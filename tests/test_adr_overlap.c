static const char help[] = "The overlapping multisplitting (-adr_overlap d, restricted additive Schwarz) against its peer,\n"
                           "PETSc SNES newtonls whose linear solve is one application of PCASM (restrict, overlap d,\n"
                           "LU on the subdomains: -ksp_type preonly -pc_type asm -pc_asm_type restrict -pc_asm_overlap d)\n"
                           "on the same residual (EasAdrComputeFunction/Jacobian of a solver without overlap, the\n"
                           "same decomposition), step by step from the same state: the outer iterations of each step\n"
                           "against SNES's Newton iterations, and the answers against each other; and a step's\n"
                           "synchronous exchanges of planes, one per outer iteration (the stage's exchange of x_old = x\n"
                           "is the first iteration's: counted by hand from the algorithm).\n"
                           "  -steps <2>       implicit Euler steps compared\n"
                           "  -its_tol <0.1>   |eas outer - SNES its| <= its_tol x SNES its (the issue's 10 %%)\n"
                           "  -tol <1e-6>      max_s ||x_s - y_s|| / ||y_s|| after each step\n";

/*
  Why the two iterations are the same: SNES newtonls with full steps and
  KSPPREONLY + PCASM takes x <- x - sum_i R_i^0' (R_i J R_i')^{-1} R_i F(x),
  R_i the restriction to rank i's subdomain extended by d layers of the
  matrix graph, R_i^0 to its own rows (restricted additive Schwarz, Cai and
  Sarkis, SISC 1999).  eas's rank i assembles F and J on its box extended
  by d planes (the neighbours' current values beyond the box: R_i F(x) and
  R_i J R_i'), solves, and keeps its own points: the same step.  Across one
  face (cuts in one direction), d graph layers are d planes; where two cuts
  meet, eas's box takes the corner block too, PCASM's graph overlap a
  diamond, so -peer_box gives PCASM eas's boxes.  The diagonal neighbours'
  values (the corner block, a ghost plane across another direction's
  overlap) come through a face neighbour: with -adr_overlap_phased (the
  default) the exchange goes direction by direction and they are current,
  the same step as PCASM's (equal counts, answers to 1e-12); without, they
  are one outer iteration old and the counts differ (1 x 2 x 2, d = 1: 4
  outer iterations per step against 3).  eas's inner BiCGStab runs to
  -adr_ksp_rtol (tight in the tests), PCASM's LU is exact.
*/
#include <eas.h>
#include <petscsnes.h>

#include "adr_snes_peer.h"

/*
  BoxSubdomain - the global rows of this rank's own box extended by d points
  in every direction where the grid goes on (a box, as eas's), and of its
  own box; from the public layout only: every rank's own box
  (EasAdrGetLocalGrid) and first row (the Vec's ownership), the rows of a
  box numbered lexicographically, 2 per point.
*/
static PetscErrorCode BoxSubdomain(EasAdr adr, Vec X, PetscInt d, IS *is, IS *isl)
{
  PetscMPIInt size;
  PetscInt    mine[7], *all, N[3], lo[3], hi[3], n = 0, nl = 0, *idx, *idl;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(EasAdrGetLocalGrid(adr, &mine[0], &mine[1], &mine[2], &mine[3], &mine[4], &mine[5]));
  PetscCall(VecGetOwnershipRange(X, &mine[6], NULL));
  PetscCall(EasAdrGetGrid(adr, &N[0], &N[1], &N[2]));
  PetscCall(PetscMalloc1(7 * size, &all));
  PetscCallMPI(MPI_Allgather(mine, 7, MPIU_INT, all, 7, MPIU_INT, PETSC_COMM_WORLD));
  for (PetscInt e = 0; e < 3; e++) {
    lo[e] = PetscMax(0, mine[e] - d);
    hi[e] = PetscMin(N[e], mine[e] + mine[3 + e] + d);
  }
  PetscCall(PetscMalloc2(2 * (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]), &idx, 2 * mine[3] * mine[4] * mine[5], &idl));
  for (PetscInt k = lo[2]; k < hi[2]; k++)
    for (PetscInt j = lo[1]; j < hi[1]; j++)
      for (PetscInt i = lo[0]; i < hi[0]; i++) {
        const PetscInt g[3] = {i, j, k};
        for (PetscMPIInt r = 0; r < size; r++) {
          const PetscInt *b = all + 7 * r;
          PetscBool       in = PETSC_TRUE;
          for (PetscInt e = 0; e < 3; e++) in = (PetscBool)(in && g[e] >= b[e] && g[e] < b[e] + b[3 + e]);
          if (!in) continue;
          for (PetscInt s = 0; s < 2; s++) idx[n++] = b[6] + 2 * ((i - b[0]) + b[3] * ((j - b[1]) + b[4] * (k - b[2]))) + s;
          break;
        }
      }
  for (PetscInt i = 0; i < 2 * mine[3] * mine[4] * mine[5]; i++) idl[nl++] = mine[6] + i;
  PetscCall(PetscSortInt(n, idx));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, idx, PETSC_COPY_VALUES, is));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nl, idl, PETSC_COPY_VALUES, isl));
  PetscCall(PetscFree2(idx, idl));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasAdr                adr, ref;
  EasAdrConvergedReason reason;
  EasAdrStats           st;
  AdrPeerCtx            c;
  SNES                  snes;
  KSP                   ksp;
  PC                    pc;
  Mat                   J;
  Vec                   X, Y, D;
  PetscReal             dt, t, tol = 1e-6, its_tol = 0.1, rtol = 1e-8;
  PetscInt              steps = 2, d, p[3], outer0 = 0, exch0 = 0, fails = 0, eas_total = 0, snes_total = 0;
  PetscBool             box = PETSC_FALSE;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-its_tol", &its_tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-peer_box", &box, NULL));
  PetscCheck(steps >= 1 && tol > 0 && its_tol >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "expected -steps >= 1, -tol > 0, -its_tol >= 0");

  /* eas with the overlap of the options; the reference residual: the same solver without it */
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrGetOverlap(adr, &d));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(EasAdrSetFromOptions(ref));
  PetscCall(EasAdrSetOverlap(ref, 0));
  PetscCall(EasAdrSetUp(ref));
  PetscCall(EasAdrGetDecomposition(adr, p, NULL));
  PetscCall(EasAdrGetTimeStep(adr, &dt));
  PetscCall(EasAdrCreateGlobalVec(ref, &X));
  PetscCall(VecDuplicate(X, &Y));
  PetscCall(VecDuplicate(X, &D));
  PetscCall(VecDuplicate(X, &c.Xold));

  /* the peer: SNES + one PCASM application per Newton iteration, eas's outer test */
  c.adr  = ref;
  c.rtol = rtol;
  c.dt   = dt;
  PetscCall(EasAdrCreateJacobianMat(ref, &J));
  PetscCall(AdrPeerCreateSNES(&c, J, 1e-8, PETSC_FALSE, "peer_", &snes));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCASM));
  PetscCall(PCASMSetType(pc, PC_ASM_RESTRICT));
  if (!box) PetscCall(PCASMSetOverlap(pc, d));
  else { /* the subdomain: this rank's box extended by d planes where the grid goes on, with its own rows as the restriction */
    IS is, isl;
    PetscCall(BoxSubdomain(ref, X, d, &is, &isl));
    PetscCall(PCASMSetLocalSubdomains(pc, 1, &is, &isl));
    PetscCall(ISDestroy(&is));
    PetscCall(ISDestroy(&isl));
  }
  PetscCall(PetscOptionsSetValue(NULL, "-peer_sub_ksp_type", "preonly")); /* tight subdomain solves */
  PetscCall(PetscOptionsSetValue(NULL, "-peer_sub_pc_type", "lu"));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, rtol, PETSC_DEFAULT, 200, PETSC_DEFAULT));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "decomposition %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", overlap %" PetscInt_FMT ", dt %g\n", p[0], p[1], p[2], d, (double)dt));
  for (PetscInt s = 0; s < steps; s++) {
    SNESConvergedReason sr;
    PetscInt            its, outer, exch;
    PetscReal           nd[2], ny[2], rel = 0;

    PetscCall(EasAdrGetSolution(adr, c.Xold)); /* both from eas's state */
    PetscCall(EasAdrGetTime(adr, &t));
    c.t = t + dt;
    PetscCall(EasAdrStep(adr));
    PetscCall(EasAdrGetConvergedReason(adr, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "eas step %" PetscInt_FMT " did not converge: %s", s, EasAdrConvergedReasonName(reason));
    PetscCall(EasAdrGetStats(adr, &st));
    outer  = st.outer_its - outer0; /* the step's (every rank iterates alike in sync mode) */
    outer0 = st.outer_its;
    exch   = st.exchanges - exch0; /* one per outer iteration: the stage's exchange of x_old (= x) is the first one's */
    exch0  = st.exchanges;
    PetscCall(EasAdrGetSolution(adr, X));

    PetscCall(VecCopy(c.Xold, Y));
    PetscCall(SNESSolve(snes, NULL, Y));
    PetscCall(SNESGetConvergedReason(snes, &sr));
    PetscCheck(sr > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "SNES + PCASM did not converge at step %" PetscInt_FMT ": %s", s, SNESConvergedReasons[sr]);
    PetscCall(SNESGetIterationNumber(snes, &its));

    PetscCall(VecWAXPY(D, -1.0, Y, X));
    PetscCall(EasAdrSpeciesNorms(ref, D, nd));
    PetscCall(EasAdrSpeciesNorms(ref, Y, ny));
    for (PetscInt k = 0; k < 2; k++) rel = PetscMax(rel, nd[k] / ny[k]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %" PetscInt_FMT ": eas outer iterations %" PetscInt_FMT ", SNES + PCASM Newton iterations %" PetscInt_FMT "; max_s ||x_s - y_s||/||y_s|| %.2e; exchanges of planes %" PetscInt_FMT " (rank 0)\n", s + 1, outer, its, (double)rel, exch));
    if (PetscAbsReal((PetscReal)(outer - its)) > its_tol * its || rel > tol || exch != outer) fails++;
    eas_total += outer;
    snes_total += its;
  }
  if (!fails) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "overlap %" PetscInt_FMT ": outer iterations %" PetscInt_FMT " against PCASM's %" PetscInt_FMT ", answers equal to %g: agree\n", d, eas_total, snes_total, (double)tol));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "overlap %" PetscInt_FMT ": %" PetscInt_FMT " of %" PetscInt_FMT " steps differ from PCASM beyond -its_tol %g or -tol %g\n", d, fails, steps, (double)its_tol, (double)tol));

  PetscCall(SNESDestroy(&snes));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Y));
  PetscCall(VecDestroy(&D));
  PetscCall(VecDestroy(&c.Xold));
  PetscCall(EasAdrDestroy(&ref));
  PetscCall(EasAdrDestroy(&adr));
  PetscCall(EasFinalize());
  return fails ? 1 : 0;
}

/*TEST
  test:
    suffix: xcut
    nsize: 2
    args: -adr_n 16 -adr_decomp 2,1,1 -adr_overlap 1 -adr_ksp_rtol 1e-12
    expect: overlap 1: .* agree
  test:
    suffix: xcut2
    nsize: 2
    backends: /cpu/serial /cpu/memcheck
    args: -adr_n 16 -adr_decomp 2,1,1 -adr_overlap 2 -adr_ksp_rtol 1e-12
    expect: overlap 2: .* agree
  test:
    suffix: line4
    nsize: 4
    backends: /cpu/serial /cpu/memcheck
    args: -adr_n 16 -adr_decomp 4,1,1 -adr_overlap 1 -adr_ksp_rtol 1e-12
    expect: overlap 1: .* agree
  test:
    suffix: auto4
    nsize: 4
    backends: /cpu/serial
    args: -adr_n 16 -adr_overlap 2 -adr_ksp_rtol 1e-12
    expect: overlap 2: .* agree
  test:
    suffix: corners
    nsize: 4
    backends: /cpu/serial
    args: -adr_n 16 -adr_decomp 2,2,1 -adr_overlap 2 -adr_ksp_rtol 1e-12 -peer_box -its_tol 0 -tol 1e-12
    expect: overlap 2: .* agree
  test:
    # the phased exchange (z, y, z): every step PCASM's on the same boxes, the same counts, answers to 1e-12;
    # on memcheck, the device path (the pads between the rounds on the backend, only the planes crossing)
    suffix: corners_yz
    nsize: 4
    backends: /cpu/memcheck
    args: -adr_n 16 -adr_decomp 1,2,2 -adr_overlap 1 -adr_ksp_rtol 1e-12 -peer_box -its_tol 0 -tol 1e-12
    expect: overlap 1: outer iterations 6 against PCASM's 6, answers equal to 1e-12: agree
  test:
    suffix: corners_xz
    nsize: 4
    backends: /cpu/serial
    args: -adr_n 16 -adr_decomp 2,1,2 -adr_overlap 1 -adr_ksp_rtol 1e-12 -peer_box -its_tol 0 -tol 1e-12
    expect: overlap 1: outer iterations 14 against PCASM's 14, answers equal to 1e-12: agree
  test:
    # all faces at once: the diagonal neighbours' values one outer iteration old, 4 iterations per step against 3
    suffix: corners_lagged
    nsize: 4
    backends: /cpu/serial
    args: -adr_n 16 -adr_decomp 1,2,2 -adr_overlap 1 -adr_ksp_rtol 1e-12 -peer_box -its_tol 0 -adr_overlap_phased false
    expect_error: step 2: eas outer iterations 4, SNES \+ PCASM Newton iterations 3
TEST*/
