#!/bin/bash
# eas test runner.
#
#   bash tests/run.sh OBJDIR [-j N|auto] [--backend RES] [--nsize N] [--filter REGEX] [--exclude REGEX] [-v] [--list]
#
# --filter runs only the runs whose name ("file/suffix np=N be=RES") matches,
# --exclude leaves out those that match; --list prints the runs (name,
# threads) and runs none.
# Every tests/*.c, examples/*.c and bench/*.c carries a block
#
#   /*TEST
#     test:
#       suffix: name          (unique within the file)
#       nsize: 1 2 4          (rank counts; default 1)
#       backends: all | cpu | none   (all: every available backend, /cpu/memcheck
#                             included; cpu: the host-memory CPU backends
#                             /cpu/openmp, /cpu/serial; none: run once without
#                             -eas_backend)
#       args: -opt value ...
#       expect: ERE           (repeatable: each must match the output)
#       expect_count: N ERE   (repeatable: exactly N output lines match ERE;
#                             N = 0: the output must not match it)
#       expect_error: ERE     (the run must fail and its output match)
#       requires: FEATURE     (skipped, and said so, unless eas_info -features lists it;
#                             !FEATURE: only where it is not listed; several,
#                             space-separated: all must hold.  Features: sundials,
#                             cuda (the CUDA module loads), cuda-device (a usable
#                             CUDA device: the GPU cases and their no-device twins),
#                             petsc-dev (pkg-config finds PETSc: programs compile))
#   TEST*/
#
# Each test runs with -malloc_debug -malloc_dump and fails if memory leaks.
# Script tests (tests/test_*.py, the same block in a docstring) run as
# "$EAS_PYTHON script --objdir OBJDIR --np N args" (EAS_PYTHON defaults to
# Debian's /usr/bin/python3, the one with python3-matplotlib), with MPIEXEC
# exported; the script runs the programs itself.
# On /cpu/memcheck tests run on at most EAS_MEMCHECK_MAX_NP ranks (default 2).
# On more than one rank a test runs on /cpu/serial only where it does not also
# run on /cpu/openmp (on one thread per rank the two run the same code; the
# serial backend's own kernels run at 1 rank): EAS_TEST_FULL_MATRIX=1 runs
# every backend at every rank count.
# A test that runs longer than EAS_TEST_TIMEOUT seconds (default 300) is
# killed and fails ("timed out after N s"), whatever kind it is.
# "@TMP@" in args and expect lines is replaced by a directory of the run's
# own (removed after it; also its TMPDIR): tests that write files do not
# meet each other, in parallel or from another user's run.
# "@OBJDIR@" in args is replaced by the object directory's absolute path
# (e.g. @OBJDIR@/tests/libfake_nvml.so, the fake NVML built with the tests).
# The last line is "N passed, N failed", after the list of the failed tests.
#
# Parallel runs, threads and cores (-j N, make check JOBS=N; docs/tests.md):
# up to N tests run at once, and a test of np ranks gets
#   OMP_NUM_THREADS = max(1, floor(CORES / (N x np)))
# (CORES: EAS_TEST_CORES, default nproc; with N = 1 on 2 cores: 2 threads on
# 1 rank, 1 on 2 and 4 ranks).  A test takes min(np x threads, CORES) cores,
# and starts only when that many are free (or nothing else runs), so the
# tests running never ask for more cores than there are.  -j auto (make's
# default) is max(1, CORES / 2).  EAS_TEST_THREADS=T gives every test T
# threads instead (to check that no verdict depends on the thread count,
# e.g. T = 8 on 2 cores: then each test takes the whole machine).  Each test
# writes its own log (OBJDIR/testlogs); its report is printed whole when it
# ends (in the order they end), and OBJDIR/testlogs/durations lists the
# seconds each took.
set -u
USAGE="usage: run.sh OBJDIR [-j N|auto] [--backend RES] [--nsize N] [--filter REGEX] [--exclude REGEX] [-v] [--list]"
OBJDIR=${1:?$USAGE}
shift
ONLY_BACKEND=""
ONLY_NSIZE=""
FILTER=""
EXCLUDE=""
VERBOSE=0
LIST=0
JOBS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) ONLY_BACKEND=$2; shift ;;
    --nsize) ONLY_NSIZE=$2; shift ;;
    --filter) FILTER=$2; shift ;;
    --exclude) EXCLUDE=$2; shift ;;
    -j) JOBS=$2; shift ;;
    -j*) JOBS=${1#-j} ;;
    -v) VERBOSE=1 ;;
    --list) LIST=1 ;;
    *) echo "run.sh: unknown argument $1" >&2; echo "$USAGE" >&2; exit 2 ;;
  esac
  shift
