/*
  The /gpu/cuda entry of the registry: the CUDA backend lives in a loadable
  module, libeas-cuda.so, so that libeas itself has no CUDA dependency and an
  installation built with nvcc also runs on a machine without the CUDA
  toolkit or driver (/gpu/cuda is then "not available", with the reason).

  The module is dlopen'ed once, at the first request for /gpu/cuda (an
  availability query, eas_info, or EasBackendCreate), from:
    1. $EAS_CUDA_MODULE, when set: the path of the module (an explicit choice,
       so nothing else is tried when it fails);
    2. the directory of the libeas that holds this code (dladdr): where
       make install puts the module, beside libeas.so;
    3. the dynamic linker's search for libeas-cuda.so (RUNPATH of the
       program, LD_LIBRARY_PATH, the ld.so cache): a program linked with the
       static libeas.a.
  A missing module, a module whose CUDA libraries are missing (no toolkit) and
  a module that finds no device (no driver) each give the reason the registry
  reports; a module from another eas build (ABI or structure sizes differ)
  is refused.  The module is never unloaded (the CUDA runtime registers
  process-exit handlers).

  The device of each rank (EasCudaDeviceSelect) is chosen here, not in the
  module: the node-local rank (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) of
  PETSC_COMM_WORLD, done by EasInitialize, so that backends created on
  PETSC_COMM_SELF, e.g. the units of a split, spread too) modulo the node's
  device count, or -eas_cuda_device <int>.
*/
#if !defined(_GNU_SOURCE)
#  define _GNU_SOURCE /* dladdr */
#endif
#include "backend.h"
#include "../core/sysimpl.h" /* EasGetNodeRank */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t       eas_cuda_once = PTHREAD_ONCE_INIT;
static const EasCudaModule *eas_cuda_module;
static char                 eas_cuda_reason[2048];
static char                 eas_cuda_path[PATH_MAX + 32];

/* Tries one path (or a bare name for the linker's search); on success sets
   eas_cuda_module and returns 1; on failure appends the reason and returns 0. */
static int EasCudaModuleTry(const char *path, int must_exist)
{
  void                *h;
  EasCudaModuleGetFn   get;
  const EasCudaModule *m;
  size_t               len = strlen(eas_cuda_reason);
  char                *r   = eas_cuda_reason + len;
  const size_t         rl  = sizeof(eas_cuda_reason) - len;

  if (must_exist && access(path, F_OK) != 0) {
    snprintf(r, rl, "%s%s: not found", len ? "; " : "", path);
    return 0;
  }
  h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) { /* typically: libcudart/libcusparse not found (no CUDA toolkit) */
    const char *e = dlerror();
    snprintf(r, rl, "%s%s cannot be loaded: %s", len ? "; " : "", path, e ? e : "dlopen failed");
    return 0;
  }
  get = (EasCudaModuleGetFn)(uintptr_t)dlsym(h, EAS_CUDA_MODULE_SYMBOL);
  m   = get ? get() : NULL;
  if (!m) {
    snprintf(r, rl, "%s%s is not an eas CUDA module (no %s)", len ? "; " : "", path, EAS_CUDA_MODULE_SYMBOL);
    dlclose(h);
    return 0;
  }
  if (m->abi != EAS_CUDA_MODULE_ABI || m->size_backend != sizeof(struct _p_EasBackend) || m->size_ops != sizeof(struct _EasBackendOps) || m->size_dia != sizeof(EasDiaKernel) || m->size_ebe != sizeof(EasEbeKernel) || m->size_adrk != sizeof(EasAdrKParams)) {
    snprintf(r, rl, "%s%s was built for another eas (module ABI %d, libeas ABI %d, or different structure sizes): reinstall eas with its CUDA module", len ? "; " : "", path, m->abi, EAS_CUDA_MODULE_ABI);
    dlclose(h);
    return 0;
  }
  eas_cuda_module = m;
  snprintf(eas_cuda_path, sizeof(eas_cuda_path), "%s", path);
  return 1;
}

/* Puts prefix in front of the reason collected so far (truncated to the buffer). */
static void EasCudaReasonPrefix(const char *prefix)
{
  size_t lp = strlen(prefix), lr = strlen(eas_cuda_reason);

  if (lp > sizeof(eas_cuda_reason) - 1) lp = sizeof(eas_cuda_reason) - 1;
  if (lp + lr > sizeof(eas_cuda_reason) - 1) lr = sizeof(eas_cuda_reason) - 1 - lp;
  memmove(eas_cuda_reason + lp, eas_cuda_reason, lr);
  memcpy(eas_cuda_reason, prefix, lp);
  eas_cuda_reason[lp + lr] = 0;
}

