"""Whether compute-sanitizer can run, and attach to a test program, on this machine.

Some GPU machines run programs in a sandbox (gVisor, say) in which compute-sanitizer starts but
cannot attach: it says the device is not supported, and the program's first CUDA call then fails
(error 999). Elsewhere it is not installed at all. Neither is the student's doing, so a check that
needs it is not charged: a race-freedom check, which only the sanitizer's racecheck and synccheck
can make on a GPU, is skipped with the reason and the way to have it made (the simulator's own
race detection, --backend sim); a correctness check keeps the mark of its plain run, and says
that memcheck and initcheck did not run. What was found once holds for the rest of the run: the
sanitizer is not started again for every check."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

# What compute-sanitizer writes into its log (lines starting with "=========") when it could not
# attach to the program or use its device; a student's program cannot write there.
_CANNOT_ATTACH = (
    "device not supported",
    "internal sanitizer error",
    "sanitizer failed to initialize",
    "unable to attach",
    "could not attach",
    "failed to attach",
)

NOT_MADE = "sanitizer-unavailable"  # the kind of a check skipped for it
_found: dict[str, str] = {}  # sanitizer command -> why it cannot be used here


def unusable(command: str) -> str | None:
    """Why `command` cannot be used on this machine, if that is known already or it is not installed."""
    if command in _found:
        return _found[command]
    if shutil.which(command) is None:
        _found[command] = f"is not installed here ('{command}' is not on PATH)"
        return _found[command]
    return None


def note_logs(command: str, logs: list[Path]) -> str | None:
    """Reads the sanitizer's logs of one check's runs: why it could not attach, if one says so
    (remembered for the rest of the run), or None."""
    for log in logs:
        try:
            text = log.read_text(errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            said = line.strip("= \t").strip()
            if line.startswith("=========") and any(p in said.lower() for p in _CANNOT_ATTACH):
                _found[command] = f"could not attach to the test program ('{said[:60]}')"
                return _found[command]
    return None


def not_made(result, why: str, lab_number: str):
    """A check's result (grading.CheckResult) when the sanitizer could not be used: a race-freedom
    check is skipped, not charged; any other keeps the mark of its plain run."""
    if result.check.category == "race-freedom":
        return dataclasses.replace(result, status="skip", kind=NOT_MADE, details=[], findings=[],
                                   reason=(f"not graded here: compute-sanitizer, which finds races on a GPU, {why}; "
                                           f"the simulator finds them: grader/grade --backend sim {lab_number}"))
    return result


def lab_notes(command: str) -> list[str]:
    """The lab's note when the sanitizer could not be used during its grading."""
    if command not in _found:
        return []
    return [f"compute-sanitizer {_found[command]}: race-freedom checks were not graded on this machine (the "
            f"simulator makes them: --backend sim), correctness checks were graded without memcheck and initcheck"]
