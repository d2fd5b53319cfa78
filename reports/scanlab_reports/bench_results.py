"""The results file of reports/bench (reports/results-format.md), assembled from the JSON
lines the bench programs print: `plan`, `device`, `series`, `point` and `error` records."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

FORMAT = "scanlab-bench/1"


class RecordError(ValueError):
    """A bench program printed something that is not a record of the protocol."""


def parse_record(line: str) -> dict:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise RecordError(f"not a JSON record: {line[:200]!r} ({e})") from None
    if not isinstance(record, dict) or "record" not in record:
        raise RecordError(f"not a record (no 'record' key): {line[:200]!r}")
    return record


@dataclass
class Results:
    """Collects the records of every bench program of one run, in the order they come."""

    backend: str
    submission: str
    created: str
    machine: dict = field(default_factory=dict)
    method: dict = field(default_factory=dict)
    series: dict[str, dict] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)

    def add(self, program: str, record: dict) -> None:
        kind = record["record"]
        body = {k: v for k, v in record.items() if k != "record"}
        if kind == "plan":
            return
        if kind == "device":
            self.machine.update(body)
        elif kind == "series":
            if body["id"] in self.series:
                raise RecordError(f"{program}: series {body['id']} printed twice")
            self.series[body["id"]] = {**body, "correct": True, "points": []}
        elif kind == "point":
            series_id = body.pop("series")
            series = self.series.get(series_id)
            if series is None:
                raise RecordError(f"{program}: a point of series {series_id}, which was never announced")
            series["points"].append(body)
            if not body.get("correct", False):
                series["correct"] = False
        elif kind == "error":
            self.errors.append({"program": program, **body})
            if body.get("series") in self.series:
                self.series[body["series"]]["correct"] = False
        else:
            raise RecordError(f"{program}: unknown record '{kind}'")

    def program_failed(self, program: str, message: str) -> None:
        """A program that did not build, crashed or stopped early: its series (if any) keep
        what they measured, and the failure is in the file."""
        self.errors.append({"program": program, "message": message})

    def document(self) -> dict:
        return {
            "format": FORMAT,
            "backend": self.backend,
            "submission": self.submission,
            "created": self.created,
            "machine": self.machine,
            "method": self.method,
            "series": list(self.series.values()),
            "errors": self.errors,
        }


def method_of(backend: str, samples: tuple[int, int], warmup_runs: int, budget_ms: float) -> dict:
    """The method block: what the programs' sampling policy was (null fields on the
    simulator, which times nothing)."""
    if backend == "sim":
        return {"warmup_runs": None, "samples": None, "min_samples": None, "budget_ms_per_point": None,
                "l2_flush": False, "timer": None, "statistic": None, "noise": None, "cpu_timer": None}
    return {"warmup_runs": warmup_runs, "samples": samples[1], "min_samples": samples[0],
            "budget_ms_per_point": budget_ms, "l2_flush": True, "timer": "cuda-event",
            "statistic": "median", "noise": "relative interquartile range", "cpu_timer": "steady_clock"}
