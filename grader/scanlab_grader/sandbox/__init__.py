"""Where student code runs: every test program, compute-sanitizer rerun and build of a
submission's files starts here, in the strongest box this machine can make.

One interface, three strengths, chosen once per grade process (`choose`) and named in every
report:

- `namespaces`: bubblewrap (Debian's `bubblewrap`, the tool Flatpak runs applications in)
  gives the program its own mount, PID, IPC, network, UTS and user namespaces: the whole file
  system read-only but the folders it is given (a test program: its lab's log folder, with its
  scratch folder, TMPDIR, inside), no network but loopback, no capabilities, an unprivileged
  user id, and folders of other students hidden. Whatever
  the program starts dies with it: the kernel kills a PID namespace's processes when its
  first process ends.
- `separate user`: where no namespace can be made but the grader runs as root, the program
  runs as `nobody` in a session of its own: it can write only the folders it is given and
  what the world may write, but it can read what the world may read and it has the network.
- `symbol screen only`: neither; the program runs as the grader's user in a session of its
  own. What keeps lab code in line is the screen of its imported symbols (symbol_screen.py)
  before it runs.

In every box the time, memory, output and core-dump limits are the same, a timed-out program
is killed with all it started, and what it left running is stopped and named (leftovers.py
for the two weaker boxes, which have no namespace to do it).

The package: choice.py (the boxes and the choice of one), running.py (one program in its box),
leftovers.py (what a program of the weaker boxes left running), view.py (what of the file
system the namespace box shows a lab's build and runs), build_limits.py (the limits of a
build step that compiles student code, and their watch).
"""

from .choice import (NAMESPACES, SCREEN_ONLY, SEPARATE_USER, SHM_BYTES, UNPRIVILEGED_USER, Sandbox, SandboxError,
                     choose, current)
from .leftovers import Leftover, describe
from .running import OUTPUT_LIMIT_BYTES, Box, Rlimits
from .view import Scope

__all__ = ["NAMESPACES", "OUTPUT_LIMIT_BYTES", "SCREEN_ONLY", "SEPARATE_USER", "SHM_BYTES", "UNPRIVILEGED_USER",
           "Box", "Leftover", "Rlimits", "Sandbox", "SandboxError", "Scope", "choose", "current", "describe", "grading",
           "run_build"]


def grading(scope: Scope) -> None:
    """What the builds and runs that follow are for (one lab): what of the file system they see."""
    current().scope = scope


def run_build(cmd, *, cwd, writable=(), timeout):
    """A build step in the box chosen for this process (scanlab_build's RunBuild)."""
    return current().run(cmd, cwd=cwd, writable=writable, timeout=timeout)
