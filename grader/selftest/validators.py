"""Structural validators for the report formats, written from each platform's
documentation (no network, no third-party schema packages). Each returns a
list of problems; an empty list means the document is well formed."""

from __future__ import annotations

import base64
import json
import xml.etree.ElementTree as ET

NUMBER = (int, float)


def _is_num(x) -> bool:
    return isinstance(x, NUMBER) and not isinstance(x, bool)


def junit(text: str) -> list[str]:
    """JUnit XML as in the Ant junit schema (JUnit.xsd) that CI test reporters read:
    <testsuites> of <testsuite name tests failures errors [skipped] [time]> of
    <testcase name classname [time]> with at most one of <failure>, <error>,
    <skipped>; failure/error carry message and type attributes."""
    problems = []
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        return [f"not XML: {e}"]
    if root.tag != "testsuites":
        return [f"root element is <{root.tag}>, not <testsuites>"]
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root:
        if suite.tag != "testsuite":
            problems.append(f"<testsuites> holds <{suite.tag}>")
            continue
        for attr in ("name", "tests", "failures", "errors"):
            if attr not in suite.attrib:
                problems.append(f"testsuite without '{attr}'")
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for child in suite:
            if child.tag in ("properties", "system-out", "system-err"):
                if child.tag == "properties":
                    for prop in child:
                        if prop.tag != "property" or not {"name", "value"} <= prop.attrib.keys():
                            problems.append("malformed <property>")
                continue
            if child.tag != "testcase":
                problems.append(f"<testsuite> holds <{child.tag}>")
                continue
            counts["tests"] += 1
            for attr in ("name", "classname"):
                if not child.get(attr):
                    problems.append(f"testcase without '{attr}'")
            if "time" in child.attrib:
                try:
                    float(child.get("time"))
                except ValueError:
                    problems.append("testcase time is not a number")
            outcomes = [c for c in child if c.tag in ("failure", "error", "skipped")]
            if len(outcomes) > 1:
                problems.append(f"testcase {child.get('name')} has {len(outcomes)} outcomes")
            for c in outcomes:
                key = {"failure": "failures", "error": "errors", "skipped": "skipped"}[c.tag]
                counts[key] += 1
                if c.tag in ("failure", "error") and ("message" not in c.attrib or "type" not in c.attrib):
                    problems.append(f"<{c.tag}> without message/type")
            for c in child:
                if c.tag not in ("failure", "error", "skipped", "system-out", "system-err"):
                    problems.append(f"testcase holds <{c.tag}>")
        for key, value in counts.items():
            if key in suite.attrib and int(suite.get(key)) != value:
                problems.append(f"testsuite {suite.get('name')}: {key}={suite.get(key)} but counted {value}")
            total[key] += value
    for key, value in total.items():
        if key in root.attrib and int(root.get(key)) != value:
            problems.append(f"testsuites: {key}={root.get(key)} but counted {value}")
    return problems


_GS_TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
           "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
_GS_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format",
            "tags", "visibility", "extra_data"}
