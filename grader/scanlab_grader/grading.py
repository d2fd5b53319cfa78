"""Grading one lab: build its test program, run it, map the outcomes to checks."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from scanlab_build import BuildTree, earlier_labs_dir, first_errors

from scanlab_findings import records as findings_of

from . import call_sites, gtest_filter, pictures, sandbox, sanitizer_reach, symbol_screen, unstarted
from .build_failures import build_with_retry, compiler_killed, stopped_build  # noqa: F401 (compiler_killed: tests)
from .sandbox import build_limits
from .manifest import Check, Lab
from .runner import NOT_OURS, Limits, SuiteRun, TestOutcome, run_suite

MAX_DETAIL_LINES = 40
MAX_REASON = 160
MAX_WAYS_SHOWN = 2  # ways a check's tests failed, shown in full; the rest are named
SANITIZER_EXIT = 99

# compute-sanitizer tools run (backend cuda) on the tests of a check, by category.
SANITIZERS = {
    "race-freedom": ("racecheck", "synccheck"),
    "correctness": ("memcheck", "initcheck"),
}


@dataclass
class CheckResult:
    check: Check
    status: str  # pass | fail | skip
    kind: str = ""  # why it failed: assertion crash timeout memory exit not-run skipped-test compile build
    #                  tampered manifest sanitizer missing ; when skipped: gpu-only, simulator-only, or
    #                  instructor-graded (a performance check in a student's copy of the kit)
    reason: str = ""
    details: list[str] = field(default_factory=list)  # the evidence in words, for everyone
    tests: list[str] = field(default_factory=list)
    seconds: float = 0.0
    measured: list[str] = field(default_factory=list)  # what its tests measured, shown beside pass/fail
    findings: list[findings_of.Finding] = field(default_factory=list)  # the simulator's reports, once per place
    assertions: list[str] = field(default_factory=list)  # GoogleTest's text of its failed tests (--verbose)

    @property
    def points(self) -> float:
        return self.check.points if self.status == "pass" else 0.0

    @property
    def max_points(self) -> float:
        return 0.0 if self.status == "skip" else self.check.points


POLLING_READ = "polling read"  # the role of a poll's plain load in the simulator's race record


@dataclass
class LabResult:
    lab: Lab
    checks: list[CheckResult]
    error: str | None = None  # lab-wide failure (compile error, crash at startup, ...)
    notes: list[str] = field(default_factory=list)
    not_started: unstarted.FirstTodo | None = None  # the files are the skeleton: where to start
    # With --pictures: a failed correctness check's wrong run, step by step (pictures.record_steps).
    step_pictures: list[dict] = field(default_factory=list)

    @property
    def not_graded(self) -> str | None:
        """Why the lab, or some of its checks, could not be graded for a reason that is not the
        student's (the compiler or a test program killed from outside): to be graded again."""
        return next((c.reason for c in self.checks if c.kind == NOT_GRADED), None)

    def findings(self) -> list[tuple[findings_of.Finding, list[CheckResult]]]:
        """Each distinct finding of the lab once, errors first, with the checks whose tests
        reported it (the failed ones first): what it cost."""
        seen: dict[tuple, tuple[findings_of.Finding, list[CheckResult]]] = {}
        for c in self.checks:
            for f in c.findings:
                if f.key in seen:
                    first, checks = seen[f.key]
                    if c not in checks:
                        checks.append(c)
                        first.absorb(f)
                else:
                    seen[f.key] = (dataclasses.replace(f), [c])
        # A plain read that met a store before its loop ran long enough to be taken for a poll
        # (a short wait, another test's run) is the mistake the poll's finding at that line
        # names: one finding, the poll's, with the checks both cost.
        polls = {p.where: key for key, (f, _) in seen.items() for p in f.places if p.role == POLLING_READ}
        for key, (f, checks) in list(seen.items()):
            poll = next((polls[p.where] for p in f.places if p.role == "read" and p.where in polls), None)
            if f.kind == "race" and poll is not None and poll != key:
                into, into_checks = seen[poll]
                into.absorb(f)
                into_checks.extend(c for c in checks if c not in into_checks)
                del seen[key]
        ordered = sorted(seen.values(), key=lambda fc: not fc[0].error)
        return [(f, sorted(checks, key=lambda c: c.status != "fail")) for f, checks in ordered]

    @property
    def points(self) -> float:
        return sum(c.points for c in self.checks)

    @property
    def max_points(self) -> float:
        return sum(c.max_points for c in self.checks)

    @property
    def passed(self) -> bool:
        return all(c.status != "fail" for c in self.checks) and self.not_graded is None


