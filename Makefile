# eas - configure-free GNU Makefile.
#
#   make demo           run the main example (installs Debian packages first if missing)
#   make check          tools/check-layers (no include or call goes up, docs/design.md),
#                       tools/check-links (relative links and anchors of the *.md resolve),
#                       tools/gen-api --lint (a doc comment on every public function), then
#                       build and run the test suite on every available backend, 1/2/4 ranks
#                       (JOBS=N tests at once; default auto: half the cores, tests/run.sh)
#   make check-gpu      the whole suite with the GPU cases, where a CUDA device is usable
#   make gpu-verdict    check-gpu + the GPU benchmarks, then one verdict line (tools/gpu-verdict)
#   make bench          benchmarks (BENCH lines: eas vs STREAM vs PETSc, same run)
#   make plots          figures (tools/eas-plot) from a short run, in OBJDIR/plots; the README's in docs/img
#   make options-doc    regenerate docs/options.md from the drivers' -help
#   make api-doc        regenerate docs/api.md from the public headers' doc comments
#   make asan           build with address+undefined sanitizers in build-asan/ and run the tests
#   make valgrind       small runs under valgrind (memory errors and definite leaks fail);
#                       make valgrind-tree builds its tree only (build-vg)
#   make stress         the asynchronous fault campaign with 100 seeds (long)
#   make install PREFIX=/path   headers, libeas.{a,so}, the CUDA module libeas-cuda.so, eas.mod and libeasf.so (Fortran), eas.pc, bin/eas-plot, share/doc/eas
#   make format         clang-format the sources
#
# Builds run one job per core (nproc) unless the command line gives -j
# (make -j1 check: one at a time).  JOBS is the test runner's, not the build's.
#
# Variables: OBJDIR (build), CUDA (1 when nvcc is found: build the CUDA module
# libeas-cuda.so beside libeas; 0 to leave it out; libeas is the same either way),
# SUNDIALS (1 when SUNDIALS' CVODE headers are found, 0 to leave CVODE out),
# CUDA_HOME (/usr/local/cuda), CUDA_ARCHS (the GPUs the module holds native code
# for: 70 80 90, 75 in place of 70 where nvcc has no sm_70 (CUDA 13), plus the PTX
# of the last for newer GPUs), CUDA_ARCH=NN (override: sm_NN and its PTX only),
# OPT (-O3 -march=native), PREFIX,
# PYTHON (/usr/bin/python3: Debian's, with python3-matplotlib, for eas-plot),
# HWLOC (1 when pkg-config finds hwloc: the benchmarks' cache detection, bench/llc.h),
# FC (mpif90) and FORTRAN (1 when FC is found: the Fortran module eas.mod and
# libeasf, the Fortran examples; 0 to leave them out).

OBJDIR    ?= build
JOBS      ?= auto
BUILD_JOBS = $(shell nproc 2>/dev/null || echo 1)
PREFIX    ?= /usr/local
CUDA_HOME ?= /usr/local/cuda
CUDA_ARCH ?=
OPT       ?= -O3 -march=native
NVCC      ?= $(firstword $(shell command -v nvcc 2>/dev/null) $(wildcard $(CUDA_HOME)/bin/nvcc))
CUDA      ?= $(if $(NVCC),1,0)
SUNDIALS_INC ?= /usr/include
SUNDIALS  ?= $(if $(wildcard $(SUNDIALS_INC)/cvode/cvode.h $(SUNDIALS_INC)/nvector/nvector_parallel.h),1,0)
PYTHON    ?= /usr/bin/python3
FC        := $(if $(filter default,$(origin FC)),mpif90,$(FC))
FORTRAN   ?= $(if $(shell command -v $(FC) 2>/dev/null),1,0)
V         ?= 0
comma     := ,
empty     :=
space     := $(empty) $(empty)
Q          = $(if $(filter 1,$(V)),,@)

