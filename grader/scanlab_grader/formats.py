"""Report formats: text (terminal), json (scanlab's own), junit, gradescope,
prairielearn and classroom (GitHub Classroom)."""

from __future__ import annotations

import base64
import html
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from scanlab_findings import records as findings_of
from . import pictures
from .grading import NOT_GRADED, CheckResult, LabResult

FORMATS = ("text", "json", "junit", "gradescope", "prairielearn", "classroom")


@dataclass
class Report:
    backend: str
    submission: str
    labs: list[LabResult]
    seconds: float = 0.0
    sandbox: str = ""  # where student code ran (sandbox/), said once in every format

    @property
    def points(self) -> float:
        return sum(l.points for l in self.labs)

    @property
    def max_points(self) -> float:
        return sum(l.max_points for l in self.labs)

    @property
    def passed(self) -> bool:
        return all(l.passed for l in self.labs)

    def not_graded(self) -> list[LabResult]:
        """Labs with checks not graded for a reason that is not the student's: to grade again."""
        return [l for l in self.labs if l.not_graded is not None]

    def not_graded_line(self) -> str | None:
        labs = self.not_graded()
        if not labs:
            return None
        return ("NOT GRADED (not the student's doing; grade again): "
                + "; ".join(f"lab {l.lab.number}: {l.not_graded}" for l in labs))

    def failed_checks(self):
        for lab in self.labs:
            for c in lab.checks:
                if c.status == "fail":
                    yield lab, c


def _num(x: float):
    return int(x) if float(x).is_integer() else round(x, 3)


def _pts(a: float, b: float) -> str:
    return f"{_num(a)}/{_num(b)}"


def _check_text(lab: LabResult, c: CheckResult) -> str:
    """Everything a student needs about one check, as plain text: the platforms show each check
    on its own, so its findings go with it."""
    lines = [f"{c.check.title}", f"category: {c.check.category}; tests: {c.check.tests}"]
    lines.extend(f"measured: {m}" for m in c.measured)
    if c.status == "pass":
        lines.append(f"PASS ({len(c.tests)} tests)")
        lines.extend(findings_of.detail_lines(c.findings))  # a warning, or an error another check judges
    elif c.kind == NOT_GRADED:
        lines.append(f"NOT GRADED: {c.reason}")
        lines.extend(c.details)
    elif c.status == "skip":
        lines.append(f"SKIPPED: {c.reason}")
    else:
        lines.append(f"FAIL: {c.reason}")
        if lab.not_started is not None:
            lines.append(f"not started: begin at {lab.not_started.where}, {lab.not_started.text[0]}")
        lines.extend(findings_of.detail_lines(c.findings))
        lines.extend(c.details)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- text

def _lab_wide_reason(lab: LabResult) -> str | None:
    """The reason shared by every failed check when the lab failed as a whole."""
    failed = [c for c in lab.checks if c.status == "fail"]
    if lab.error and len(failed) > 1 and len({c.reason for c in failed}) == 1:
        return failed[0].reason
    return None


def _not_started_text(lab: LabResult) -> list[str]:
    """An untouched skeleton in a few lines: where to start and what each check needs."""
    todo = lab.not_started
    out = [f"Lab {lab.lab.number} is not started: {lab.lab.dir}/ holds the skeleton as handed out.",
           f"  Start at {todo.where}:"]
    out += [f"    {line}" for line in todo.text]
    out.append(f"  What each check needs (the lab's README.md says more):")
    out += [f"    {c.check.id}: {c.check.needs}" for c in lab.checks if c.status == "fail" and c.check.needs]
    return out


def _cost_by_findings(lab: LabResult, check: CheckResult) -> bool:
    """Whether an error the simulator found is among the reasons the check failed."""
    return any(f.error and any(c is check for c in checks) for f, checks in lab.findings())


