#!/usr/bin/env python3
"""Checks that the simulator's runtime includes only downward.

The runtime is a folder per layer; runtime/LAYERS lists the layers bottom to top. A file may
include a file of its own layer or of a lower one. Every `#include "..."` that names a runtime
file of a higher layer is reported as file:line, and the exit status is 1.

    layer_check.py [RUNTIME_DIR]      (default: the runtime beside this tool)
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def read_layers(runtime):
    """The layer names of runtime/LAYERS, bottom first; text after '#' is a comment."""
    names = []
    for line in (runtime / "LAYERS").read_text().splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.append(name)
    return names


def layer_of(runtime, including, included):
    """The layer of the runtime file that `#include "included"` in `including` names, found as
    the compiler finds it (beside the including file first, then from the runtime's root);
    None where it names no runtime file."""
    for base in (including.parent, runtime):
        candidate = (base / included).resolve()
        if candidate.is_file():
            try:
                return candidate.relative_to(runtime.resolve()).parts[0]
            except ValueError:
                return None
    return None


def problems(runtime):
    """What keeps the runtime from being layered: upward includes, files outside any layer."""
    layers = read_layers(runtime)
    rank = {name: i for i, name in enumerate(layers)}
    found = []
    for path in sorted(runtime.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h", ".cc"):
            continue
        relative = path.relative_to(runtime)
        layer = relative.parts[0]
        if layer not in rank:
            found.append(f"{relative}: not in a layer (runtime/LAYERS names: {', '.join(layers)})")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            included = match.group(1)
            target = layer_of(runtime, path, included)
            if target is None:
                continue  # not a runtime file: the public headers (scanlab/sim/...), the library
            if rank[target] > rank[layer]:
                found.append(f"{relative}:{number}: includes {included}, but layer '{target}' stands above "
                             f"layer '{layer}' (runtime/LAYERS)")
    return found


def main(argv):
    if len(argv) > 1 and argv[1].startswith("-"):
        print(__doc__.strip())
        return 0 if argv[1] in ("-h", "--help") else 2
    runtime = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent / "runtime"
    found = problems(runtime)
    for problem in found:
        print(f"layer_check: {runtime.name}/{problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
