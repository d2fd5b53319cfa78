"""The sandbox's interface in each box this machine can make, the command line a batch hands
each student, and what a worker's folder keeps of one student for the next (grader/README.md,
"The sandbox" and "Batch grading")."""

import ast
import shutil
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_build import tree as build_tree  # noqa: E402
from scanlab_grader import batch, build_failures, options, sandbox  # noqa: E402
from scanlab_grader.sandbox import build_limits  # noqa: E402
from scanlab_grader.paths import REPO  # noqa: E402

PACKAGE = HERE.parent / "scanlab_grader"


def boxes() -> dict[str, sandbox.Sandbox]:
    """Every box this machine can make, by its --sandbox name."""
    found = {}
    for name in ("namespaces", "user", "none"):
        try:
            found[name] = sandbox.choose(REPO, name, reach=(Path(tempfile.gettempdir()),))
        except sandbox.SandboxError as e:
            print(f"\n  --sandbox {name}: not on this machine ({e})", file=sys.stderr)
    return found


class SandboxTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.boxes = boxes()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.scratch = Path(self.tmp.name) / "scratch"
        self.scratch.mkdir()
        Path(self.tmp.name).chmod(0o755)  # a separate user must reach it

    def tearDown(self):
        self.tmp.cleanup()

    def start(self, box: sandbox.Sandbox, script: str) -> sandbox.Box:
        log = open(Path(self.tmp.name) / "log", "ab")
        self.addCleanup(log.close)
        return box.spawn(["/bin/sh", "-c", script], cwd=self.scratch, env=dict(os.environ), stdout=log,
                         writable=(self.scratch,), scratch=self.scratch)

    def finish(self, running: sandbox.Box, timeout: float = 20) -> tuple[int, list]:
        deadline = time.monotonic() + timeout
        while running.poll() is None:
            self.assertLess(time.monotonic(), deadline, "the program did not end")
            time.sleep(0.01)
        left = running.leftovers()
        return running.wait(), left

    def test_none_is_always_there(self):
        self.assertIn("none", self.boxes)

    def test_exit_status_and_signals_come_back_as_the_program_gave_them(self):
        for name, box in self.boxes.items():
            with self.subTest(name):
                self.assertEqual(self.finish(self.start(box, "exit 3"))[0], 3)
                self.assertEqual(self.finish(self.start(box, "kill -SEGV $$"))[0], -11)

    def test_what_the_program_left_running_is_named_and_stopped(self):
        for name, box in self.boxes.items():
            with self.subTest(name):
                marker = f"sleep {3000 + len(name)}"  # a duration no other process sleeps
                rc, left = self.finish(self.start(box, f"({marker} &); sleep 0.3; exit 0"))
                self.assertEqual(rc, 0)
                self.assertEqual(len(left), 1, left)
                self.assertIn("sleep", left[0].command)
                time.sleep(0.2)
                alive = subprocess.run(["pgrep", "-fx", marker], stdout=subprocess.PIPE, text=True).stdout.split()
                self.assertEqual(alive, [], f"{name}: still running: {alive}")

    def test_a_killed_tree_names_nothing_as_left_running(self):
        for name, box in self.boxes.items():
            with self.subTest(name):
                running = self.start(box, "sleep 30 & sleep 30")
                time.sleep(0.3)
                self.assertGreater(running.resident_bytes(), 0)
                running.kill_tree()
                self.assertEqual(running.wait(timeout=10), -9)
                if name == "namespaces":
                    self.assertEqual(running.leftovers(), [])

    def test_only_the_writable_folder_can_be_written(self):
        outside = Path(self.tmp.name) / "outside"
        for name, box in self.boxes.items():
            with self.subTest(name):
                rc, _ = self.finish(self.start(box, f"touch '{self.scratch}/inside' && touch \"$TMPDIR/tmp\" "
                                                    f"&& touch '{outside}'"))
                self.assertTrue((self.scratch / "inside").exists())
                self.assertTrue((self.scratch / "tmp").exists())
                # A separate user cannot write the grader's folders either; only the screen can.
                self.assertEqual(outside.exists(), name == "none")
                self.assertEqual(rc != 0, name != "none")
                outside.unlink(missing_ok=True)

    def test_a_build_may_write_a_file_larger_than_a_test_programs_output(self):
        # The simulator's runtime archive is larger than a test program's log may be; a build
        # step that writes it must not die of SIGXFSZ, while a test program writing as much does.
        size_mib = (sandbox.OUTPUT_LIMIT_BYTES >> 20) + 8
        write = f"head -c {size_mib}M /dev/zero > '{self.scratch}/big'"
        for name, box in self.boxes.items():
            with self.subTest(name):
                rc, _ = box.run(["/bin/sh", "-c", write], cwd=self.scratch, writable=(self.scratch,), timeout=60)
                self.assertEqual(rc, 0)
                self.assertEqual((self.scratch / "big").stat().st_size, size_mib << 20)
                (self.scratch / "big").unlink()
                rc, _ = self.finish(self.start(box, write))
                self.assertNotEqual(rc, 0)

    def test_a_scratch_folder_the_grader_made_inside_the_writable_one_is_writable(self):
        # As the runner does it: the lab's log folder is writable, and the run's TMPDIR is a
        # folder the grader makes inside it just before (compute-sanitizer writes there first).
        for name, box in self.boxes.items():
            with self.subTest(name):
                scratch = self.scratch / f"{name}-scratch"
                scratch.mkdir()
                log = open(Path(self.tmp.name) / "log", "ab")
                self.addCleanup(log.close)
                running = box.spawn(["/bin/sh", "-c", 'touch "$TMPDIR/tmp"'], cwd=self.scratch, env=dict(os.environ),
                                    stdout=log, writable=(self.scratch,), scratch=scratch)
                rc, _ = self.finish(running)
                self.assertEqual(rc, 0)
                self.assertTrue((scratch / "tmp").exists())

    def test_the_namespace_box_has_no_network(self):
        if "namespaces" not in self.boxes:
            self.skipTest("this machine cannot make namespaces")
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        self.addCleanup(listener.close)
        port = listener.getsockname()[1]
        probe = f"exec 3<>/dev/tcp/127.0.0.1/{port}"  # bash's connect
        for name, box in self.boxes.items():
            with self.subTest(name):
                log = open(Path(self.tmp.name) / "log", "ab")
                self.addCleanup(log.close)
                running = box.spawn(["/bin/bash", "-c", probe], cwd=self.scratch, env=dict(os.environ),
                                    stdout=log, writable=(self.scratch,))
                rc, _ = self.finish(running)
                self.assertEqual(rc != 0, name == "namespaces", f"{name}: connect exited {rc}")

    def test_hidden_folders_are_empty_and_shown_ones_visible(self):
        if "namespaces" not in self.boxes:
            self.skipTest("this machine cannot make namespaces")
        hidden = Path(self.tmp.name) / "class"
        (hidden / "other-student").mkdir(parents=True)
        (hidden / "mine").mkdir()
        (hidden / "mine" / "file").write_text("mine")
        box = sandbox.choose(REPO, "namespaces", hidden=(hidden,), shown=(hidden / "mine",))
        rc, _ = self.finish(self.start(box, f"test ! -e '{hidden}/other-student' && test -r '{hidden}/mine/file'"))
        self.assertEqual(rc, 0)
        rc, _ = self.finish(self.start(self.boxes["namespaces"], f"test -e '{hidden}/other-student'"))
        self.assertEqual(rc, 0)  # the same test fails without the hiding: it can fail


