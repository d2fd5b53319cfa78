"""The grader proves it can fail: every known-bad kernel ([[mutant]] in a lab's
grader/labs/NN-name/lab.toml) must be rejected by the checks it lists.

For each mutant the reference solution is copied into a scratch submission
directory, the mutant's edit is made on the line of the solution tagged
`//@ <at>` (see grader/scanlab_grader/solution_source.py), the lab is graded
with grader/grade, and every check in `rejected_by` must have failed. The
scratch directory is the same for all mutants, so grade's build tree is reused
and only the edited lab is rebuilt.

A mutant with `finding` is also a common mistake whose feedback is checked: a check of
`rejected_by` must list a report of the simulator of that kind naming the line tagged `names`
(default: the mutated line) of the student's file, as `NN-name/file:line`, in the JSON report
and under that check in the text report. A mutant with `feedback` is a mistake no report of the
simulator names a line for (a wrong value, a count, host code): the failure message of a check
of `rejected_by` must contain that text (the first wrong index, an element never written, a
write past the end, a modified input, a count beside the one needed), in the JSON report and
under that check in the text report.

A mutant rejected by performance checks only (a scan slowed down, as right as the reference)
runs on a GPU only, and there it must fail those checks and no other.

Finally, with two or more labs selected, a syntax error is put into the first
lab: that lab must score 0 with the error's file:line and the next lab must
still be built and graded.

Usage: run_mutants.py --build-root DIR [--jobs N] [--backend sim|cuda] [--only NAME,...] [--no-sanitizer] [LAB...]
(--only: only the mutants of those names, without the compile-error check)
Exit status 77 (ctest: skipped) when no lab has a mutant."""

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

from scanlab_grader import manifest, solution_source  # noqa: E402

SKIP = 77
# A mutant that hangs (its expected feedback is the per-test time limit's message) shows that
# under any limit: it is graded with a short one, so that it costs seconds instead of two full
# limits of a spinning kernel (after two hung tests the grader runs no more of the lab).
HANG_FEEDBACK = "timed out after"
HANG_TIMEOUT_S = "5"


def findings_of_check(text: str, lab_number: str, check_id: str) -> str:
    """The findings the text report lists once for a lab ("What the simulator found in lab NN")
    whose line of checks (cost: ..., seen by ...) names `check_id`."""
    start = text.find(f"\nWhat the simulator found in lab {lab_number} ")
    if start < 0:
        return ""
    end = text.find("\n\n", start + 1)
    blocks: list[list[str]] = []
    for line in text[start:end if end >= 0 else len(text)].splitlines()[2:]:
        if line.startswith("  [") or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    names = re.compile(rf"(?<![\w-]){re.escape(check_id)}(?![\w-])")
    return "\n".join("\n".join(b) for b in blocks
                     if any(l.lstrip().startswith(("cost:", "seen by")) and names.search(l) for l in b))


def text_of_check(text: str, lab_number: str, check_id: str) -> str:
    """What the text report says of one failed check: its line of the table, its own section
    ("[02 race-freedom-inplace] ...", which a check that a finding cost has not: the finding is
    its reason) and the lab's findings that it cost."""
    row = re.search(rf"^  {lab_number}  {re.escape(check_id)} .*$", text, re.MULTILINE)
    head = f"[{lab_number} {check_id}] "
    start = text.find("\n" + head)
    end = text.find("\n[", start + 1) if start >= 0 else -1
    section = text[start:end if end >= 0 else len(text)] if start >= 0 else ""
    return (row.group(0) if row else "") + "\n" + section + "\n" + findings_of_check(text, lab_number, check_id)


def feedback_problems(lab, m, checks: dict, text: str, line: int) -> list[str]:
    """Where the feedback of a common mistake falls short: no check of rejected_by shows a
    finding of its kind at the student's line, in the JSON and in the text report."""
    where = f"{lab.dir}/{m.file}:{line}"
    named = []
    for cid in m.rejected_by:
        for f in checks[cid].get("findings", []):
            places = [f"{p['file']}:{p['line']}" for p in f["places"]] + [
                f"{p['file']}:{p['line']}" for p in f.get("called_from", [])]
            if f["kind"] == m.finding and where in places:
                named.append(cid)
    if not named:
        shown = {cid: [(f["kind"], [f"{p['file']}:{p['line']}" for p in f["places"]]) for f in checks[cid].get(
            "findings", [])] for cid in m.rejected_by}
        return [f"no check of {', '.join(m.rejected_by)} shows a {m.finding} report at {where}; they show {shown}"]
    under = text_of_check(text, lab.number, named[0])
    if where not in under or f"[{m.finding}]" not in under:
        return [f"the text report does not show the {m.finding} report at {where} under {named[0]}"]
    return []


