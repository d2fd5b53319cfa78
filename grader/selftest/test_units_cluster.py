"""A class graded as a Slurm job array, without Slurm: grade-array.sbatch run as Slurm runs it
(no USER, `set -u`), and the batch's part of it with a stand-in for each student's `grade`:
tasks write their student's files only, the merge alone writes the gradebook (creating the
results folder where no task did), a task stopped from outside (SIGTERM, or killed without a
word) or given no GPU for --backend cuda leaves its student a "not graded" row with the
reason, and two writers of the gradebook at once never fail (grader/README.md, "On a
cluster: a Slurm job array")."""

import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import batch, gradebook, options  # noqa: E402

SBATCH = HERE.parent / "platforms" / "slurm" / "grade-array.sbatch"

# A stand-in for grader/grade: writes a report of full marks where --output says, or sleeps
# when the student's folder holds a file named "hang" (and says its pid first).
FAKE_GRADE = textwrap.dedent("""\
    #!/usr/bin/env bash
    while [[ $# -gt 0 ]]; do
      case $1 in
        --output) output=$2; shift ;;
        --submission) submission=$2; shift ;;
      esac
      shift
    done
    if [[ -e $submission/hang ]]; then
      echo $$ > "$submission/pid"
      exec sleep 120
    fi
    echo '{"score": 5, "max_score": 5, "labs": [{"number": "02", "score": 5, "checks": []}]}' > "$output"
    """)


def gradebook_rows(results: Path) -> dict[str, dict[str, str]]:
    with open(results / "gradebook.csv", newline="") as f:
        return {r["student"]: r for r in csv.DictReader(f)}


class ClusterTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(subprocess.run, ["rm", "-rf", str(self.tmp)])
        self.class_dir = self.tmp / "class"
        for student in ("alice", "bob"):
            (self.class_dir / student / "02-kogge-stone").mkdir(parents=True)
        self.results = self.tmp / "shared" / "grades"  # no task has made it
        self.fake_grade = self.tmp / "grade"
        self.fake_grade.write_text(FAKE_GRADE)
        self.fake_grade.chmod(0o755)

    def environment_without_user(self) -> dict[str, str]:
        return {k: v for k, v in os.environ.items() if k not in ("USER", "LOGNAME", "SCANLAB_BUILD_ROOT")}


class ArrayTaskScriptTest(ClusterTestCase):
    """grade-array.sbatch in a kit whose grader/grade lists the class for real (--list) and
    records the arguments of any other call."""

    def setUp(self):
        super().setUp()
        self.kit = self.tmp / "kit"
        (self.kit / "grader").mkdir(parents=True)
        self.called = self.tmp / "called"
        grader, common = HERE.parent, HERE.parents[1] / "common" / "python"
        (self.kit / "grader" / "grade").write_text(textwrap.dedent(f"""\
            #!/bin/sh
            case " $* " in
              *" --list "*) PYTHONPATH={grader}:{common} exec {sys.executable} -m scanlab_grader "$@" ;;
            esac
            printf "%s\\n" "$@" > {self.called}
            """))
        (self.kit / "grader" / "grade").chmod(0o755)

    def run_task(self, task: int) -> subprocess.CompletedProcess:
        env = {**self.environment_without_user(), "SLURM_SUBMIT_DIR": str(self.kit),
               "SLURM_ARRAY_TASK_ID": str(task), "TMPDIR": str(self.tmp)}
        return subprocess.run(["bash", str(SBATCH), str(self.class_dir), str(self.results), "02"], env=env,
                              capture_output=True, text=True, timeout=60)

    def test_a_task_runs_without_USER_under_set_u(self):
        run = self.run_task(1)
        self.assertEqual(run.returncode, 0, run.stderr)
        args = self.called.read_text().splitlines()
        self.assertEqual(args[args.index("--only") + 1], "bob")
        build_root = Path(args[args.index("--build-root") + 1])
        self.assertEqual(build_root.parent, self.tmp)
        self.assertRegex(build_root.name, r"^scanlab-\w+-\d+$")
        self.assertEqual(args[-1], "02")

    def test_two_checkouts_of_the_kit_get_build_roots_of_their_own(self):
        first = self.build_root_of_task()
        other_kit = self.tmp / "another-kit"
        self.kit.rename(other_kit)
        self.kit = other_kit
        self.assertNotEqual(self.build_root_of_task(), first)

    def build_root_of_task(self) -> Path:
        run = self.run_task(0)
        self.assertEqual(run.returncode, 0, run.stderr)
        args = self.called.read_text().splitlines()
        return Path(args[args.index("--build-root") + 1])

    def test_each_task_grades_the_student_the_batch_numbers_so(self):
        # Files that are no student sort between the students: a task numbered by the folder's
        # entries would grade "notes" and skip carol.
        (self.class_dir / ".DS_Store").write_text("")
        (self.class_dir / "b-notes.txt").write_text("")
        (self.class_dir / "carol.zip").write_bytes(b"")
        graded = []
        for task in range(3):
            run = self.run_task(task)
            self.assertEqual(run.returncode, 0, run.stderr)
            args = self.called.read_text().splitlines()
            graded.append(args[args.index("--only") + 1])
        self.assertEqual(graded, ["alice", "bob", "carol"])

    def test_a_task_past_the_last_student_says_so(self):
        run = self.run_task(2)
        self.assertEqual(run.returncode, 2)
        self.assertIn("task 2 has no student", run.stderr)
        self.assertFalse(self.called.exists())