@dataclass
class Options:
    repo: Path
    backend: str
    submission: Path
    build_root: Path
    jobs: int
    limits: Limits
    defines: list[str] = field(default_factory=list)
    sanitize: bool = True
    sanitizer: str = "compute-sanitizer"
    test_binaries: dict[str, Path] = field(default_factory=dict)  # lab number -> prebuilt program
    staged: dict = field(default_factory=dict)  # lab number -> submission.StagedLab (what was taken)
    pictures: bool = False  # a test that failed with a race runs again to record its picture (pictures.py)
    checks: tuple[str, ...] = ()  # --check: only these checks are graded (all when empty)


def _one_line(text: str, limit: int = MAX_REASON) -> str:
    """The text on one line of at most `limit` characters, cut between words."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    if " " in cut and line[limit - 1] != " ":
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:…") + "…"


def _lab_failure(lab: Lab, backend: str, kind: str, reason: str, details: list[str]) -> LabResult:
    checks = []
    for check in lab.checks:
        if (skipped := _backend_cannot_grade(check, backend)) is not None:
            checks.append(skipped)
        else:
            checks.append(CheckResult(check, "fail", kind, _one_line(reason), details[:MAX_DETAIL_LINES]))
    return LabResult(lab, checks, error=reason)


NOT_GRADED = "not-graded"  # a check's kind when what stopped it is not the student's doing
# grade's exit status when a lab was not graded for a reason that is not the student's (the
# compiler or a test program killed from outside, twice): the marks are not final, grade again.
NOT_GRADED_EXIT = 3


def _not_graded_lab(lab: Lab, backend: str, why: str, details: list[str]) -> LabResult:
    """A lab whose grading failed for a reason that is not the student's: every check is shown
    as not graded, out of the total, never as a 0 the student earned."""
    reason = _one_line(f"not graded: {why}; grade it again")
    checks = [_backend_cannot_grade(check, backend)
              or CheckResult(check, "skip", NOT_GRADED, reason, details[:MAX_DETAIL_LINES]) for check in lab.checks]
    return LabResult(lab, checks, error=reason)


def _gpu_only(check: Check) -> CheckResult:
    return CheckResult(check, "skip", "gpu-only",
                       "not graded on the simulator: performance is measured on a GPU only (--backend cuda)")


def _simulator_only(check: Check) -> CheckResult:
    return CheckResult(check, "skip", "simulator-only",
                       "counted by the simulator only (--backend sim); on a GPU, Nsight Compute counts it "
                       "(see the lab's README)")


def _backend_cannot_grade(check: Check, backend: str) -> CheckResult | None:
    """Checks of a kind the backend cannot measure: performance without a GPU, the
    simulator's counters on a GPU."""
    if check.category == "performance" and backend != "cuda":
        return _gpu_only(check)
    if check.category == "efficiency" and backend != "sim":
        return _simulator_only(check)
    return None


def _not_selected(check: Check, selected: tuple[str, ...]) -> CheckResult:
    return CheckResult(check, "skip", "not-selected", f"not graded: only {', '.join(selected)} was asked for (--check)")


def selected_tests_filter(lab: Lab, selected: tuple[str, ...], backend: str) -> str | None:
    """The GoogleTest filter of the tests that the checks `selected` (--check) grade on this
    backend, or None for every test (none selected, or a check's filter that excludes tests,
    which does not join with the others')."""
    patterns = [c.tests for c in lab.checks
                if c.id in selected and _backend_cannot_grade(c, backend) is None]
    if not selected or not patterns or any("-" in p for p in patterns):
        return None
    return ":".join(patterns)


