/*
  The backend registry: every backend is listed, compiled in or not, and
  selected by a resource string (libCEED style).
*/
#include "backend.h"
#include <omp.h>

PetscClassId EAS_BACKEND_CLASSID;

static PetscBool eas_backend_package_initialized = PETSC_FALSE;

/*
  EasBackendInitializePackage - the EasBackend class.  Called by
  EasBackendCreate.
*/
PetscErrorCode EasBackendInitializePackage(void)
{
  PetscFunctionBegin;
  if (eas_backend_package_initialized) PetscFunctionReturn(0);
  PetscCall(EasPackageInitialized_Private(&eas_backend_package_initialized)); /* cleared at PetscFinalize */
  PetscCall(PetscClassIdRegister("EAS Backend", &EAS_BACKEND_CLASSID));
  PetscFunctionReturn(0);
}

static PetscErrorCode EasAvailable_Always(PetscBool *avail, const char **why)
{
  *avail = PETSC_TRUE;
  if (why) *why = "available";
  return 0;
}

static const EasBackendEntry eas_backends[] = {
    {"/cpu/openmp", {"/cpu", NULL, NULL}, "CPU, OpenMP threads", EasBackendInit_CPU, EasAvailable_Always},
    {"/cpu/serial", {NULL, NULL, NULL}, "CPU, one thread", EasBackendInit_CPUSerial, EasAvailable_Always},
    {"/cpu/memcheck", {NULL, NULL, NULL}, "CPU, device-like memory checks", EasBackendInit_Memcheck, EasAvailable_Always},
    /* a loadable module (cudamodule.c): "not available" with the reason when it, the CUDA libraries or a device are missing */
    {"/gpu/cuda", {"/gpu", NULL, NULL}, "NVIDIA GPU, CUDA kernels and cuSPARSE", EasBackendInit_CUDAModule, EasBackendAvailable_CUDAModule},
};
#define EAS_NBACKENDS ((PetscInt)(sizeof(eas_backends) / sizeof(eas_backends[0])))