static void EasCudaModuleLoadOnce(void)
{
  const char *env = getenv("EAS_CUDA_MODULE");
  Dl_info     info;

  eas_cuda_reason[0] = 0;
  if (env && env[0]) {
    (void)EasCudaModuleTry(env, 1);
    if (!eas_cuda_module) {
      char pre[512];
      snprintf(pre, sizeof(pre), "CUDA module not loaded (EAS_CUDA_MODULE=%s): ", env);
      EasCudaReasonPrefix(pre);
    }
    return;
  }
  if (dladdr((void *)(uintptr_t)EasCudaModuleLoadOnce, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
    char        dir[PATH_MAX], path[PATH_MAX + 32];
    const char *slash;

    snprintf(dir, sizeof(dir), "%s", info.dli_fname);
    slash            = strrchr(dir, '/');
    dir[slash - dir] = 0;
    snprintf(path, sizeof(path), "%s/%s", dir, EAS_CUDA_MODULE_NAME);
    if (EasCudaModuleTry(path, 1)) return;
  }
  if (EasCudaModuleTry(EAS_CUDA_MODULE_NAME, 0)) return;
  EasCudaReasonPrefix("CUDA module not loaded (" EAS_CUDA_MODULE_NAME "; build eas where nvcc is found and install it beside libeas, or set EAS_CUDA_MODULE): ");
}

/*
  EasCudaModuleLoad - the CUDA module, loaded at the first call (thread-safe);
  NULL when it cannot be loaded, with *why saying why (a static string).
*/
PetscErrorCode EasCudaModuleLoad(const EasCudaModule **mod, const char **why)
{
  PetscFunctionBegin;
  PetscCheck(pthread_once(&eas_cuda_once, EasCudaModuleLoadOnce) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_once failed loading the CUDA module");
  *mod = eas_cuda_module;
  if (why) *why = eas_cuda_module ? eas_cuda_path : eas_cuda_reason;
  PetscFunctionReturn(0);
}

/* Registry: /gpu/cuda usable here (module loaded and a device found). */
PetscErrorCode EasBackendAvailable_CUDAModule(PetscBool *avail, const char **why)
{
  const EasCudaModule *m;
  const char          *w;

  PetscFunctionBegin;
  *avail = PETSC_FALSE;
  PetscCall(EasCudaModuleLoad(&m, &w));
  if (!m) {
    if (why) *why = w;
    PetscFunctionReturn(0);
  }
  PetscCall(m->available(avail, why));
  PetscFunctionReturn(0);
}

/*@C
  EasCudaDeviceSelect - the CUDA device of a rank.

  Input: requested (>= 0: that device, from -eas_cuda_device <int>; -1:
  auto), local_rank and local_size (the rank within its node, from
  MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), ndev (devices visible on the
  node).  Output: device = requested, or local_rank mod ndev for auto (ranks
  of a node spread round-robin over its devices).

  Errors: no device; requested out of [0, ndev) (names -eas_cuda_device).
@*/
PetscErrorCode EasCudaDeviceSelect(PetscInt requested, PetscMPIInt local_rank, PetscMPIInt local_size, int ndev, int *device)
{
  PetscFunctionBegin;
  PetscCheck(ndev > 0, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "no CUDA device on this node (local rank %d of %d)", local_rank, local_size);
  PetscCheck(local_rank >= 0 && local_rank < local_size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "node-local rank %d is not in [0,%d)", local_rank, local_size);
  if (requested < 0) {
    PetscCheck(requested == -1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-eas_cuda_device %" PetscInt_FMT " is invalid: expected an integer in [0,%d] or auto", requested, ndev - 1);
    *device = local_rank % ndev;
  } else {
    PetscCheck(requested < ndev, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-eas_cuda_device %" PetscInt_FMT " is out of range: this node has %d CUDA device%s (expected an integer in [0,%d] or auto)", requested, ndev, ndev == 1 ? "" : "s", ndev - 1);
    *device = (int)requested;
  }
  PetscFunctionReturn(0);
}

/*
  EasCudaCodeFor - which code of a module runs on a device of compute
  capability cc (x 10): native code (SASS) built for sm_XY runs on devices
  X.Y' with Y' >= Y (same major: binary compatible), so *native is the
  highest such entry of sass; without one, the driver JIT-compiles the PTX
  of the highest entry of ptx not above cc (*jit).  0 for none.
*/
void EasCudaCodeFor(int cc, const int sass[], int nsass, const int ptx[], int nptx, int *native, int *jit)
{
  *native = *jit = 0;
  for (int k = 0; k < nsass; k++)
    if (sass[k] / 10 == cc / 10 && sass[k] % 10 <= cc % 10 && sass[k] > *native) *native = sass[k];
  if (*native) return;
  for (int k = 0; k < nptx; k++)
    if (ptx[k] <= cc && ptx[k] > *jit) *jit = ptx[k];
}

/* "sm_75 sm_80 sm_90" from a list of compute capabilities x 10 */
static void EasCudaCodeList(const char *prefix, const int cc[], int n, char buf[], size_t len)
{
  size_t l = 0;

  buf[0] = 0;
  for (int k = 0; k < n && l < len; k++) l += (size_t)snprintf(buf + l, len - l, "%s%s_%d", k ? " " : "", prefix, cc[k]);
  if (!n) snprintf(buf, len, "(not recorded)");
}

/*@C
  EasBackendDeviceView - prints the CUDA module (where it was loaded from,
  what it was built with, the native code and PTX it holds) and each CUDA
  device visible here: its compute capability and whether the module holds
  native code for it (else the PTX the driver JIT-compiles at the first run).
  Without a module or a device it says so.  Queries each device
  (cudaFuncGetAttributes on a module kernel: creates a context).
@*/
PetscErrorCode EasBackendDeviceView(MPI_Comm comm, PetscViewer viewer)
{
  const EasCudaModule *m   = NULL;
  const char          *why = NULL;
  char                 sass[128], ptx[128];
  int                  ndev = 0;
  PetscBool            avail;

  PetscFunctionBegin;
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_(comm);
  PetscCall(EasCudaModuleLoad(&m, &why));
  if (!m) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA module: not loaded (%s)\n", why));
    PetscFunctionReturn(0);
  }
  EasCudaCodeList("sm", m->sass, m->nsass, sass, sizeof(sass));
  EasCudaCodeList("compute", m->ptx, m->nptx, ptx, sizeof(ptx));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA module: %s (%s; native code %s, PTX %s)\n", eas_cuda_path, m->build, sass, ptx));
  PetscCall(m->available(&avail, &why));
  if (avail) PetscCall(m->device_count(&ndev));
  if (!ndev) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA devices: none usable here (%s)\n", why));
    PetscFunctionReturn(0);
  }
  for (int d = 0; d < ndev; d++) {
    char name[256];
    int  cc, bin, ptxv, native, jit;

    PetscCall(m->device_query(d, name, sizeof(name), &cc, &bin, &ptxv));
    EasCudaCodeFor(cc, m->sass, m->nsass, m->ptx, m->nptx, &native, &jit);
    if (native) PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA device %d: %s, compute capability %d.%d: native code in the module (sm_%d)", d, name, cc / 10, cc % 10, native));
    else if (jit) PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA device %d: %s, compute capability %d.%d: no native code in the module; the driver JIT-compiles its PTX (compute_%d) at the first run (build with CUDA_ARCH=%d for native code)", d, name, cc / 10, cc % 10, jit, cc));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA device %d: %s, compute capability %d.%d: no code in the module runs on it (build with CUDA_ARCH=%d)", d, name, cc / 10, cc % 10, cc));
    if (bin) PetscCall(PetscViewerASCIIPrintf(viewer, "; kernels loaded as binaryVersion %d, ptxVersion %d\n", bin, ptxv));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "; no kernel image loads (cudaFuncGetAttributes)\n"));
  }
  PetscFunctionReturn(0);
}

