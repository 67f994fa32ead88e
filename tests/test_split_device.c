static const char help[] = "The split with the operator on a device backend (issue 20 item 4, docs/ebe.md \"Split on a device operator\"):\n"
                           "a Q1 Poisson box of nx x nx x nz elements on the operator's backend (-eas_backend, e.g. /cpu/memcheck), a\n"
                           "device unit (the operator's backend) and a CPU unit taking the last elements, in fixed shares.\n"
                           "For each CPU share (whole element layers) it checks\n"
                           "  - the gather list against the count derived by hand: k layers of nx x nx Q1 elements touch (nx+1)^2 (k+1)\n"
                           "    nodes, so L = (nx+1)^2 (k+1) dofs;\n"
                           "  - the bytes crossing per apply, counted by the backend (EasBackendGetTransferBytes: /cpu/memcheck checks\n"
                           "    every copy it makes is booked), against 2 x 8 x L and nothing else;\n"
                           "  - y = A x of the split against the unsplit apply on the same backend (EasEbeMultAddRange), to 1e-14;\n"
                           "with -ebe_deterministic, two split applies give the same bits (the scatter-add order is fixed);\n"
                           "then CG with the split against CG without it: the same iterations, the same solution to 1e-10.\n"
                           "With -alone <applies>, the device unit alone (a declined split: the CPU unit holds no elements): <applies>\n"
                           "applies, each followed by a norm (what a Krylov method reads back), must leave the host waiting on the\n"
                           "device's timer marks 0 times (EasBackendGetTimerWaits; /cpu/memcheck resolves a mark only after a later point\n"
                           "where CUDA would synchronize), and the device unit's time must still be measured; back to back, without\n"
                           "the norm, each apply but the first waits once for the previous one's marks.\n"
                           "  -nx <elements in x and y> -nz <elements in z> -layers <k1,k2,...: CPU shares in element layers> -alone <applies>\n";

#include <eas.h>