def kit_has_reference(repo: Path, lab: Lab) -> bool:
    """Whether this copy of the kit has `lab`'s reference solution, which a performance check
    times the submission against on a GPU: the instructor's copy has it, a student's copy
    (grader/release) has no solutions/ (grader/cmake/LabTests.cmake asks the same)."""
    folder = repo / "solutions" / lab.dir
    return folder.is_dir() and any(p.suffix == ".cu" for p in folder.iterdir())


def _graded_by_the_instructor(result: CheckResult) -> CheckResult:
    """A performance check in a student's copy of the kit: its test timed the submission against
    CUB alone and skipped (grader/labs/common/performance_check.hpp), since the comparison with
    the reference solution, and the check's points, are the instructor's grading. It is shown
    as not graded with what it measured: never as failed (a skipped test fails any other
    check), never as passed. A run that went wrong before the timing says so in the reason."""
    if result.status == "fail" and result.kind != "skipped-test":
        reason = (f"not graded in a student's copy (the instructor's grading, {result.check.points:g} points); "
                  f"its run failed before the timing: {result.reason}")
    else:
        reason = (f"not graded in a student's copy: the comparison with the reference solution and its "
                  f"{result.check.points:g} points are the instructor's grading"
                  + ("; measured against CUB alone" if result.measured else ""))
    return dataclasses.replace(result, status="skip", kind="instructor-graded", reason=_one_line(reason))


def _findings(outcomes: list[TestOutcome], sites: call_sites.CallSites | None) -> list[findings_of.Finding]:
    """The simulator's findings while the tests ran, each place once (a test that died has those
    it left for the runner, runner.py); an access in kit code also names the student's line that
    called it."""
    found: list[findings_of.Finding] = []
    for o in outcomes:
        for f in findings_of.from_records(o.findings):
            f.test = o.name
            found.append(f)
    return call_sites.attribute(findings_of.merge(found), sites)


def evaluate_check(check: Check, suite: SuiteRun, target: str, repo: Path | None = None,
                   sites: call_sites.CallSites | None = None) -> CheckResult:
    matched = gtest_filter.select(check.tests, suite.plan or [])
    if not matched:
        return CheckResult(check, "fail", "manifest",
                           f"manifest error: filter '{check.tests}' matches no test of {target}")
    outcomes = [suite.outcomes.get(t) or TestOutcome(t, "not-run", f"{t} did not run") for t in matched]
    bad = [o for o in outcomes if o.status != "pass"]
    seconds = sum(o.ms for o in outcomes) / 1000.0
    measured = [m for o in outcomes for m in o.measured]
    found = _findings(outcomes, sites)
    if not bad:
        return CheckResult(check, "pass", tests=matched, seconds=seconds, measured=measured, findings=found)
    if all(o.status == NOT_OURS for o in bad):
        # Stopped by something that is not the student's doing: not graded, never charged.
        return CheckResult(check, "skip", NOT_GRADED, _one_line(f"not graded: {bad[0].reason}; grade it again"),
                           [o.reason for o in bad[:MAX_WAYS_SHOWN]], matched, seconds, measured, found)
    bad = [o for o in bad if o.status != NOT_OURS]  # the check fails by the tests the student's code failed
    first = bad[0]
    reason = first.reason or f"{first.name}: {first.status}"
    if len(bad) > 1:
        more = f" (+{len(bad) - 1} more failing)"
        reason = _one_line(reason, MAX_REASON - len(more)) + more
    kind = {"fail": "assertion", "skip": "skipped-test"}.get(first.status, first.status)
    # The evidence in words: tests that failed the same way (every test of a check stopped by the
    # same failed call into lab code) are said once, and the first few ways only; the simulator's
    # findings are the check's `findings`, which each format shows in its own place.
    groups: dict[tuple, list[TestOutcome]] = {}
    for o in bad:
        groups.setdefault((o.status, tuple(o.details)), []).append(o)
    shown = list(groups.values())
    details: list[str] = []
    for same in shown[:MAX_WAYS_SHOWN]:
        o = same[0]
        also = f" and {len(same) - 1} more test{'s' if len(same) > 2 else ''} the same way" if len(same) > 1 else ""
        details.append(f"{o.name}{also}:" if o.status == "fail" else o.reason + also)
        details.extend("    " + d for d in o.details[:16])
    if len(shown) > MAX_WAYS_SHOWN:
        rest = [o for same in shown[MAX_WAYS_SHOWN:] for o in same]
        details.append(f"... and {len(rest)} more failing test{'s' if len(rest) > 1 else ''}: "
                       + ", ".join(o.name for o in rest[:5]) + (", ..." if len(rest) > 5 else ""))
    details = details[:MAX_DETAIL_LINES]
    assertions = [line for o in bad for line in [f"{o.name}:"] + ["    " + a for a in o.assertions]]
    return CheckResult(check, "fail", kind, reason if len(bad) > 1 else _one_line(reason), details, matched,
                       seconds, measured, found, assertions)


