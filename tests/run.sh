#!/bin/bash
# eas test runner.
#
#   bash tests/run.sh OBJDIR [--backend RES] [--nsize N] [--filter REGEX] [-v]
#
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
#                             CUDA device: the GPU cases and their no-device twins))
#   TEST*/
#
# Each test runs with -malloc_debug -malloc_dump and fails if memory leaks.
# Script tests (tests/test_*.py, the same block in a docstring) run as
# "$EAS_PYTHON script --objdir OBJDIR --np N args" (EAS_PYTHON defaults to
# Debian's /usr/bin/python3, the one with python3-matplotlib), with MPIEXEC
# exported; the script runs the programs itself.
# On /cpu/memcheck tests run on at most EAS_MEMCHECK_MAX_NP ranks (default 2).
# A test that runs longer than EAS_TEST_TIMEOUT seconds (default 300) is
# killed and fails ("timed out after N s"), whatever kind it is.
# The last line is "N passed, N failed".
set -u
OBJDIR=${1:?usage: run.sh OBJDIR [--backend RES] [--nsize N] [--filter REGEX] [-v]}
shift
ONLY_BACKEND=""
ONLY_NSIZE=""
FILTER=""
VERBOSE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) ONLY_BACKEND=$2; shift ;;
    --nsize) ONLY_NSIZE=$2; shift ;;
    --filter) FILTER=$2; shift ;;
    -v) VERBOSE=1 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
MPIEXEC=${MPIEXEC:-mpirun $( [ "$(id -u)" = 0 ] && echo --allow-run-as-root) --oversubscribe --bind-to none}
TIMEOUT=${EAS_TEST_TIMEOUT:-300}
MEMCHECK_MAX_NP=${EAS_MEMCHECK_MAX_NP:-2}
PYTHON=${EAS_PYTHON:-/usr/bin/python3}
ROOT=${EAS_TEST_ROOT:-$(cd "$(dirname "$0")/.." && pwd)} # EAS_TEST_ROOT: the runner's self-test
LOGDIR=$OBJDIR/testlogs
mkdir -p "$LOGDIR"

INFO=$OBJDIR/examples/eas_info
AVAILABLE=$("$INFO" -available 2>/dev/null) || { echo "run.sh: $INFO failed; build first (make check)" >&2; exit 1; }
UNAVAILABLE=$("$INFO" -unavailable 2>/dev/null)
FEATURES=$("$INFO" -features 2>/dev/null)
if [ -n "$UNAVAILABLE" ]; then
  echo "$UNAVAILABLE" | sed 's/^/# skipped backend: /'
fi
if [ -n "$ONLY_BACKEND" ]; then
  if ! echo "$AVAILABLE" | grep -qx -- "$ONLY_BACKEND"; then
    echo "run.sh: backend $ONLY_BACKEND is not available here:"
    echo "$UNAVAILABLE" | grep -- "$ONLY_BACKEND" || true
    echo "0 passed, 1 failed"
    exit 1
  fi
  AVAILABLE=$ONLY_BACKEND
fi

pass=0
fail=0
failed_list=""

# Emits one line per test, fields separated by \036 (not whitespace, so empty
# fields survive read): suffix nsize backends args expects(\037-separated)
# expect_error counts(\037-separated "N ERE")
parse_tests() {
  awk '
    /\/\*TEST/ { inblk = 1; next }
    /TEST\*\// { if (have) emit(); inblk = 0; next }
    !inblk { next }
    function emit() { printf "%s\036%s\036%s\036%s\036%s\036%s\036%s\036%s\n", suffix, nsize, backends, args, expects, experr, counts, requires; have = 0 }
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
  ' "$1"
}

