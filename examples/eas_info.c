static const char help[] = "Lists the eas backends and whether each can be used here, the CUDA module and devices\n"
                           "(compute capability; native code in the module or JIT-compiled PTX).\n\n"
                           "  -available          print the usable backends, one per line\n"
                           "  -unavailable        print the others with the reason\n"
                           "  -require <resource> exit non-zero, saying why, unless the backend is usable\n"
                           "  -features           print the optional parts present (sundials; cuda: the CUDA module loads; cuda-device: and a device is usable), one per line\n\n";

#include <eas.h>

int main(int argc, char **argv)
{
  char        require[64] = ""; /* the default -help shows: uninitialized, it printed stack garbage (a flaky docs/options.md) */
  PetscBool   avail_only = PETSC_FALSE, unavail_only = PETSC_FALSE, req, features = PETSC_FALSE;
  PetscMPIInt level;
  const char *names[] = {"/cpu/openmp", "/cpu/serial", "/cpu/memcheck", "/gpu/cuda"};

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "eas_info options", "Sys");
  PetscCall(PetscOptionsBool("-available", "Print the usable backends", NULL, avail_only, &avail_only, NULL));
  PetscCall(PetscOptionsBool("-unavailable", "Print the unusable backends and why", NULL, unavail_only, &unavail_only, NULL));
  PetscCall(PetscOptionsString("-require", "Fail unless this backend is usable", NULL, require, require, sizeof(require), &req));
  PetscCall(PetscOptionsBool("-features", "Print the optional parts present: sundials, cuda (the CUDA module loads), cuda-device (a usable CUDA device)", NULL, features, &features, NULL));
  PetscOptionsEnd();

  if (features) {
    const char *f[] = {"sundials", "cuda", "cuda-device"};
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
      PetscBool has;
      PetscCall(EasHasFeature(f[i], &has));
      if (has) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", f[i]));
    }
  } else if (req) {
    PetscBool   ok;
    const char *why;
    PetscCall(EasBackendIsAvailable(require, &ok, &why));
    if (!ok) { /* a plain message and a failing exit status, for make check-gpu */
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "Backend %s is not usable: %s; nothing was run\n", require, why));
      PetscCall(EasFinalize());
      return 1;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "backend %s: available\n", require));
  } else if (avail_only || unavail_only) {
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      PetscBool   ok;
      const char *why;
      PetscCall(EasBackendIsAvailable(names[i], &ok, &why));
      if (ok && avail_only) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", names[i]));
      if (!ok && unavail_only) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", names[i], why));
    }
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", EasVersion));
    PetscCall(EasBackendList(PETSC_COMM_WORLD, NULL));
    PetscCall(EasBackendDeviceView(PETSC_COMM_WORLD, NULL));
    PetscCall(EasGetMPIThreadLevel(&level));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MPI thread level: %s\n", level == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                                                                                                         : level == MPI_THREAD_FUNNELED     ? "MPI_THREAD_FUNNELED"
                                                                                                                                                            : "MPI_THREAD_SINGLE"));
  }
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: list
    backends: none
    expect: /cpu/openmp .*available
    expect: /gpu/cuda
    expect: MPI thread level: MPI_THREAD_MULTIPLE
    expect: ^CUDA module: 
    expect_count: 0 \(null\)
  test:
    # without a device: the module (or why it is not loaded) and "none usable here" with the reason
    suffix: devices_none
    backends: none
    requires: !cuda-device
    expect: ^CUDA (module: not loaded \(|devices: none usable here \(no CUDA device)
  test:
    # issue 20 item 8: the device's compute capability and whether the module has native code for it
    suffix: devices
    backends: none
    requires: cuda-device
    expect: ^ +/gpu/cuda .* available$
    expect: ^CUDA module: .*native code sm_[0-9]+.*, PTX compute_[0-9]+
    expect: ^CUDA device 0: .*, compute capability [0-9]+\.[0-9]+: (native code in the module \(sm_[0-9]+\)|no native code in the module).*binaryVersion [0-9]+
  test:
    suffix: require_cuda
    backends: none
    requires: !cuda-device
    args: -require /gpu/cuda
    expect_error: /gpu/cuda is not usable: (no CUDA device|CUDA module not loaded)
  test:
    suffix: require_cuda_device
    backends: none
    requires: cuda-device
    args: -require /gpu/cuda
    expect: backend /gpu/cuda: available
TEST*/