done
CORES=${EAS_TEST_CORES:-$(nproc 2>/dev/null || echo 1)}
case "$CORES" in '' | *[!0-9]* | 0) echo "run.sh: EAS_TEST_CORES=$CORES: expected a positive integer" >&2; exit 2 ;; esac
[ "$JOBS" = auto ] && JOBS=$(( CORES / 2 > 1 ? CORES / 2 : 1 ))
case "$JOBS" in '' | *[!0-9]* | 0) echo "run.sh: -j $JOBS: expected a positive integer or auto" >&2; exit 2 ;; esac
FORCE_THREADS=${EAS_TEST_THREADS:-}
case "$FORCE_THREADS" in *[!0-9]* | 0) echo "run.sh: EAS_TEST_THREADS=$FORCE_THREADS: expected a positive integer" >&2; exit 2 ;; esac
if [ "$JOBS" -gt 1 ] && { [ "${BASH_VERSINFO[0]}" -lt 5 ] || { [ "${BASH_VERSINFO[0]}" = 5 ] && [ "${BASH_VERSINFO[1]}" -lt 1 ]; }; }; then
  echo "# run.sh: -j $JOBS needs bash 5.1 (wait -n -p); running one test at a time"
  JOBS=1
fi
MPIEXEC=${MPIEXEC:-mpirun $( [ "$(id -u)" = 0 ] && echo --allow-run-as-root) --oversubscribe --bind-to none}
# Ranks that wait in MPI give their core away (OpenMPI busy-polls by default):
# with more ranks than free cores (4 ranks on 2 cores, a loaded machine, a run
# pinned to one core) a polling rank otherwise holds the core its peer needs
# to send: test_adr_cvode/beuler on 2 ranks pinned to one core took 30 s
# instead of 2.7 s for 432 steps, and timed out at its 10224 (issue 24).
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
# The same for OpenMP threads waiting at a barrier: they sleep instead of
# spinning (libgomp spins ~300000 times first) on the cores their team
# needs.  A test's thread only runs when the machine gives it a core: with
# the machine loaded (a build beside make check) test_adr_cvode/beuler on
# /cpu/memcheck with 2 threads timed out; 288 of its steps took 4.8-5.0 s
# spinning and 0.24-0.37 s passive, and 8 threads per rank on 2 cores
# (EAS_TEST_THREADS=8) 42 s against 15 s per 144 steps.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
TIMEOUT=${EAS_TEST_TIMEOUT:-300}
MEMCHECK_MAX_NP=${EAS_MEMCHECK_MAX_NP:-2}
FULL_MATRIX=${EAS_TEST_FULL_MATRIX:-0}
PYTHON=${EAS_PYTHON:-/usr/bin/python3}
ROOT=${EAS_TEST_ROOT:-$(cd "$(dirname "$0")/.." && pwd)} # EAS_TEST_ROOT: the runner's self-test
LOGDIR=$OBJDIR/testlogs
OBJDIR_ABS=$(cd "$OBJDIR" && pwd) || exit 1
mkdir -p "$LOGDIR"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/eas_run_XXXXXX") || exit 1 # the reports of running tests, their @TMP@ directories
trap 'rm -rf "$WORK"' EXIT
: > "$LOGDIR/durations"

INFO=$OBJDIR/examples/eas_info
AVAILABLE=$("$INFO" -available 2>/dev/null) || { echo "run.sh: $INFO failed; build first (make check)" >&2; exit 1; }
UNAVAILABLE=$("$INFO" -unavailable 2>/dev/null)
FEATURES=$("$INFO" -features 2>/dev/null)
# petsc-dev: PETSc's headers and pkg-config file, for the tests that compile a
# user's program (a GPU machine running a packed build has PETSc's libraries only)
pkg-config --exists PETSc 2> /dev/null && FEATURES="$FEATURES
petsc-dev"
if [ -n "$UNAVAILABLE" ]; then
  echo "$UNAVAILABLE" | sed 's/^/# skipped backend: /'
