"""How a failed build of a lab's test program is told apart: stopped by a build limit while
compiling the submission's files (the student's compile error, in words, graded once), or
its compiler killed by a signal from outside (not the student's doing: built once more)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from scanlab_build import BuildResult, BuildTree, first_errors

from .runner import signal_name
from .sandbox import build_limits

# How a build tool or a compiler's driver says that a compiler died of a signal: gcc's driver
# ("c++: fatal error: Killed signal terminated program cc1plus", "internal compiler error:
# Segmentation fault (program cc1plus)"), the shell that Ninja runs a step in (a line of its
# own: "Killed"), Make ("make[2]: *** [x.o] Killed", or "Error 137" where a shell ran it).
_SIGNAL_WORDS = {"Killed": 9, "Segmentation fault": 11, "Terminated": 15, "Bus error": 7, "Aborted": 6,
                 "Hangup": 1, "Interrupt": 2, "Illegal instruction": 4}
_WORDS = "|".join(re.escape(w) for w in _SIGNAL_WORDS)
_DRIVER_SIGNAL = re.compile(rf"(?:fatal error|internal compiler error): (?P<words>{_WORDS}) signal terminated "
                            rf"program (?P<program>\S+)|internal compiler error: (?P<words2>{_WORDS}) "
                            rf"\(program (?P<program2>[^)\s]+)\)")
_SHELL_SIGNAL = re.compile(rf"^(?:.*: )?(?P<words>{_WORDS})(?: \(core dumped\))?\s*$")
_MAKE_SIGNAL = re.compile(rf"\*\*\* \[[^\]]*\] (?:(?P<words>{_WORDS})|Error (?P<status>1[3-5][0-9]))")


def compiler_killed(output: str) -> str | None:
    """Why a build failed when a compiler died of a signal rather than of an error in the code it
    compiled, in words ("the compiler (cc1plus) was killed by signal 9 (SIGKILL)"), or None. The
    signal came from outside (a machine out of memory, an operator): not the student's doing."""
    def said(words: str, program: str | None) -> str:
        number = _SIGNAL_WORDS[words]
        who = f"the compiler ({os.path.basename(program)})" if program else "the compiler"
        return f"{who} was killed by signal {number} ({signal_name(number)})"

    lines = output.splitlines()
    for line in lines:
        if m := _DRIVER_SIGNAL.search(line):
            return said(m.group("words") or m.group("words2"), m.group("program") or m.group("program2"))
    for i, line in enumerate(lines):
        if m := _MAKE_SIGNAL.search(line):
            if m.group("words"):
                return said(m.group("words"), None)
            number = int(m.group("status")) - 128
            if number in _SIGNAL_WORDS.values():
                return f"the compiler was killed by signal {number} ({signal_name(number)})"
        # Ninja: "FAILED: x.o", the command, then what it printed; the shell's line alone.
        if _SHELL_SIGNAL.match(line) and any(l.startswith("FAILED: ") for l in lines[max(0, i - 4):i]):
            return said(_SHELL_SIGNAL.match(line).group("words"), None)
    return None


def build_with_retry(tree: BuildTree, target: str) -> tuple[BuildResult, list[str], str | None]:
    """Builds `target`; a compiler killed by a signal from outside is not the student's doing,
    so the build runs once more. Returns the build, notes for the student, and why the lab
    cannot be graded (the compiler killed twice), or None."""
    built = tree.build(target)
    # A compiler stopped by the build limits is the student's: it ran the submission's code.
    if built.ok or build_limits.limit_hit(built.output) is not None or (why := compiler_killed(built.output)) is None:
        return built, [], None
    again = tree.build(target)
    if again.ok:
        return again, [f"not your code: {why} while this lab was built; it was built again, and graded "
                       f"as that build came out"], None
    if (why_again := compiler_killed(again.output)) is not None:
        if _crashed(why) and _crashed(why_again):
            # The same crash twice on the same files: the compiler's own fault, but one that this
            # lab's code sets off (a macro that expands a billion times), as a test program's second
            # SIGSEGV is charged to the student. Only a kill from outside (SIGKILL, SIGTERM) twice
            # leaves the lab not graded.
            return again, [f"{why}, and again when it was built once more: a compiler that crashes on the "
                           f"same files twice crashes on something in them; simplify what the first error "
                           f"names"], None
        return again, [], f"not your code: {why}, and again when it was built once more ({why_again})"
    return again, [f"not your code: {why} while this lab was built; it was built again"], None