def _skipped_barrier_between(f, skipped: list) -> object | None:
    """A barrier that only some threads of the block reach (a barrier-divergence error's place)
    and that lies between a race's two lines of one file: the barrier the program meant to order
    the two accesses with, inside a branch that the racing thread skipped."""
    if f.kind != "race" or len(f.places) < 2 or f.places[0].file != f.places[1].file:
        return None
    low, high = sorted((f.places[0].line, f.places[1].line))
    return next((p for p in skipped if p.file == f.places[0].file and low < p.line < high), None)


def _bytes_of(f) -> str:
    """The variable or buffer and the byte a finding is about: its location, which a read of
    bytes nothing wrote gives among its details."""
    if f.location:
        return f.location
    return next((d[len("location: "):] for d in f.details if d.startswith("location: ")), "")


def _findings_text(lab: LabResult) -> list[str]:
    """What the simulator found in the lab, each finding once, with the checks it cost."""
    found = lab.findings()
    if not found:
        return []
    out = [f"What the simulator found in lab {lab.lab.number} (each place once):"]
    reproduce = ""
    told_fixes: dict[str, str] = {}  # a fix already given, and the kind of the finding it was given for
    error_places: dict[str, str] = {}  # the first place of each error told, and its kind
    error_bytes: dict[str, str] = {}  # the bytes (variable or buffer and byte) of each error told, and its kind
    skipped = [p for f, _ in found if f.kind == "barrier-divergence" and f.error for p in f.places]
    for f, checks in found:
        lines = f.lines()
        # A race across a barrier that some threads skip: adding a barrier would not fix it,
        # moving that one out of its branch does.
        if (barrier := _skipped_barrier_between(f, skipped)) is not None:
            lines = [line for line in lines if not line.startswith("  fix: ")]
            lines.append(f"  the {barrier.role} at {barrier.where}, between these two lines, is reached by only some "
                         "threads of the block (the [barrier-divergence] below), and the racing thread skipped it: "
                         "move it out of the branch, to where every thread of the block reaches it")
        # Another consequence of a mistake already told: a finding with the same fix (a read
        # after a wait that ordered nothing is a race and an unwritten read at once), or a
        # warning at an error's own line (threads that exited before a barrier that only some
        # warps reach). What and where, then a pointer.
        first = f.places[0].where if f.places else None
        cause = told_fixes.get(f.fix) if f.fix else None
        if cause is None and not f.error and first is not None:
            cause = error_places.get(first)
        # A read of bytes nothing wrote, where an error about the same bytes was told: the other
        # roles of a pipeline read them too, after waits that the first mistake let through
        # early. Most likely one cause; the student fixes the first and grades again.
        same_bytes = None
        if cause is None and f.kind == "uninitialized-read" and _bytes_of(f):
            same_bytes = error_bytes.get(_bytes_of(f))
        if cause is not None:
            out.extend("  " + line for line in lines[:1 + min(1, len(f.places))])
            out.append(f"    the same cause as the [{cause}] above: its fix fixes this too")
        elif same_bytes is not None:
            out.extend("  " + line for line in lines[:1 + min(1, len(f.places))])
            out.append(f"    the same bytes as the [{same_bytes}] above, read before anything wrote them: "
                       "most likely the same cause; fix that one first, then grade again")
        else:
            out.extend("  " + line for line in lines)
            if f.fix:
                told_fixes[f.fix] = f.kind
            if f.error and first is not None:
                error_places.setdefault(first, f.kind)
            if f.error and _bytes_of(f):
                error_bytes.setdefault(_bytes_of(f), f.kind)
        failed = [c for c in checks if c.status == "fail"]
        seen = [c for c in checks if c.status != "fail"]
        if failed:
            out.append("    cost: " + ", ".join(f"{c.check.id} ({_num(c.check.points)} points)" for c in failed)
                       + (("; also seen by " + ", ".join(c.check.id for c in seen)) if seen else ""))
        else:
            out.append("    seen by " + ", ".join(c.check.id for c in seen) + ", which passed")
        reproduce = reproduce or f.reproduce
    if reproduce:
        out.append(f"  reproduce with: {reproduce}")
    return out


