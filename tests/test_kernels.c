static const char help[] = "Host tests of the kernel bodies shared by the CPU and CUDA backends (src/backends/kernels.h),\n"
                           "against dense reference products; the DIA and BiCGStab row bodies for double and for float\n"
                           "values (the matrix rounded to float, so both compute the same products).\n"
                           "  -n <rows> -trials <k>\n";

#include <eas.h>
#include "backends/kernels.h"

/* Dense reference: A[i][j] from DIA storage. */
static double DenseEntry(int n, int nd, const int *off, const double *val, int ld, int i, int j)
{
  for (int d = 0; d < nd; d++)
    if (j - i == off[d] && j >= 0 && j < n) return val[(long)d * ld + i];
  return 0.0;
}

static PetscErrorCode Check(const char *what, double got, double ref, double scale, double tol, PetscInt *nfail)
{
  const double err = PetscAbsReal(got - ref) / (scale > 0 ? scale : 1.0);
  PetscFunctionBegin;
  if (err > tol) {
    (*nfail)++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: got %.17g expected %.17g rel err %.3e > tol %.1e\n", what, got, ref, err, tol));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    n = 37, trials = 3, nfail = 0, nchecks = 0;
  PetscRandom rnd;
  PetscMPIInt rank;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-trials", &trials, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 1234 + rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));

  for (PetscInt trial = 0; trial < trials; trial++) {
    const int nd = 5, off[5] = {-7, -1, 0, 2, 11}, ld = (int)n + 3;
    double   *val, *x, *r, *p, *v, *y;
    float    *valf; /* the float bodies (EasDiaSetPrecision): the same products of val rounded to float */
    double    alpha, beta, omega, tol = 1e-14;
    PetscReal u;

    PetscCall(PetscMalloc6((size_t)nd * ld, &val, n, &x, n, &r, n, &p, n, &v, n, &y));
    PetscCall(PetscMalloc1((size_t)nd * ld, &valf));
    for (PetscInt k = 0; k < nd * ld; k++) {
      PetscCall(PetscRandomGetValueReal(rnd, &val[k]));
      valf[k] = (float)val[k];
      val[k]  = (double)valf[k]; /* float-representable: both bodies compute the same products */
    }
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(PetscRandomGetValueReal(rnd, &x[i]));
      PetscCall(PetscRandomGetValueReal(rnd, &r[i]));
      PetscCall(PetscRandomGetValueReal(rnd, &p[i]));
      PetscCall(PetscRandomGetValueReal(rnd, &v[i]));
    }
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    alpha = 0.5 + u;
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    beta = u;
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    omega = 2.0 * u;

    for (int i = 0; i < (int)n; i++) {
      double ref = 0, reft = 0, refp = 0, refs = 0, scale = 0, scalet = 0, scalep = 0, scales = 0, pi, si;
      char   what[64];
      for (int j = 0; j < (int)n; j++) {
        const double a = DenseEntry((int)n, nd, off, val, ld, i, j), at = DenseEntry((int)n, nd, off, val, ld, j, i);
        const double pj = r[j] + beta * (p[j] - omega * v[j]), sj = r[j] - alpha * v[j];
        ref += a * x[j];
        scale += PetscAbsReal(a * x[j]);
        reft += at * x[j];
        scalet += PetscAbsReal(at * x[j]);
        refp += a * pj;
        scalep += PetscAbsReal(a * pj);
        refs += a * sj;
        scales += PetscAbsReal(a * sj);
      }
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowGuarded row %d", i));
      PetscCall(Check(what, EasDiaRowGuarded(i, (int)n, nd, off, val, ld, x), ref, scale, tol, &nfail));
      if (i >= 7 && i < (int)n - 11) {
        PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowInterior row %d", i));
        PetscCall(Check(what, EasDiaRowInterior(i, nd, off, val, ld, x), ref, scale, tol, &nfail));
        nchecks++;
      }
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowTranspose row %d", i));
      PetscCall(Check(what, EasDiaRowTranspose(i, (int)n, nd, off, val, ld, x), reft, scalet, tol, &nfail));
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasBcgsSweep1Row row %d", i));
      PetscCall(Check(what, EasBcgsSweep1Row(i, (int)n, nd, off, val, ld, beta, omega, r, p, v, &pi), refp, scalep, tol, &nfail));
      PetscCall(Check("EasBcgsSweep1Row p_i", pi, r[i] + beta * (p[i] - omega * v[i]), 1.0, tol, &nfail));
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasBcgsSweep2Row row %d", i));
      PetscCall(Check(what, EasBcgsSweep2Row(i, (int)n, nd, off, val, ld, alpha, r, v, &si), refs, scales, tol, &nfail));
      PetscCall(Check("EasBcgsSweep2Row s_i", si, r[i] - alpha * v[i], 1.0, tol, &nfail));
      nchecks += 7;
      /* the float-value bodies (_F), read by the single-precision kernels of every backend */
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowGuarded_F row %d", i));
      PetscCall(Check(what, EasDiaRowGuarded_F(i, (int)n, nd, off, valf, ld, x), ref, scale, tol, &nfail));
      if (i >= 7 && i < (int)n - 11) {
        PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowInterior_F row %d", i));
        PetscCall(Check(what, EasDiaRowInterior_F(i, nd, off, valf, ld, x), ref, scale, tol, &nfail));
        nchecks++;
      }
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasDiaRowTranspose_F row %d", i));
      PetscCall(Check(what, EasDiaRowTranspose_F(i, (int)n, nd, off, valf, ld, x), reft, scalet, tol, &nfail));
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasBcgsSweep1Row_F row %d", i));
      PetscCall(Check(what, EasBcgsSweep1Row_F(i, (int)n, nd, off, valf, ld, beta, omega, r, p, v, &pi), refp, scalep, tol, &nfail));
      PetscCall(Check("EasBcgsSweep1Row_F p_i", pi, r[i] + beta * (p[i] - omega * v[i]), 1.0, tol, &nfail));
      PetscCall(PetscSNPrintf(what, sizeof(what), "EasBcgsSweep2Row_F row %d", i));
      PetscCall(Check(what, EasBcgsSweep2Row_F(i, (int)n, nd, off, valf, ld, alpha, r, v, &si), refs, scales, tol, &nfail));
      PetscCall(Check("EasBcgsSweep2Row_F s_i", si, r[i] - alpha * v[i], 1.0, tol, &nfail));
      nchecks += 6;
    }
    /* sweep 3 and axpby on every entry */
    for (int i = 0; i < (int)n; i++) {
      const double x0 = x[i], rnew = EasBcgsSweep3Entry(i, alpha, omega, x, p, r, v);
      PetscCall(Check("EasBcgsSweep3Entry x", x[i], x0 + alpha * p[i] + omega * r[i], 1.0, tol, &nfail));
      PetscCall(Check("EasBcgsSweep3Entry r", rnew, r[i] - omega * v[i], 1.0, tol, &nfail));
      PetscCall(Check("EasAxpbyEntry", EasAxpbyEntry(alpha, x[i], beta, y[i] = v[i]), alpha * x[i] + beta * v[i], 1.0, tol, &nfail));
      nchecks += 3;
    }
    PetscCall(PetscFree6(val, x, r, p, v, y));
    PetscCall(PetscFree(valf));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "shared kernel bodies: %" PetscInt_FMT " checks against dense products (rel tol 1e-14), %" PetscInt_FMT " failures\n", nchecks, nfail));
  PetscCheck(nfail == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " kernel body checks failed", nfail);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kernel bodies ok\n"));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: bodies
    nsize: 1
    backends: cpu
    expect: kernel bodies ok
  test:
    suffix: bodies_small
    nsize: 1
    backends: cpu
    args: -n 12 -trials 2
    expect: kernel bodies ok
TEST*/