_GS_VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def gradescope(text: str) -> list[str]:
    """results.json per gradescope-autograders.readthedocs.io/en/latest/specs/."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        return [f"not JSON: {e}"]
    if not isinstance(doc, dict):
        return ["top level is not an object"]
    problems = [f"unknown top-level key '{k}'" for k in doc if k not in _GS_TOP]
    tests = doc.get("tests", [])
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    if "score" not in doc and not all("score" in t for t in tests):
        problems.append("score is required at top level unless every test has one")
    if "score" in doc and not _is_num(doc["score"]):
        problems.append("score is not a number")
    for key in ("visibility", "stdout_visibility"):
        if key in doc and doc[key] not in _GS_VISIBILITY:
            problems.append(f"{key} '{doc[key]}' is not a visibility")
    for t in tests:
        if not isinstance(t, dict):
            problems.append("a test is not an object")
            continue
        problems += [f"test: unknown key '{k}'" for k in t if k not in _GS_TEST]
        for key in ("score", "max_score"):
            if key in t and not _is_num(t[key]):
                problems.append(f"test {t.get('name')}: {key} is not a number")
        if "status" in t and t["status"] not in ("passed", "failed"):
            problems.append(f"test {t.get('name')}: status '{t['status']}'")
        if "output_format" in t and t["output_format"] not in ("text", "html", "simple_format", "md", "ansi"):
            problems.append(f"test {t.get('name')}: output_format '{t['output_format']}'")
        for key in ("name", "output", "number"):
            if key in t and not isinstance(t[key], str):
                problems.append(f"test: {key} is not a string")
        if "tags" in t and not (isinstance(t["tags"], list) and all(isinstance(x, str) for x in t["tags"])):
            problems.append("test: tags is not a list of strings")
    if "score" in doc and tests and all("score" in t for t in tests):
        if abs(sum(t["score"] for t in tests) - doc["score"]) > 1e-6:
            problems.append("top-level score differs from the sum of the tests' scores")
    return problems


def prairielearn(text: str) -> list[str]:
    """/grade/results/results.json per PrairieLearn's docs/externalGrading.md."""
    if len(text.encode()) > 1_000_000:
        return ["larger than PrairieLearn's 1 MB limit"]
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        return [f"not JSON: {e}"]
    if not isinstance(doc, dict):
        return ["top level is not an object"]
    problems = []
    gradable = doc.get("gradable", True)
    if not isinstance(gradable, bool):
        problems.append("gradable is not a boolean")
    if gradable:
        if "score" not in doc:
            problems.append("a gradable result needs a score")
        elif not _is_num(doc["score"]) or not 0.0 <= doc["score"] <= 1.0:
            problems.append("score must be a number in [0, 1]")
    for key in ("message", "output"):
        if key in doc and not isinstance(doc[key], str):
            problems.append(f"{key} is not a string")
    tests = doc.get("tests", [])
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    for t in tests:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            problems.append("a test without a name")
            continue
        for key in ("points", "max_points"):
            if key in t and not _is_num(t[key]):
                problems.append(f"test {t['name']}: {key} is not a number")
        if _is_num(t.get("points")) and _is_num(t.get("max_points")) and t["points"] > t["max_points"]:
            problems.append(f"test {t['name']}: points above max_points")
        for key in ("description", "message", "output"):
            if key in t and not isinstance(t[key], str):
                problems.append(f"test {t['name']}: {key} is not a string")
        images = t.get("images", [])
        if not isinstance(images, list) or not all(
                isinstance(i, dict) and isinstance(i.get("label"), str) and isinstance(i.get("url"), str)
                for i in images):
            problems.append(f"test {t['name']}: images is not a list of {{label, url}}")
    return problems


def classroom(text: str) -> list[str]:
    """The base64 JSON that GitHub Classroom's autograding-grading-reporter decodes
    (version, status, max_score, tests[] with name, status, score, message)."""
    try:
        doc = json.loads(base64.b64decode(text.strip(), validate=True))
    except (ValueError, json.JSONDecodeError) as e:
        return [f"not base64-encoded JSON: {e}"]
    problems = []
    if doc.get("version") != 1:
        problems.append("version is not 1")
    if doc.get("status") not in ("pass", "fail", "error"):
        problems.append(f"status '{doc.get('status')}'")
    if not _is_num(doc.get("max_score")):
        problems.append("max_score is not a number")
    tests = doc.get("tests")
    if not isinstance(tests, list):
        return problems + ["tests is not a list"]
    for t in tests:
        if not isinstance(t.get("name"), str):
            problems.append("a test without a name")
        if t.get("status") not in ("pass", "fail", "error"):
            problems.append(f"test status '{t.get('status')}'")
        if not _is_num(t.get("score")):
            problems.append("test score is not a number")
        if "message" in t and not isinstance(t["message"], str):
            problems.append("test message is not a string")
    if tests and _is_num(doc.get("max_score")) and sum(t.get("score", 0) for t in tests) > doc["max_score"]:
        problems.append("test scores add up to more than max_score")
    return problems
