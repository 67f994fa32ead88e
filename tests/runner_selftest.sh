#!/bin/bash
# Self-test of tests/run.sh: a test that hangs must fail, whatever its kind,
# even when its partial output matches what it expects; "requires:" with a
# feature and its negation (!FEATURE) runs or skips as documented.
#
#   bash tests/runner_selftest.sh OBJDIR
set -u
OBJDIR=${1:?usage: runner_selftest.sh OBJDIR}
# the runs below set their own cores and threads (EAS_TEST_THREADS=8 make check must not reach them)
unset EAS_TEST_THREADS EAS_TEST_CORES OMP_WAIT_POLICY
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/tests" "$tmp/obj/tests" "$tmp/obj/examples"
ln -s "$(cd "$OBJDIR" && pwd)/examples/eas_info" "$tmp/obj/examples/eas_info"
# a "program" that prints what the tests expect, then hangs
printf '#!/bin/sh\necho "partial output: DIVERGED_MAX_IT"\nsleep 60\n' > "$tmp/obj/tests/hang"
chmod +x "$tmp/obj/tests/hang"
cat > "$tmp/root/tests/hang.c" <<'EOT'
/*TEST
  test:
    suffix: error_kind
    backends: none
    expect_error: DIVERGED_MAX_IT
  test:
    suffix: expect_kind
    backends: none
    expect: partial output
TEST*/
EOT
out=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_TIMEOUT=2 bash "$HERE/run.sh" "$tmp/obj" 2>&1)
if echo "$out" | grep -q '^FAIL   hang/error_kind .*timed out after 2 s' && echo "$out" | grep -q '^FAIL   hang/expect_kind .*timed out after 2 s' && echo "$out" | grep -q '^0 passed, 2 failed'; then
  echo "runner self-test: a hang fails every kind of test (timed out after 2 s): ok"
else
  echo "runner self-test: FAILED: a hanging test was not reported as a timeout failure:"
  echo "$out" | sed 's/^/  | /'
  exit 1
fi

# "requires:": FEATURE runs only where eas_info -features lists it, !FEATURE
# only where it does not, and a test not run says why (machine-independent:
# a feature no eas_info lists).
rm -f "$tmp/root/tests/hang.c"
printf '#!/bin/sh\necho "requires ran"\n' > "$tmp/obj/tests/req"
chmod +x "$tmp/obj/tests/req"
cat > "$tmp/root/tests/req.c" <<'EOT'
/*TEST
  test:
    suffix: absent
    backends: none
    requires: eas-selftest-none
    expect: requires ran
  test:
    suffix: negated
    backends: none
    requires: !eas-selftest-none
    expect: requires ran
TEST*/
EOT
out=$(EAS_TEST_ROOT="$tmp/root" bash "$HERE/run.sh" "$tmp/obj" 2>&1)
if echo "$out" | grep -q '^skip   req/absent: eas-selftest-none is not present here' && echo "$out" | grep -q '^ok     req/negated' && echo "$out" | grep -q '^1 passed, 0 failed'; then
  echo "runner self-test: requires FEATURE skips with the reason, requires !FEATURE runs: ok"
else
  echo "runner self-test: FAILED: requires / !FEATURE:"
  echo "$out" | sed 's/^/  | /'
  exit 1
fi

# -j N (issue 20 item 6): the same runs, results, counts and failed list as
# one at a time; each report printed whole; OMP_NUM_THREADS = CORES / (N x np)
# (at least 1); never more cores asked for at once than CORES; @TMP@ is a
# directory of the run's own, removed after it.
# (par/a sleeps 3 s: the tests launched meanwhile see it running, so the
# check that two ran at once holds on a loaded machine too.)
rm -f "$tmp/root/tests/req.c"
cat > "$tmp/obj/tests/par" <<'EOS'
#!/bin/bash
# par MODE SECONDS DIR [TMP] [-malloc...]: each process (rank) notes its
# threads while it runs (the cores of all running tests are their sum),
# sleeps, then behaves as MODE says
mode=$1 secs=$2 dir=$3
np=${OMPI_COMM_WORLD_SIZE:-1}
me=$dir/run.$$
echo "$OMP_NUM_THREADS" > "$me"
(cd "$dir" && cat run.* 2>/dev/null | awk '{ s += $1 } END { print s }') >> "$dir/sums"
sleep "$secs"
rm -f "$me"
echo "threads=$OMP_NUM_THREADS np=$np wait=${OMP_WAIT_POLICY:-}"
case $mode in
  ok) echo "all good" ;;
  miss) echo "something else" ;;
  err) echo "PARSE ERROR here"; exit 3 ;;
  exit) echo "all good"; exit 1 ;;
  tmp) [ -d "$4" ] && touch "$4/mine" && echo "tmp dir $4 of my own" ;;