static PetscErrorCode EasBackendFind(const char resource[], const EasBackendEntry **entry)
{
  PetscBool match;

  PetscFunctionBegin;
  *entry = NULL;
  for (PetscInt b = 0; b < EAS_NBACKENDS && !*entry; b++) {
    PetscCall(PetscStrcmp(resource, eas_backends[b].resource, &match));
    for (PetscInt a = 0; a < 3 && !match && eas_backends[b].aliases[a]; a++) PetscCall(PetscStrcmp(resource, eas_backends[b].aliases[a], &match));
    if (match) *entry = &eas_backends[b];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode EasBackendKnownNames(char buf[], size_t len)
{
  PetscFunctionBegin;
  buf[0] = 0;
  for (PetscInt b = 0; b < EAS_NBACKENDS; b++) {
    PetscCall(PetscStrlcat(buf, b ? ", " : "", len));
    PetscCall(PetscStrlcat(buf, eas_backends[b].resource, len));
    for (PetscInt a = 0; a < 3 && eas_backends[b].aliases[a]; a++) {
      PetscCall(PetscStrlcat(buf, b || a ? ", " : "", len));
      PetscCall(PetscStrlcat(buf, eas_backends[b].aliases[a], len));
    }
  }
  PetscFunctionReturn(0);
}

/*@C
  EasBackendIsAvailable - whether resource names a backend usable here.

  Output: avail, and why (a static string: "available", "CUDA module not
  loaded (...)", "no CUDA device (...)", or "unknown backend").
@*/
PetscErrorCode EasBackendIsAvailable(const char resource[], PetscBool *avail, const char *why[])
{
  const EasBackendEntry *e;

  PetscFunctionBegin;
  PetscCall(EasBackendFind(resource, &e));
  if (!e) {
    *avail = PETSC_FALSE;
    if (why) *why = "unknown backend";
    PetscFunctionReturn(0);
  }
  PetscCall(e->available(avail, why));
  PetscFunctionReturn(0);
}

/*@C
  EasBackendList - prints every backend with its state.
@*/
PetscErrorCode EasBackendList(MPI_Comm comm, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_(comm);
  PetscCall(PetscViewerASCIIPrintf(viewer, "eas backends:\n"));
  for (PetscInt b = 0; b < EAS_NBACKENDS; b++) {
    PetscBool   avail;
    const char *why;
    char        alias[64] = "";

    PetscCall(eas_backends[b].available(&avail, &why));
    for (PetscInt a = 0; a < 3 && eas_backends[b].aliases[a]; a++) {
      PetscCall(PetscStrlcat(alias, a ? ", " : " (alias ", sizeof(alias)));
      PetscCall(PetscStrlcat(alias, eas_backends[b].aliases[a], sizeof(alias)));
    }
    if (alias[0]) PetscCall(PetscStrlcat(alias, ")", sizeof(alias)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-13s%-16s %-40s %s\n", eas_backends[b].resource, alias, eas_backends[b].description, why ? why : avail ? "available" : "not available"));
  }
  PetscFunctionReturn(0);
}

/*@C
  EasBackendCreate - creates the backend named by resource ("/cpu",
  "/cpu/serial", "/gpu/cuda", ...).

  Errors: unknown name (lists the known ones); "CUDA module not loaded"
  when the CUDA module, or the CUDA libraries it needs, are missing; "no
  CUDA device" when it loads but finds no usable device.
@*/
PetscErrorCode EasBackendCreate(MPI_Comm comm, const char resource[], EasBackend *be)
{
  const EasBackendEntry *e;
  PetscBool              avail;
  const char            *why;
  EasBackend             b;

  PetscFunctionBegin;
  PetscValidPointer(be, 3);
  PetscCall(EasBackendInitializePackage());
  PetscCheck(resource && resource[0], comm, PETSC_ERR_ARG_NULL, "Backend resource string is empty; expected one of /cpu, /cpu/serial, /cpu/memcheck, /gpu/cuda");
  PetscCall(EasBackendFind(resource, &e));
  if (!e) {
    char known[256];
    PetscCall(EasBackendKnownNames(known, sizeof(known)));
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown eas backend \"%s\" (-eas_backend); known backends: %s", resource, known);
  }
  PetscCall(e->available(&avail, &why));
  PetscCheck(e->init, comm, PETSC_ERR_SUP, "eas backend %s is %s", e->resource, why);
  PetscCheck(avail, comm, PETSC_ERR_SUP_SYS, "eas backend %s cannot be used: %s", e->resource, why);

  PetscCall(PetscHeaderCreate(b, EAS_BACKEND_CLASSID, "EasBackend", "eas compute backend", "Sys", comm, EasBackendDestroy, EasBackendView));
  PetscCall(PetscStrncpy(b->resource, e->resource, sizeof(b->resource)));
  PetscCall(PetscObjectChangeTypeName((PetscObject)b, e->resource));
  PetscCall(e->init(b));
  *be = b;
  PetscFunctionReturn(0);
}

/* The resolver of -eas_backend auto, registered by a layer above (the
   energy policies, at EasPolicyInitializePackage). */
static EasBackendAutoResolver eas_backend_auto_resolver = NULL;

PetscErrorCode EasBackendSetAutoResolver(EasBackendAutoResolver fn)
{
  PetscFunctionBegin;
  eas_backend_auto_resolver = fn;
  PetscFunctionReturn(0);
}

/* -eas_backend under prefix: the registry is the one parser of the option
   (docs/design.md); auto is resolved for obj by the registered resolver. */
static PetscErrorCode EasBackendCreateFromOptions_Internal(PetscObject obj, MPI_Comm comm, const char prefix[], EasBackend *be)
{
  char      resource[64] = "/cpu";
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidPointer(be, 4);
  *be = NULL;
  PetscOptionsBegin(comm, prefix, "eas backend selection", "Sys");
  PetscCall(PetscOptionsString("-eas_backend", "Backend resource: /cpu, /cpu/serial, /cpu/memcheck, /gpu/cuda, or auto (chosen by the energy policies under -eas_criterion)", "EasBackendCreate", resource, resource, sizeof(resource), &flg));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(resource, "auto", &flg));
  if (flg) {
    /* "auto" is a decision of the energy policies, a layer above the backends: they register the resolver */
    PetscCheck(eas_backend_auto_resolver, comm, PETSC_ERR_ORDER, "-eas_backend auto is chosen by the energy policies, whose package registers the resolver: call EasInitialize(), or EasInitializePackage() after PetscInitialize(), or name a backend: /cpu, /cpu/serial, /cpu/memcheck, /gpu/cuda");
    if (obj) PetscCall((*eas_backend_auto_resolver)(obj, comm, be));
    PetscCheck(*be, comm, PETSC_ERR_ARG_WRONG, "-eas_backend auto is chosen by the energy policies for a solver (an EasAdr or an EasEbe, at its SetUp, from its size)%s%s: name a backend: /cpu, /cpu/serial, /cpu/memcheck, /gpu/cuda", obj ? ", not for an " : "; EasBackendCreateFromOptions has no solver", obj ? obj->class_name : "");
    PetscFunctionReturn(0);
  }
  PetscCall(EasBackendCreate(comm, resource, be));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*be, prefix));
  PetscCall(EasBackendSetFromOptions(*be));
  PetscFunctionReturn(0);
}

