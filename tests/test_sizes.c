static const char help[] = "Checked size products and 64-bit kernel offsets (issue 10 item 5: C2, M2). Kind: hand-derived\n"
                           "numbers.\n"
                           "  -case helpers: EasSizeMul / EasIntMul (src/core/size.h) exactly at the overflow boundary\n"
                           "     (the largest product that fits and the next one), without allocating anything.\n"
                           "  -case message: the error names what and the sizes (Q2 elasticity, 400000*81*81).\n"
                           "  -case message_bytes: the same for size_t (2^61 doubles = 2^64 bytes).\n"
                           "  -case ebe_conn: EasEbeSetElements refuses nel*nen past 2^31 - 1 before it reads the arrays\n"
                           "     (it read conn[e*nen + a] with a wrapped 32-bit index before).\n"
                           "  -case kernels: the shared kernel bodies (src/backends/kernels.h) at offsets past 2^31 - 1:\n"
                           "     the ADR Jacobian point writes V[8*ld + r] with ld = 2^30 + 8 and the EBE element apply\n"
                           "     reads element 327311 of Q2 elasticity (m = 81, offset e*m*m > 2^31 - 1). The arrays are\n"
                           "     reserved address space (mmap MAP_NORESERVE): only the pages touched take memory.\n"
                           "  -case dia_rows: EasDiaSetDiagonals refuses n = 2147483641 rows (ld would be 2^31).\n"
                           "  -case mesh: EasEbeSetFromMesh refuses a 2000^3 Q2 elasticity mesh (4001^3 * 3 unknowns).\n"
                           "  -case adr -n <711>: EasAdrSetUp refuses a box whose 6 np weights pass 2^31 - 1 (711^3;\n"
                           "     710^3 is the largest cube, docs/design.md Limits) or whose global state does (-n 1100).\n";

#include <eas.h>
#include "core/size.h"
#include "backends/kernels.h"
#include <sys/mman.h>

/* Calls EasIntMul / EasSizeMul with errors returned, not printed; counts a
   failure when the outcome (fits or not, and the product) is not the expected one. */
