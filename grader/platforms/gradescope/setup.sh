#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: the kit lies in
# /autograder/source (the zip that `grader/platforms/package gradescope` writes). It installs
# the Debian/Ubuntu packages the kit needs (common/setup/debian-packages.txt) and builds the
# simulator runtime and the lab suites once (grade --prepare), so that each submission builds
# only its own files. Ask for a container of 1 GB of memory: grading peaks at about 350 MiB
# (grader/README.md, "What grading needs").
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
cd "$root/source"
apt-get update -qq || true
common/bin/prerequisites grade
# What every submission's build reuses (the simulator runtime, the harness, the labs' tests),
# built into the image once: each submission then compiles only its own lab files.
grader/grade --prepare --build-root "$root/build" --color never ${SCANLAB_LABS:-}
# The reference solutions graded once: the image grades.
grader/grade --submission solutions --build-root "$root/build" --color never ${SCANLAB_LABS:-all} >/dev/null || true