class BatchCommandLineTest(unittest.TestCase):
    def test_every_option_but_the_batchs_own_is_forwarded(self):
        argv = ["--batch", "class", "-j", "3", "--results", "r", "--student-timeout", "9", "--build-jobs", "2",
                "--no-sanitizer", "--sanitizer-command", "fake-sanitizer", "--address-space-limit", "100",
                "--labs-dir", "somewhere", "--memory-limit", "5", "--timeout", "7", "--sandbox", "none",
                "--cmake-define", "A=1", "--cmake-define", "B=2", "--backend", "cuda", "02"]
        forwarded = options.forwarded(options.parser().parse_args(argv))
        self.assertEqual(forwarded, ["--backend", "cuda", "--timeout", "7.0", "--memory-limit", "5",
                                     "--address-space-limit", "100", "--no-sanitizer", "--cmake-define", "A=1",
                                     "--cmake-define", "B=2", "--sanitizer-command", "fake-sanitizer",
                                     "--labs-dir", "somewhere", "--sandbox", "none"])
        parsed = options.parser().parse_args(forwarded + ["02"])
        self.assertTrue(parsed.no_sanitizer)
        self.assertEqual(parsed.address_space_limit, 100)

    def test_a_new_option_is_forwarded_without_a_change_to_the_batch(self):
        original = options.parser

        def with_new_option():
            p = original()
            p.add_argument("--brand-new-option", default="x")
            return p
        options.parser = with_new_option
        try:
            args = options.parser().parse_args(["--batch", "class", "--brand-new-option", "y"])
            self.assertEqual(options.forwarded(args), ["--brand-new-option", "y"])
        finally:
            options.parser = original

    def test_cli_and_batch_do_not_import_each_other(self):
        for name, other in (("cli", "batch"), ("batch", "cli")):
            tree = ast.parse((PACKAGE / f"{name}.py").read_text())
            imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                        for alias in node.names} | {node.module or "" for node in ast.walk(tree)
                                                    if isinstance(node, ast.ImportFrom)}
            self.assertNotIn(other, imported, f"{name}.py imports {other}")

    def test_the_kits_path_has_one_home(self):
        defining = [p.name for p in sorted(PACKAGE.glob("*.py")) if "parents[" in p.read_text()]
        self.assertEqual(defining, ["paths.py"])


