#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: the kit lies in
# /autograder/source (the zip that `grader/platforms/package gradescope` writes). It installs
# the Debian/Ubuntu packages the kit needs (common/setup/debian-packages.txt) and builds the
# simulator runtime and the lab suites once, so that each submission builds only its own files.
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
cd "$root/source"
apt-get update -qq || true
common/bin/prerequisites grade
# Grading the reference solutions builds everything that is not student code.
grader/grade --submission solutions --build-root "$root/build" --color never ${SCANLAB_LABS:-all} >/dev/null || true