def message_problems(lab, m, checks: dict, text: str) -> list[str]:
    """Where the feedback of a common mistake of host code falls short: no check of rejected_by
    says `m.feedback` in its failure message, in the JSON and in the text report."""
    def message(check: dict) -> str:
        details = check.get("details") or []
        return "\n".join([check["reason"]] + (details if isinstance(details, list) else [str(details)]))

    saying = [cid for cid in m.rejected_by if m.feedback in message(checks[cid])]
    if not saying:
        said = {cid: checks[cid]["reason"] for cid in m.rejected_by}
        return [f"no check of {', '.join(m.rejected_by)} says '{m.feedback}'; they say {said}"]
    if m.feedback not in text_of_check(text, lab.number, saying[0]):
        return [f"the text report does not say '{m.feedback}' under {saying[0]}"]
    return []


def check_compile_error_isolated(scratch: Path, labs: dict, build_root: Path, args) -> list[str]:
    """A syntax error in one lab scores that lab 0 with the error's file:line, and
    the next lab is still built and graded."""
    present = [l for l in labs.values() if (scratch / l.dir).is_dir()]
    if len(present) < 2:
        return []
    broken, other = present[0], present[1]
    sources = sorted(p for p in (scratch / broken.dir).iterdir() if p.suffix == ".cu")
    if not sources:
        return [f"compile-error check: no .cu file in {broken.dir}"]
    source = sources[0]
    original = source.read_text()
    line = original.count("\n") + 1
    source.write_text(original + "this is not C++;\n")
    cmd = [str(HERE.parent / "grade"), "--backend", args.backend, "--submission", str(scratch),
           "--format", "json", "--build-root", str(build_root), "--jobs", args.jobs, broken.number, other.number]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    source.write_text(original)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return [f"compile-error check: grade printed no JSON (exit status {proc.returncode}):\n{proc.stderr[-2000:]}"]
    problems = []
    first, second = doc["labs"]
    where = f"{broken.dir}/{source.name}:{line}"
    for c in first["checks"]:
        if c["status"] != "skip" and (c["kind"] != "compile" or where not in c["reason"]):
            problems.append(f"compile-error check: lab {broken.number} {c['id']}: expected a compile error at "
                            f"{where}, got {c['status']} {c['kind']}: {c['reason']}")
    if any(c["kind"] in ("compile", "build") for c in second["checks"]):
        problems.append(f"compile-error check: lab {other.number} was not built after lab {broken.number} failed")
    verdict = "isolated" if not problems else "FAILED"
    print(f"{'compile error in lab ' + broken.number:<40} {verdict}")
    if not problems:
        print(f"    {first['checks'][0]['reason']}")
    return problems


# Categories of checks that only the simulator grades (their checks are skipped on a GPU), and
# those that only a GPU grades (skipped on the simulator).
SIMULATOR_ONLY_CATEGORIES = ("efficiency",)
GPU_ONLY_CATEGORIES = ("performance",)


def never_started(doc: dict) -> str:
    """The reason and last words of a check whose test program ended before its first test, or ""."""
    for c in doc["labs"][0]["checks"]:
        if "before the first test" in c["reason"]:
            return "; ".join([c["reason"]] + [d.strip() for d in c.get("details", [])][:6])
    return ""


def simulator_blind_reason(lab, mutant) -> str | None:
    """Why the simulator cannot reject a mutant: every check meant to reject it is graded on a
    GPU only (a scan slowed down is as right as the reference, and the simulator times nothing)."""
    if only_slower(lab, mutant):
        return f"{', '.join(mutant.rejected_by)} measured on a GPU only"
    return None