def render_text(report: Report, color: bool = False, verbose: bool = False) -> str:
    """The table, then for each lab: where to start (an untouched skeleton), or what the
    simulator found (each finding once, cause first, with the checks it cost) and what each
    failed check saw. GoogleTest's own text of the failures only with `verbose`."""
    def paint(text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if color else text

    status_word = {"pass": paint("PASS", "32;1"), "fail": paint("FAIL", "31;1"), "skip": paint("SKIP", "33")}
    out = [f"scanlab grade: backend {report.backend}, submission {report.submission}"]
    out += [f"sandbox: {report.sandbox}", ""] if report.sandbox else [""]
    id_width = max([len(c.check.id) for l in report.labs for c in l.checks] + [5])
    for lab in report.labs:
        head = f"Lab {lab.lab.number}  {lab.lab.title}  ({lab.lab.dir})"
        out.append(f"{paint(head, '1')}  {_pts(lab.points, lab.max_points)}"
                   + (f"  {paint('NOT GRADED', '35;1')} (grade it again)" if lab.not_graded is not None else ""))
        lab_wide = _lab_wide_reason(lab)
        if lab_wide:
            out.append(f"  {paint('!', '31;1')} {lab_wide}")
        for c in lab.checks:
            points = _pts(c.points, c.max_points) if c.status != "skip" else "-"
            word = paint("NOT GRADED", "35;1") if c.kind == NOT_GRADED else status_word[c.status]
            line = f"  {lab.lab.number}  {c.check.id:<{id_width}}  {points:>7}  {word}"
            if c.measured:
                line += "  " + "; ".join(c.measured)
            if c.status == "fail" and lab.not_started is not None and not verbose:
                line += "  not started"
            elif c.status != "pass" and c.reason:
                line += "  (see above)" if lab_wide and c.reason == lab_wide else f"  {c.reason}"
            out.append(line)
        for note in lab.notes:
            out.append(f"  note: {note}")
        out.append("")
    failed = list(report.failed_checks())
    n_checks = sum(1 for l in report.labs for c in l.checks if c.status != "skip")
    summary = f"Total: {_pts(report.points, report.max_points)} points; "
    summary += f"{n_checks - len(failed)} of {n_checks} checks passed"
    out.append(paint(summary, "1"))
    if (not_graded := report.not_graded_line()) is not None:
        out.append(paint(not_graded, "35;1"))
    for lab in report.labs:
        if lab.not_started is not None and not verbose and any(c.status == "fail" for c in lab.checks):
            out += [""] + _not_started_text(lab)
            continue
        found = _findings_text(lab)
        if found:
            out += [""] + found
        lab_failed = [c for c in lab.checks if c.status == "fail"]
        if not lab_failed:
            continue
        # A check that an error finding above cost is told there: its tests' own words (an
        # output never written, a launch that timed out) are that finding's consequences.
        explained = [c for c in lab_failed if _cost_by_findings(lab, c)] if not verbose else []
        lab_failed = [c for c in lab_failed if c not in explained]
        if explained:
            out += ["", f"The findings above are why {', '.join(c.check.id for c in explained)} failed "
                        f"(grade --verbose shows their tests' own words)."]
        if not lab_failed:
            continue
        out += ["", f"Details of the failed checks of lab {lab.lab.number}:"]
        shown = set()
        for c in lab_failed:
            out.append("")
            out.append(paint(f"[{lab.lab.number} {c.check.id}] {c.check.title}", "1"))
            details = c.details + (["GoogleTest's report:"] + c.assertions if verbose and c.assertions else [])
            key = (c.reason, tuple(details))
            if not details:
                out.append(f"  {c.reason}")
            elif key in shown:
                out.append("  (details as above)")
            else:
                shown.add(key)
                out.extend("  " + d for d in details)
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- json

def _finding_doc(f: findings_of.Finding) -> dict:
    return {"kind": f.kind, "error": f.error, "headline": f.headline, "count": f.count,
            "places": [{"role": p.role, "file": p.file, "line": p.line} for p in f.places],
            "called_from": [{"file": p.file, "line": p.line} for p in f.called_from],
            "location": f.location, "fix": f.fix, **({"picture": f.picture} if f.picture else {})}


def render_json(report: Report) -> str:
    doc = {
        "backend": report.backend,
        "submission": report.submission,
        "sandbox": report.sandbox,
        "score": _num(report.points),
        "max_score": _num(report.max_points),
        "passed": report.passed,
        "not_graded": [l.lab.number for l in report.not_graded()],
        "labs": [{
            "number": l.lab.number, "dir": l.lab.dir, "title": l.lab.title,
            "score": _num(l.points), "max_score": _num(l.max_points), "error": l.error, "notes": l.notes,
            "not_graded": l.not_graded,
            "not_started": ({"file": l.not_started.file, "line": l.not_started.line, "todo": l.not_started.text}
                            if l.not_started else None),
            "checks": [{
                "id": c.check.id, "title": c.check.title, "category": c.check.category,
                "status": c.status, "kind": c.kind, "reason": c.reason, "details": c.details,
                "points": _num(c.points), "max_points": _num(c.max_points), "tests": c.tests,
                "measured": c.measured, "findings": [_finding_doc(f) for f in c.findings],
                "assertions": c.assertions,
            } for c in l.checks],
        } for l in report.labs],
    }
    return json.dumps(doc, indent=2) + "\n"


# ----------------------------------------------------------------------------- JUnit XML
# Structure of the JUnit XML that Jenkins, GitLab and GitHub test reporters read
# (the Ant junit task's schema): <testsuites> holding one <testsuite> per lab,
# one <testcase> per check; a failed check carries <failure> (wrong result) or
# <error> (could not be judged: compile error, crash, hang, ...), a check not
# graded on this backend carries <skipped>.

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _xml_text(text: str) -> str:
    """Text that XML 1.0 can hold: terminal colour codes and other control characters dropped."""
    return _XML_INVALID.sub("", _ANSI.sub("", text))


_ERROR_KINDS = {"crash", "timeout", "memory", "exit", "compile", "build", "missing", "tampered", "manifest", "not-run",
                NOT_GRADED}


def render_junit(report: Report) -> str:
    root = ET.Element("testsuites", name="scanlab", tests="0", failures="0", errors="0", skipped="0",
                      time=f"{report.seconds:.3f}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for lab in report.labs:
        counts = {"tests": len(lab.checks), "failures": 0, "errors": 0, "skipped": 0}
        suite = ET.SubElement(root, "testsuite", name=_xml_text(lab.lab.dir), tests="0", failures="0", errors="0",
                              skipped="0", time=f"{sum(c.seconds for c in lab.checks):.3f}")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="backend", value=report.backend)
        if report.sandbox:
            ET.SubElement(props, "property", name="sandbox", value=report.sandbox)
        ET.SubElement(props, "property", name="score", value=str(_num(lab.points)))
        ET.SubElement(props, "property", name="max_score", value=str(_num(lab.max_points)))
        for c in lab.checks:
            case = ET.SubElement(suite, "testcase", classname=f"scanlab.lab{lab.lab.number}", name=c.check.id,
                                 time=f"{c.seconds:.3f}")
            if c.status == "skip":
                ET.SubElement(case, "skipped", message=_xml_text(c.reason))
                counts["skipped"] += 1
            elif c.status == "fail":
                tag = "error" if c.kind in _ERROR_KINDS else "failure"
                elem = ET.SubElement(case, tag, message=_xml_text(c.reason), type=c.kind or "failure")
                elem.text = _xml_text("\n".join(findings_of.detail_lines(c.findings) + c.details))
                counts["errors" if tag == "error" else "failures"] += 1
            out = ET.SubElement(case, "system-out")
            found = findings_of.detail_lines(c.findings) if c.status != "fail" else []  # the failure's text has them
            out.text = _xml_text("\n".join([c.check.title, f"points: {_pts(c.points, c.max_points)}",
                                             f"tests: {', '.join(c.tests)}"] + found))
        if lab.notes:  # the schema's place for what concerns the whole suite
            ET.SubElement(suite, "system-out").text = _xml_text("\n".join(f"note: {n}" for n in lab.notes))
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        root.set(k, str(v))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----------------------------------------------------------------------------- Gradescope
# results.json as documented at gradescope-autograders.readthedocs.io/en/latest/specs/:
# top-level score, output, tests[] with name, score, max_score, status
# ("passed"/"failed"), output.

def _gradescope_html(text: str, images: list[dict]) -> str:
    """A check's text and its pictures as Gradescope's HTML output: the text as it is, each
    picture an <img> of its SVG data URL (Gradescope shows images embedded so, not files)."""
    shown = "".join(f'<figure><img src="{i["url"]}" alt="{html.escape(i["label"])}">'
                    f"<figcaption>{html.escape(i['label'])}</figcaption></figure>" for i in images)
    return f"<pre>{html.escape(text)}</pre>{shown}"


def render_gradescope(report: Report) -> str:
    tests = []
    for lab in report.labs:
        # With --pictures, a failed check shows its pictures under its text.
        drawn = pictures.images(lab)
        for c in lab.checks:
            if c.status == "skip":
                continue
            test = {
                "name": f"Lab {lab.lab.number} · {c.check.id}: {c.check.title}",
                "number": f"{lab.lab.number}.{len(tests) + 1}",
                "score": _num(c.points),
                "max_score": _num(c.max_points),
                "status": "passed" if c.status == "pass" else "failed",
                "output": _check_text(lab, c),
                "tags": [f"lab{lab.lab.number}", c.check.category],
                # A hidden check (lab.toml: hidden = true) shows once the grades are published.
                "visibility": "after_published" if c.check.hidden else "visible",
            }
            if drawn.get(c.check.id):
                test["output"] = _gradescope_html(test["output"], drawn[c.check.id])
                test["output_format"] = "html"
            tests.append(test)
    doc = {
        "score": _num(report.points),
        "execution_time": round(report.seconds),
        "output": "\n".join([f"scanlab grader, backend {report.backend}: "
                              f"{_pts(report.points, report.max_points)} points"]
                             + ([f"sandbox: {report.sandbox}"] if report.sandbox else [])
                             + ([line] if (line := report.not_graded_line()) else [])
                             + [f"lab {l.lab.number}: {n}" for l in report.labs for n in l.notes]),
        "stdout_visibility": "visible",
        "tests": tests,
    }
    return json.dumps(doc, indent=2) + "\n"


# ----------------------------------------------------------------------------- PrairieLearn
# /grade/results/results.json of PrairieLearn's external grading (docs/externalGrading.md):
# gradable, score in [0, 1], message, output, tests[] with name, description,
# points, max_points, message, output. A compile error still counts as gradable:
# the attempt was made and scores 0 for that lab. The file must stay under 1 MB.

PL_LIMIT = 1_000_000


def render_prairielearn(report: Report) -> str:
    tests = []
    for lab in report.labs:
        # With --pictures, a failed check shows its pictures (PrairieLearn draws a test's images).
        drawn = pictures.images(lab)
        for c in lab.checks:
            if c.status == "skip":
                continue
            test = {
                "name": f"Lab {lab.lab.number} {c.check.id}",
                "description": c.check.title,
                "points": _num(c.points),
                "max_points": _num(c.max_points),
                "message": "; ".join(["passed" if c.status == "pass" else c.reason] + c.measured),
                "output": _check_text(lab, c),
            }
            if drawn.get(c.check.id):
                test["images"] = drawn[c.check.id]
            tests.append(test)
    score = report.points / report.max_points if report.max_points else 0.0
    # A submission that does not compile is not graded (PrairieLearn then does not count the
    # attempt), and the compiler's first errors are the message.
    compile_errors = [l for l in report.labs if any(c.kind == "compile" for c in l.checks)]
    # Nor is one whose grading was stopped by what is not the student's doing: grade it again.
    not_graded = report.not_graded()
    doc = {
        "gradable": not compile_errors and not not_graded,
        "score": round(score, 6),
        "message": f"{_pts(report.points, report.max_points)} points",
        "output": render_text(report),
        "tests": tests,
    }
    if compile_errors:
        doc["message"] = "; ".join(f"lab {l.lab.number}: {l.error}" for l in compile_errors)
        del doc["score"]
    if not_graded:
        doc["message"] = report.not_graded_line()
        doc.pop("score", None)
    text = json.dumps(doc, indent=2)
    if len(text.encode()) > PL_LIMIT:
        doc["output"] = "(omitted: too long)"
        for t in doc["tests"]:
            t["output"] = t["output"][:2000]
        text = json.dumps(doc, indent=2)
    if len(text.encode()) > PL_LIMIT:
        # The pictures are on the page that grade --pictures wrote; the results must fit.
        for t in doc["tests"]:
            t.pop("images", None)
        text = json.dumps(doc, indent=2)
    return text + "\n"


# ----------------------------------------------------------------------------- GitHub Classroom
# GitHub Classroom's current autograding reporter, the action
# `classroom-resources/autograding-grading-reporter@v1` (source:
# github.com/github-education-resources/autograding-grading-reporter), reads, for each runner
# id listed in its `runners` input, the environment variable <ID>_RESULTS holding
# base64-encoded JSON {version: 1, status: pass|fail|error, max_score,
# tests: [{name, status, score, message, test_code, filename, line_no, duration}]},
# the same payload its runner actions (autograding-command-grader, ...) emit as
# their `result` output. This format writes that base64 text; see grader/README.md
# for the workflow step.

def _first_lab_place(lab: LabResult, c: CheckResult) -> findings_of.Place | None:
    """The student's line a failed check names first: its first finding's place in the lab's files."""
    for f in c.findings:
        if f.error and (places := f.lab_places(lab.lab.dir)):
            return places[0]
    return None


def classroom_payload(report: Report) -> dict:
    tests = []
    for lab in report.labs:
        for c in lab.checks:
            if c.status == "skip" and c.kind != NOT_GRADED:
                continue
            status = "pass" if c.status == "pass" else ("error" if c.kind in _ERROR_KINDS else "fail")
            place = _first_lab_place(lab, c) if c.status == "fail" else None
            tests.append({
                "name": f"Lab {lab.lab.number} {c.check.id}",
                "status": status,
                "score": _num(c.points),
                # The reporter shows a test's message only: the lab's notes go with each of its tests.
                "message": "\n".join([f"note: {n}" for n in lab.notes] + [f"measured: {m}" for m in c.measured] +
                                      ([] if c.status == "pass" else
                                       [c.reason] + findings_of.detail_lines(c.findings) + c.details)),
                "test_code": c.check.tests,
                "filename": place.file if place else "",
                "line_no": place.line if place else 0,
                "duration": int(c.seconds * 1000),
            })
    statuses = {t["status"] for t in tests}
    overall = "error" if "error" in statuses else ("fail" if "fail" in statuses else "pass")
    payload = {"version": 1, "status": overall, "max_score": _num(report.max_points), "tests": tests}
    if report.sandbox:  # the reporter reads the fields above and passes no others on
        payload["sandbox"] = report.sandbox
    return payload


def render_classroom(report: Report) -> str:
    payload = json.dumps(classroom_payload(report), separators=(",", ":")).encode()
    return base64.b64encode(payload).decode("ascii") + "\n"


def render(report: Report, fmt: str, color: bool = False, verbose: bool = False) -> str:
    if fmt == "text":
        return render_text(report, color, verbose)
    return {"json": render_json, "junit": render_junit, "gradescope": render_gradescope,
            "prairielearn": render_prairielearn, "classroom": render_classroom}[fmt](report)
