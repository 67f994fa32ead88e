"""test_check_layers: tools/check-layers, the check `make check` runs before
the suite, fails on an edge going up and passes the clean tree (a control:
a check that cannot fail proves nothing).  On a temporary copy of src/,
include/, docs/design.md and the tool, each case plants one upward edge and
must make the check fail with a line naming the file, the line and both
layers; the table of docs/design.md is the only source of the allowed
edges, so removing an edge from it must make a real include fail too.

  test_check_layers.py --objdir OBJDIR --np 1 [--case NAME]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def copy_tree(dst):
    for d in ("src", "include", "tools"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(dst, d))
    os.makedirs(os.path.join(dst, "docs"))
    shutil.copy(os.path.join(ROOT, "docs", "design.md"), os.path.join(dst, "docs", "design.md"))


def run(root):
    p = subprocess.run([sys.executable, os.path.join(root, "tools", "check-layers"), "--root", root], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def edit(root, rel, old, new):
    path = os.path.join(root, rel)
    text = open(path, encoding="utf-8").read()
    if old not in text:
        sys.exit(f"test_check_layers: {rel} has no {old!r} to plant the edge at (the tree changed: update the test)")
    open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))


# name: (file, text to find, replacement, the violation line the check must print)
CASES = {
    # core includes a private header of the policies
    "include": ("src/core/hook.c", '#include "hook.h"\n', '#include "hook.h"\n#include "../policy/policyimpl.h"\n',
                r"^src/core/hook\.c:[0-9]+: layer core includes src/policy/policyimpl\.h of layer policy"),
    # the backends include the umbrella header, which would make every upward call compile
    "umbrella": ("src/backends/backend.h", "#include <eas/backend.h>\n", "#include <eas.h>\n",
                 r"^src/backends/backend\.h:[0-9]+: layer backends includes include/eas\.h of layer init"),
    # the vectors call the ADR solver (declared by hand: the compiler would accept it)
    "call": ("src/vec/vec.c", '#include "vecimpl.h"\n',
             '#include "vecimpl.h"\nPetscErrorCode EasAdrSetUp(void *);\nPetscErrorCode EasVecPlanted(void *a) { return EasAdrSetUp(a); }\n',
             r"^src/vec/vec\.c:[0-9]+: layer vec uses EasAdrSetUp, defined in layer solvers"),
    # the registry names the policies' resolver instead of having it registered
    "pointer": ("src/backends/registry.c", "#include <omp.h>\n",
                "#include <omp.h>\nextern int EasPolicyInitializePackage(void);\nstatic void *eas_planted = (void *)EasPolicyInitializePackage;\n",
                r"^src/backends/registry\.c:[0-9]+: layer backends uses EasPolicyInitializePackage, defined in layer policy"),
    # the table is the source of truth: without the edge solvers -> comm, the ADR solver's real include fails
    "table": ("docs/design.md", "| core, backends, vec, comm, energy, mat |", "| core, backends, vec, energy, mat |",
              r"^src/solvers/adrimpl\.h:[0-9]+: layer solvers includes src/comm/commimpl\.h of layer comm"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--case", default="all")
    a = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="eas_check_layers_") as tmp:
        clean = os.path.join(tmp, "clean")
        copy_tree(clean)
        rc, out = run(clean)
        if rc != 0:
            print(out)
            print("FAIL clean tree: check-layers exit %d" % rc)
            return 1
        print("clean tree: exit 0: " + out.strip().split("\n")[-1])
        for name, (rel, old, new, want) in CASES.items():
            if a.case not in ("all", name):
                continue
            root = os.path.join(tmp, name)
            copy_tree(root)
            edit(root, rel, old, new)
            rc, out = run(root)
            lines = out.strip().split("\n")
            hit = [l for l in lines if re.search(want, l)]
            if rc == 1 and hit:
                print(f"planted {name}: exit 1: {hit[0]}")
            else:
                failed += 1
                print(f"FAIL planted {name}: exit {rc}, expected 1 with a line /{want}/; output:\n{out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: control
    backends: none
    args:
    expect: ^clean tree: exit 0: check-layers: [0-9]+ files in [0-9]+ layers
    expect: ^planted include: exit 1: src/core/hook\.c:[0-9]+: layer core includes src/policy/policyimpl\.h of layer policy
    expect: ^planted umbrella: exit 1: src/backends/backend\.h:[0-9]+: layer backends includes include/eas\.h of layer init
    expect: ^planted call: exit 1: src/vec/vec\.c:[0-9]+: layer vec uses EasAdrSetUp, defined in layer solvers
    expect: ^planted pointer: exit 1: src/backends/registry\.c:[0-9]+: layer backends uses EasPolicyInitializePackage, defined in layer policy
    expect: ^planted table: exit 1: src/solvers/adrimpl\.h:[0-9]+: layer solvers includes src/comm/commimpl\.h of layer comm
TEST*/
"""
