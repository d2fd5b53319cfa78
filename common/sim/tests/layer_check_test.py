#!/usr/bin/env python3
"""The layer check fails where it should: on a copy of the runtime with includes planted that run
up (a memory file that includes the scheduler's thread model, by the runtime's root and by a
path relative to itself), it exits 1 and names the file and line of each; on the copy before the
plants, it passes."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

SIM = pathlib.Path(__file__).resolve().parent.parent
CHECK = SIM / "tools" / "layer_check.py"


def run_check(runtime):
    return subprocess.run([sys.executable, str(CHECK), str(runtime)], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        runtime = pathlib.Path(tmp) / "runtime"
        shutil.copytree(SIM / "runtime", runtime)
        clean = run_check(runtime)
        if clean.returncode != 0:
            print("the unplanted copy fails:\n" + clean.stderr, file=sys.stderr)
            return 1
        planted = runtime / "memory" / "memory.cpp"
        lines = planted.read_text().splitlines()
        lines[1:1] = ['#include "threads/thread.hpp"', '#include "../threads/thread.hpp"']
        planted.write_text("\n".join(lines) + "\n")
        result = run_check(runtime)
        for expected in ("memory/memory.cpp:2: includes threads/thread.hpp",
                         "memory/memory.cpp:3: includes ../threads/thread.hpp"):
            if result.returncode != 1 or expected not in result.stderr:
                print(f"the planted upward include went unreported (exit {result.returncode}): {expected}\n"
                      f"{result.stderr}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