def _sanitizer_report(log: Path, built_from: list[Path]) -> list[str]:
    """compute-sanitizer's report. It names device code's lines as nvcc recorded them, which no
    flag of nvcc maps (the host compiler's lines are mapped at compile time, LabTests.cmake): the
    folders the build compiled from (`built_from`, the most specific first: the staging copy of
    the submission, the kit's top) are taken off, so lines read as in every other report."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return []
    for folder in built_from:
        text = text.replace(str(folder) + os.sep, "")
    lines = [l.rstrip() for l in text.splitlines() if l.startswith("=========")]
    body = [l for l in lines if l.strip("= ").strip() and "COMPUTE-SANITIZER" not in l]
    return body[:14]


def _run_sanitizers(opts: Options, lab: Lab, binary: Path, result: CheckResult, log_dir: Path,
                    env: dict[str, str]) -> CheckResult:
    tools = SANITIZERS.get(result.check.category, ())
    for tool in tools:
        if (why := sanitizer_reach.unusable(opts.sanitizer)) is not None:
            return sanitizer_reach.not_made(result, why, lab.number)
        san_logs: list[Path] = []

        def cmd_for(flt: str | None, attempt: int, tool=tool, san_logs=san_logs) -> list[str]:
            log = log_dir / f"{result.check.id}-{tool}-{attempt}.sanitizer.log"
            log.unlink(missing_ok=True)
            san_logs.append(log)
            cmd = [opts.sanitizer, "--tool", tool, "--error-exitcode", str(SANITIZER_EXIT),
                   "--log-file", str(log)]
            if tool == "memcheck":
                cmd += ["--leak-check", "no"]
            cmd.append(str(binary))
            return cmd + ([f"--gtest_filter={flt}"] if flt else [])

        slow = dataclasses.replace(opts.limits, test_timeout_s=opts.limits.test_timeout_s * 10, memory_bytes=None,
                                   address_space_bytes=None)
        suite = run_suite(cmd_for, env=env, cwd=binary.parent, log_dir=log_dir, limits=slow,
                          only=result.tests, repo=opts.repo, label=f"{result.check.id}-{tool}",
                          lab_dir=lab.dir)
        if (why := sanitizer_reach.note_logs(opts.sanitizer, san_logs)) is not None:
            return sanitizer_reach.not_made(result, why, lab.number)
        failed_runs = [log for log, rc in zip(san_logs, suite.exit_codes) if rc == SANITIZER_EXIT]
        if failed_runs:
            report = _sanitizer_report(failed_runs[0], [opts.submission, earlier_labs_dir(opts.repo, opts.submission),
                                                        opts.repo])
            first = next((l.strip("= ").strip() for l in report if l.strip("= ").strip()), "")
            return CheckResult(result.check, "fail", "sanitizer",
                               _one_line(f"compute-sanitizer {tool}: {first}"),
                               [f"compute-sanitizer --tool {tool}:"] + ["    " + l for l in report],
                               result.tests, result.seconds)
        if suite.tampered or suite.error:
            why = suite.tampered or suite.error
            return CheckResult(result.check, "fail", "tampered" if suite.tampered else "crash",
                               _one_line(f"under compute-sanitizer {tool}: {why}"), [], result.tests)
        under = evaluate_check(result.check, suite, lab.target, opts.repo)
        if under.status != "pass":
            under.reason = _one_line(f"under compute-sanitizer {tool}: {under.reason}")
            return under
    return result


# Names lab code has no business with: the grader's channel, its signing, the
# simulator's instrumentation hooks, process-level escapes and gtest's internals.
_SUSPICIOUS = re.compile(r"\b(SCANLAB_GRADER_\w*|HMAC\w*|EVP_\w+|__tsan_\w+|syscall|fork|execv\w*|dlsym|"
                         r"testing::\w+|/proc/self\w*|_exit|quick_exit)\b")
_SOURCE_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".inl"}


def screen_sources(lab_src: Path) -> list[str]:
    """Notes (not failures) for an instructor: lab code that names grader or
    simulator internals, as a cheat would have to."""
    found: dict[str, str] = {}
    for path in sorted(lab_src.rglob("*")) if lab_src.is_dir() else []:
        if path.suffix not in _SOURCE_SUFFIXES or not path.is_file():
            continue
        try:
            lines = path.read_text(errors="replace").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            for m in _SUSPICIOUS.finditer(line):
                found.setdefault(m.group(1), f"{path.relative_to(lab_src.parent)}:{number}")
    return [f"lab code names '{name}' ({where}); an instructor should review it" for name, where in found.items()]


_EARLIER_LAB_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"(?P<lab>[0-9][0-9]-[a-z0-9-]+)/(?P<file>[^"]+)"', re.M)


def earlier_lab_notes(lab_src: Path, earlier: Path, submission: Path, repo: Path) -> list[str]:
    """Which earlier labs the lab's files include, and whose copy of them was built."""
    notes = []
    seen = set()
    for path in sorted(lab_src.glob("*")) if lab_src.is_dir() else []:
        if path.suffix not in _SOURCE_SUFFIXES or not path.is_file():
            continue
        for m in _EARLIER_LAB_INCLUDE.finditer(path.read_text(errors="replace")):
            included = earlier / m.group("lab") / m.group("file")
            if included in seen:
                continue
            seen.add(included)
            shown = _relative(included, repo)
            if earlier.resolve() == submission.resolve():
                notes.append(f"built with lab {m.group('lab')[:2]} of this submission ({shown})")
            else:
                notes.append(f"built with the reference solution of lab {m.group('lab')[:2]} ({shown}), "
                             f"so a bug in your lab {m.group('lab')[:2]} costs points in that lab only")
    return notes