fi
# whether the newline-separated list $1 holds the line $2 (no fork: the
# enumeration below looks at ~700 runs)
listed() { [[ $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]]; }
if [ -n "$ONLY_BACKEND" ]; then
  if ! listed "$AVAILABLE" "$ONLY_BACKEND"; then
    echo "run.sh: backend $ONLY_BACKEND is not available here:"
    echo "$UNAVAILABLE" | grep -- "$ONLY_BACKEND" || true
    echo "0 passed, 1 failed"
    exit 1
  fi
  AVAILABLE=$ONLY_BACKEND
fi
CPU_BACKENDS=""
for b in $AVAILABLE; do [[ $b == /cpu* && $b != /cpu/memcheck ]] && CPU_BACKENDS="$CPU_BACKENDS $b"; done

pass=0
fail=0

# Emits one line per test of the files given, fields separated by \036 (not
# whitespace, so empty fields survive read): file suffix nsize backends args
# expects(\037-separated) expect_error counts(\037-separated "N ERE") requires
parse_tests() {
  awk '
    FNR == 1 { inblk = 0; have = 0 }
    /\/\*TEST/ { inblk = 1; next }
    /TEST\*\// { if (have) emit(); inblk = 0; next }
    !inblk { next }
    function emit() { printf "%s\036%s\036%s\036%s\036%s\036%s\036%s\036%s\036%s\n", FILENAME, suffix, nsize, backends, args, expects, experr, counts, requires; have = 0 }
    /^[ \t]*test:[ \t]*$/ { if (have) emit(); have = 1; suffix = "0"; nsize = "1"; backends = "all"; args = ""; expects = ""; experr = ""; counts = ""; requires = ""; next }
    {
      line = $0; sub(/^[ \t]+/, "", line)
      key = line; sub(/:.*/, "", key)
      val = line; sub(/^[^:]*:[ \t]*/, "", val)
      if (key == "suffix") suffix = val
      else if (key == "nsize") nsize = val
      else if (key == "backends") backends = val
      else if (key == "args") args = (args == "" ? val : args " " val)
      else if (key == "expect") expects = (expects == "" ? val : expects "\037" val)
      else if (key == "expect_error") experr = val
      else if (key == "expect_count") counts = (counts == "" ? val : counts "\037" val)
      else if (key == "requires") requires = val
    }
  ' "$@"
}