def only_slower(lab, mutant) -> bool:
    """Whether the mutant only slows the code down: performance checks alone reject it."""
    categories = {c.id: c.category for c in lab.checks}
    return all(categories[cid] in GPU_ONLY_CATEGORIES for cid in mutant.rejected_by)


def collateral_failures(lab, mutant, checks: dict) -> list[str]:
    """A mutant that only slows the code down (rejected by performance checks alone) must cost
    those points and nothing else: every other graded check passes."""
    if not only_slower(lab, mutant):
        return []
    return [cid for cid, c in checks.items() if cid not in mutant.rejected_by and c["status"] == "fail"]


def gpu_blind_reason(lab, mutant) -> str | None:
    """Why the GPU backend cannot reject a mutant, or None when it must: the manifest says so
    (`gpu_blind`), or every check meant to reject it is graded by the simulator only."""
    if mutant.gpu_blind:
        return mutant.gpu_blind
    categories = {c.id: c.category for c in lab.checks}
    if all(categories[cid] in SIMULATOR_ONLY_CATEGORIES for cid in mutant.rejected_by):
        return (f"{', '.join(mutant.rejected_by)} counted by the simulator only "
                "(on a GPU, Nsight Compute measures it; see the lab's README)")
    return None


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("labs", nargs="*", help="only these labs (numbers)")
    p.add_argument("--build-root", required=True)
    p.add_argument("--jobs", default="2")
    p.add_argument("--backend", default="sim")
    p.add_argument("--timeout", default="30", help="per-test time limit passed to grade (seconds)")
    p.add_argument("--only", default="", help="only the mutants of these names (comma-separated)")
    p.add_argument("--no-sanitizer", action="store_true", help="cuda: grade without the compute-sanitizer reruns")
    args = p.parse_args()

    labs = manifest.discover(REPO / "grader" / "labs")
    if args.labs:
        wanted = {n.zfill(2) for n in args.labs}
        labs = {number: lab for number, lab in labs.items() if number in wanted}
    if not any(lab.mutants for lab in labs.values()):
        print("skipped: no lab has a [[mutant]]")
        return SKIP

    build_root = Path(args.build_root).resolve()
    scratch = build_root / "mutant-submission"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(REPO / "solutions", scratch, symlinks=True)

    failures: list[str] = []
    survived = 0
    total = 0
    mistakes = 0  # mutants whose feedback was checked (`finding`)
    for lab in labs.values():
        for m in lab.mutants:
            label = f"{lab.number}/{m.name}"
            if args.only and m.name not in args.only.split(","):
                continue
            if args.backend == "cuda":
                blind = gpu_blind_reason(lab, m)
                if blind:
                    print(f"{label:<40} {'not run':<9} on a GPU: {blind}")
                    continue
            elif (blind := simulator_blind_reason(lab, m)) is not None:
                print(f"{label:<40} {'not run':<9} on the simulator: {blind}")
                continue
            total += 1
            original_path = REPO / "solutions" / lab.dir / m.file
            target = scratch / lab.dir / m.file
            if not original_path.is_file():
                failures.append(f"{label}: solutions/{lab.dir}/{m.file} does not exist")
                continue
            try:
                source = solution_source.parse(original_path)
                target.write_text(source.edited(m.at, m.find, m.replace))
                named_line = (source.line_after_edit(m.names or m.at, m.at, m.find, m.replace)
                              if m.finding is not None else 0)
            except solution_source.MarkerError as e:
                failures.append(f"{label}: {e}")
                continue
            started = time.monotonic()
            report_path = build_root / "mutant-report.json"
            report_path.unlink(missing_ok=True)
            cmd = [str(HERE.parent / "grade"), "--backend", args.backend, "--submission",
                   str(scratch), "--format", "json", "--output", str(report_path), "--color", "never",
                   "--build-root", str(build_root), "--jobs", args.jobs, "--timeout",
                   HANG_TIMEOUT_S if (m.feedback or "").startswith(HANG_FEEDBACK) else args.timeout, lab.number]
            if args.no_sanitizer:
                cmd.append("--no-sanitizer")
            if m.compile_error is None and not only_slower(lab, m):
                # Only the checks meant to reject it run (a mutant that only slows the code down
                # runs them all: it must fail no other).
                for cid in m.rejected_by:
                    cmd += ["--check", cid]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                doc = json.loads(report_path.read_text())
            except (OSError, json.JSONDecodeError):
                doc = None
            if doc is not None and (unstarted := never_started(doc)):
                # A test program that ended before its first test began did not meet the mutant
                # at all (seen once on a loaded machine): graded once more, with what it said.
                print(f"{label:<40} graded again: {unstarted}")
                report_path.unlink(missing_ok=True)
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                try:
                    doc = json.loads(report_path.read_text())
                except (OSError, json.JSONDecodeError):
                    doc = None
            target.write_text(source.text)  # a fresh mtime: the next build sees the change back
            seconds = time.monotonic() - started
            if doc is None:
                failures.append(f"{label}: grade printed no JSON (exit status {proc.returncode}):\n"
                                + proc.stderr[-2000:])
                continue
            checks = {c["id"]: c for c in doc["labs"][0]["checks"]}
            compile_failed = [c for c in checks.values() if c["kind"] in ("compile", "build")]
            if m.compile_error is not None:
                # It must not build, and the message must name the student's file and the text.
                # The expected text is the simulator's message. nvcc words its own, and some
                # (a removed intrinsic: a deprecation warning, then an unresolved function when
                # the device code is linked) name no line: on a GPU the build must fail.
                reasons = [c["reason"] for c in checks.values() if c["status"] != "skip"]
                named = bool(compile_failed) and (args.backend != "sim" or all(
                    f"{m.file}:" in r and m.compile_error in r for r in reasons))
                print(f"{label:<40} {'rejected' if named else 'SURVIVED':<9} {seconds:6.1f} s")
                if named:
                    print(f"    compile error: {compile_failed[0]['reason']}")
                else:
                    survived += 1
                    failures.append(f"{label}: expected a compile error at {m.file} containing "
                                    f"'{m.compile_error}', got: {reasons[0] if reasons else 'no checks'}")
                sys.stdout.flush()
                continue
            if compile_failed:
                failures.append(f"{label}: the mutant does not build, so it proves nothing: "
                                f"{compile_failed[0]['reason']}")
                continue
            escaped = [cid for cid in m.rejected_by if checks[cid]["status"] != "fail"]
            rejected = {cid: checks[cid]["reason"] for cid in m.rejected_by if cid not in escaped}
            verdict = "rejected" if not escaped else "SURVIVED"
            print(f"{label:<40} {verdict:<9} {seconds:6.1f} s")
            for cid, reason in rejected.items():
                print(f"    {cid}: {reason}")
                for f in checks[cid].get("findings", [])[:4]:
                    places = [f"{p['file']}:{p['line']}" for p in f["places"] + f.get("called_from", [])]
                    print(f"      [{f['kind']}] {', '.join(places)}")
            if escaped:
                survived += 1
                failures.append(f"{label}: not rejected by {', '.join(escaped)} (these checks passed)")
            elif m.finding is not None and args.backend == "sim":
                unnamed = feedback_problems(lab, m, checks, proc.stdout, named_line)
                print(f"    feedback: {m.finding} at {lab.dir}/{m.file}:{named_line} "
                      f"{'named' if not unnamed else 'NOT NAMED'}")
                failures += [f"{label}: {p}" for p in unnamed]
                mistakes += 1
            elif m.feedback is not None:
                unsaid = message_problems(lab, m, checks, proc.stdout)
                print(f"    feedback: '{m.feedback}' {'said' if not unsaid else 'NOT SAID'}")
                failures += [f"{label}: {p}" for p in unsaid]
                mistakes += 1
            if collateral := collateral_failures(lab, m, checks):
                failures.append(f"{label}: only slower, yet it also failed {', '.join(collateral)}: "
                                + "; ".join(checks[cid]["reason"] for cid in collateral))
            sys.stdout.flush()

    if (not args.labs or len(args.labs) > 1) and not args.only:
        failures += check_compile_error_isolated(scratch, labs, build_root, args)

    print(f"\n{total} mutants, {survived} survived; the feedback of {mistakes} checked")
    if failures:
        print("\nFAIL:\n" + "\n".join(failures))
        return 1
    if total == 0:
        print("skipped: no mutants selected")
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