class BatchOnClusterTest(ClusterTestCase):
    def batch_of(self, only: str = "") -> batch.Batch:
        b = batch.Batch(self.class_dir, self.results, ["02"], [], 1, 60)
        b.build_root = self.tmp / "build"
        b.worker_name = f"student-{only}" if only else ""
        return b

    def run_with_fake_grade(self, b: batch.Batch, students) -> list:
        original = batch.GRADE
        batch.GRADE = self.fake_grade
        try:
            with open(os.devnull, "w") as quiet:
                return b.run(students, batch.Progress(quiet))
        finally:
            batch.GRADE = original

    def test_a_task_writes_its_students_files_and_no_gradebook(self):
        students = [s for s in batch.students_in(self.class_dir) if s.name == "alice"]
        outcomes = self.run_with_fake_grade(self.batch_of(only="alice"), students)
        self.assertTrue(outcomes[0].ok, outcomes[0].error)
        self.assertTrue((self.results / "reports" / "alice.json").is_file())
        self.assertFalse((self.results / "reports" / "alice.grading").exists())
        self.assertFalse((self.results / "gradebook.csv").exists())

    def test_a_local_batch_writes_the_gradebook(self):
        self.run_with_fake_grade(self.batch_of(), batch.students_in(self.class_dir))
        self.assertEqual({k: v["score"] for k, v in gradebook_rows(self.results).items()}, {"alice": "5", "bob": "5"})

    def test_the_merge_makes_the_results_folder_and_names_every_student(self):
        args = options.parser().parse_args(["--batch", str(self.class_dir), "--results", str(self.results),
                                            "--merge"])
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                self.assertEqual(batch.main(args), 0)
            finally:
                sys.stdout = stdout
        rows = gradebook_rows(self.results)
        self.assertEqual(sorted(rows), ["alice", "bob"])
        for row in rows.values():
            self.assertEqual(row["status"], "not graded")
            self.assertIn("no grading of this student ran", row["problems"])

    def test_a_cuda_task_without_a_gpu_grades_nobody_and_says_so(self):
        if batch.gpu_visible():
            self.skipTest("this machine has a GPU")
        args = options.parser().parse_args(["--batch", str(self.class_dir), "--results", str(self.results),
                                            "--only", "alice", "--backend", "cuda", "02"])
        with mock.patch.dict(os.environ, {"SLURM_JOB_ID": "44"}), open(os.devnull, "w") as quiet:
            stderr, sys.stderr = sys.stderr, quiet
            try:
                self.assertEqual(batch.main(args), 2)
            finally:
                sys.stderr = stderr
        self.assertIn("submit the array with --gres=gpu:1", (self.results / "reports" / "alice.error").read_text())
        self.assertFalse((self.results / "build").exists())  # nothing was built for it

    def test_a_task_killed_without_a_word_leaves_a_not_graded_row(self):
        reports = self.results / "reports"
        env = {**os.environ, "SLURM_ARRAY_JOB_ID": "41", "SLURM_ARRAY_TASK_ID": "0", "SLURM_JOB_ID": "42"}
        # What a task leaves when Slurm's memory limit kills it (SIGKILL) while alice is graded.
        code = (f"import sys; sys.path.insert(0, {str(HERE.parent)!r}); from pathlib import Path; "
                f"from scanlab_grader import gradebook; gradebook.grading_started(Path({str(reports)!r}), 'alice')")
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        report = {"score": 5, "max_score": 5, "labs": [{"number": "02", "score": 5, "checks": []}]}
        (reports / "bob.json").write_text(json.dumps(report))
        gradebook.write_gradebook(self.results, ["alice", "bob"], complete=True)
        rows = gradebook_rows(self.results)
        self.assertEqual(rows["alice"]["status"], "not graded")
        self.assertIn("Slurm array task 41_0", rows["alice"]["problems"])
        self.assertIn("time or memory limit", rows["alice"]["problems"])
        self.assertEqual(rows["bob"]["score"], "5")
        # While a batch still runs, a student being graded has no row yet.
        gradebook.write_gradebook(self.results, ["alice", "bob"])
        self.assertEqual(sorted(gradebook_rows(self.results)), ["bob"])

    def test_a_task_stopped_by_SIGTERM_says_so_and_stops_its_grading(self):
        (self.class_dir / "alice" / "hang").touch()
        script = textwrap.dedent(f"""\
            import sys
            sys.path[:0] = [{str(HERE.parent)!r}, {str(HERE.parents[1] / "common" / "python")!r}]
            from pathlib import Path
            from scanlab_grader import batch
            batch.GRADE = Path({str(self.fake_grade)!r})
            b = batch.Batch(Path({str(self.class_dir)!r}), Path({str(self.results)!r}), ["02"], [], 1, 60)
            b.build_root = Path({str(self.tmp / "build")!r})
            b.worker_name = "student-alice"
            b.stop_when_told()
            b.run([s for s in batch.students_in(b.submissions) if s.name == "alice"], batch.Progress())
            """)
        env = {**os.environ, "SLURM_JOB_ID": "43"}
        task = subprocess.Popen([sys.executable, "-c", script], env=env, stderr=subprocess.DEVNULL)
        pid_file = self.class_dir / "alice" / "pid"
        deadline = time.monotonic() + 30
        while not pid_file.is_file() or not pid_file.read_text().strip():
            self.assertLess(time.monotonic(), deadline, "the stand-in grade never started")
            time.sleep(0.05)
        grading = int(pid_file.read_text())
        task.send_signal(signal.SIGTERM)
        self.assertEqual(task.wait(timeout=30), 128 + signal.SIGTERM)
        error = (self.results / "reports" / "alice.error").read_text()
        self.assertIn("stopped by SIGTERM (Slurm's time limit or scancel)", error)
        for _ in range(100):
            if not Path(f"/proc/{grading}").exists() or "Z" in Path(f"/proc/{grading}/stat").read_text().split()[2]:
                break
            time.sleep(0.05)
        else:
            self.fail("the student's grading outlived its task")
        gradebook.write_gradebook(self.results, ["alice"], complete=True)
        self.assertIn("SIGTERM", gradebook_rows(self.results)["alice"]["problems"])

    def test_two_writers_at_once_never_fail(self):
        reports = self.results / "reports"
        reports.mkdir(parents=True)
        (reports / "bob.json").write_text(json.dumps({"score": 5, "max_score": 5, "labs": []}))
        code = (f"import sys; sys.path.insert(0, {str(HERE.parent)!r}); from pathlib import Path; "
                f"from scanlab_grader import gradebook\n"
                f"for _ in range(1500): gradebook.write_gradebook(Path({str(self.results)!r}), ['alice', 'bob'])")
        writers = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
                   for _ in range(2)]
        for w in writers:
            _, err = w.communicate(timeout=300)
            self.assertEqual(w.returncode, 0, err[-2000:])
        self.assertEqual(sorted(gradebook_rows(self.results)), ["bob"])
        self.assertEqual(sorted(p.name for p in self.results.iterdir()), ["gradebook.csv", "reports"])


