static const char help[] = "The ADR solution out through PETSc's viewers (issue 9): a run writes the solution at every\n"
                           "output time with -adr_view_solution binary:<file> (and VTK with -vtk); the test reads the binary\n"
                           "file back with VecLoad into a DMDA vector and compares the last record with the solver's state\n"
                           "(bit for bit), checks the .vts header (extent of the grid, one field per output time), and\n"
                           "checks the -adr_monitor_points lines against the natural-ordering solution.\n"
                           "  -nx -ny -nz (grid), -interval <t> (output interval), -vtk\n"
                           "Kind of check: a round trip through PETSc's own readers (VecLoad) and the solver's state.\n";

#include <eas.h>
#include <petscdmda.h>

int main(int argc, char **argv)
{
  EasAdr             adr;
  DM                 da;
  Vec                X, Y, N, Z;
  VecScatter         sc;
  PetscViewer        v;
  PetscInt           nx = 8, ny = 1, nz = 8, nrec = 0, nout;
  PetscReal          interval = 7200, tf = 21600, diff, t;
  PetscBool          vtk = PETSC_FALSE;
  PetscMPIInt        rank;
  char               dir[PETSC_MAX_PATH_LEN] = "/tmp/eas_adr_out_XXXXXX", bin[PETSC_MAX_PATH_LEN], vts[PETSC_MAX_PATH_LEN], mon[PETSC_MAX_PATH_LEN], opt[PETSC_MAX_PATH_LEN + 16];
  FILE              *save                    = NULL, *f;
  const PetscScalar *za;

  PetscCall(EasInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nx", &nx, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ny", &ny, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nz", &nz, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-interval", &interval, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-vtk", &vtk, NULL));
  if (rank == 0) PetscCheck(mkdtemp(dir), PETSC_COMM_SELF, PETSC_ERR_SYS, "mkdtemp failed");
  PetscCallMPI(MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, PETSC_COMM_WORLD));
  PetscCall(PetscSNPrintf(bin, sizeof(bin), "%s/c.bin", dir));
  PetscCall(PetscSNPrintf(vts, sizeof(vts), "%s/c.vts", dir));
  PetscCall(PetscSNPrintf(mon, sizeof(mon), "%s/monitor.txt", dir));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%s:%s", vtk ? "vtk" : "binary", vtk ? vts : bin));
  PetscCall(PetscOptionsSetValue(NULL, "-adr_view_solution", opt));
  PetscCall(PetscOptionsSetValue(NULL, "-adr_monitor_points", "0,10,30;20,10,50;13,10,41"));

  PetscCall(EasAdrCreate(PETSC_COMM_WORLD, &adr));
  PetscCall(EasAdrSetGrid(adr, nx, ny, nz));
  PetscCall(EasAdrSetTimeStep(adr, 1800));
  PetscCall(EasAdrSetFromOptions(adr));
  PetscCall(EasAdrSetUp(adr));
  /* the monitor's lines into a file on rank 0 (PetscPrintf writes there) */
  if (rank == 0) {
    save         = PETSC_STDOUT;
    PETSC_STDOUT = fopen(mon, "w");
    PetscCheck(PETSC_STDOUT, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", mon);
  }
  for (PetscReal tout = interval; tout <= tf + 1e-9; tout += interval) PetscCall(EasAdrSolve(adr, tout));
  if (rank == 0) {
    fclose(PETSC_STDOUT);
    PETSC_STDOUT = save;
  }
  nout = (PetscInt)(tf / interval + 0.5);
  PetscCall(EasAdrGetTime(adr, &t));
  PetscCall(EasAdrGetDM(adr, &da));
  PetscCall(DMCreateGlobalVector(da, &X));
  PetscCall(VecDuplicate(X, &Y));
  PetscCall(EasAdrGetSolution(adr, X));
  /* the monitor lines against the natural-ordering solution */
  PetscCall(DMDACreateNaturalVector(da, &N));
  PetscCall(EasAdrGetSolutionNatural(adr, N));
  PetscCall(VecScatterCreateToZero(N, &sc, &Z));
  PetscCall(VecScatterBegin(sc, N, Z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, N, Z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(Z, &za));
  if (rank == 0) {
    char     line[1024];
    PetscInt nlines = 0, nfinal = 0;
    f = fopen(mon, "r");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", mon);
    while (fgets(line, sizeof(line), f)) {
      double tt, px, py, pz, gx, gy, gz, c1, c2;
      int    i, j, k;
      if (sscanf(line, " t %lf point (%lf, %lf, %lf) -> grid (%d, %d, %d) at (%lf, %lf, %lf): c1 %lf c2 %lf", &tt, &px, &py, &pz, &i, &j, &k, &gx, &gy, &gz, &c1, &c2) != 12) continue;
      nlines++;
      if (PetscAbsReal(tt - t) > 1e-6) continue;
      {
        const PetscInt q = i + nx * (j + ny * k);
        PetscCheck(PetscAbsReal(c1 - PetscRealPart(za[2 * q])) <= 1e-9 * PetscAbsReal(PetscRealPart(za[2 * q])) + 1e-300 && PetscAbsReal(c2 - PetscRealPart(za[2 * q + 1])) <= 1e-9 * PetscAbsReal(PetscRealPart(za[2 * q + 1])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "monitor point (%g,%g,%g): printed c1 %g c2 %g, the solution has %g %g at grid (%d,%d,%d)", px, py, pz, c1, c2, (double)PetscRealPart(za[2 * q]), (double)PetscRealPart(za[2 * q + 1]), i, j, k);
        PetscCheck(PetscAbsReal(gx - px) <= 0.5 * 20.0 / (nx - 1) + 1e-12 && PetscAbsReal(gz - pz) <= 0.5 * 20.0 / (nz - 1) + 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "monitor point (%g,%g,%g) mapped to a grid point (%g,%g,%g) that is not the nearest", px, py, pz, gx, gy, gz);
        nfinal++;
      }
    }
    fclose(f);
    PetscCheck(nlines == 3 * nout && nfinal == 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "monitor points: %" PetscInt_FMT " lines (expected %" PetscInt_FMT "), %" PetscInt_FMT " at the final time (expected 3)", nlines, 3 * nout, nfinal);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "monitor points: %" PetscInt_FMT " lines, the last 3 equal the solution at the nearest grid points\n", nlines));
  }
  PetscCall(VecRestoreArrayRead(Z, &za));
  PetscCall(EasAdrDestroy(&adr)); /* flushes and closes the viewer */
  if (!vtk) {
    /* every record loads; the last equals the state bit for bit */
    PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)Y), bin, FILE_MODE_READ, &v));
    for (nrec = 0; nrec < nout; nrec++) PetscCall(VecLoad(Y, v));
    PetscCall(PetscViewerDestroy(&v));
    PetscCall(VecAXPY(Y, -1.0, X));
    PetscCall(VecNorm(Y, NORM_INFINITY, &diff));
    PetscCheck(diff == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the last record read back differs from the solution by %g", (double)diff);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "binary: %" PetscInt_FMT " records read back with VecLoad, the last equals the solution at t = %g exactly\n", nrec, (double)t));
  } else if (rank == 0) {
    char       *buf;
    long        len;
    char        extent[128];
    PetscInt    nfields = 0, npieces = 0;
    const char *p;
    f = fopen(vts, "rb");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "no VTK file %s", vts);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    PetscCall(PetscMalloc1(len + 1, &buf));
    PetscCheck(fread(buf, 1, (size_t)len, f) == (size_t)len, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "short read of %s", vts);
    buf[len] = 0;
    fclose(f);
    PetscCall(PetscSNPrintf(extent, sizeof(extent), "WholeExtent=\"0 %" PetscInt_FMT " 0 %" PetscInt_FMT " 0 %" PetscInt_FMT "\"", nx - 1, ny - 1, nz - 1));
    PetscCheck(strstr(buf, "<VTKFile type=\"StructuredGrid\"") && strstr(buf, extent), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s is not a structured grid with %s", vts, extent);
    for (p = buf; (p = strstr(p, "Name=\"c_t")); p++) nfields++;
    for (p = buf; (p = strstr(p, "<Piece ")); p++) npieces++; /* one per rank's box */
    PetscCheck(npieces >= 1 && nfields == 2 * nout * npieces, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s holds %" PetscInt_FMT " data arrays in %" PetscInt_FMT " pieces, expected c1 and c2 for each of %" PetscInt_FMT " output times in each piece", vts, nfields, npieces, nout);
    nfields /= npieces;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "vtk: %s is a StructuredGrid with %s and %" PetscInt_FMT " solution fields (c1, c2 at each output time)\n", vts, extent, nfields / 2));
    PetscCall(PetscFree(buf));
  }
  if (rank == 0) {
    remove(bin);
    remove(vts);
    remove(mon);
    remove(dir);
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&Z));
  PetscCall(VecDestroy(&N));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Y));
  PetscCall(EasFinalize());
  return 0;
}

/*TEST
  test:
    suffix: binary_2d
    nsize: 1 2 4
    backends: /cpu/serial
    expect: binary: 3 records read back with VecLoad, the last equals the solution
    expect: monitor points: 9 lines
  test:
    suffix: binary_3d
    nsize: 2
    backends: /cpu/serial
    args: -ny 6 -nx 6 -nz 6
    expect: binary: 3 records read back
  test:
    suffix: vtk
    nsize: 1 2
    backends: /cpu/serial
    args: -vtk
    expect: vtk: .* is a StructuredGrid with WholeExtent="0 7 0 0 0 7" and 3 solution fields
TEST*/