esac
EOS
chmod +x "$tmp/obj/tests/par"
mkdir -p "$tmp/cores"
cat > "$tmp/root/tests/par.c" <<EOT
/*TEST
  test:
    suffix: a
    backends: none
    nsize: 1 2
    args: ok 3 $tmp/cores
    expect: all good
  test:
    suffix: b
    backends: none
    args: miss 0 $tmp/cores
    expect: all good
  test:
    suffix: c
    backends: none
    nsize: 2 1
    args: ok 0 $tmp/cores
    expect: threads=[0-9]+ np=[12]
  test:
    suffix: d
    backends: none
    args: err 1 $tmp/cores
    expect_error: PARSE ERROR
  test:
    suffix: e
    backends: none
    args: exit 0 $tmp/cores
    expect: all good
  test:
    suffix: f
    backends: none
    nsize: 1 2
    args: tmp 1 $tmp/cores @TMP@
    expect: tmp dir .*/[0-9]+\.tmp of my own
TEST*/
EOT
serial=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_CORES=4 bash "$HERE/run.sh" "$tmp/obj" -j 1 2>&1)
: > "$tmp/cores/sums"
par=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_CORES=4 bash "$HERE/run.sh" "$tmp/obj" -j 8 2>&1)
maxcores=$(sort -n "$tmp/cores/sums" | tail -n 1)
results() { echo "$1" | grep -E '^(ok|FAIL) ' | sed 's/:.*//' | sort; }
list=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_CORES=4 bash "$HERE/run.sh" "$tmp/obj" --list -j 2 2>&1)
list1=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_CORES=4 bash "$HERE/run.sh" "$tmp/obj" --list 2>&1)
over=$(EAS_TEST_ROOT="$tmp/root" EAS_TEST_CORES=4 EAS_TEST_THREADS=8 bash "$HERE/run.sh" "$tmp/obj" --filter 'par/c' -v 2>&1)
mine=$(OMP_WAIT_POLICY=active EAS_TEST_ROOT="$tmp/root" bash "$HERE/run.sh" "$tmp/obj" --filter 'par/c np=1' -v 2>&1)
why=""
echo "$over" | grep -q '| threads=8 np=1 wait=passive' || why="$why; OMP_WAIT_POLICY not passive by default"
echo "$mine" | grep -q '| threads=[0-9]* np=1 wait=active' || why="$why; the user's OMP_WAIT_POLICY not kept"
[ "$(results "$serial")" = "$(results "$par")" ] || why="$why; the ok/FAIL lines differ"
[ "$(echo "$serial" | sed -n '/^failed:/,$p')" = "$(echo "$par" | sed -n '/^failed:/,$p')" ] || why="$why; the failed list or the counts differ"
echo "$par" | tail -n 1 | grep -qx '7 passed, 2 failed' || why="$why; not '7 passed, 2 failed'"
[ "$(echo "$par" | grep -A1 '^FAIL   par/b ' | tail -n 1 | sed 's/:.*//')" = "       command" ] || why="$why; a report was split (FAIL not followed by its command)"
[ -n "$maxcores" ] && [ "$maxcores" -le 4 ] || why="$why; $maxcores cores asked for at once (4 there)"
[ -n "$maxcores" ] && [ "$maxcores" -ge 2 ] || why="$why; no two tests ran at once"
echo "$list" | grep -q '^par/a np=1 be=-  (OMP_NUM_THREADS=2)$' && echo "$list" | grep -q '^par/a np=2 be=-  (OMP_NUM_THREADS=1)$' || why="$why; -j 2 on 4 cores: threads not 2 (1 rank) and 1 (2 ranks)"
echo "$list1" | grep -q '^par/a np=1 be=-  (OMP_NUM_THREADS=4)$' && echo "$list1" | grep -q '^par/a np=2 be=-  (OMP_NUM_THREADS=2)$' || why="$why; -j 1 on 4 cores: threads not 4 and 2"
if [ -z "$why" ]; then
  echo "runner self-test: -j 8 gives the serial run's results, counts and failed list, whole reports, at most 4 of 4 cores at once (max $maxcores), threads CORES/(N x np), waiting OpenMP threads sleep (OMP_WAIT_POLICY passive unless set): ok"
else
  echo "runner self-test: FAILED: -j:${why#;}"
  echo "--- serial:"; echo "$serial" | sed 's/^/  | /'
  echo "--- -j 8:"; echo "$par" | sed 's/^/  | /'
  echo "--- cores asked for at each start:"; sed 's/^/  | /' "$tmp/cores/sums"
  exit 1
fi