if __name__ == "__main__":
    unittest.main()


class SharedBuildRootTest(unittest.TestCase):
    """Two checkouts of the kit that build in one folder (a SCANLAB_BUILD_ROOT both name):
    CMake refuses a build tree made for another source, so the second build must configure the
    tree again rather than fail every student."""

    def test_a_tree_configured_for_another_checkout_is_configured_again(self):
        from scanlab_build.tree import BuildTree, configured_source
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(subprocess.run, ["rm", "-rf", str(tmp)])
        checkouts = [tmp / "kit-a", tmp / "kit-b"]
        for kit in checkouts:
            kit.mkdir()
            (kit / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.20)\nproject(kit NONE)\n")
        submission = tmp / "class" / "alice"
        submission.mkdir(parents=True)
        trees = [BuildTree(kit, tmp / "build", "sim", submission, jobs=1) for kit in checkouts]
        self.assertEqual(trees[0].dir, trees[1].dir)
        for kit, tree in zip(checkouts, trees):
            with mock.patch("sys.stderr"):
                configured = tree.configure()
            self.assertTrue(configured.ok, configured.output)
            self.assertEqual(configured_source(tree.dir), kit.resolve())


class PrebuiltViewTest(unittest.TestCase):
    """What a student's runs see of the prebuilt tree: shown again where a hidden folder holds
    it (the batch's own BUILD_ROOT/prebuilt); left as it is where SCANLAB_PREBUILT_DIR names one
    elsewhere, so that a results folder inside it stays hidden."""

    def shown(self, b: batch.Batch) -> list[str]:
        view = b.view_of(Path("/work/worker-0"))
        return [view[i + 1] for i, a in enumerate(view) if a == "--sandbox-show"]

    def test_the_batchs_own_prebuilt_tree_is_shown(self):
        b = batch.Batch(Path("/srv/class"), Path("/srv/class-grades"), ["02"], [], 1, 60)
        b.build_root = Path("/srv/class-grades/build")
        b.prebuilt = b.build_root / "prebuilt"
        self.assertEqual(self.shown(b), ["/work/worker-0", "/srv/class-grades/build/prebuilt"])

    def test_a_named_tree_holding_the_results_is_not_shown_again(self):
        b = batch.Batch(Path("/kit/build/check/class"), Path("/kit/build/check/grades"), ["02"], [], 1, 60)
        b.build_root = Path("/kit/build/check/grades/build")
        b.prebuilt = Path("/kit/build/check")
        self.assertEqual(self.shown(b), ["/work/worker-0"])
