#!/usr/bin/env python3
"""The runtime keeps its own copies of inline functions (tools/runtime_object.py).

First on a planted pair: an inline function that the "runtime" and the "program" both define,
each its own way (a deliberate ODR violation, so that the copy called can be seen). Archived as
is, the program's copy, linked first, is the one both call; through runtime_object.py each calls
its own. Then on the built runtime: it defines no weak function that a program's copy could
replace, and it has its own copies of library code.

    runtime_object_test.py LIBSCANLAB_SIM.A
"""
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = HERE.parent / "tools" / "runtime_object.py"
LIBRARY = Path(sys.argv.pop(1)) if len(sys.argv) > 1 else None

SHARED = "__attribute__((noinline)) inline int which() { return WHICH; }\n"
RUNTIME = '#include "shared.hpp"\nint runtime_which() { return which(); }\n'
PROGRAM = '#include "shared.hpp"\nint runtime_which();\nint main() { return which() * 10 + runtime_which(); }\n'


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, check=True)


class PlantedPair(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="runtime-object-"))
        self.addCleanup(shutil.rmtree, self.dir)
        for name, text in (("shared.hpp", SHARED), ("runtime.cpp", RUNTIME), ("program.cpp", PROGRAM)):
            (self.dir / name).write_text(text)
        run(["c++", "-O1", "-DWHICH=1", "-c", str(self.dir / "runtime.cpp"), "-o", str(self.dir / "runtime.o")])
        run(["c++", "-O1", "-DWHICH=2", "-c", str(self.dir / "program.cpp"), "-o", str(self.dir / "program.o")])

    def exit_status(self, runtime_object: Path) -> int:
        library = self.dir / "libruntime.a"
        library.unlink(missing_ok=True)
        run(["ar", "rcs", str(library), str(runtime_object)])
        program = self.dir / "program"
        run(["c++", str(self.dir / "program.o"), str(library), "-o", str(program)])
        return subprocess.run([str(program)]).returncode

    def test_archived_as_is_the_runtime_calls_the_programs_copy(self):
        self.assertEqual(self.exit_status(self.dir / "runtime.o"), 22)

    def test_through_the_tool_each_calls_its_own(self):
        combined = self.dir / "combined.o"
        run([sys.executable, str(TOOL), "-o", str(combined), str(self.dir / "runtime.o")])
        self.assertEqual(self.exit_status(combined), 21)


@unittest.skipIf(LIBRARY is None, "no runtime library named")
class BuiltRuntime(unittest.TestCase):
    def symbols(self) -> list[tuple[str, str]]:
        out = run(["nm", "--defined-only", "--format=posix", str(LIBRARY)]).stdout
        return [(f[0], f[1]) for f in (line.split() for line in out.splitlines()) if len(f) >= 2]

    def test_no_weak_function_and_its_own_library_code(self):
        symbols = self.symbols()
        self.assertEqual([name for name, kind in symbols if kind == "W"], [])
        own = [name for name, kind in symbols if kind == "t" and name.startswith("_ZNSt7__cxx11")]
        self.assertTrue(own, "the runtime has no local copy of any std::__cxx11 function")


if __name__ == "__main__":
    unittest.main()
