"""test_options_doc: docs/options.md is what tools/options-doc generates from
the drivers' real -help output (the options reference cannot go stale: an
option added, removed or changed without `make options-doc` fails here, with
the differing lines).

  test_options_doc.py --objdir OBJDIR --np 1
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdir", required=True)
    ap.add_argument("--np", type=int, default=1)
    a = ap.parse_args()
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "options-doc"), "--objdir", a.objdir, "--check", os.path.join(ROOT, "docs", "options.md")])
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())

r"""
/*TEST
  test:
    suffix: drift
    backends: none
    args:
    expect: docs/options.md matches the drivers' -help output \([0-9]+ option rows\)
TEST*/
"""