def _relative(path: Path, base: Path) -> str:
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path)


# OperationCounter's message when the operator ran in host code (grader/labs/common/operation_counter.hpp).
HOST_COMPUTATION_MARK = "host computation:"


def host_computation(suite: SuiteRun) -> str | None:
    """The message of a test that saw a device lab's operator applied by host code: any of its
    failures, not only the first, whose words are all a student reads by default."""
    for outcome in suite.outcomes.values():
        for line in [outcome.reason] + outcome.details + outcome.assertions:
            if HOST_COMPUTATION_MARK in line:
                return line[line.index(HOST_COMPUTATION_MARK):].strip()
    return None


def _screen_failure(lab: Lab, backend: str, findings: list[symbol_screen.Finding]) -> LabResult:
    first = findings[0]
    verb = "reads" if first.kind == "reads outside the lab" else "calls"
    reason = f"{first.kind}: lab code {verb} {first.what} ({first.why}); the lab scores 0 and its tests were not run"
    details = [f"{f.kind}: {f.what}" for f in findings]
    return _lab_failure(lab, backend, "forbidden", reason, details)


# The simulator's settings a grade never takes from the shell it runs in (one a student tried
# with simcc and left exported): what is checked (race checks off), and the pictures and the page
# of a run, which the grader asks for itself, one test at a time (pictures.py).
SIMULATOR_SETTINGS_DROPPED = ("SCANLAB_SIM_RACECHECK", "SCANLAB_SIM_PAGE", "SCANLAB_SIM_RACE_PICTURE",
                              "SCANLAB_SIM_STEP_PICTURE")


def child_environment() -> dict[str, str]:
    """The grader's environment minus what would change which tests run or how
    gtest reports (GTEST_FILTER, sharding set by a surrounding ctest, ...) and what the
    simulator checks or records (SIMULATOR_SETTINGS_DROPPED)."""
    dropped = ("TEST_PREMATURE_EXIT_FILE", "XML_OUTPUT_FILE", "TEST_SHARD_STATUS_FILE") + SIMULATOR_SETTINGS_DROPPED
    return {k: v for k, v in os.environ.items() if not k.startswith("GTEST_") and k not in dropped}