class WorkerTreeTest(unittest.TestCase):
    """What a worker's folder keeps of one student for the next: the configuration only."""

    def setUp(self):
        self.work = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.work)
        self.tree = self.work / "sim-worker-0-1234"
        configured = ["CMakeCache.txt", "build.ninja", "CMakeFiles/rules.ninja",
                      "grader/labs/02-kogge-stone/cmake_install.cmake", ".cmake/api/v1/reply/index-1.json"]
        for rel in configured:
            (self.tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.tree / rel).write_text("configuration\n")
        (self.tree / "grader/labs/02-kogge-stone/CMakeFiles/lab02_tests.dir").mkdir(parents=True)
        build_tree._record_configuration(self.tree)
        self.configured = configured
        # What grading a student leaves.
        self.left = ["grader/labs/02-kogge-stone/scanlab_sim/ab12/kogge_stone.cu.cpp",
                     "grader/labs/02-kogge-stone/CMakeFiles/lab02_tests.dir/instantiations.cu.cpp.o",
                     "grader/labs/02-kogge-stone/lab02_tests", "grade-logs/02-kogge-stone/tests-0.log",
                     "grade-logs/02-kogge-stone/tests-scratch/left-by-lab-code", ".ninja_log", ".ninja_deps"]
        for rel in self.left:
            (self.tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.tree / rel).write_text("the student's\n")
        (self.tree / "build.ninja").write_text("regenerated by the build\n")  # still configuration
        for rel in ("submissions/worker-0-5678/02-kogge-stone/kogge_stone.cu", "unpacked/student/notes.txt"):
            (self.work / rel).parent.mkdir(parents=True)
            (self.work / rel).write_text("the student's\n")

    def test_only_the_configuration_stays(self):
        batch.clear_worker(self.work)
        kept = sorted(str(p.relative_to(self.work)) for p in self.work.rglob("*") if p.is_file())
        self.assertEqual(kept, sorted([f"{self.tree.name}/{r}" for r in self.configured]
                                      + [f"{self.tree.name}/{build_tree._CONFIGURED_FILES}"]))
        self.assertTrue((self.tree / "grader/labs/02-kogge-stone/CMakeFiles/lab02_tests.dir").is_dir())
        self.assertEqual((self.tree / "build.ninja").read_text(), "regenerated by the build\n")

    def test_a_tree_without_a_record_of_its_configuration_goes_as_a_whole(self):
        (self.tree / build_tree._CONFIGURED_FILES).unlink()
        batch.clear_worker(self.work)
        self.assertEqual(list(self.work.iterdir()), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)


