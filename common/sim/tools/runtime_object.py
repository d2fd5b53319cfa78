#!/usr/bin/env python3
"""Link the simulator runtime's objects into one object that calls only its own library code.

Lab code is compiled with -fsanitize=thread, the runtime without it, and both instantiate the
same inline functions of the C++ library and of the simulator's headers (std::string's operator+,
std::to_string, dim3's constructors). Each such instantiation is a weak symbol in a COMDAT group,
and the linker keeps the first copy it meets: the instrumented one of lab code, which comes first
on the link line. The runtime would then call instrumented code on a CUDA thread's stack, in the
middle of its own work (a race report built under a lock of the race detector), and the hook
would take the runtime's accesses for the program's: a plain access after a strong one gives the
processor back, and the fiber that holds the lock sleeps while the next one waits for it.

So the runtime's objects are linked into one relocatable object (`ld -r`), its COMDAT groups are
dissolved, and each weak function it defines becomes local to it: the runtime keeps its own
uninstrumented copies, and lab code keeps its instrumented ones. Weak data (typeinfo, vtables,
static locals of inline functions) stays shared, so that one object has one address.

    runtime_object.py --ld LD --nm NM --objcopy OBJCOPY -o OUT.o OBJECT...
"""
import argparse
import subprocess
import sys
from pathlib import Path


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"runtime_object.py: {' '.join(cmd[:2])}... failed:\n{done.stderr}")
    return done.stdout


def defined_symbols(nm: str, obj: Path, kind: str) -> list[str]:
    """The symbols obj defines of nm's type `kind`."""
    names = []
    for line in run([nm, "--defined-only", "--format=posix", str(obj)]).splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[1] == kind:
            names.append(fields[0])
    return names


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ld", default="ld")
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--objcopy", default="objcopy")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("objects", nargs="+", type=Path)
    args = parser.parse_args(argv)
    linked = args.output.with_name(args.output.name + ".linked")
    run([args.ld, "-r", "-o", str(linked)] + [str(o) for o in args.objects])
    # Weak functions (nm's W) become local. Unique data (u: the static locals of inline functions)
    # relied on its group to be merged, and is made weak, as the rest of weak data (V) is.
    # (objcopy fails on an empty list, so an empty one is not passed.)
    lists = []
    for option, kind, suffix in (("--localize-symbols", "W", ".local"), ("--weaken-symbols", "u", ".weak")):
        names = defined_symbols(args.nm, linked, kind)
        if names:
            path = args.output.with_name(args.output.name + suffix)
            path.write_text("".join(name + "\n" for name in names))
            lists.append((option, path))
    partial = args.output.with_name(args.output.name + ".partial")
    # Without its group, a section of an inline function is an ordinary one, which the final link
    # keeps beside lab code's copy instead of choosing between them.
    run([args.objcopy, "--remove-section=.group"] + [f"{option}={path}" for option, path in lists] +
        [str(linked), str(partial)])
    partial.replace(args.output)
    linked.unlink()
    for _, path in lists:
        path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