/*@C
  EasBackendCreateFromOptions - creates the backend named by -eas_backend
  (default /cpu) under prefix, then applies EasBackendSetFromOptions().
  Errors: auto (the energy policies choose for a solver, at its SetUp).
@*/
PetscErrorCode EasBackendCreateFromOptions(MPI_Comm comm, const char prefix[], EasBackend *be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendCreateFromOptions_Internal(NULL, comm, prefix, be));
  PetscFunctionReturn(0);
}

/*
  EasBackendCreateFor_Private - the backend of obj (an EasDia, EasEbe or
  EasAdr without one at its SetUp) on comm: -eas_backend under obj's
  prefix; auto is the resolver's answer for obj.
*/
PetscErrorCode EasBackendCreateFor_Private(PetscObject obj, MPI_Comm comm, EasBackend *be)
{
  PetscFunctionBegin;
  PetscCall(EasBackendCreateFromOptions_Internal(obj, comm, obj->prefix, be));
  PetscFunctionReturn(0);
}

/*@C
  EasBackendSetThreads - sets the OpenMP thread count of a CPU backend.
  Errors: threads < 1; a backend without threads.
@*/
PetscErrorCode EasBackendSetThreads(EasBackend be, PetscInt threads)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscCheck(threads >= 1, PetscObjectComm((PetscObject)be), PETSC_ERR_ARG_OUTOFRANGE, "-eas_threads %" PetscInt_FMT " is invalid: expected an integer >= 1", threads);
  PetscCheck(be->host_is_device, PetscObjectComm((PetscObject)be), PETSC_ERR_ARG_WRONG, "-eas_threads applies to CPU backends, not %s", be->resource);
  be->threads = threads;
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendGetThreads(EasBackend be, PetscInt *threads)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  *threads = be->threads;
  PetscFunctionReturn(0);
}

