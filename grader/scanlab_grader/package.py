"""grader/package gradescope OUT.zip: the autograder zip Gradescope asks for.

Its top holds setup.sh and run_autograder (grader/platforms/gradescope/) beside the kit as
git tracks it, reference solutions and hidden checks included (the earlier labs a lab builds
on are graded against the references; the zip stays with the instructor), the kit's own
self-tests and CI left out. Gradescope unpacks it to /autograder/source, runs setup.sh once
when it builds the image and run_autograder for every submission."""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from .release import ReleaseError, tracked_files
from .paths import REPO

LEFT_OUT = ("grader/selftest/", ".ci/", "build/")
ENTRY_POINTS = {"setup.sh": "grader/platforms/gradescope/setup.sh",
                "run_autograder": "grader/platforms/gradescope/run_autograder"}


def gradescope_zip(repo: Path, out: Path) -> int:
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, source in ENTRY_POINTS.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16  # executable once unpacked
            z.writestr(info, (repo / source).read_bytes())
            count += 1
        for rel in tracked_files(repo):
            path = repo / rel
            if rel.startswith(LEFT_OUT) or not path.is_file():
                continue
            z.write(path, rel)
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="package", description=__doc__.split("\n\n")[0])
    p.add_argument("platform", choices=("gradescope",))
    p.add_argument("out", help="the zip to write")
    args = p.parse_args(argv)
    try:
        count = gradescope_zip(REPO, Path(args.out))
    except ReleaseError as e:
        print(f"package: {e}", file=sys.stderr)
        return 2
    print(f"package: wrote {args.out} ({count} files)")
    return 0