# The first unmet requirement of a test, said as the reason it is skipped
# (in $unmet, "" when all hold): FEATURE must be listed by eas_info -features, !FEATURE not.
requires_unmet() {
  local r f
  unmet=""
  for r in $1; do
    f=${r#!}
    if [ "$f" = "$r" ]; then
      listed "$FEATURES" "$f" || { unmet="$f is not present here (eas_info -features)"; return; }
    else
      listed "$FEATURES" "$f" && { unmet="$f is present here (the test is for machines without it)"; return; }
    fi
  done
}

# Threads of a test of np ranks (the header), in $threads
threads_for() {
  threads=${FORCE_THREADS:-$(( CORES / (JOBS * $1) ))}
  [ "$threads" -lt 1 ] && threads=1
}

# Runs one test; its report (the ok/FAIL line and, on failure, the command and
# the log's tail) goes to $WORK/<id>.rep; exit status 0 when it passed.
run_one() { # id name exe np be args expects experr counts threads
  local id=$1 name=$2 exe=$3 np=$4 be=$5 args=$6 expects=$7 experr=$8 counts=$9 threads=${10}
  local log="$LOGDIR/${name//[\/ ]/_}.log" rep="$WORK/$id.rep" tmp="$WORK/$id.tmp"
  local beopt="" rc ok=1 why="" t0 t1
  [ "$be" != "-" ] && beopt="-eas_backend $be"
  mkdir -p "$tmp"
  args=${args//@TMP@/$tmp}
  args=${args//@OBJDIR@/$OBJDIR_ABS}
  expects=${expects//@TMP@/$tmp}
  experr=${experr//@TMP@/$tmp}
  t0=${EPOCHREALTIME/[.,]/}
  # shellcheck disable=SC2086
  if [ "${exe%.py}" != "$exe" ]; then
    TMPDIR=$tmp MPIEXEC="$MPIEXEC" OMP_NUM_THREADS=$threads timeout -k 10 "$TIMEOUT" "$PYTHON" "$exe" --objdir "$OBJDIR" --np "$np" $args < /dev/null > "$log" 2>&1
  else
    TMPDIR=$tmp OMP_NUM_THREADS=$threads timeout -k 10 "$TIMEOUT" $MPIEXEC -n "$np" "$exe" $args $beopt -malloc_debug -malloc_dump < /dev/null > "$log" 2>&1
  fi
  rc=$?
  t1=${EPOCHREALTIME/[.,]/}
  rm -rf "$tmp"
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    # a hang is a failure whatever the test expects, even when its partial output matches
    ok=0; why="timed out after ${TIMEOUT} s"
  elif [ -n "$experr" ]; then
    if [ $rc = 0 ]; then ok=0; why="expected an error, exit 0"; fi
    if ! grep -Eq -- "$experr" "$log"; then ok=0; why="$why; output lacks /$experr/"; fi
  else
    if [ $rc != 0 ]; then ok=0; why="exit code $rc"; fi
    if [ -n "$expects" ]; then
      local IFS=$'\037'
      for e in $expects; do
        if ! grep -Eq -- "$e" "$log"; then ok=0; why="$why; output lacks /$e/"; fi
      done
    fi
    if [ -n "$counts" ]; then
      local IFS=$'\037' want re got
      for c in $counts; do
        want=${c%% *}
        re=${c#* }
        got=$(grep -Ec -- "$re" "$log")
        if [ "$got" != "$want" ]; then ok=0; why="$why; /$re/ matches $got line(s), expected $want"; fi
      done
    fi
    if grep -Eq "Total space allocated|bytes [A-Za-z_0-9]+\(\) (at|line)" "$log"; then ok=0; why="$why; memory leaked (-malloc_dump)"; fi
  fi
  printf '%d.%d\t%s\n' $(((t1 - t0) / 1000000)) $(((t1 - t0) / 100000 % 10)) "$name" >> "$LOGDIR/durations"
  {
    if [ $ok = 1 ]; then
      echo "ok     $name"
      [ $VERBOSE = 1 ] && sed 's/^/       | /' "$log"
    else
      echo "FAIL   $name: ${why#; }"
      if [ "${exe%.py}" != "$exe" ]; then
        echo "       command: OMP_NUM_THREADS=$threads MPIEXEC=\"$MPIEXEC\" $PYTHON $exe --objdir $OBJDIR --np $np $args"
      else
        echo "       command: OMP_NUM_THREADS=$threads $MPIEXEC -n $np $exe $args $beopt"
      fi
      tail -n 25 "$log" | sed 's/^/       | /'
    fi
  } > "$rep"
  [ $ok = 1 ]
}

# The tests to run, in the order of the files and their blocks (T_*[i]).
ntests=0
declare -a T_NAME=() T_EXE=() T_NP=() T_BE=() T_ARGS=() T_EXP=() T_ERR=() T_CNT=()
srcs=()
for src in "$ROOT"/tests/*.c "$ROOT"/examples/*.c "$ROOT"/bench/*.c "$ROOT"/tests/test_*.py; do
  [ -f "$src" ] && srcs+=("$src")
done
while IFS=$'\036' read -r src suffix nsize backends args expects experr counts requires; do
  [ -n "$suffix" ] || continue
  case "$src" in
    *.py) base=${src##*/}; base=${base%.py}; exe=$src ;;
    *) base=${src##*/}; base=${base%.c}; dir=${src%/*}; exe=$OBJDIR/${dir##*/}/$base ;;
  esac
  requires_unmet "$requires"
  if [ -n "$unmet" ]; then
    if [ -z "$FILTER" ] || [[ "$base/$suffix" =~ $FILTER ]]; then echo "skip   $base/$suffix: $unmet"; fi
    continue
  fi
  case "$backends" in
    all) bes=$AVAILABLE ;;
    cpu) bes=$CPU_BACKENDS ;;
    none) bes="-" ; [ -n "$ONLY_BACKEND" ] && bes="" ;;
    *) bes="" ; for b in $backends; do listed "$AVAILABLE" "$b" && bes="$bes $b"; done ;;
  esac
  for be in $bes; do
    for np in $nsize; do
      [ -n "$ONLY_NSIZE" ] && [ "$np" != "$ONLY_NSIZE" ] && continue
      # /cpu/memcheck checks per-rank host/device paths: 1 and 2 ranks cover them (make check's time)
      [ "$be" = /cpu/memcheck ] && [ "$np" -gt "$MEMCHECK_MAX_NP" ] && continue
      # /cpu/serial beside /cpu/openmp on several ranks: the same code on one thread per rank (make check's time)
      [ "$FULL_MATRIX" != 1 ] && [ "$be" = /cpu/serial ] && [ "$np" -gt 1 ] && listed "$bes" /cpu/openmp && continue
      name="$base/$suffix np=$np be=$be"
      if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then continue; fi
      if [ -n "$EXCLUDE" ] && [[ $name =~ $EXCLUDE ]]; then continue; fi
      T_NAME[ntests]=$name; T_EXE[ntests]=$exe; T_NP[ntests]=$np; T_BE[ntests]=$be
      T_ARGS[ntests]=$args; T_EXP[ntests]=$expects; T_ERR[ntests]=$experr; T_CNT[ntests]=$counts
      ntests=$((ntests + 1))
    done
  done
done < <(parse_tests "${srcs[@]}")

if [ $LIST = 1 ]; then
  for ((i = 0; i < ntests; i++)); do threads_for "${T_NP[i]}"; echo "${T_NAME[i]}  (OMP_NUM_THREADS=$threads)"; done
  exit 0
fi

# Run them: at most JOBS at once, never more cores asked for than CORES
# (a test wider than the machine runs alone).  When the next test does not
# fit beside those running, one of the next WINDOW (16) that fits starts in
# its place (a one-core test beside another), so no core idles while the
# head waits; the head starts as soon as it fits, and the window bounds how
# far the order moves.  Reports are printed whole as tests end; the failed
# list is in the order above.
declare -A RUNNING_ID=() RUNNING_CORES=()
declare -a FAILED=() STARTED=() NEED=() THREADS=()
used=0
WINDOW=16
reap() { # waits for one test to end, prints its report, counts it
  local pid id st
  wait -n -p pid
  st=$?
  id=${RUNNING_ID[$pid]}
  cat "$WORK/$id.rep"
  if [ $st = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); FAILED[id]=${T_NAME[id]}; fi
  used=$((used - RUNNING_CORES[$pid]))
  unset "RUNNING_ID[$pid]" "RUNNING_CORES[$pid]"
}
for ((i = 0; i < ntests; i++)); do
  threads_for "${T_NP[i]}"
  THREADS[i]=$threads
  NEED[i]=$((T_NP[i] * threads))
  [ "${NEED[i]}" -gt "$CORES" ] && NEED[i]=$CORES
done
head=0
while :; do
  while [ $head -lt $ntests ] && [ -n "${STARTED[head]:-}" ]; do head=$((head + 1)); done
  [ $head -ge $ntests ] && break
  pick=-1
  if [ ${#RUNNING_ID[@]} -lt "$JOBS" ]; then
    for ((k = head; k < ntests && k < head + WINDOW; k++)); do
      [ -n "${STARTED[k]:-}" ] && continue
      if [ ${#RUNNING_ID[@]} -eq 0 ] || [ $((used + NEED[k])) -le "$CORES" ]; then pick=$k; break; fi
    done
  fi
  if [ $pick -lt 0 ]; then reap; continue; fi
  i=$pick
  STARTED[i]=1
  if [ ! -x "${T_EXE[i]}" ] && [ "${T_EXE[i]%.py}" = "${T_EXE[i]}" ]; then
    fail=$((fail + 1)); FAILED[i]=${T_NAME[i]}; echo "FAIL   ${T_NAME[i]}: ${T_EXE[i]} not built"; continue
  fi
  run_one "$i" "${T_NAME[i]}" "${T_EXE[i]}" "${T_NP[i]}" "${T_BE[i]}" "${T_ARGS[i]}" "${T_EXP[i]}" "${T_ERR[i]}" "${T_CNT[i]}" "${THREADS[i]}" &
  RUNNING_ID[$!]=$i
  RUNNING_CORES[$!]=${NEED[i]}
  used=$((used + NEED[i]))
done
while [ ${#RUNNING_ID[@]} -gt 0 ]; do reap; done

if [ ${#FAILED[@]} -gt 0 ]; then
  echo "failed:"
  for i in "${!FAILED[@]}"; do echo "  ${FAILED[i]}"; done
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
