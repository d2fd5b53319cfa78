"""Paths arrive right: the build writes the student's paths into the test program itself.

The grader stages a submission under its build root (build/grade/submissions/NAME-DIGEST/
NN-name/file.cu) and the simulator compiles a rewritten copy of it (BUILD/.../scanlab_sim/TAG/
file.cu.cpp); nothing downstream rewrites a path (scanlab_findings/records.py takes the records' paths as they
are). So the program must already name `NN-name/file.cu` and the kit's `common/...`: in its
debug information, which the simulator's reports and addr2line read, and in __FILE__. This test
builds a small program with the grader's own CMake function (grader/cmake/LabTests.cmake,
scanlab_write_student_paths), laid out the way the grader lays out a build (staging copy and
build tree inside the kit, a rewritten copy with a #line back to the staging copy), with each
build tool there is, and fails if any folder of the machine shows in what the student reads."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import call_sites, grading  # noqa: E402
from scanlab_findings import records as findings  # noqa: E402

KIT = HERE.parents[1]
LAB = "02-lab"
KIT_HEADER = """#pragma once
inline int combine(const int* a, int i) {
    return a[i] + a[i + 1];  // line 3
}
"""
STUDENT = """#include "op.hpp"
#include <cstdio>
static int helper(int* x) {
    return combine(x, 0);  // line 4: the kit's line reached from here
}
int student_main(int* x) {
    std::puts(__FILE__);
    return helper(x);
}
"""
MAIN = """int student_main(int* x);
int main(int argc, char**) {
    int x[3] = {argc, 2, 3};
    return student_main(x) == argc + 2 ? 0 : 1;
}
"""


def build_tools() -> list[str]:
    return [g for g, tool in (("Ninja", "ninja"), ("Unix Makefiles", "make")) if shutil.which(tool)]


@unittest.skipUnless(shutil.which("cmake") and shutil.which("g++") and shutil.which("addr2line") and build_tools(),
                     "needs cmake, g++, binutils and a build tool")
class StudentPathsTest(unittest.TestCase):
    def build(self, root: Path, generator: str) -> Path:
        kit = root / "kit"
        (kit / "common").mkdir(parents=True)
        (kit / "common" / "op.hpp").write_text(KIT_HEADER)
        staged = kit / "build" / "grade" / "submissions" / "stu-0123abcd"
        (staged / LAB).mkdir(parents=True)
        (staged / LAB / "student.cu").write_text(STUDENT)
        (kit / "main.cpp").write_text(MAIN)
        # The simulator's rewrite of the lab file: the same lines under a #line that names the
        # staging copy (common/sim/tools/cu_rewrite.py), in the build tree.
        (kit / "CMakeLists.txt").write_text(f"""
cmake_minimum_required(VERSION 3.24)
project(paths LANGUAGES CXX)
set(SCANLAB_BACKEND sim)
set(SCANLAB_SUBMISSION_DIR "{staged}")
set(SCANLAB_EARLIER_LABS_DIR "${{PROJECT_SOURCE_DIR}}/solutions")
include("{KIT / 'grader' / 'cmake' / 'LabTests.cmake'}")
set(rewritten "${{CMAKE_CURRENT_BINARY_DIR}}/scanlab_sim/0badc0de/student.cu.cpp")
file(READ "{staged / LAB / 'student.cu'}" body)
file(WRITE "${{rewritten}}" "#include <cstddef>\\n#line 1 \\"{staged / LAB / 'student.cu'}\\"\\n${{body}}")
add_executable(program main.cpp "${{rewritten}}")
target_include_directories(program PRIVATE "{staged / LAB}" "${{PROJECT_SOURCE_DIR}}/common")
target_compile_options(program PRIVATE -O1)
scanlab_write_student_paths(program REWRITTEN "${{rewritten}}|{LAB}")
""")
        tree = kit / "build" / "grade" / "sim-stu-0123abcd"  # inside the kit, as the default build root is
        for cmd in (["cmake", "-S", str(kit), "-B", str(tree), "-G", generator],
                    ["cmake", "--build", str(tree), "-j", "1"]):
            done = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        return tree / "program"

    def check_program(self, root: Path, program: Path) -> None:
        # No folder of the machine that built it anywhere in the program.
        self.assertNotIn(str(root).encode(), program.read_bytes())
        printed = subprocess.run([str(program)], capture_output=True, text=True)
        self.assertEqual(printed.returncode, 0)
        self.assertEqual(printed.stdout.strip(), f"{LAB}/student.cu")
        # Every line the debug information has is a file of the student's or of the kit's, from
        # its folder on, and addr2line (what the simulator and call_sites.py ask) says so too.
        lines = subprocess.run(["readelf", "--debug-dump=decodedline", str(program)], capture_output=True,
                               text=True).stdout
        addresses = re.findall(r"^(?:student\.cu|op\.hpp)\s+\d+\s+(0x[0-9a-f]+)", lines, re.M)
        self.assertTrue(addresses, lines[:2000])
        named = subprocess.run(["addr2line", "-i", "-e", str(program)] + addresses, capture_output=True,
                               text=True).stdout.split()
        files = {n.rsplit(":", 1)[0] for n in named}
        self.assertLessEqual(files, {f"{LAB}/student.cu", "common/op.hpp"}, named)
        # The student's line behind the kit's, as a finding in kit code is attributed.
        sites = call_sites.CallSites(program, LAB, None)
        callers = sites.callers(findings.Place("read", "common/op.hpp", 3), [])
        self.assertEqual([c.where for c in callers], [f"{LAB}/student.cu:4"])

    def test_every_build_tool_writes_the_students_paths(self):
        for generator in build_tools():
            with self.subTest(generator=generator), tempfile.TemporaryDirectory() as tmp:
                root = Path(os.path.realpath(tmp))
                self.check_program(root, self.build(root, generator))


class SanitizerPathsTest(unittest.TestCase):
    """nvcc maps no path in device code's line information, so compute-sanitizer names the staging
    copy; its report is written with the folders the build compiled from taken off."""

    def test_the_report_names_the_students_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            kit = Path(tmp) / "kit"
            staged = kit / "build" / "grade" / "submissions" / "stu-0123abcd"
            log = Path(tmp) / "racecheck.log"
            log.write_text("========= COMPUTE-SANITIZER\n"
                           "========= Error: Race reported between Write access at k(int*)+0x90\n"
                           f"=========     in {staged}/{LAB}/student.cu:57\n"
                           f"=========     and Read access at {kit}/common/include/scanlab/operators.hpp:21\n")
            report = "\n".join(grading._sanitizer_report(log, [staged, kit / "solutions", kit]))
            self.assertIn(f"in {LAB}/student.cu:57", report)
            self.assertIn("at common/include/scanlab/operators.hpp:21", report)
            self.assertNotIn(tmp, report)


if __name__ == "__main__":
    unittest.main()