/* -eas_cuda_device <int|auto>: -1 for auto. */
static PetscErrorCode EasCudaDeviceOption(MPI_Comm comm, const char prefix[], PetscInt *requested)
{
  char      str[32] = "auto";
  PetscBool flg, isauto;

  PetscFunctionBegin;
  *requested = -1;
  PetscOptionsBegin(comm, prefix, "eas backend selection", "Sys"); /* the section of -eas_backend */
  PetscCall(PetscOptionsString("-eas_cuda_device", "CUDA device of this rank: an integer, or auto (node-local rank modulo the node's devices)", "EasCudaDeviceSelect", str, str, sizeof(str), &flg));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(str, "auto", &isauto));
  if (!isauto) {
    char *end;
    long  v = strtol(str, &end, 10);
    PetscCheck(str[0] && !*end && v >= 0 && v <= INT_MAX, comm, PETSC_ERR_ARG_WRONG, "-eas_cuda_device %s is invalid: expected a device number (an integer >= 0) or auto", str);
    *requested = (PetscInt)v;
  }
  PetscFunctionReturn(0);
}

/* Registry: creates /gpu/cuda on this rank's device. */
PetscErrorCode EasBackendInit_CUDAModule(EasBackend be)
{
  const EasCudaModule *m;
  const char          *why;
  MPI_Comm             comm = PetscObjectComm((PetscObject)be), node;
  PetscMPIInt          lrank, lsize;
  PetscInt             requested;
  int                  ndev = 0, device;
  const char          *prefix;

  PetscFunctionBegin;
  PetscCall(EasCudaModuleLoad(&m, &why));
  PetscCheck(m, comm, PETSC_ERR_SUP_SYS, "%s", why);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)be, &prefix));
  PetscCall(EasCudaDeviceOption(comm, prefix, &requested));
  PetscCall(EasGetNodeRank(&lrank, &lsize));
  if (lrank < 0) { /* EasInitialize not called: the node split of the backend's own communicator */
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, &lrank));
    PetscCallMPI(MPI_Comm_size(node, &lsize));
    PetscCallMPI(MPI_Comm_free(&node));
  }
  PetscCall(m->device_count(&ndev));
  PetscCall(EasCudaDeviceSelect(requested, lrank, lsize, ndev, &device));
  PetscCall(PetscInfo(be, "node-local rank %d of %d: CUDA device %d of %d (module %s, %s)\n", lrank, lsize, device, ndev, eas_cuda_path, m->build));
  PetscCall(m->init(be, device));
  PetscFunctionReturn(0);
}
