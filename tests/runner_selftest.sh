#!/bin/bash
# Self-test of tests/run.sh: a test that hangs must fail, whatever its kind,
# even when its partial output matches what it expects; "requires:" with a
# feature and its negation (!FEATURE) runs or skips as documented.
#
#   bash tests/runner_selftest.sh OBJDIR
set -u
OBJDIR=${1:?usage: runner_selftest.sh OBJDIR}
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