class BuildLimitsTest(unittest.TestCase):
    """A build step past a build limit is stopped, in every box, and said in the student's words."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.scratch = Path(self.tmp.name)

    def run_step(self, box: sandbox.Sandbox, program: str, limits) -> tuple[int, str, float]:
        (self.scratch / "step.py").write_text(program)
        started = time.monotonic()
        rc, out = box.run([sys.executable, str(self.scratch / "step.py"), "lab_file.cu"], cwd=self.scratch,
                          writable=(self.scratch,), timeout=60, limits=limits)
        return rc, out, time.monotonic() - started

    def test_a_step_past_the_memory_or_cpu_limit_is_stopped_and_named(self):
        grow = "import time\nx = bytearray(300 << 20)\nfor i in range(0, len(x), 4096): x[i] = 1\ntime.sleep(30)\n"
        spin = "while True: pass\n"
        for name, box in boxes().items():
            for program, limits, limit in ((grow, build_limits.BuildLimits(memory_bytes=100 << 20), "memory"),
                                           (spin, build_limits.BuildLimits(cpu_seconds=1), "cpu")):
                with self.subTest(f"{name}: {limit}"):
                    rc, out, seconds = self.run_step(box, program, limits)
                    hit = build_limits.limit_hit(out)
                    self.assertIsNotNone(hit, out)
                    self.assertEqual((rc, hit.limit, hit.file), (125, limit, "lab_file.cu"))
                    self.assertTrue(hit.program.startswith("python"), hit)
                    self.assertLess(seconds, 20)
        rc, out, _ = self.run_step(boxes()["none"], "print('fine')\n", build_limits.LIMITS)
        self.assertEqual((rc, build_limits.limit_hit(out)), (0, None))  # a step within the limits: untouched

    def test_a_stopped_compile_is_the_students_error_in_words_and_a_kit_file_is_not(self):
        hit = build_limits.LimitHit("memory", "cc1plus", "/b/tree/scanlab_sim/1/instantiations.cu.cpp", "1 GiB")
        not_ours, reason, _ = build_failures.stopped_build(hit, "", ["decoupled_lookback_scan.cu"], REPO, REPO / "s")
        self.assertIsNone(not_ours)
        self.assertEqual(reason, "compile error: the compiler used more than 1 GiB compiling "
                                 "decoupled_lookback_scan.cu: a file this size needs far less; look for a recursive "
                                 "template or an included device file")
        kit = build_limits.LimitHit("cpu", "cc1plus", str(REPO / "common/sim/runtime/x.cpp"), "60 s of CPU")
        not_ours, _, _ = build_failures.stopped_build(kit, "", ["decoupled_lookback_scan.cu"], REPO, REPO / "s")
        self.assertIn("not your code", not_ours)
        line = hit.line()
        self.assertEqual(build_limits.limit_hit("compiler output\n" + line), hit)


def tearDownModule():
    # The tests above chose boxes for this process; the test modules after them grade with the
    # weakest, as a process that chose none does.
    sandbox.choose(REPO, "none")