SRCDIRS   := src/core src/backends src/backends/cpu src/backends/memcheck src/vec src/comm src/energy src/mat src/solvers src/policy src/init src/petsc src/fortran
HEADERS   := include/eas.h $(wildcard include/eas/*.h)
FORMAT_SRC = $(wildcard include/*.h include/eas/*.h src/*/*.[ch] src/*/*/*.[ch] src/*/*/*.cu examples/*.c examples/fortran/*.c tests/*.c bench/*.c bench/*.h)

.PHONY: all lib check check-gpu gpu-verdict demo bench plots options-doc api-doc asan valgrind valgrind-tree install format clean deps tests examples benches help stress tutorials

# docs/api.md from the doc comments of the public headers (tests/test_api_doc.py
# fails when it is stale; `tools/gen-api --lint`, run by make check, when a
# public function has no doc comment).  Needs python3 only, no build.
.DEFAULT_GOAL := all
api-doc:
	$(PYTHON) tools/gen-api > docs/api.md

# ---------------------------------------------------------------------------
# First pass: make sure PETSc and MPI are installed (tools/deps.sh installs
# them with apt-get when run as root, or prints the line to run), then re-run
# make with the package flags known.
ifeq ($(EAS_DEPS_OK),)
all lib check check-gpu gpu-verdict demo bench plots options-doc asan valgrind valgrind-tree install tests examples benches stress tutorials:
	@sh tools/deps.sh
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS)) EAS_DEPS_OK=1 $@
format:
	clang-format -i $(FORMAT_SRC)
clean:
	rm -rf $(OBJDIR) build-asan build-vg
help:
	@sed -n '2,/^$$/p' Makefile
else
# ---------------------------------------------------------------------------
CC           := mpicc
PETSC_CFLAGS := $(shell pkg-config --cflags PETSc)
PETSC_LIBS   := $(shell pkg-config --libs PETSc)
PETSC_INCS   := $(shell pkg-config --cflags-only-I PETSc)
PETSC_LIBDIR := $(shell pkg-config --variable=libdir PETSc)
MPI_CFLAGS   := $(shell mpicc --showme:compile)
WARN         := -Wall -Wextra -Werror=implicit-function-declaration
CFLAGS_ALL    = $(OPT) -g -fPIC -fopenmp $(WARN) $(SAN) -Iinclude -Isrc $(PETSC_CFLAGS) $(SUNDIALS_DEFS) $(CFLAGS)
LDLIBS_ALL    = $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR) $(SUNDIALS_LIBS) -fopenmp -lm -ldl -lpthread $(LDLIBS)
# SUNDIALS (Debian's libsundials-dev): CVODE time stepping of the ADR solver
# (-adr_ts_type cvode) and the CVODE oracle tests; without it, "not compiled in".
ifeq ($(SUNDIALS),1)
  SUNDIALS_DEFS := -DEAS_HAVE_SUNDIALS $(if $(filter-out /usr/include,$(SUNDIALS_INC)),-I$(SUNDIALS_INC))
  SUNDIALS_LIBS := -lsundials_cvode -lsundials_nvecparallel -lsundials_sunlinsolspgmr
endif

# hwloc (Debian's libhwloc-dev, a dependency of libopenmpi-dev): one of the
# benchmarks' sources of the last-level cache size (bench/llc.h); without it,
# "hwloc: not compiled in".  Only the benchmarks and test_llc link it.
HWLOC ?= $(if $(shell pkg-config --exists hwloc 2>/dev/null && echo 1),1,0)
ifeq ($(HWLOC),1)
  HWLOC_CFLAGS := -DEAS_HAVE_HWLOC $(shell pkg-config --cflags hwloc)
  HWLOC_LIBS   := $(shell pkg-config --libs hwloc)
endif

CSRC := $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c))
# The CUDA backend is a module of its own (libeas-cuda.so, dlopen'ed by
# src/backends/cudamodule.c at the first request for /gpu/cuda): libeas has no
# CUDA dependency, and an installation built here also runs where there is
# no CUDA toolkit or driver (/gpu/cuda is then "not available", with why).
ifeq ($(CUDA),1)
  CUSRC     := $(wildcard src/backends/cuda/*.cu)
  CUDA_LIBS := -L$(CUDA_HOME)/lib64 -lcusparse -lcudart -Wl,-rpath,$(CUDA_HOME)/lib64 -lstdc++
  # A fat binary: native code (SASS) for Volta/Turing, Ampere and Hopper, so
  # that none of them JIT-compiles the module at its first run, and the PTX
  # of the newest for later GPUs.  The lists are recorded in the module
  # (CUDA_CODE_H; nvcc splits -D values at commas): eas_info says whether a
  # device has native code.
  NVCC_CODES  := $(shell $(NVCC) --list-gpu-code 2>/dev/null)
  CUDA_ARCHS  ?= $(if $(CUDA_ARCH),$(CUDA_ARCH),$(if $(NVCC_CODES),$(if $(filter sm_70,$(NVCC_CODES)),70,75),70) 80 90)
  CUDA_PTX    ?= $(lastword $(CUDA_ARCHS))
  CUDA_CODE   := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) -gencode arch=compute_$(CUDA_PTX),code=compute_$(CUDA_PTX)
  CUDA_CODE_H := $(OBJDIR)/gen/eas_cuda_code.h
  NVCCFLAGS ?= -O3 -std=c++17 -Xcompiler -fPIC,-Wall,-Wextra,-fvisibility=hidden
  LIB_CUDA  := $(OBJDIR)/lib/libeas-cuda.so
endif
# The Fortran interface (docs/fortran.md): module eas (src/fortran/eas.F90)
# in libeasf beside libeas (libeas itself needs no Fortran runtime), its
# eas.mod in OBJDIR/include; the Fortran examples and their C counterparts
# (tests/test_fortran.py compares them).
PETSC_INCDIR := $(shell pkg-config --variable=includedir PETSc)
FFLAGS_ALL    = $(OPT) -g -fPIC -cpp -ffree-line-length-none -Wall $(SAN) -I$(PETSC_INCDIR) $(FFLAGS)
FEXAMPLES_C  := $(OBJDIR)/examples/fortran/adrc $(OBJDIR)/examples/fortran/ebec
ifeq ($(FORTRAN),1)
  LIB_F     := $(OBJDIR)/lib/libeasf.so
  FEXAMPLES := $(OBJDIR)/examples/fortran/adrf $(OBJDIR)/examples/fortran/ebef $(FEXAMPLES_C)
else
  FEXAMPLES := $(FEXAMPLES_C)
endif
OBJS   := $(CSRC:%.c=$(OBJDIR)/%.o)
CUOBJS := $(CUSRC:%.cu=$(OBJDIR)/%.o)

# Rebuild everything when the flags change (e.g. CUDA=0 after CUDA=1).
FLAGS_STAMP := $(OBJDIR)/.flags
FLAGS_NOW   := $(CFLAGS_ALL) CUDA=$(CUDA) SUNDIALS=$(SUNDIALS) HWLOC=$(HWLOC) $(NVCCFLAGS) $(CUDA_CODE)
$(shell mkdir -p $(OBJDIR); echo '$(FLAGS_NOW)' | cmp -s - $(FLAGS_STAMP) || echo '$(FLAGS_NOW)' > $(FLAGS_STAMP))

# libeas.so -> libeas.so.0 (the SONAME) -> libeas.so.0.1.0 (the file).
VERSION    := 0.1.0
SOMAJOR    := 0
LIB_A      := $(OBJDIR)/lib/libeas.a
LIB_SO     := $(OBJDIR)/lib/libeas.so
LIB_SONAME := libeas.so.$(SOMAJOR)
LIB_SOFILE := libeas.so.$(VERSION)

# tests/fake_nvml.c is not a program: a fake libnvidia-ml for the NVML sensor tests.
TESTS    := $(patsubst tests/%.c,$(OBJDIR)/tests/%,$(filter-out tests/fake_nvml.c,$(wildcard tests/*.c)))
FAKE_NVML := $(OBJDIR)/tests/libfake_nvml.so
EXAMPLES := $(patsubst examples/%.c,$(OBJDIR)/examples/%,$(wildcard examples/*.c))
BENCHES  := $(patsubst bench/%.c,$(OBJDIR)/bench/%,$(wildcard bench/*.c))

MPIEXEC ?= mpirun $(if $(filter 0,$(shell id -u)),--allow-run-as-root) --oversubscribe --bind-to none
export MPIEXEC

all: lib tests examples benches tutorials
lib: $(LIB_A) $(LIB_SO) $(LIB_CUDA) $(LIB_F)
tests: $(TESTS) $(FAKE_NVML)
examples: $(EXAMPLES) $(FEXAMPLES)
benches: $(BENCHES)

$(OBJDIR)/%.o: %.c $(FLAGS_STAMP) $(HEADERS) $(wildcard src/*/*.h src/*/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(CUDA_CODE_H): $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@printf '/* generated by the Makefile: the code libeas-cuda.so holds (CUDA_ARCHS, CUDA_PTX) */\n#define EAS_CUDA_SASS %s\n#define EAS_CUDA_PTX %s\n' '$(subst $(space),$(comma) ,$(strip $(CUDA_ARCHS)))' '$(CUDA_PTX)' > $@

$(OBJDIR)/%.o: %.cu $(FLAGS_STAMP) $(CUDA_CODE_H) $(HEADERS) $(wildcard src/*/*.h src/*/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  NVCC $<"
	$(Q)$(NVCC) $(NVCCFLAGS) $(CUDA_CODE) -I$(dir $(CUDA_CODE_H)) -DEAS_HAVE_CUDA_CODE_H -DEAS_HAVE_CUDA -Iinclude -Isrc $(PETSC_INCS) $(MPI_CFLAGS) -c $< -o $@

$(LIB_A): $(OBJS)
	@mkdir -p $(dir $@)
	@echo "  AR   $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD   $(dir $@)$(LIB_SOFILE)"
	$(Q)$(CC) -shared -Wl,-soname,$(LIB_SONAME) -o $(dir $@)$(LIB_SOFILE) $^ $(LDLIBS_ALL) $(SAN)
	$(Q)ln -sf $(LIB_SOFILE) $(dir $@)$(LIB_SONAME) && ln -sf $(LIB_SONAME) $@
	$(Q)$(if $(LIB_CUDA),,rm -f $(dir $@)libeas-cuda.so) # CUDA=0: no module left from an earlier CUDA=1 build

# The CUDA module: the CUDA objects, cuSPARSE and the CUDA runtime, PETSc; no
# libeas symbol (it only fills the ops table libeas hands it).
$(LIB_CUDA): $(CUOBJS)
	@mkdir -p $(dir $@)
	@echo "  LD   $@"
	$(Q)$(CC) -shared -o $@ $^ $(CUDA_LIBS) $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR) $(SAN)

# Programs link the shared library (rpath to the build tree).
$(OBJDIR)/tests/%: tests/%.c $(LIB_SO) $(LIB_CUDA) $(HEADERS) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) $< -o $@ -L$(OBJDIR)/lib -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(LDLIBS_ALL) $(SAN)
# test_fem_nullspace calls LAPACK (syev) through PETSc's BLAS/LAPACK names;
# libpetsc links LAPACK privately, so the program names it itself.
$(OBJDIR)/tests/test_fem_nullspace: LDLIBS += $(shell pkg-config --libs lapack 2>/dev/null || echo -llapack -lblas)
# test_detect, test_ebe_tags, test_dvfs and test_cuda_host drive internal APIs
# (PETSC_INTERN, hidden in the shared library): they link the static library
# (the CUDA module is then found through the RUNPATH to the build tree).
STATIC_TESTS := $(addprefix $(OBJDIR)/tests/,test_detect test_ebe_tags test_dvfs test_cuda_host)
$(STATIC_TESTS): $(OBJDIR)/tests/%: tests/%.c $(LIB_A) $(LIB_CUDA) $(HEADERS) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) $< -o $@ $(LIB_A) -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(LDLIBS_ALL) $(SAN)
# The fake NVML, dlopen'ed by test_energy_sensors (-eas_nvml_library); no PETSc.
$(FAKE_NVML): tests/fake_nvml.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(OPT) -g -fPIC -shared $(WARN) $(SAN) $< -o $@
$(OBJDIR)/examples/%: examples/%.c $(LIB_SO) $(LIB_CUDA) $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) $< -o $@ -L$(OBJDIR)/lib -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(LDLIBS_ALL) $(SAN)
# The benchmarks' cache detection (bench/llc.h) and its test read hwloc.
$(BENCHES) $(OBJDIR)/tests/test_llc: private CFLAGS += $(HWLOC_CFLAGS)
$(BENCHES) $(OBJDIR)/tests/test_llc: private LDLIBS += $(HWLOC_LIBS)
$(OBJDIR)/tests/test_llc: bench/llc.h
$(OBJDIR)/bench/%: bench/%.c $(LIB_SO) $(LIB_CUDA) $(HEADERS) $(wildcard bench/*.h tests/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) $< -o $@ -L$(OBJDIR)/lib -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(LDLIBS_ALL) $(SAN)

# Fortran: the module, libeasf, the examples and their C counterparts.
$(OBJDIR)/include/eas.mod $(OBJDIR)/fortran/eas.o: src/fortran/eas.F90 $(FLAGS_STAMP)
	@mkdir -p $(OBJDIR)/include $(OBJDIR)/fortran
	@echo "  FC   $<"
	$(Q)$(FC) $(FFLAGS_ALL) -J$(OBJDIR)/include -c $< -o $(OBJDIR)/fortran/eas.o
$(LIB_F): $(OBJDIR)/fortran/eas.o $(LIB_SO)
	@echo "  LD   $@"
	$(Q)$(FC) -shared -o $@ $(OBJDIR)/fortran/eas.o -L$(OBJDIR)/lib -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR) $(SAN)
$(OBJDIR)/examples/fortran/%: examples/fortran/%.F90 $(LIB_F) $(OBJDIR)/include/eas.mod
	@mkdir -p $(dir $@)
	@echo "  FC   $<"
	$(Q)$(FC) $(FFLAGS_ALL) -I$(OBJDIR)/include $< -o $@ -L$(OBJDIR)/lib -leasf -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR)
$(OBJDIR)/examples/fortran/%: examples/fortran/%.c $(LIB_SO) $(LIB_CUDA) $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(CFLAGS_ALL) $< -o $@ -L$(OBJDIR)/lib -leas -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(LDLIBS_ALL) $(SAN)

# PETSc's own tutorials, unmodified, from Debian's libpetsc3.18-dev-examples
# (tests/test_petsc_plugin.py, bench/petsc_tutorials.py): built against PETSc
# alone, they get eas through -dll_append libeas.so; ex2-linked is ex2 linked
# with libeas and nothing else (the types registered by linking alone).
# Built with $(SAN) too: under make asan, libeas loads into them.
PETSC_TUTORIALS ?= /usr/share/petsc/3.18/share/petsc/examples/src/ksp/ksp/tutorials
TUTORIALS := $(addprefix $(OBJDIR)/petsc-tutorials/,ex2 ex3 ex45 ex50 ex2-linked)
tutorials: $(TUTORIALS)
$(OBJDIR)/petsc-tutorials/ex%: $(PETSC_TUTORIALS)/ex%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	$(Q)$(CC) $(OPT) -g $(SAN) $(PETSC_CFLAGS) $< -o $@ $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR) -lm
$(OBJDIR)/petsc-tutorials/ex2-linked: $(PETSC_TUTORIALS)/ex2.c $(LIB_SO)
	@mkdir -p $(dir $@)
	@echo "  CC   $< (linked with libeas)"
	$(Q)$(CC) $(OPT) -g $(SAN) $(PETSC_CFLAGS) $< -o $@ -Wl,--no-as-needed -L$(OBJDIR)/lib -leas -Wl,--as-needed -Wl,-rpath,$(abspath $(OBJDIR)/lib) $(PETSC_LIBS) -Wl,-rpath,$(PETSC_LIBDIR) -lm

check: all
	@$(PYTHON) tools/check-layers
	@$(PYTHON) tools/check-links
	@$(PYTHON) tools/gen-api --lint
	@bash tests/runner_selftest.sh $(OBJDIR)
	@bash tests/run.sh $(OBJDIR) -j $(JOBS)

# The asynchronous fault campaign at length (issue 14): 100 seeds per
# combination of detection, reception and -eas_async_halo_rtol, transport and
# diurnal, 4 ranks (make check runs 10 seeds of the transport case).
stress: all
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 4 $(OBJDIR)/tests/test_adr_campaign -seeds 100 -adr_problem transport -adr_n 16 -adr_steps 2 -adr_newton_rtol 1e-10 -eas_backend /cpu/serial
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 4 $(OBJDIR)/tests/test_adr_campaign -seeds 100 -adr_n 16 -adr_steps 2 -adr_newton_rtol 1e-10 -eas_backend /cpu/serial

# The whole suite (CPU tests included) where a CUDA device is usable: the
# tests marked "requires: cuda-device" (cuSPARSE mode, the transpose product
# on cuSPARSE, EBE splits with a GPU unit through ebe_unit_begin/end, async
# ADR on the GPU, the GPU twins of the policy tests) run, their no-device
# twins are skipped.  Fails at once, saying why, where no device is usable.
check-gpu: all
	@$(OBJDIR)/examples/eas_info -require /gpu/cuda
	@$(PYTHON) tools/check-layers
	@$(PYTHON) tools/check-links
	@$(PYTHON) tools/gen-api --lint
	@bash tests/runner_selftest.sh $(OBJDIR)
	@bash tests/run.sh $(OBJDIR) -j $(JOBS)

demo: all
	OMP_NUM_THREADS=2 $(MPIEXEC) -n 1 $(OBJDIR)/examples/ex1 -n 48 -ksp_monitor -ksp_converged_reason -ksp_view -log_view
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(OBJDIR)/examples/adr3d -adr_n 40 -adr_monitor -adr_view

# valgrind on small runs (OpenMPI's suppressions and tools/valgrind.supp), in
# its own build tree (the library and the programs below only: CI's time)
# without -march=native: valgrind 3.19 does not decode
# AVX-512.  Covers the CUDA module's loader (not found: CUDA=0) and the
# rank -> device map, the DIA/BiCGStab core, the ADR solver sync and async (both
# detections, the reception thread), a backend move, the EBE pipecg with the
# async exchange, the fake NVML library (dlopen), the RAPL sampler thread, and
# the energy policies (mode auto, backend auto, DVFS on a fake cpufreq tree,
# the power budget, the split's measured efficiency, the split on a device
# operator: its gather lists, staging buffers and scatter-adds).
VGCMD = valgrind -q --num-callers=40 --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
     --suppressions=/usr/share/openmpi/openmpi-valgrind.supp --suppressions=tools/valgrind.supp
VG = OMP_NUM_THREADS=1 $(VGCMD)
VG_PROGS = examples/eas_info examples/adr3d examples/fem_pcg tests/test_cuda_host tests/test_bicgstab tests/test_dia tests/test_reasons \
     tests/test_dia_precision tests/test_ebe_storage tests/test_adr_ew tests/test_adr_precision tests/test_adr_policy \
     tests/test_energy_sensors tests/test_meter_sampler tests/test_adr_campaign tests/test_dvfs tests/test_split_measure \
     tests/test_llc tests/test_split_device tests/test_split_gain tests/libfake_nvml.so
valgrind-tree:
	@$(MAKE) --no-print-directory EAS_DEPS_OK=1 OBJDIR=build-vg CUDA=0 FORTRAN=0 OPT="-O2" $(addprefix build-vg/,$(VG_PROGS))
valgrind: valgrind-tree
	$(VG) build-vg/examples/eas_info -unavailable
	$(VG) build-vg/tests/test_cuda_host
	$(VG) build-vg/tests/test_bicgstab -problem adr -n 6 -eas_threads 1
	$(VG) build-vg/tests/test_dia -n 40 -adr_n 4 -eas_threads 1
	$(VG) build-vg/tests/test_reasons -eas_threads 1
	$(VG) build-vg/tests/test_dia_precision -n 5 -eas_threads 1
	$(VG) build-vg/tests/test_ebe_storage -problem poisson -order 2 -n 2 -eas_threads 1
	$(VG) build-vg/tests/test_adr_ew -adr_n 5 -steps 1 -peer -fewer 0 -eas_threads 1
	$(VG) build-vg/tests/test_adr_precision -adr_n 5 -steps 1 -adr_ksp_ew -eas_threads 1
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/adr3d -adr_n 6 -adr_steps 2 -eas_mode async -eas_comm_delay_us 50 -eas_threads 1 -eas_sensor model -adr_progress 0
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/adr3d -adr_n 6 -adr_steps 2 -eas_mode async -adr_lag_jacobian 3 -adr_ksp_max_it 2 -eas_threads 1 -eas_sensor model -adr_progress 0
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/adr3d -adr_n 6 -adr_steps 2 -eas_mode async -eas_async_detect decentralized -eas_async_thread -eas_threads 1 -eas_sensor model -adr_progress 0
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/tests/test_adr_policy -case move -eas_sensor model
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/fem_pcg -fem_steps 2 -fem_n 2 -fem_grow 1 -fem_problem elasticity -fem_order 2 -ksp_type pipecg -pc_type pbjacobi -ebe_mode async -eas_threads 1
	$(VG) build-vg/tests/test_energy_sensors -case nvml_fake -fake_mode power -fake_power 87.5
	$(VG) build-vg/tests/test_energy_sensors -case normal
	$(VG) build-vg/tests/test_meter_sampler -case reads -phases 200 -reads_file /tmp/eas_vg_meter_reads
	$(VG) build-vg/tests/test_meter_sampler -case rapl
	if [ "$(SUNDIALS)" = 1 ]; then OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/adr3d -adr_nx 6 -adr_ny 1 -adr_nz 6 -adr_ts_type cvode -adr_tfinal 7200 -eas_mode async -eas_threads 1 -eas_sensor model -adr_output_interval 3600 -adr_monitor_points "0,10,30"; fi
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/tests/test_adr_campaign -case error -adr_problem transport -adr_n 6 -adr_newton_rtol 1e-10 -eas_comm_delay_us 100 -eas_threads 1 -eas_sensor model
	OMP_NUM_THREADS=1 $(MPIEXEC) -n 2 $(VGCMD) build-vg/examples/adr3d -adr_n 6 -adr_steps 3 -eas_mode auto -eas_backend auto -eas_dvfs report -eas_dvfs_freqs 2000000,1000000 -eas_power_budget 150 -eas_power_budget_apply 0 -eas_threads 1 -eas_sensor model -adr_progress 0
	$(VG) build-vg/tests/test_dvfs -case solve -dir /tmp/eas_vg_dvfs -eas_dvfs apply -eas_dvfs_warmup 3 -eas_sensor model -eas_energy_view -eas_threads 1
	$(VG) build-vg/tests/test_split_measure -ebe_split_units /cpu:1,/cpu:1 -ebe_test_slowdown 1:2 -ebe_rebalance_interval 1000000
	$(VG) build-vg/tests/test_split_device -eas_backend /cpu/memcheck -nx 4 -nz 5 -layers 1,2
	$(VG) build-vg/tests/test_split_gain -n 3 -eas_backend /cpu/memcheck -ebe_split_units /cpu/memcheck,/cpu:1 -ebe_rebalance_interval 5 -ebe_test_virtual_time 1e-4 -solves 2
	$(VG) build-vg/tests/test_llc -case order
	$(VG) build-vg/tests/test_llc -case machine
	@echo "valgrind: no errors"

bench: all
	@sh bench/run.sh $(OBJDIR)

# Everything the GPU needs checked, then one verdict line (tools/gpu-verdict):
# says clearly, and exits 2, where no CUDA device is usable.
gpu-verdict: all
	@EAS_TEST_JOBS=$(JOBS) sh tools/gpu-verdict $(OBJDIR)

# docs/options.md from the drivers' -help output (tests/test_options_doc.py
# fails when it is stale).
options-doc: examples
	$(PYTHON) tools/options-doc --objdir $(OBJDIR) > docs/options.md

# Figures from a short run (tools/plots.sh; docs/plots.md).
plots: all
	@sh tools/plots.sh $(OBJDIR) $(PYTHON)

# Sanitizers: a separate build tree, CUDA left out (its runtime is not instrumented).
asan:
	@$(MAKE) --no-print-directory EAS_DEPS_OK=1 OBJDIR=build-asan CUDA=0 OPT="-O1 -fno-omit-frame-pointer" SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" all
	@ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 bash tests/run.sh build-asan --nsize 1 -j $(JOBS)

install: lib
	install -d $(DESTDIR)$(PREFIX)/include/eas $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/eas.h $(DESTDIR)$(PREFIX)/include/
	$(if $(wildcard include/eas/*.h),install -m 644 include/eas/*.h $(DESTDIR)$(PREFIX)/include/eas/)
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(OBJDIR)/lib/$(LIB_SOFILE) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(LIB_SOFILE) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libeas.so
	$(if $(LIB_CUDA),install -m 755 $(LIB_CUDA) $(DESTDIR)$(PREFIX)/lib/)
	$(if $(LIB_F),install -m 755 $(LIB_F) $(DESTDIR)$(PREFIX)/lib/ && install -m 644 $(OBJDIR)/include/eas.mod $(DESTDIR)$(PREFIX)/include/)
	install -d $(DESTDIR)$(PREFIX)/share/eas
	install -m 644 share/eas/default_profile.opts $(DESTDIR)$(PREFIX)/share/eas/
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/eas
	install -m 755 tools/eas-plot $(DESTDIR)$(PREFIX)/bin/
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/eas/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@PRIVATE_LIBS@|$(SUNDIALS_LIBS)|' -e 's|@VERSION@|$(VERSION)|' eas.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/eas.pc
	@echo "installed eas in $(DESTDIR)$(PREFIX); use: pkg-config --cflags --libs eas"

format:
	clang-format -i $(FORMAT_SRC)

clean:
	rm -rf $(OBJDIR) build-asan build-vg

.SECONDARY:
endif
