#!/bin/sh
# Checks that PETSc (pkg-config PETSc), MPI (mpicc, mpirun) and the tools the
# build uses are present.  As root, installs the missing Debian packages;
# otherwise prints the one line to run and fails.
pkgs="petsc-dev libopenmpi-dev openmpi-bin"
missing=0
pkg-config --exists PETSc 2>/dev/null || missing=1
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
echo "eas needs PETSc and MPI. Run:"
echo "sudo apt-get install -y $pkgs"
exit 1
