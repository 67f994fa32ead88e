"""test_api_doc: the public API is documented and its reference current.

  test_api_doc.py --objdir OBJDIR --np 1 -case drift|lint|control|deprecated

drift:      docs/api.md is what tools/gen-api generates from the public
            headers (a doc comment or a declaration changed without
            `make api-doc` fails here, with the differing lines).
lint:       every public function (PETSC_EXTERN in include/) has a doc comment
            whose head names it (tools/gen-api --lint, which make check also
            runs before the suite).
control:    the two checks above can fail: on a temporary copy of include/
            and docs/, a doc comment removed makes --lint fail naming the
            function and its line; a comment left behind by a rename (its head
            naming a function no longer declared) fails too; a changed comment
            makes --check fail on the copy's docs/api.md; a new function with
            its comment is listed by the generator; the clean copy passes both.
deprecated: the names kept for one release (deprecated macros of the
            headers) still compile, each to its new function, with a
            deprecation warning naming the new name (the compiler and
            PETSc's flags, as a program uses them: mpicc, pkg-config PETSc).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "tools", "gen-api")


def gen(root, *args):
    p = subprocess.run([sys.executable, GEN, "--root", root] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def copy_tree(dst):
    shutil.copytree(os.path.join(ROOT, "include"), os.path.join(dst, "include"))
    os.makedirs(os.path.join(dst, "docs"))
    shutil.copy(os.path.join(ROOT, "docs", "design.md"), os.path.join(dst, "docs"))
    rc, out = gen(dst)
    assert rc == 0, out
    with open(os.path.join(dst, "docs", "api.md"), "w") as f:
        f.write(out)


def edit(path, old, new):
    with open(path) as f:
        s = f.read()
    if old not in s:
        sys.exit(f"test_api_doc: control: '{old}' not found in {path}: the test needs updating")
    with open(path, "w") as f:
        f.write(s.replace(old, new, 1))


def last(out):
    return out.strip().splitlines()[-1] if out.strip() else ""


def control():
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        clean = os.path.join(tmp, "clean")
        copy_tree(clean)
        rc1, out1 = gen(clean, "--lint")
        rc2, out2 = gen(clean, "--check", os.path.join(clean, "docs", "api.md"))
        print(f"clean copy: lint exit {rc1}, check exit {rc2}: {last(out1)}")
        ok &= rc1 == 0 and rc2 == 0

        # a doc comment removed; a function renamed under its comment
        dia = os.path.join("include", "eas", "dia.h")
        for label, old, new, want in [
            ("removed comment", "/* EasDiaMult - y <- A x.  Errors: sizes or backends that do not match. */\n", "", ["EasDiaMult:"]),
            ("renamed function", "PETSC_EXTERN PetscErrorCode EasDiaMult(", "PETSC_EXTERN PetscErrorCode EasDiaMultiply(", ["names EasDiaMult,", "EasDiaMultiply:"]),
        ]:
            t = os.path.join(tmp, label.replace(" ", "_"))
            copy_tree(t)
            edit(os.path.join(t, dia), old, new)
            rc, out = gen(t, "--lint")
            hits = [[ln for ln in out.splitlines() if w in ln] for w in want]
            print(f"{label}: lint exit {rc}: {hits[0][0] if hits[0] else last(out)}")
            ok &= rc == 1 and all(hits)

        # a comment changed, docs/api.md not regenerated
        t = os.path.join(tmp, "stale")
        copy_tree(t)
        edit(os.path.join(t, "include", "eas", "vec.h"), "the number of local entries.", "the number of local entries (changed).")
        rc, out = gen(t, "--check", os.path.join(t, "docs", "api.md"))
        print(f"changed comment: check exit {rc}: {last(out)}")
        ok &= rc == 1 and "(changed)" in out

        # a new function with its comment (another change adding API): listed
        t = os.path.join(tmp, "added")
        copy_tree(t)
        edit(os.path.join(t, "include", "eas", "vec.h"), "/* EasVecSet - ", "/* EasVecScale - x <- a x. */\nPETSC_EXTERN PetscErrorCode EasVecScale(EasVec, PetscScalar);\n/* EasVecSet - ")
        rc1, out1 = gen(t, "--lint")
        rc2, out2 = gen(t)
        listed = "### EasVecScale" in out2 and "PetscErrorCode EasVecScale(EasVec, PetscScalar);" in out2
        print(f"added function: lint exit {rc1}, listed {listed}")
        ok &= rc1 == 0 and listed
    return ok


DEPRECATED_SRC = r"""
#include <eas.h>
PetscErrorCode use(EasAdr adr)
{
  PetscBool   ew;
  PetscInt    v;
  PetscReal   E, t[2] = {0, 1}, P[2] = {1, 1};
  const char *c = EasCriteria[EAS_CRITERION_EDP];
  (void)c;
  PetscCall(EasAdrSetKSPEW(adr, PETSC_TRUE));
  PetscCall(EasAdrGetKSPEW(adr, &ew));
  PetscCall(EasAdrSetKSPEWParameters(adr, 2, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EasAdrGetKSPEWParameters(adr, &v, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(EasTrapezoid(2, t, P, &E));
  return 0;
}
"""
RENAMES = [("EasAdrSetKSPEW", "EasAdrSetKspEW"), ("EasAdrGetKSPEW", "EasAdrGetKspEW"), ("EasAdrSetKSPEWParameters", "EasAdrSetKspEWParameters"), ("EasAdrGetKSPEWParameters", "EasAdrGetKspEWParameters"), ("EasTrapezoid", "EasEnergyTrapezoid"), ("EasCriteria", "EasCriterions")]


def deprecated():
    cflags = subprocess.run(["pkg-config", "--cflags", "PETSc"], stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    cc = [os.environ.get("MPICC", "mpicc"), "-I" + os.path.join(ROOT, "include")] + cflags
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "old_names.c")
        with open(src, "w") as f:
            f.write(DEPRECATED_SRC)
        p = subprocess.run(cc + ["-fsyntax-only", src], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(f"old names compile: exit {p.returncode}")
        ok &= p.returncode == 0
        if p.returncode:
            print(p.stdout)
        e = subprocess.run(cc + ["-E", "-P", src], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        body = e[e.rfind("PetscErrorCode use(") :]
        for old, new in RENAMES:
            warned = re.search(r"warning: Use " + re.escape(new) + r"(\(\))? \(deprecated since 0\.2; removed in 0\.3\)", p.stdout) is not None
            calls_new = re.search(r"\b" + new + r"\b", body) is not None and re.search(r"\b" + old + r"\b", body) is None
            print(f"{old}: warns to use {new}: {warned}; expands to {new}: {calls_new}")
            ok &= warned and calls_new
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("-case", required=True, choices=["drift", "lint", "control", "deprecated"])
    a = ap.parse_args()
    if a.case == "drift":
        rc, out = gen(ROOT, "--check", os.path.join(ROOT, "docs", "api.md"))
        print(out, end="")
        return rc
    if a.case == "lint":
        rc, out = gen(ROOT, "--lint")
        print(out, end="")
        return rc
    ok = control() if a.case == "control" else deprecated()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: drift
    backends: none
    args: -case drift
    expect: docs/api.md matches the public headers' doc comments \([0-9]+ entries\)
  test:
    suffix: lint
    backends: none
    args: -case lint
    expect: ^gen-api --lint: every one of the [0-9]+ public functions has a doc comment
  test:
    suffix: control
    backends: none
    args: -case control
    expect: ^clean copy: lint exit 0, check exit 0
    expect: ^removed comment: lint exit 1: include/eas/dia\.h:[0-9]+: EasDiaMult: no doc comment
    expect: ^renamed function: lint exit 1: include/eas/dia\.h:[0-9]+: the doc comment names EasDiaMult, which is not declared under it
    expect: ^changed comment: check exit 1: .*api\.md is stale: run `make api-doc`
    expect: ^added function: lint exit 0, listed True
    expect: ^PASS
  test:
    suffix: deprecated
    backends: none
    requires: petsc-dev
    args: -case deprecated
    expect: ^old names compile: exit 0
    expect_count: 6 : warns to use [A-Za-z]+: True; expands to [A-Za-z]+: True
    expect: ^PASS
TEST*/
"""