def grade_lab(lab: Lab, opts: Options, tree: BuildTree | None, configure_error: list[str] | None) -> LabResult:
    return for_this_copy_of_the_kit(_grade_lab(lab, opts, tree, configure_error), opts.repo, opts.backend)


def is_students_copy(repo: Path) -> bool:
    """A student's copy of the kit (grader/release) has no solutions/ folder at all. A lab with
    no reference in the instructor's copy (a lab being written, the self-tests' fake labs) is
    not a student's copy: its checks are graded as its tests report them."""
    return not (repo / "solutions").is_dir()


def for_this_copy_of_the_kit(result: LabResult, repo: Path, backend: str) -> LabResult:
    """On a GPU in a student's copy of the kit (no reference solutions), a lab's performance
    checks are shown as the instructor's to grade, whatever their test did; the instructor's
    copy grades them."""
    if backend == "cuda" and is_students_copy(repo):
        result.checks = [_graded_by_the_instructor(c) if c.check.category == "performance" else c
                         for c in result.checks]
    return result


def _grade_lab(lab: Lab, opts: Options, tree: BuildTree | None, configure_error: list[str] | None) -> LabResult:
    lab_src = opts.submission / lab.dir
    binary = opts.test_binaries.get(lab.number)
    staged = opts.staged.get(lab.number)
    # What of the file system this lab's build and runs see (sandbox/view.py).
    defines = getattr(tree, "defines", opts.defines)
    prebuilt = next((Path(d.partition("=")[2]) for d in defines if d.startswith("SCANLAB_PREBUILT_DIR=")), None)
    sandbox.grading(sandbox.Scope(opts.repo, lab.dir, getattr(tree, "dir", None), opts.submission, prebuilt,
                                  tuple(opts.test_binaries.values())))
    if binary is None:
        if not lab_src.is_dir() or (staged is not None and staged.missing):
            missing = ", ".join(staged.missing) if staged is not None and staged.missing else ""
            failed = _lab_failure(lab, opts.backend, "missing",
                                  f"no submission for this lab: {lab.dir}/{missing} is missing", [])
            failed.notes = list(staged.notes) if staged is not None else []
            return failed
        if configure_error is not None:
            return _lab_failure(lab, opts.backend, "build", "the build could not be configured: "
                                + (configure_error[0] if configure_error else ""), configure_error)
        assert tree is not None
        built, build_notes, not_ours = build_with_retry(tree, lab.target)
        if not_ours is not None:
            failed = _not_graded_lab(lab, opts.backend, not_ours, first_errors(built.output, opts.submission,
                                                                                  opts.repo))
            failed.notes = list(staged.notes) if staged is not None else []
            return failed
        if not built.ok and (hit := build_limits.limit_hit(built.output)) is not None:
            lab_src_files = sorted(p.name for p in lab_src.glob("*.cu")) if lab_src.is_dir() else []
            not_ours, reason, details = stopped_build(hit, built.output, lab_src_files, opts.repo, opts.submission)
            failed = (_not_graded_lab(lab, opts.backend, not_ours, []) if not_ours is not None
                      else _lab_failure(lab, opts.backend, "compile", reason, details))
            failed.notes = list(staged.notes) if staged is not None else []
            return failed
        if not built.ok and lab.target not in tree.targets():
            return _lab_failure(lab, opts.backend, "build",
                                f"the build defines no target {lab.target} (grader/labs CMake or manifest error)",
                                first_errors(built.output, opts.submission, opts.repo))
        if not built.ok and (refused := symbol_screen.refused_includes(
                built.output, lab_dir=lab.dir, submission=opts.submission,
                earlier=earlier_labs_dir(opts.repo, opts.submission), repo=opts.repo, build_dir=tree.dir)):
            failed = _screen_failure(lab, opts.backend, refused)
            failed.notes = list(staged.notes) if staged is not None else []
            return failed
        if not built.ok:
            errors = first_errors(built.output, opts.submission, opts.repo)
            failed = _lab_failure(lab, opts.backend, "compile", "compile error: " + errors[0], errors)
            failed.notes = build_notes
            return failed
        binary = built.artifact
        object_dir = tree.object_dir(lab.target)
        findings, screen_notes = ([], ["the build's objects of this lab were not found, so what its code calls "
                                       "was not checked"]) if object_dir is None else symbol_screen.screen(
            tree.dir, object_dir, lab_dir=lab.dir, submission=opts.submission,
            earlier=earlier_labs_dir(opts.repo, opts.submission), repo=opts.repo)
        if findings:
            failed = _screen_failure(lab, opts.backend, findings)
            failed.notes = (list(staged.notes) if staged is not None else []) + screen_notes
            return failed
        screen_notes = build_notes + screen_notes
    else:
        screen_notes = []
    assert binary is not None

    log_dir = (tree.dir if tree is not None else opts.build_root) / "grade-logs" / lab.dir
    if log_dir.exists():
        shutil.rmtree(log_dir, ignore_errors=True)
    env = child_environment()
    limits = opts.limits
    if lab.timeout_s:
        limits = dataclasses.replace(limits, test_timeout_s=lab.timeout_s)

    wanted = selected_tests_filter(lab, opts.checks, opts.backend)

    def cmd_for(flt: str | None, attempt: int) -> list[str]:
        flt = flt or wanted
        return [str(binary)] + ([f"--gtest_filter={flt}"] if flt else [])

    suite = run_suite(cmd_for, env=env, cwd=binary.parent, log_dir=log_dir, limits=limits, repo=opts.repo,
                      label="tests", lab_dir=lab.dir)
    if suite.tampered:
        return _lab_failure(lab, opts.backend, "tampered",
                            f"forged results: {suite.tampered}; the lab scores 0",
                            ["The test program wrote records to the grader's result channel that the",
                             "harness did not sign. Only signed records count; printed output never does."])
    if (cheat := host_computation(suite)) is not None:
        return _lab_failure(lab, opts.backend, "host-computation",
                            f"{cheat}; the lab scores 0", [cheat])
    if suite.plan is None and suite.not_ours is not None:
        failed = _not_graded_lab(lab, opts.backend, suite.not_ours, [])
        failed.notes = list(suite.stopped) + list(suite.notes)
        return failed
    if suite.plan is None:
        failed = _lab_failure(lab, opts.backend, "crash", suite.error or "the test program produced no results",
                              suite.notes)
        failed.notes = list(suite.stopped)
        return failed
    results = []
    sites = call_sites.CallSites(binary, lab.dir, opts.repo) if opts.backend == "sim" else None
    for check in lab.checks:
        if opts.checks and check.id not in opts.checks:
            results.append(_not_selected(check, opts.checks))
            continue
        if (skipped := _backend_cannot_grade(check, opts.backend)) is not None:
            results.append(skipped)
            continue
        result = evaluate_check(check, suite, lab.target, opts.repo, sites)
        if (opts.backend == "cuda" and opts.sanitize and result.status == "pass"
                and check.category in SANITIZERS):
            result = _run_sanitizers(opts, lab, binary, result, log_dir, env)
        results.append(result)
    lab_result = LabResult(lab, results, error=suite.error,
                           notes=list(suite.stopped) + list(suite.notes)
                           + (list(staged.notes) if staged is not None else []) + screen_notes
                           + screen_sources(lab_src) + sanitizer_reach.lab_notes(opts.sanitizer)
                           + earlier_lab_notes(lab_src, earlier_labs_dir(opts.repo, opts.submission),
                                               opts.submission, opts.repo),
                           not_started=unstarted.first_todo(opts.repo, lab_src, lab.dir))
    if suite.error:
        for r in lab_result.checks:
            if r.status == "pass":
                r.status, r.kind, r.reason = "fail", "crash", _one_line(suite.error)
    if opts.pictures and opts.backend == "sim":
        def run_again(test: str, variable: str, request: str, number: int) -> list[dict]:
            again = run_suite(cmd_for, env={**env, variable: request}, cwd=binary.parent,
                              log_dir=log_dir, limits=limits, only=[test], repo=opts.repo, label=f"picture-{number}",
                              lab_dir=lab.dir)
            outcome = again.outcomes.get(test)
            return outcome.findings if outcome is not None else []
        pictures.record(lab_result, run_again, opts.repo)
    return lab_result