static PetscErrorCode ExpectInt(PetscInt n, const PetscInt f[], PetscBool fits, PetscInt expect, PetscInt *nfail)
{
  PetscErrorCode ierr;
  PetscInt       prod = -1;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasIntMul_Private(PETSC_COMM_SELF, "test", n, f, &prod);
  PetscCall(PetscPopErrorHandler());
  if ((ierr == 0) != fits || (fits && prod != expect)) {
    (*nfail)++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  EasIntMul of %" PetscInt_FMT " factors (first %" PetscInt_FMT "): %s, product %" PetscInt_FMT "; expected %s, %" PetscInt_FMT "\n", n, f[0], ierr ? "error" : "fits", prod, fits ? "fits" : "error", expect));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectSize(size_t elsize, PetscInt n, const PetscInt f[], PetscBool fits, size_t expect, PetscInt *nfail)
{
  PetscErrorCode ierr;
  size_t         count = 0;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = EasSizeMul_Private(PETSC_COMM_SELF, "test", elsize, n, f, &count);
  PetscCall(PetscPopErrorHandler());
  if ((ierr == 0) != fits || (fits && count != expect)) {
    (*nfail)++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  EasSizeMul of %" PetscInt_FMT " factors (first %" PetscInt_FMT ") x %zu bytes: %s, count %zu; expected %s, %zu\n", n, f[0], elsize, ierr ? "error" : "fits", count, fits ? "fits" : "error", expect));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseHelpers(void)
{
  PetscInt nfail = 0, nchecks = 0;

  PetscFunctionBegin;
  /* PetscInt: 2^31 - 1 = 2147483647 is prime, so "exactly at max" is max*1;
     2^31 = 65536*32768 = 1073741824*2 is max + 1 */
  {
    const PetscInt a[] = {2147483647, 1}, b[] = {65536, 32768}, c[] = {1073741824, 2}, d[] = {1073741823, 2}, e[] = {46340, 46341}, g[] = {46341, 46341};
    PetscCall(ExpectInt(2, a, PETSC_TRUE, 2147483647, &nfail));
    PetscCall(ExpectInt(2, b, PETSC_FALSE, 0, &nfail));
    PetscCall(ExpectInt(2, c, PETSC_FALSE, 0, &nfail));
    PetscCall(ExpectInt(2, d, PETSC_TRUE, 2147483646, &nfail));
    PetscCall(ExpectInt(2, e, PETSC_TRUE, 2147441940, &nfail)); /* 46340*46341 */
    PetscCall(ExpectInt(2, g, PETSC_FALSE, 0, &nfail));         /* 46341^2 = 2147488281 */
    nchecks += 6;
  }
  /* C2: Q2 elasticity element storage nel*81*81 (81^2 = 6561): the largest
     nel is floor(2147483647 / 6561) = 327310 (product 2147480910); 327311
     gives 2147487471 > 2^31 - 1 */
  {
    const PetscInt a[] = {327310, 81, 81}, b[] = {327311, 81, 81}, z[] = {0, 2147483647, 2147483647}, neg[] = {-1, 2};
    PetscCall(ExpectInt(3, a, PETSC_TRUE, 2147480910, &nfail));
    PetscCall(ExpectInt(3, b, PETSC_FALSE, 0, &nfail));
    PetscCall(ExpectInt(3, z, PETSC_TRUE, 0, &nfail)); /* a zero factor: no overflow from the others */
    PetscCall(ExpectInt(2, neg, PETSC_FALSE, 0, &nfail));
    nchecks += 4;
  }
  /* size_t (64-bit): SIZE_MAX = 2^64 - 1 = 3*5*17*257*641*65537*6700417 =
     65535 * 42009217 * 6700417, each factor a PetscInt: exactly at max with
     1-byte entries, and max + 1 - 6700417... with the last factor one more */
  if (sizeof(size_t) == 8) {
    const PetscInt a[] = {65535, 42009217, 6700417}, b[] = {65535, 42009218, 6700417};
    /* 8-byte entries: at most (2^64 - 1)/8 = 2^61 - 1 entries (prime);
       2^61 - 2^40 = 1048576*1048576*2097151 fits, 2^61 = 1048576*1048576*2097152
       is 2^64 bytes */
    const PetscInt c[] = {1048576, 1048576, 2097151}, d[] = {1048576, 1048576, 2097152};
    /* the Q2 case of the issue: 400000*81*81 doubles fit size_t */
    const PetscInt e[] = {400000, 81, 81}, neg[] = {5, -3};
    PetscCall(ExpectSize(1, 3, a, PETSC_TRUE, (size_t)SIZE_MAX, &nfail));
    PetscCall(ExpectSize(1, 3, b, PETSC_FALSE, 0, &nfail));
    PetscCall(ExpectSize(8, 3, c, PETSC_TRUE, ((size_t)1 << 61) - ((size_t)1 << 40), &nfail));
    PetscCall(ExpectSize(8, 3, d, PETSC_FALSE, 0, &nfail));
    PetscCall(ExpectSize(1, 3, d, PETSC_TRUE, (size_t)1 << 61, &nfail)); /* the same count in bytes fits */
    PetscCall(ExpectSize(8, 3, e, PETSC_TRUE, (size_t)2624400000, &nfail));
    PetscCall(ExpectSize(8, 2, neg, PETSC_FALSE, 0, &nfail));
    nchecks += 7;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "size helpers at the boundary: %" PetscInt_FMT " checks, %" PetscInt_FMT " failed\n", nchecks, nfail));
  PetscCheck(nfail == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " size helper checks failed", nfail);
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseMessage(PetscBool bytes)
{
  PetscInt nael;
  size_t   count;

  PetscFunctionBegin;
  if (bytes) {
    PetscCall(EasSizeMul(PETSC_COMM_SELF, "test storage a*b*c", sizeof(double), &count, 1048576, 1048576, 2097152));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not refused: %zu\n", count));
  } else {
    PetscCall(EasIntMul(PETSC_COMM_SELF, "element storage nel*m*m", &nael, 400000, 81, 81));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not refused: %" PetscInt_FMT "\n", nael));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseEbeConn(void)
{
  const PetscInt    conn[27] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
  const PetscScalar ael[1]   = {0};
  EasEbe            ebe;

  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  /* 80 million Q2 elements: nel*nen = 2160000000 > 2^31 - 1; the arrays
     are one element long, so reading past them is the bug */
  PetscCall(EasEbeSetElements(ebe, 80000000, 27, 3, 27, conn, ael));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseDiaRows(void)
{
  const PetscInt    off[1] = {0};
  const PetscScalar val[1] = {1.0};
  EasDia            A;

  PetscFunctionBegin;
  PetscCall(EasDiaCreate(PETSC_COMM_SELF, &A));
  PetscCall(EasDiaSetDiagonals(A, 2147483641, 1, off, val));
  PetscCall(EasDiaDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseMesh(void)
{
  EasEbe ebe;

  PetscFunctionBegin;
  PetscCall(EasEbeCreate(PETSC_COMM_SELF, &ebe));
  PetscCall(EasEbeSetFromMesh(ebe, EAS_EBE_ELASTICITY, 2, 2000, 2000, 2000));
  PetscCall(EasEbeSetUp(ebe));
  PetscCall(EasEbeDestroy(&ebe));
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseAdr(void)
{
  EasAdr   adr;
  PetscInt n = 711;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(EasAdrCreate(PETSC_COMM_SELF, &adr));
  PetscCall(EasAdrSetGrid(adr, n, n, n));
  PetscCall(EasAdrSetUp(adr));
  PetscCall(EasAdrDestroy(&adr));
  PetscFunctionReturn(0);
}

/* len doubles of reserved address space: pages cost memory only when touched. */
static PetscErrorCode Reserve(size_t len, double **p)
{
  void *q;

  PetscFunctionBegin;
  q = mmap(NULL, len * sizeof(double), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  PetscCheck(q != MAP_FAILED, PETSC_COMM_SELF, PETSC_ERR_MEM, "mmap of %zu bytes of address space (MAP_NORESERVE) failed", len * sizeof(double));
  *p = (double *)q;
  PetscFunctionReturn(0);
}

static PetscErrorCode CaseKernels(void)
{
  PetscInt nfail = 0;

  PetscFunctionBegin;
  /* ADR Jacobian: the interior point p = (nx-2, ny-2, nz-2) on a box with
     np = 2^29 points (nx = ny = 2^10, nz = 2^9), ld = 2 np + 8 = 2^30 + 8
     rows: diagonal 8 starts at 8 ld = 8589934656 > 2^31 - 1 (face 5 of w at
     5 np and dRv at 4 p stay below 2^31). */
  {
    const EasKInt nx = 1024, ny = 1024, nz = 512, np = nx * ny * nz, ld = 2 * np + 8, p = np - 1 - 1 - nx - nx * ny;
    const size_t  nV = (size_t)9 * ld;
    double       *w, *dRv, *V;
    EasAdrKParams P;
    const double  dt = 0.5, wf[6] = {1, 2, 3, 4, 5, 6}, dR[4] = {0.25, 0.5, 0.75, 1.0};

    PetscCall(PetscMemzero(&P, sizeof(P)));
    P.nx       = nx;
    P.ny       = ny;
    P.nz       = nz;
    P.np       = np;
    P.dt       = dt;
    P.reaction = EAS_ADRK_REACTION_USER;
    P.ycoupled = 1;
    for (int f = 0; f < 6; f++) P.fold[f] = 0; /* every face at the box edge leaves the block */
    PetscCall(Reserve((size_t)6 * np, &w));
    PetscCall(Reserve((size_t)4 * np, &dRv));
    PetscCall(Reserve(nV, &V));
    for (int f = 0; f < 6; f++) w[(size_t)f * np + p] = wf[f];
    for (int e = 0; e < 4; e++) dRv[(size_t)4 * p + e] = dR[e];
    EasAdrKJacobianPoint(p, &P, w, dRv, V, ld);
    /* interior: every face couples inside with its weight, wsum = 21.  Row
       r = 2p + s of diagonal d (offsets -2nxny, -2nx, -2, -1, 0, 1, 2, 2nx,
       2nxny) at V[d*ld + r]: */
    for (int s = 0; s < 2; s++) {
      const size_t r       = (size_t)2 * p + s;
      const double want[9] = {-dt * 5, -dt * 3, -dt * 1, s == 1 ? -dt * dR[2] : 0.0, 1.0 + dt * 21 - dt * dR[3 * s], s == 0 ? -dt * dR[1] : 0.0, -dt * 2, -dt * 4, -dt * 6};
      for (int d = 0; d < 9; d++) {
        const double got = V[(size_t)d * ld + r];
        if (PetscAbsReal(got - want[d]) > 1e-15) {
          nfail++;
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "  ADR Jacobian row %zu diagonal %d (offset %zu): got %g expected %g\n", r, d, (size_t)d * ld + r, got, want[d]));
        }
      }
    }
    PetscCheck(munmap(w, (size_t)6 * np * sizeof(double)) == 0 && munmap(dRv, (size_t)4 * np * sizeof(double)) == 0 && munmap(V, nV * sizeof(double)) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "munmap failed");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ADR Jacobian point at 8*ld + r = %zu > 2^31 - 1: %s\n", (size_t)8 * ld + 2 * (size_t)p + 1, nfail ? "wrong" : "ok"));
  }
  /* EBE element apply of element e = 327311 of Q2 elasticity (nen = 27,
     dof = 3, m = 81): its matrix starts at e*m*m = 2147487471 > 2^31 - 1.
     A_e = 2 I, x = 1 on its nodes: y = 2 on its nodes. */
  {
    const EasKInt nen = 27, dof = 3, m = nen * dof, e = 327311;
    const size_t  nael = (size_t)(e + 1) * m * m;
    double       *ael, x[81], y[81];
    EasKInt      *conn;
    PetscInt      bad = 0;

    PetscCall(Reserve(nael, &ael));
    PetscCall(PetscMalloc1((size_t)(e + 1) * nen, &conn));
    for (EasKInt a = 0; a < nen; a++) conn[(size_t)e * nen + a] = a;
    for (EasKInt i = 0; i < m; i++) {
      ael[(size_t)e * m * m + (size_t)i * m + i] = 2.0;
      x[i]                                       = 1.0;
      y[i]                                       = 0.0;
    }
    EasEbeElementApply(e, nen, dof, conn, ael, x, y, NULL);
    for (EasKInt i = 0; i < m; i++) bad += y[i] != 2.0;
    nfail += bad;
    PetscCall(PetscFree(conn));
    PetscCheck(munmap(ael, nael * sizeof(double)) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "munmap failed");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "EBE element %d at e*m*m = %zu > 2^31 - 1: %s\n", (int)e, (size_t)e * m * m, bad ? "wrong" : "ok"));
  }
  PetscCheck(nfail == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " kernel entries wrong at 64-bit offsets", nfail);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      kase[32] = "helpers";
  PetscBool flg;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", kase, sizeof(kase), NULL));
  PetscCall(PetscStrcmp(kase, "helpers", &flg));
  if (flg) PetscCall(CaseHelpers());
  PetscCall(PetscStrcmp(kase, "message", &flg));
  if (flg) PetscCall(CaseMessage(PETSC_FALSE));
  PetscCall(PetscStrcmp(kase, "message_bytes", &flg));
  if (flg) PetscCall(CaseMessage(PETSC_TRUE));
  PetscCall(PetscStrcmp(kase, "ebe_conn", &flg));
  if (flg) PetscCall(CaseEbeConn());
  PetscCall(PetscStrcmp(kase, "dia_rows", &flg));
  if (flg) PetscCall(CaseDiaRows());
  PetscCall(PetscStrcmp(kase, "mesh", &flg));
  if (flg) PetscCall(CaseMesh());
  PetscCall(PetscStrcmp(kase, "adr", &flg));
  if (flg) PetscCall(CaseAdr());
  PetscCall(PetscStrcmp(kase, "kernels", &flg));
  if (flg) PetscCall(CaseKernels());
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: helpers
    backends: none
    args: -case helpers
    expect: size helpers at the boundary: 17 checks, 0 failed
  test:
    suffix: message
    backends: none
    args: -case message
    expect_error: element storage nel\*m\*m = 400000\*81\*81 overflows PetscInt \(32-bit indices, at most 2147483647\)
  test:
    suffix: message_bytes
    backends: none
    args: -case message_bytes
    expect_error: test storage a\*b\*c = 1048576\*1048576\*2097152 entries of 8 bytes overflows size_t \(at most 18446744073709551615 bytes\)
  test:
    suffix: ebe_conn
    backends: none
    args: -case ebe_conn
    expect_error: EasEbeSetElements: connectivity nel\*nen = 80000000\*27 overflows PetscInt
  test:
    suffix: dia_rows
    backends: none
    args: -case dia_rows
    expect_error: EasDiaSetDiagonals: n = 2147483641 rows, expected 1 <= n <= 2147483640
  test:
    suffix: mesh
    backends: none
    args: -case mesh
    expect_error: global unknowns \(p\*nx\+1\)\*\(p\*ny\+1\)\*\(p\*nz\+1\)\*dof = 4001\*4001\*4001\*3 overflows PetscInt
  test:
    suffix: adr_weights
    backends: none
    args: -case adr -n 711
    expect_error: ADR transport weights per rank 6\*nx\*ny\*nz = 6\*711\*711\*711 overflows PetscInt
  test:
    suffix: adr_global
    backends: none
    args: -case adr -n 1100
    expect_error: ADR global unknowns 2\*Nx\*Ny\*Nz = 2\*1100\*1100\*1100 overflows PetscInt
  test:
    suffix: kernels
    backends: none
    args: -case kernels
    expect: ADR Jacobian point at 8\*ld \+ r = 9661577277 > 2\^31 - 1: ok
    expect: EBE element 327311 at e\*m\*m = 2147487471 > 2\^31 - 1: ok
TEST*/