/* max |a - b| / max |b| over the host copies of two vectors */
static PetscErrorCode RelDiff(EasVec a, EasVec b, PetscInt n, PetscReal *rel)
{
  const PetscScalar *pa, *pb;
  PetscReal          num = 0.0, den = 0.0;

  PetscFunctionBegin;
  PetscCall(EasVecGetArrayRead(a, &pa));
  PetscCall(EasVecGetArrayRead(b, &pb));
  for (PetscInt i = 0; i < n; i++) {
    num = PetscMax(num, PetscAbsScalar(pa[i] - pb[i]));
    den = PetscMax(den, PetscAbsScalar(pb[i]));
  }
  PetscCall(EasVecRestoreArrayRead(b, &pb));
  PetscCall(EasVecRestoreArrayRead(a, &pa));
  *rel = den > 0 ? num / den : num;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  EasEbe           ebe;
  EasBackend       be, units[2];
  EasVec           x, y, yref, b, u1, u2;
  EasKsp           ksp;
  PetscInt         nx = 6, nz = 10, layers[8] = {1, 2, 4}, nlayers = 3, nel, n, nu, its1, its2, alone = 0;
  const PetscInt  *sh;
  const PetscReal *tel, *tun;
  PetscScalar     *xa;
  PetscReal        rel;
  const char      *res;
  PetscBool        det = PETSC_FALSE;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nx", &nx, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nz", &nz, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ebe_deterministic", &det, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-alone", &alone, NULL));
  {
    PetscInt  nl = 8;
    PetscBool flg;
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-layers", layers, &nl, &flg));
    if (flg) nlayers = nl;
  }
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_POISSON, 1, nx, nx, nz));
  PetscCall(EasEbeSetFromOptions(ebe));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeGetBackend(ebe, &be));
  PetscCall(EasEbeGetSizes(ebe, &nel, NULL, NULL, NULL, NULL));
  n = (nx + 1) * (nx + 1) * (nz + 1);
  PetscCall(EasBackendGetResource(be, &res));
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, res, &units[0])); /* the device unit: the operator's backend */
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu", &units[1]));
  PetscCall(EasBackendSetThreads(units[1], 1));
  PetscCall(EasEbeSetSplitType(ebe, EAS_EBE_SPLIT_FIXED));
  PetscCall(EasEbeCreateVecs(ebe, &x, &y));
  PetscCall(EasEbeCreateVecs(ebe, &yref, NULL));
  PetscCall(EasVecGetArray(x, &xa));
  for (PetscInt i = 0; i < n; i++) xa[i] = PetscSinReal(0.37 * i) + 0.01 * (i % 7);
  PetscCall(EasVecRestoreArray(x, &xa));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Q1 Poisson %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " elements (%" PetscInt_FMT "), operator on %s\n", nx, nx, nz, nel, res));
  for (PetscInt s = 0; s < nlayers; s++) {
    const PetscInt k = layers[s], ncpu = k * nx * nx, L = (nx + 1) * (nx + 1) * (k + 1);
    const PetscInt reps = 3;
    PetscLogDouble h0, d0, h1, d1, per;
    PetscCheck(k >= 1 && k < nz, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-layers: %" PetscInt_FMT " is invalid: expected 1 to nz-1 = %" PetscInt_FMT " element layers", k, nz - 1);
    PetscCall(EasEbeSetGpuShare(ebe, (PetscReal)(nel - ncpu) / nel));
    PetscCall(EasEbeSetSplitUnits(ebe, 2, units)); /* re-runs the split's setup: the new shares, the CPU unit's gather list */
    PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, &tun));
    PetscCheck(sh[1] == ncpu, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the CPU unit has %" PetscInt_FMT " elements, expected %" PetscInt_FMT, sh[1], ncpu);
    PetscCall(EasEbeMult(ebe, x, y)); /* x's device copy becomes current here (its upload is not an apply's) */
    PetscCall(EasBackendGetTransferBytes(be, &h0, &d0));
    for (PetscInt r = 0; r < reps; r++) PetscCall(EasEbeMult(ebe, x, y));
    PetscCall(EasBackendGetTransferBytes(be, &h1, &d1));
    per = (h1 - h0 + d1 - d0) / reps;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "CPU share %4.1f %% (%" PetscInt_FMT " layers, %" PetscInt_FMT " elements): list by hand (nx+1)^2 (k+1) = %" PetscInt_FMT " dofs; bytes per apply %.0f down + %.0f up = %.0f (2 x 8 x L = %" PetscInt_FMT ")\n", 100.0 * ncpu / nel, k, ncpu, L, (d1 - d0) / reps, (h1 - h0) / reps, per, 16 * L));
    PetscCheck(per == 16.0 * L && d1 - d0 == h1 - h0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "bytes per apply %.0f (down %.0f, up %.0f), expected 2 x 8 x L = %" PetscInt_FMT, per, (d1 - d0) / reps, (h1 - h0) / reps, 16 * L);
    if (det) { /* colour by colour on the device, a fixed scatter-add order: the same bits at every apply */
      PetscCall(EasEbeMult(ebe, x, yref));
      PetscCall(RelDiff(y, yref, n, &rel));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  two split applies: %s\n", rel == 0.0 ? "bitwise equal" : "differ"));
      PetscCheck(rel == 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "two split applies differ by %g (relative) with -ebe_deterministic", (double)rel);
    }
    PetscCall(EasVecSet(yref, 0.0));
    PetscCall(EasEbeMultAddRange(ebe, 0, nel, x, yref)); /* unsplit, on the operator's backend */
    PetscCall(RelDiff(y, yref, n, &rel));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  split apply vs unsplit: relative difference %s 1e-14\n", rel <= 1e-14 ? "<=" : ">"));
    PetscCheck(rel <= 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "split apply differs from the unsplit one by %g (relative)", (double)rel);
  }
  if (alone > 0) { /* the device unit alone: no host wait per apply, the time still measured */
    PetscInt64 w0, w1, w2;
    PetscReal  nrm;
    PetscCall(EasEbeSetGpuShare(ebe, 1.0));
    PetscCall(EasEbeSetSplitUnits(ebe, 2, units));
    PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, &tun));
    PetscCheck(sh[0] == nel && sh[1] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shares %" PetscInt_FMT " / %" PetscInt_FMT ", expected all %" PetscInt_FMT " on the device unit", sh[0], sh[1], nel);
    PetscCall(EasEbeMult(ebe, x, y));
    PetscCall(EasVecNorm(y, &nrm));
    PetscCall(EasBackendGetTimerWaits(be, &w0));
    for (PetscInt r = 0; r < alone; r++) {
      PetscCall(EasEbeMult(ebe, x, y));
      PetscCall(EasVecNorm(y, &nrm)); /* a reduction read back, as in CG */
    }
    PetscCall(EasBackendGetTimerWaits(be, &w1));
    for (PetscInt r = 0; r < alone; r++) PetscCall(EasEbeMult(ebe, x, y));
    PetscCall(EasBackendGetTimerWaits(be, &w2));
    PetscCall(EasEbeSplitGetState(ebe, &nu, &sh, &tel, &tun)); /* reads the last apply's marks */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "device unit alone: %" PetscInt_FMT " applies with a norm after each: %" PetscInt64_FMT " timer waits; back to back: %" PetscInt64_FMT "; device time %s\n", alone, w1 - w0, w2 - w1, tun[0] > 0 ? "measured" : "missing"));
    PetscCheck(w1 == w0 && tun[0] > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the device unit alone: %" PetscInt64_FMT " timer waits in %" PetscInt_FMT " applies (expected 0), device time %g s", w1 - w0, alone, (double)tun[0]);
    PetscCall(EasEbeSetGpuShare(ebe, (PetscReal)(nel - layers[nlayers - 1] * nx * nx) / nel)); /* back to the last split for CG */
    PetscCall(EasEbeSetSplitUnits(ebe, 2, units));
  }
  /* CG with the split (the last share) against CG without it */
  PetscCall(EasKspCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(EasKspSetType(ksp, EAS_CG));
  PetscCall(EasKspSetOperatorEbe(ksp, ebe));
  PetscCall(EasKspSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(EasKspSetFromOptions(ksp));
  PetscCall(EasEbeCreateVecs(ebe, &b, &u1));
  PetscCall(EasEbeCreateVecs(ebe, &u2, NULL));
  PetscCall(EasVecSet(b, 1.0));
  PetscCall(EasVecSet(u1, 0.0));
  PetscCall(EasVecSet(u2, 0.0));
  PetscCall(EasKspSolve(ksp, b, u1));
  PetscCall(EasKspGetIterationNumber(ksp, &its1));
  PetscCall(EasEbeSetSplitUnits(ebe, 0, NULL));
  PetscCall(EasKspSolve(ksp, b, u2));
  PetscCall(EasKspGetIterationNumber(ksp, &its2));
  PetscCall(RelDiff(u1, u2, n, &rel));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "CG: %" PetscInt_FMT " iterations split, %" PetscInt_FMT " unsplit; solutions %s 1e-10 apart (relative)\n", its1, its2, rel <= 1e-10 ? "<=" : ">"));
  PetscCheck(its1 == its2 && rel <= 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CG with the split: %" PetscInt_FMT " iterations, %g from the unsplit solution; without: %" PetscInt_FMT, its1, (double)rel, its2);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device split test passed\n"));
  PetscCall(EasVecDestroy(&b));
  PetscCall(EasVecDestroy(&u1));
  PetscCall(EasVecDestroy(&u2));
  PetscCall(EasKspDestroy(&ksp));
  PetscCall(EasVecDestroy(&x));
  PetscCall(EasVecDestroy(&y));
  PetscCall(EasVecDestroy(&yref));
  PetscCall(EasBackendDestroy(&units[0]));
  PetscCall(EasBackendDestroy(&units[1]));
  PetscCall(EasEbeDestroy(&ebe));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: memcheck
    backends: none
    args: -eas_backend /cpu/memcheck -layers 1,2,4
    expect: CPU share 10\.0 % \(1 layers, 36 elements\): list by hand \(nx\+1\)\^2 \(k\+1\) = 98 dofs; bytes per apply 784 down \+ 784 up = 1568 \(2 x 8 x L = 1568\)
    expect: CPU share 20\.0 % \(2 layers, 72 elements\): list by hand \(nx\+1\)\^2 \(k\+1\) = 147 dofs; bytes per apply 1176 down \+ 1176 up = 2352 \(2 x 8 x L = 2352\)
    expect: CPU share 40\.0 % \(4 layers, 144 elements\): list by hand \(nx\+1\)\^2 \(k\+1\) = 245 dofs; bytes per apply 1960 down \+ 1960 up = 3920 \(2 x 8 x L = 3920\)
    expect_count: 3 split apply vs unsplit: relative difference <= 1e-14
    expect: CG: ([0-9]+) iterations split, \1 unsplit; solutions <= 1e-10 apart
    expect: device split test passed
  test:
    suffix: memcheck_alone
    backends: none
    # a declined split keeps the device unit alone: its timer marks are read after the caller's next synchronization
    # (0 waits), and only back-to-back applies wait, each but the first once for the previous apply's marks
    args: -eas_backend /cpu/memcheck -layers 2 -alone 12
    expect: device unit alone: 12 applies with a norm after each: 0 timer waits; back to back: 11; device time measured
    expect: device split test passed
  test:
    suffix: memcheck_deterministic
    backends: none
    # the device unit colour by colour (-ebe_deterministic), single-precision storage (the host units read the same floats)
    args: -eas_backend /cpu/memcheck -layers 3 -ebe_deterministic -ebe_storage single
    expect: CPU share 30\.0 % \(3 layers, 108 elements\): list by hand \(nx\+1\)\^2 \(k\+1\) = 196 dofs; bytes per apply 1568 down \+ 1568 up = 3136
    expect: two split applies: bitwise equal
    expect: device split test passed
  test:
    suffix: cuda
    backends: none
    requires: cuda-device
    # the same on /gpu/cuda: the bytes are the booked ones of the pinned copies on the second stream
    args: -eas_backend /gpu/cuda -layers 1,2,4
    expect: CPU share 10\.0 % .* bytes per apply 784 down \+ 784 up = 1568 \(2 x 8 x L = 1568\)
    expect: CPU share 40\.0 % .* bytes per apply 1960 down \+ 1960 up = 3920 \(2 x 8 x L = 3920\)
    expect_count: 3 split apply vs unsplit: relative difference <= 1e-14
    expect: device split test passed
  test:
    suffix: cuda_alone
    backends: none
    requires: cuda-device
    args: -eas_backend /gpu/cuda -layers 2 -alone 12
    expect: device unit alone: 12 applies with a norm after each: 0 timer waits; back to back: [0-9]+; device time measured
    expect: device split test passed
  test:
    suffix: cuda_deterministic
    backends: none
    requires: cuda-device
    args: -eas_backend /gpu/cuda -layers 3 -ebe_deterministic
    expect: bytes per apply 1568 down \+ 1568 up = 3136
    expect: two split applies: bitwise equal
    expect: device split test passed
  test:
    suffix: wrong_device_unit
    backends: none
    args: -eas_backend /cpu/memcheck -ebe_split_units /cpu,/cpu:1
    expect_error: with the operator on /cpu/memcheck, exactly one unit must be /cpu/memcheck
TEST*/
