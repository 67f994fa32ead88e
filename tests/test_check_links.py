"""test_check_links: tools/check-links, the check `make check` runs before
the suite, fails on a broken link and passes the clean tree (a control: a
check that cannot fail proves nothing).  On a temporary copy of the
repository (without the build trees and .git), each case plants one broken
link, or removes a link's target, and the check must fail with a line
naming the file, the line and the link; a link inside code must not be
checked, so planting one there must leave the check passing.

  test_check_links.py --objdir OBJDIR --np 1 [--case NAME]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def copy_tree(dst, objdir):
    skip = {"build", os.path.basename(os.path.normpath(objdir))}

    def ignore(d, names):
        top = os.path.abspath(d) == ROOT
        return [n for n in names if n.startswith(".") or (top and (n in skip or n.startswith("build")))]

    shutil.copytree(ROOT, dst, ignore=ignore)


def run(root):
    p = subprocess.run([sys.executable, os.path.join(root, "tools", "check-links"), "--root", root], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def edit(root, rel, old, new):
    path = os.path.join(root, rel)
    text = open(path, encoding="utf-8").read()
    if old not in text:
        sys.exit(f"test_check_links: {rel} has no {old!r} to plant the link at (the tree changed: update the test)")
    open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))


# name: (action, the line the check must print, or None where it must pass)
CASES = {
    # a document that does not exist (what docs/README.md's gpu.md was)
    "file": (lambda r: edit(r, "docs/README.md", "| [design.md](design.md) |", "| [gpu.md](gpu.md) |"),
             r"^docs/README\.md:[0-9]+: broken link gpu\.md: no file docs/gpu\.md"),
    # an anchor that is no heading of its target
    "anchor": (lambda r: edit(r, "README.md", "(docs/backends.md#the-cuda-module)", "(docs/backends.md#the-cuda-modules)"),
               r"^README\.md:[0-9]+: broken link docs/backends\.md#the-cuda-modules: no anchor #the-cuda-modules in docs/backends\.md"),
    # an anchor within the same file
    "self": (lambda r: edit(r, "docs/design.md", "## Decisions\n", "## Decisions\n\nSee [the limits](#limit).\n"),
             r"^docs/design\.md:[0-9]+: broken link #limit: no anchor #limit in docs/design\.md"),
    # the README's figure is missing: `make plots` was not run, or its PNG not committed
    "image": (lambda r: os.remove(os.path.join(r, "docs", "img", "split.png")),
              r"^README\.md:[0-9]+: broken link docs/img/split\.png: no file docs/img/split\.png"),
    # links in code are examples, not links: the check must still pass
    "code": (lambda r: edit(r, "docs/README.md", "# eas documentation\n",
                            "# eas documentation\n\n```\n[a](nowhere.md)\n```\n\nWrite `[b](nowhere.md#x)` for a link.\n"),
             None),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--case", default="all")
    a = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="eas_check_links_") as tmp:
        clean = os.path.join(tmp, "clean")
        copy_tree(clean, a.objdir)
        rc, out = run(clean)
        if rc != 0:
            print(out)
            print("FAIL clean tree: check-links exit %d" % rc)
            return 1
        print("clean tree: exit 0: " + out.strip().split("\n")[-1])
        for name, (plant, want) in CASES.items():
            if a.case not in ("all", name):
                continue
            root = os.path.join(tmp, name)
            shutil.copytree(clean, root)
            plant(root)
            rc, out = run(root)
            lines = out.strip().split("\n")
            if want is None:
                if rc == 0:
                    print(f"planted {name}: exit 0: {lines[-1]}")
                else:
                    failed += 1
                    print(f"FAIL planted {name}: exit {rc}, expected 0; output:\n{out}")
                continue
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
    expect: ^clean tree: exit 0: check-links: [0-9]+ links in [0-9]+ files resolve
    expect: ^planted file: exit 1: docs/README\.md:[0-9]+: broken link gpu\.md: no file docs/gpu\.md
    expect: ^planted anchor: exit 1: README\.md:[0-9]+: broken link docs/backends\.md#the-cuda-modules: no anchor
    expect: ^planted self: exit 1: docs/design\.md:[0-9]+: broken link #limit: no anchor #limit in docs/design\.md
    expect: ^planted image: exit 1: README\.md:[0-9]+: broken link docs/img/split\.png: no file
    expect: ^planted code: exit 0: check-links: [0-9]+ links in [0-9]+ files resolve
TEST*/
"""