_FROM_OUTSIDE = (1, 2, 9, 15)  # hang-up, interrupt, SIGKILL (the out-of-memory killer), SIGTERM


def _crashed(why: str) -> bool:
    """Whether compiler_killed's words name a crash of the compiler itself (SIGSEGV, SIGBUS,
    SIGABRT, SIGILL) rather than a signal sent from outside."""
    m = re.search(r"signal (\d+)", why)
    return m is not None and int(m.group(1)) not in _FROM_OUTSIDE


_COMPILERS = ("cc1plus", "cc1", "cicc", "cudafe++", "ptxas", "nvcc", "gcc", "g++", "c++", "clang", "clang++", "fatbinary")
_LINKERS = ("ld", "ld.bfd", "ld.gold", "collect2", "nvlink", "ar")
_ADVICE = {
    "memory": "a file this size needs far less; look for a recursive template or an included device file",
    "cpu": "a file this size compiles in seconds; look for a recursive template, a constexpr computation that "
           "runs long (many static_asserts near the compiler's limit) or an included device file",
    "wall": "look for an #include of a device or special file, which a compiler reads without end",
    "waiting": "an #include of a pipe, a terminal or a device (/dev/stdin, /dev/stderr, /proc/self/fd/N, "
               "/dev/ptmx) waits for input that never comes; include files only",
    "output": "the first messages are below; a template that instantiates itself prints without end",
    "processes": "a lab's build starts a few",
    "file": "an initialized array of that size (or an asm .space or .incbin) makes an object file as large; "
            "a lab's data lives in the buffers its caller passes",
}


def stopped_build(hit: build_limits.LimitHit, output: str, lab_files: list[str], repo: Path,
                  submission: Path) -> tuple[str | None, str, list[str]]:
    """A build step stopped by a build limit (sandbox/build_limits.py): (why it is not the
    student's, or None; the lab's reason; its details). The submission's file is what the
    compiler ran: its compile error, in words, graded once. A file of the kit's own (the
    simulator runtime, the harness) is not the student's: the lab is not graded."""
    program = hit.program or "the build"
    who = ("the compiler" if program in _COMPILERS or program.startswith("cc1") else
           "the linker" if program in _LINKERS else
           "the assembler" if program in ("as", "x86_64-linux-gnu-as") else
           "the simulator's rewriter" if program.startswith("python") else f"the build's {program}")
    compiled = Path(hit.file).name if hit.file else ""
    kit_file = bool(hit.file) and any(Path(os.path.abspath(hit.file)).is_relative_to(repo / part)
                                      for part in ("common", "grader/harness"))
    shown = compiled if compiled in lab_files or kit_file else (", ".join(lab_files) or compiled or "the lab")
    verb = {"memory": f"used more than {hit.amount}", "cpu": f"used more than {hit.amount}",
            "wall": f"ran for more than {hit.amount}", "waiting": f"waited {hit.amount}, doing nothing,",
            "output": f"printed more than {hit.amount}",
            "processes": f"started more than {hit.amount}", "file": f"wrote more than {hit.amount}"}.get(hit.limit, f"crossed a limit of {hit.amount}")
    what = f"{who} {verb} {'linking' if who == 'the linker' else 'compiling'} {shown}"
    if kit_file:
        return (f"not your code: {what}, a file of the kit; the build limits "
                f"(grader/scanlab_grader/sandbox/build_limits.py) are too small here"), "", []
    details = [f"{what}: {_ADVICE.get(hit.limit, '')}; the build was stopped"]
    if hit.limit == "output":
        details += first_errors(output, submission, repo)
    return None, f"compile error: {what}: {_ADVICE.get(hit.limit, '')}", details