/*@C
  EasBackendSetFromOptions - -eas_threads <n> (CPU backends) and the
  backend's own options (-eas_cuda_spmv native|cusparse).
@*/
PetscErrorCode EasBackendSetFromOptions(EasBackend be)
{
  PetscInt  threads = be->threads;
  PetscBool flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)be);
  if (be->host_is_device) {
    PetscCall(PetscOptionsInt("-eas_threads", "OpenMP threads of the CPU backend", "EasBackendSetThreads", threads, &threads, &flg));
    if (flg) PetscCall(EasBackendSetThreads(be, threads));
  }
  if (be->ops->set_from_options) PetscCall((*be->ops->set_from_options)(be, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

/* Booked copies (backend.h). */
PetscErrorCode EasBackendCopyHtoD(EasBackend be, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall((*be->ops->copy_htod)(be, dst, src, bytes));
  if (!be->host_is_device) {
    be->bytes_htod += (PetscLogDouble)bytes;
    be->n_htod++;
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendCopyDtoH(EasBackend be, void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(0);
  PetscCall((*be->ops->copy_dtoh)(be, dst, src, bytes));
  if (!be->host_is_device) {
    be->bytes_dtoh += (PetscLogDouble)bytes;
    be->n_dtoh++;
    PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
  }
  PetscFunctionReturn(0);
}

/* Host staging buffers (backend.h). */
PetscErrorCode EasBackendHostAlloc(EasBackend be, size_t bytes, void **p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  bytes = bytes ? bytes : 1;
  if (be->ops->host_alloc)
    PetscCall((*be->ops->host_alloc)(be, bytes, p));
  else
    PetscCall(PetscMalloc(bytes, p));
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendHostFree(EasBackend be, void **p)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  if (!*p) PetscFunctionReturn(0);
  if (be->ops->host_free)
    PetscCall((*be->ops->host_free)(be, *p));
  else
    PetscCall(PetscFree(*p));
  *p = NULL;
  PetscFunctionReturn(0);
}

/* Timer marks (backend.h): the op's ticket, or the host clock at once. */
PetscErrorCode EasBackendTimerRecord(EasBackend be, EasBackendMark *mk)
{
  PetscFunctionBegin;
  mk->t        = EasHostClock();
  mk->ticket   = -1;
  mk->resolved = PETSC_TRUE;
  if (be && be->ops->timer_record) {
    PetscCall((*be->ops->timer_record)(be, &mk->ticket));
    mk->resolved = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendTimerQuery(EasBackend be, EasBackendMark *mk, PetscBool wait)
{
  PetscBool      done;
  PetscLogDouble t;

  PetscFunctionBegin;
  if (mk->resolved) PetscFunctionReturn(0);
  PetscCall((*be->ops->timer_query)(be, mk->ticket, PETSC_FALSE, &done, &t));
  if (!done && wait) { /* the host blocks on the queue here: counted (EasBackendGetTimerWaits) */
    be->timer_waits++;
    PetscCall((*be->ops->timer_query)(be, mk->ticket, PETSC_TRUE, &done, &t));
  }
  PetscCheck(done || !wait, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: timer_query waited for mark %" PetscInt64_FMT " but did not resolve it", be->resource, mk->ticket);
  if (!done) PetscFunctionReturn(0);
  mk->t        = PetscMax(t, mk->t); /* never before it was recorded (the device clock's offset is estimated) */
  mk->resolved = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  EasBackendIsHost - whether the backend's memory is host memory (a CPU
  backend) or a device's.
@*/
PetscErrorCode EasBackendIsHost(EasBackend be, PetscBool *host)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscValidBoolPointer(host, 2);
  *host = be->host_is_device;
  PetscFunctionReturn(0);
}

PetscErrorCode EasBackendGetResource(EasBackend be, const char *resource[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  *resource = be->resource;
  PetscFunctionReturn(0);
}

/*@C
  EasBackendSynchronize - waits until the backend's queued work is done.
@*/
PetscErrorCode EasBackendSynchronize(EasBackend be)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  if (be->ops->synchronize) PetscCall((*be->ops->synchronize)(be));
  PetscFunctionReturn(0);
}

/*@C
  EasBackendGetTransferBytes - bytes moved host->device and device->host.
@*/
PetscErrorCode EasBackendGetTransferBytes(EasBackend be, PetscLogDouble *htod, PetscLogDouble *dtoh)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  if (htod) *htod = be->bytes_htod;
  if (dtoh) *dtoh = be->bytes_dtoh;
  PetscFunctionReturn(0);
}

/*@C
  EasBackendGetTimerWaits - how many timer queries of the library found
  their mark not yet reached and waited for the backend's queue: each one is
  a point where the host blocked on the device.
@*/
PetscErrorCode EasBackendGetTimerWaits(EasBackend be, PetscInt64 *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  PetscValidPointer(n, 2);
  *n = be->timer_waits;
  PetscFunctionReturn(0);
}

/*@C
  EasBackendView - prints the backend, its transfer counts and its own data.
@*/
PetscErrorCode EasBackendView(EasBackend be, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(be, EAS_BACKEND_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)be), &viewer));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)be, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "transfers: host->device %" PetscInt_FMT " (%.0f bytes), device->host %" PetscInt_FMT " (%.0f bytes)\n", be->n_htod, be->bytes_htod, be->n_dtoh, be->bytes_dtoh));
  if (be->ops->view) PetscCall((*be->ops->view)(be, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
  EasBackendDestroy - drops a reference; frees the backend at the last one.
@*/
PetscErrorCode EasBackendDestroy(EasBackend *be)
{
  PetscFunctionBegin;
  if (!*be) PetscFunctionReturn(0);
  PetscValidHeaderSpecific(*be, EAS_BACKEND_CLASSID, 1);
  if (--((PetscObject)(*be))->refct > 0) {
    *be = NULL;
    PetscFunctionReturn(0);
  }
  if ((*be)->ops->destroy) PetscCall((*(*be)->ops->destroy)(*be));
  PetscCall(PetscHeaderDestroy(be));
  PetscFunctionReturn(0);
}

/*@C
  EasHasFeature - whether an optional part is present: "sundials" (compiled
  in), "cuda" (the CUDA module loads: its code and the CUDA libraries are
  here), "cuda-device" (and /gpu/cuda is usable: a device and a driver).
  Unknown names: false.
@*/
PetscErrorCode EasHasFeature(const char name[], PetscBool *has)
{
  PetscBool m;

  PetscFunctionBegin;
  *has = PETSC_FALSE;
  PetscCall(PetscStrcmp(name, "sundials", &m));
#if defined(EAS_HAVE_SUNDIALS)
  if (m) *has = PETSC_TRUE;
#endif
  PetscCall(PetscStrcmp(name, "cuda", &m));
  if (m) {
    const EasCudaModule *mod;
    PetscCall(EasCudaModuleLoad(&mod, NULL));
    *has = mod ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(PetscStrcmp(name, "cuda-device", &m));
  if (m) PetscCall(EasBackendAvailable_CUDAModule(has, NULL));
  PetscFunctionReturn(0);
}