# The first unmet requirement of a test, said as the reason it is skipped
# ("" when all hold): FEATURE must be listed by eas_info -features, !FEATURE not.
requires_unmet() {
  local r f
  for r in $1; do
    f=${r#!}
    if [ "$f" = "$r" ]; then
      echo "$FEATURES" | grep -qx -- "$f" || { echo "$f is not present here (eas_info -features)"; return; }
    else
      echo "$FEATURES" | grep -qx -- "$f" && { echo "$f is present here (the test is for machines without it)"; return; }
    fi
  done
  echo ""
}

run_one() { # name exe np backend args expects experr counts
  local name=$1 exe=$2 np=$3 be=$4 args=$5 expects=$6 experr=$7 counts=$8
  local log="$LOGDIR/$(echo "$name" | tr '/ ' '__').log"
  local beopt="" threads=1 rc ok=1 why=""
  [ "$be" != "-" ] && beopt="-eas_backend $be"
  [ "$np" = 1 ] && threads=2
  # shellcheck disable=SC2086
  if [ "${exe%.py}" != "$exe" ]; then
    MPIEXEC="$MPIEXEC" OMP_NUM_THREADS=$threads timeout -k 10 "$TIMEOUT" "$PYTHON" "$exe" --objdir "$OBJDIR" --np "$np" $args < /dev/null > "$log" 2>&1
  else
    OMP_NUM_THREADS=$threads timeout -k 10 "$TIMEOUT" $MPIEXEC -n "$np" "$exe" $args $beopt -malloc_debug -malloc_dump < /dev/null > "$log" 2>&1
  fi
  rc=$?
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
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
    echo "ok     $name"
    [ $VERBOSE = 1 ] && sed 's/^/       | /' "$log"
  else
    fail=$((fail + 1))
    failed_list="$failed_list
  $name"
    echo "FAIL   $name: ${why#; }"
    if [ "${exe%.py}" != "$exe" ]; then
      echo "       command: OMP_NUM_THREADS=$threads MPIEXEC=\"$MPIEXEC\" $PYTHON $exe --objdir $OBJDIR --np $np $args"
    else
      echo "       command: OMP_NUM_THREADS=$threads $MPIEXEC -n $np $exe $args $beopt"
    fi
    tail -n 25 "$log" | sed 's/^/       | /'
  fi
}

for src in "$ROOT"/tests/*.c "$ROOT"/examples/*.c "$ROOT"/bench/*.c "$ROOT"/tests/test_*.py; do
  [ -f "$src" ] || continue
  case "$src" in
    *.py) base=$(basename "$src" .py); exe=$src ;;
    *) base=$(basename "$src" .c); exe=$OBJDIR/$(basename "$(dirname "$src")")/$base ;;
  esac
  while IFS=$'\036' read -r suffix nsize backends args expects experr counts requires; do
    [ -n "$suffix" ] || continue
    unmet=$(requires_unmet "$requires")
    if [ -n "$unmet" ]; then
      if [ -z "$FILTER" ] || echo "$base/$suffix" | grep -Eq -- "$FILTER"; then echo "skip   $base/$suffix: $unmet"; fi
      continue
    fi
    case "$backends" in
      all) bes=$AVAILABLE ;;
      cpu) bes=$(echo "$AVAILABLE" | grep '^/cpu' | grep -vx /cpu/memcheck) ;;
      none) bes="-" ; [ -n "$ONLY_BACKEND" ] && bes="" ;;
      *) bes="" ; for b in $backends; do echo "$AVAILABLE" | grep -qx -- "$b" && bes="$bes $b"; done ;;
    esac
    for be in $bes; do
      for np in $nsize; do
        [ -n "$ONLY_NSIZE" ] && [ "$np" != "$ONLY_NSIZE" ] && continue
        # /cpu/memcheck checks per-rank host/device paths: 1 and 2 ranks cover them (make check's time)
        [ "$be" = /cpu/memcheck ] && [ "$np" -gt "$MEMCHECK_MAX_NP" ] && continue
        name="$base/$suffix np=$np be=$be"
        if [ -n "$FILTER" ] && ! echo "$name" | grep -Eq -- "$FILTER"; then continue; fi
        if [ ! -x "$exe" ] && [ "${exe%.py}" = "$exe" ]; then
          fail=$((fail + 1)); echo "FAIL   $name: $exe not built"; continue
        fi
        run_one "$name" "$exe" "$np" "$be" "$args" "$expects" "$experr" "$counts"
      done
    done
  done < <(parse_tests "$src")
done

[ -n "$failed_list" ] && printf 'failed:%b\n' "$failed_list"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
