static const char help[] = "Host-side logic of the CUDA backend, tested where there is no GPU: the rank -> device map and the launch geometry.\n\n";

/*
  Hand-derived numbers (what the functions must return is worked out in the
  comments), no device needed:
  - EasCudaDeviceSelect: auto is the node-local rank modulo the node's devices
    (4 ranks on 2 devices: 0 1 0 1); an explicit device is kept; a device out
    of range, a negative one other than auto (-1) and a node without devices
    are errors naming -eas_cuda_device or the missing device.
  - EasLaunchBlocks + the grid-stride loop: every index of [0,n) is handled
    exactly once, also when n exceeds blocks x threads (the old launches capped
    the grid at 2^20 blocks of 256 without a stride loop, so entries past 2^28
    were skipped): the shares of all threads sum to n, and n = 2^28 + 5 with
    the real constants gives 2^20 blocks whose first 5 threads take 2 entries.
  - EasCudaCodeFor (issue 20 item 8), the default fat module of CUDA 13
    (native sm_75 sm_80 sm_90, PTX compute_90): an H100 (9.0) runs sm_90; an
    A10 (8.6) runs sm_80 (same major, lower minor: binary compatible); a T4
    (7.5) sm_75; a B200 (10.0) and an RTX 50 (12.0) have no native code and
    JIT-compile compute_90; a V100 (7.0) has none at all (sm_75 needs 7.5,
    the PTX 9.0).  The old default -arch=sm_75 (sm_75 + compute_75) gave an
    H100 only PTX.
*/
#include <eas.h>
#include "../src/backends/backend.h"
#include "../src/backends/launch.h"

