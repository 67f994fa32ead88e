#!/bin/sh
# Checks that PETSc (pkg-config PETSc), MPI (mpicc, mpirun), SUNDIALS (CVODE:
# the ADR time stepping and oracle), matplotlib (tools/eas-plot), PETSc's
# tutorials (libpetsc3.18-dev-examples: the plug-in tests), gfortran (the
# Fortran module) and the tools
# the build uses are present.  As root, installs the missing Debian packages;
# otherwise prints the one line to run and fails.  (SUNDIALS and matplotlib
# are optional for a build: without them the CVODE time stepping says "not
# compiled in" and eas-plot is not run; this script still asks for them.)
pkgs="petsc-dev libopenmpi-dev openmpi-bin libsundials-dev python3-matplotlib libpetsc3.18-dev-examples gfortran"
missing=0
[ -f /usr/include/cvode/cvode.h ] || missing=1
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || missing=1 # Debian's python3 (eas-plot's interpreter)
pkg-config --exists PETSc 2>/dev/null || missing=1
[ -f /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials/ex45.c ] || missing=1 # PETSc's tutorials (the plug-in tests)
command -v gfortran >/dev/null 2>&1 || missing=1 # the Fortran module and examples
command -v mpicc >/dev/null 2>&1 || missing=1
command -v mpirun >/dev/null 2>&1 || missing=1
command -v pkg-config >/dev/null 2>&1 || { missing=1; pkgs="pkg-config $pkgs"; }
[ "$missing" = 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "eas: installing $pkgs"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq $pkgs >/dev/null || exit 1
  exit 0
fi
echo "eas needs PETSc (with its tutorials), MPI, SUNDIALS, matplotlib and gfortran. Run:"
echo "sudo apt-get install -y $pkgs"
exit 1
