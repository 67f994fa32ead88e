static const char help[] = "Tests of /cpu/memcheck, the CPU backend that behaves like a device (issue 10):\n"
                           "  address-range registry (hand-derived cases), pointer checks of the ops, NaN poisoning of\n"
                           "  stale copies, transfer counts (hand-derived bytes), ebe_unit_begin/end sequencing and staging\n"
                           "  checks, and the asynchronous unit (Lang-Rünger Alg. 2): its result equals the host body bit\n"
                           "  for bit (peer code) and its worker's busy interval overlaps the host's work (real clocks).\n"
                           "  -nel <20000> elements of the unit test  -reps <5> repetitions (the best overlap counts)\n";

#include <eas.h>
#include "backends/backend.h"
#include "backends/memcheck/memcheck.h"
#include <time.h>

static double Now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts); /* the worker's clock (EasMemcheckGetUnitInterval) */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define CHECK(cond, ...)                                               \
  do {                                                                 \
    nchecks++;                                                         \
    if (!(cond)) {                                                     \
      nfail++;                                                         \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: " __VA_ARGS__)); \
    }                                                                  \
  } while (0)

/* Runs call with errors returned, not printed; checks that it failed with a message containing sub. */
#define EXPECT_ERROR(call, sub)                                                                                              \
  do {                                                                                                                       \
    PetscErrorCode ierr_;                                                                                                    \
    char          *msg_ = NULL;                                                                                              \
    char          *at_  = NULL;                                                                                              \
    PetscBool      has_ = PETSC_FALSE;                                                                                       \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                                                         \
    ierr_ = (call);                                                                                                          \
    PetscCall(PetscPopErrorHandler());                                                                                       \
    if (ierr_) PetscCall(PetscErrorMessage(ierr_, NULL, &msg_));                                                             \
    if (ierr_ && msg_) PetscCall(PetscStrstr(msg_, sub, &at_));                                                              \
    has_ = at_ ? PETSC_TRUE : PETSC_FALSE;                                                                                   \
    CHECK(ierr_ &&has_, "%s: expected an error containing \"%s\", got %d (%s)\n", #call, sub, (int)ierr_, msg_ ? msg_ : ""); \
    if (ierr_ && has_) PetscCall(PetscPrintf(PETSC_COMM_SELF, "error as expected: %s\n", sub));                              \
  } while (0)

int main(int argc, char **argv)
{
  PetscInt   nfail = 0, nchecks = 0, nel = 20000, reps = 5;
  EasBackend be;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nel", &nel, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCheck(nel >= 1 && reps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-nel and -reps must be >= 1");
  PetscCall(EasBackendCreate(PETSC_COMM_SELF, "/cpu/memcheck", &be));

  { /* 1. the registry: hand-derived containment and overlap */
    EasMemRegistry reg = {NULL, 0, 0};
    char           buf[100];
    PetscCall(EasMemRegistryAdd(&reg, buf + 50, 10));
    PetscCall(EasMemRegistryAdd(&reg, buf + 10, 20));
    PetscCall(EasMemRegistryAdd(&reg, buf + 70, 0));
    CHECK(EasMemRegistryContains(&reg, buf + 10, 20), "[10,30) in [10,30)\n");
    CHECK(!EasMemRegistryContains(&reg, buf + 10, 21), "[10,31) not in [10,30)\n");
    CHECK(EasMemRegistryContains(&reg, buf + 29, 1), "[29,30) in [10,30)\n");
    CHECK(EasMemRegistryContains(&reg, buf + 30, 0), "the empty access one past the end of [10,30)\n");
    CHECK(!EasMemRegistryContains(&reg, buf + 30, 1), "[30,31) not in any\n");
    CHECK(!EasMemRegistryContains(&reg, buf + 5, 1), "[5,6) before every range\n");
    CHECK(EasMemRegistryContains(&reg, buf + 55, 5), "[55,60) in [50,60)\n");
    CHECK(EasMemRegistryContains(&reg, buf + 70, 0), "the zero-length range at 70 owns its pointer\n");
    CHECK(EasMemRegistryOverlaps(&reg, buf + 25, 30), "[25,55) overlaps two ranges\n");
    CHECK(!EasMemRegistryOverlaps(&reg, buf + 30, 20), "[30,50) lies between the ranges\n");
    CHECK(EasMemRegistryOverlaps(&reg, buf + 45, 6), "[45,51) overlaps [50,60)\n");
    EXPECT_ERROR(EasMemRegistryRemove(&reg, buf + 11, NULL, "test"), "is not the start of a test allocation");
    PetscCall(EasMemRegistryRemove(&reg, buf + 10, NULL, "test"));
    CHECK(!EasMemRegistryContains(&reg, buf + 10, 1), "[10,30) removed\n");
    CHECK(reg.n == 2, "two ranges left, got %" PetscInt_FMT "\n", reg.n);
    PetscCall(EasMemRegistryDestroy(&reg));
  }

  { /* 2. the ops check their pointers */
    PetscScalar *d, h[10] = {0};
    PetscCall((*be->ops->malloc)(be, 10 * sizeof(PetscScalar), (void **)&d));
    CHECK(PetscIsNanReal(d[3]), "new backend memory reads NaN, got %g\n", (double)d[3]);
    EXPECT_ERROR((*be->ops->set)(be, 10, 1.0, h), "argument y");
    EXPECT_ERROR((*be->ops->set)(be, 10, 1.0, h), "is not in the backend's memory space");
    EXPECT_ERROR((*be->ops->set)(be, 11, 1.0, d), "run past the end of its backend allocation");
    EXPECT_ERROR((*be->ops->copy_htod)(be, h, d, 10 * sizeof(PetscScalar)), "copy_htod: argument dst");
    EXPECT_ERROR((*be->ops->copy_dtoh)(be, d, d, 10 * sizeof(PetscScalar)), "is backend memory where host memory is expected");
    PetscCall((*be->ops->set)(be, 10, 1.0, d));
    CHECK(d[9] == 1.0, "set wrote backend memory\n");
    PetscCall((*be->ops->free)(be, d));
    EXPECT_ERROR((*be->ops->free)(be, h), "is not the start of a /cpu/memcheck backend memory (free) allocation");
  }

  { /* 3. stale copies are NaN; transfers are counted (bytes by hand: 5 entries of 8 bytes) */
    EasVec             v;
    const PetscScalar *hr;
    PetscInt           np0, np1;
    PetscLogDouble     htod0, dtoh0, htod1, dtoh1;
    PetscCall(EasVecCreate(be, 5, &v));
    PetscCall(EasVecSet(v, 2.0));
    PetscCall(EasBackendGetTransferBytes(be, &htod0, &dtoh0));
    PetscCall(EasVecGetArrayRead(v, &hr)); /* device -> host: 40 bytes */
    CHECK(hr[4] == 2.0, "host copy after the download: %g\n", (double)hr[4]);
    {
      const PetscScalar *keep = hr;
      PetscCall(EasVecRestoreArrayRead(v, &hr));
      PetscCall(EasMemcheckGetCounts(be, NULL, &np0, NULL, NULL));
      PetscCall(EasVecSet(v, 3.0)); /* a backend write: the host copy is stale */
      PetscCall(EasMemcheckGetCounts(be, NULL, &np1, NULL, NULL));
      CHECK(PetscIsNanReal(keep[0]) && PetscIsNanReal(keep[4]), "the stale host copy reads NaN, got %g %g\n", (double)keep[0], (double)keep[4]);
      CHECK(np1 == np0 + 1, "one copy poisoned, counted %" PetscInt_FMT "\n", np1 - np0);
    }
    PetscCall(EasVecGetArrayRead(v, &hr)); /* downloaded again */
    CHECK(hr[0] == 3.0 && hr[4] == 3.0, "host copy after the second download: %g %g\n", (double)hr[0], (double)hr[4]);
    PetscCall(EasVecRestoreArrayRead(v, &hr));
    PetscCall(EasBackendGetTransferBytes(be, &htod1, &dtoh1));
    CHECK(dtoh1 - dtoh0 == 80.0 && htod1 == htod0, "two downloads of 40 bytes, no upload: got %g down, %g up\n", (double)(dtoh1 - dtoh0), (double)(htod1 - htod0));
    PetscCall(EasVecDestroy(&v));
  }

  { /* 4 and 5. the asynchronous unit: sequencing, staging, result, overlap */
    const PetscInt nen = 8, dof = 3, m = nen * dof, n = nel * nen * dof;
    PetscInt      *conn, *cel, cptr[2] = {0, nel}, *conn_d, *cel_d;
    PetscScalar   *ael, *ael_d, *x, *ycpu, *x_d, *y_d, *xs, *ys, *pageable;
    EasEbeKernel   K;
    PetscLogDouble s;
    double         best_overlap = -1e30, best_wall = 0, best_sum = 0, best_c = 0, best_d = 0;
    PetscRandom    rnd;

    PetscCall(PetscMalloc5(nel * nen, &conn, nel, &cel, (size_t)nel * m * m, &ael, n, &x, n, &ycpu));
    PetscCall(PetscMalloc1(n, &pageable));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
    for (PetscInt e = 0; e < nel; e++) {
      cel[e] = e;
      for (PetscInt a = 0; a < nen; a++) conn[e * nen + a] = e * nen + a; /* disjoint elements: one colour */
    }
    for (size_t i = 0; i < (size_t)nel * m * m; i++) PetscCall(PetscRandomGetValueReal(rnd, &ael[i]));
    for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValueReal(rnd, &x[i]));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * nel * nen, (void **)&conn_d));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscInt) * nel, (void **)&cel_d));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * nel * m * m, (void **)&ael_d));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * n, (void **)&x_d));
    PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * n, (void **)&y_d));
    PetscCall(EasBackendCopyHtoD(be, conn_d, conn, sizeof(PetscInt) * nel * nen));
    PetscCall(EasBackendCopyHtoD(be, cel_d, cel, sizeof(PetscInt) * nel));
    PetscCall(EasBackendCopyHtoD(be, ael_d, ael, sizeof(PetscScalar) * nel * m * m));
    PetscCall((*be->ops->host_alloc)(be, sizeof(PetscScalar) * n, (void **)&xs));
    PetscCall((*be->ops->host_alloc)(be, sizeof(PetscScalar) * n, (void **)&ys));
    PetscCall(PetscArraycpy(xs, x, n));
    PetscCall(PetscArraycpy(pageable, x, n));
    K.nel             = nel;
    K.nen             = nen;
    K.dof             = dof;
    K.nnodes          = nel * nen;
    K.conn            = conn_d;
    K.ael             = ael_d;
    K.storage         = EAS_EBE_STORAGE_FULL; /* the unit reads the storage's values */
    K.aels            = NULL;
    K.lanes           = 1; /* a unit's share is in the host layout */
    K.deterministic   = PETSC_FALSE;
    K.warp_rows       = 4;
    K.ncolors         = 1;
    K.color_ptr       = cptr;
    K.color_elem      = cel_d;
    K.color_elem_host = cel;
    K.ctx             = NULL;

    EXPECT_ERROR((*be->ops->ebe_unit_end)(be, &s), "ebe_unit_end without a unit in flight");
    EXPECT_ERROR((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, pageable, x_d, y_d, ys), "x_host");
    EXPECT_ERROR((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, pageable, x_d, y_d, ys), "is not a host staging buffer");
    EXPECT_ERROR((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, xs, x_d, y_d, ycpu), "y_host");
    EXPECT_ERROR((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, xs, x, y_d, ys), "argument x_dev");

    for (PetscInt r = 0; r < reps; r++) {
      double c0, c1, d0, d1, overlap, wall, sum;
      /* the device unit: all elements, on the worker */
      PetscCall((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, xs, x_d, y_d, ys));
      if (r == 0) {
        PetscScalar *x_d2, *y_d2; /* other buffers: the sequencing check, not the in-flight one */
        PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * n, (void **)&x_d2));
        PetscCall((*be->ops->malloc)(be, sizeof(PetscScalar) * n, (void **)&y_d2));
        EXPECT_ERROR((*be->ops->ebe_unit_begin)(be, &K, 0, nel, n, xs, x_d2, y_d2, ys), "ebe_unit_begin while the unit of elements [0, ");
        PetscCall((*be->ops->free)(be, x_d2));
        PetscCall((*be->ops->free)(be, y_d2));
        EXPECT_ERROR((*be->ops->set)(be, n, 0.0, y_d), "is a buffer of the asynchronous unit in flight");
      }
      /* the host unit meanwhile: the same elements with the same body (kernels.h) */
      c0 = Now();
      for (PetscInt i = 0; i < n; i++) ycpu[i] = 0.0;
      for (PetscInt e = 0; e < nel; e++) EasEbeElementApply(e, nen, dof, conn, ael, x, ycpu, NULL);
      c1 = Now();
      PetscCall((*be->ops->ebe_unit_end)(be, &s));
      PetscCall(EasMemcheckGetUnitInterval(be, &d0, &d1));
      CHECK(PetscAbsReal((PetscReal)(s - (d1 - d0))) <= 1e-12, "ebe_unit_end returned %g s, the worker's interval is %g s\n", (double)s, d1 - d0);
      if (r == 0) { /* the unit runs the device's warp kernel (its sums in another order than the host body's): equal to rounding */
        PetscInt  ndiff = 0;
        PetscReal ymax  = 0.0;
        for (PetscInt i = 0; i < n; i++) ymax = PetscMax(ymax, PetscAbsReal(ycpu[i]));
        for (PetscInt i = 0; i < n; i++) ndiff += PetscAbsReal(ys[i] - ycpu[i]) > 1e-14 * ymax;
        CHECK(ndiff == 0, "the unit's y differs from the host body's by more than 1e-14 (relative) in %" PetscInt_FMT " of %" PetscInt_FMT " entries\n", ndiff, n);
        if (!ndiff) PetscCall(PetscPrintf(PETSC_COMM_SELF, "unit result equals the host body bit for bit (%" PetscInt_FMT " entries)\n", n));
      }
      overlap = PetscMin(c1, d1) - PetscMax(c0, d0);
      wall    = PetscMax(c1, d1) - PetscMin(c0, d0);
      sum     = (c1 - c0) + (d1 - d0);
      if (overlap > best_overlap) {
        best_overlap = overlap;
        best_wall    = wall;
        best_sum     = sum;
        best_c       = c1 - c0;
        best_d       = d1 - d0;
      }
    }
    CHECK(best_overlap > 0 && best_wall < best_sum, "no concurrency: overlap %g s, wall %g s, sum %g s\n", best_overlap, best_wall, best_sum);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "unit concurrency (best of %" PetscInt_FMT "): host %.3g ms, device unit %.3g ms, overlap %.3g ms, wall %.3g ms < sum %.3g ms: %s\n", reps, 1e3 * best_c, 1e3 * best_d, 1e3 * best_overlap, 1e3 * best_wall, 1e3 * best_sum, best_overlap > 0 && best_wall < best_sum ? "overlapped" : "NOT overlapped"));

    PetscCall((*be->ops->host_free)(be, xs));
    PetscCall((*be->ops->host_free)(be, ys));
    PetscCall((*be->ops->free)(be, conn_d));
    PetscCall((*be->ops->free)(be, cel_d));
    PetscCall((*be->ops->free)(be, ael_d));
    PetscCall((*be->ops->free)(be, x_d));
    PetscCall((*be->ops->free)(be, y_d));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(PetscFree(pageable));
    PetscCall(PetscFree5(conn, cel, ael, x, ycpu));
  }

  PetscCall(EasBackendView(be, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(EasBackendDestroy(&be));
  PetscCheck(!nfail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " of %" PetscInt_FMT " memcheck checks failed", nfail, nchecks);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "all %" PetscInt_FMT " memcheck checks passed\n", nchecks));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: checks
    backends: none
    expect: error as expected: is not in the backend's memory space
    expect: error as expected: is not a host staging buffer
    expect: error as expected: is a buffer of the asynchronous unit in flight
    expect: unit result equals the host body bit for bit
    expect: unit concurrency \(best of 5\): .* overlapped$
    expect: all [0-9]+ memcheck checks passed
TEST*/