static PetscErrorCode CheckSelectError(PetscInt requested, PetscMPIInt lr, PetscMPIInt ls, int ndev, const char *what)
{
  PetscErrorCode ierr;
  int            dev = -7;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasCudaDeviceSelect(requested, lr, ls, ndev, &dev);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr != 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "EasCudaDeviceSelect(%" PetscInt_FMT ", %d of %d, %d devices) did not fail (%s): gave %d", requested, lr, ls, ndev, what, dev);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device %" PetscInt_FMT " with %d devices: error (%s)\n", requested, ndev, what));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  {
    const int expect_auto[4] = {0, 1, 0, 1};
    for (int r = 0; r < 4; r++) {
      int dev;
      PetscCall(EasCudaDeviceSelect(-1, r, 4, 2, &dev));
      PetscCheck(dev == expect_auto[r], PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto: local rank %d of 4 on 2 devices got device %d, expected %d", r, dev, expect_auto[r]);
      PetscCall(EasCudaDeviceSelect(1, r, 4, 2, &dev));
      PetscCheck(dev == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-eas_cuda_device 1 on rank %d gave %d", r, dev);
    }
    for (int r = 0; r < 3; r++) { /* 3 ranks, 8 devices: one each */
      int dev;
      PetscCall(EasCudaDeviceSelect(-1, r, 3, 8, &dev));
      PetscCheck(dev == r, PETSC_COMM_SELF, PETSC_ERR_PLIB, "auto: rank %d of 3 on 8 devices got %d", r, dev);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "auto: 4 ranks on 2 devices -> 0 1 0 1; 3 ranks on 8 devices -> 0 1 2\n"));
    PetscCall(CheckSelectError(2, 0, 1, 2, "out of range"));
    PetscCall(CheckSelectError(-3, 0, 1, 2, "negative"));
    PetscCall(CheckSelectError(-1, 0, 1, 0, "no device"));
  }
  {
    const int64_t  ns[]   = {1, 7, 64, 65, 1000, 4097};
    const unsigned caps[] = {1, 3, 16, 1u << 20};
    for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
      for (size_t b = 0; b < sizeof(caps) / sizeof(caps[0]); b++) {
        const unsigned blocks = EasLaunchBlocks(ns[a], 8, caps[b]);
        int64_t        sum    = 0;
        PetscCheck(blocks >= 1 && blocks <= caps[b], PETSC_COMM_SELF, PETSC_ERR_PLIB, "n %" PetscInt64_FMT " cap %u: %u blocks", (PetscInt64)ns[a], caps[b], blocks);
        for (uint64_t t = 0; t < (uint64_t)blocks * 8; t++) { /* walk the grid-stride loop of every thread */
          int64_t cnt = 0;
          for (uint64_t k = t; k < (uint64_t)ns[a]; k += (uint64_t)blocks * 8) cnt++;
          PetscCheck(cnt == EasLaunchThreadShare(ns[a], blocks, 8, t), PETSC_COMM_SELF, PETSC_ERR_PLIB, "share of thread %llu", (unsigned long long)t);
          sum += cnt;
        }
        PetscCheck(sum == ns[a], PETSC_COMM_SELF, PETSC_ERR_PLIB, "n %" PetscInt64_FMT " cap %u: %" PetscInt64_FMT " entries handled", (PetscInt64)ns[a], caps[b], (PetscInt64)sum);
      }
    PetscCheck(EasLaunchBlocks(0, 256, 1u << 20) == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "n = 0 must still launch one block");
    {
      const int64_t  n      = ((int64_t)1 << 28) + 5;
      const unsigned blocks = EasLaunchBlocks(n, 256, 1u << 20);
      PetscCheck(blocks == 1u << 20, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2^28+5 entries: %u blocks, expected 2^20", blocks);
      PetscCheck(EasLaunchThreadShare(n, blocks, 256, 4) == 2 && EasLaunchThreadShare(n, blocks, 256, 5) == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2^28+5 entries: the last 5 are not handled by threads 0..4");
      PetscCheck(EasLaunchBlocks((int64_t)INT32_MAX, 256, 1u << 20) == 1u << 20, PETSC_COMM_SELF, PETSC_ERR_PLIB, "2^31-1 entries");
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "grid-stride: every entry handled once for n in {1..4097} and caps {1,3,16,2^20}; 2^28+5 entries on 2^20 blocks: threads 0..4 take 2 entries\n"));
  }
  { /* the code of a module that runs on a device: {cc, native, jit} */
    const int sass[] = {75, 80, 90}, ptx[] = {90}, old_sass[] = {75}, old_ptx[] = {75};
    const int want[][3] = {{90, 90, 0}, {86, 80, 0}, {75, 75, 0}, {100, 0, 90}, {120, 0, 90}, {70, 0, 0}, {89, 80, 0}};
    int       native, jit;
    for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
      EasCudaCodeFor(want[k][0], sass, 3, ptx, 1, &native, &jit);
      PetscCheck(native == want[k][1] && jit == want[k][2], PETSC_COMM_SELF, PETSC_ERR_PLIB, "compute capability %d: native sm_%d, JIT compute_%d; expected sm_%d, compute_%d", want[k][0], native, jit, want[k][1], want[k][2]);
    }
    EasCudaCodeFor(90, old_sass, 1, old_ptx, 1, &native, &jit);
    PetscCheck(native == 0 && jit == 75, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the old sm_75 build on an H100: native %d, JIT %d", native, jit);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "module code: 9.0 -> sm_90, 8.6 -> sm_80, 8.9 -> sm_80, 7.5 -> sm_75, 10.0 and 12.0 -> PTX compute_90, 7.0 -> none; sm_75-only build on 9.0 -> PTX compute_75\n"));
  }
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: select
    backends: none
    expect: auto: 4 ranks on 2 devices -> 0 1 0 1
    expect: device 2 with 2 devices: error \(out of range\)
    expect: device -1 with 0 devices: error \(no device\)
    expect: grid-stride: every entry handled once
    expect: module code: 9.0 -> sm_90, 8.6 -> sm_80
TEST*/
