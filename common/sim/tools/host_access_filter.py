"""Host code at the host compiler's speed: a filter on the assembly of instrumented lab code.

Lab code is compiled with ThreadSanitizer's instrumentation (common/sim/lab_code_flags.json), so
every load and store calls a hook of the simulator, host code's as well as a kernel's. For host
code the hook checks only two ranges of addresses: global memory (a cudaMalloc pointer read on
the host, managed buffers) and `__managed__` variables
(common/sim/runtime/memory/host_checked_ranges.hpp). A host loop over host arrays would still
pay a call for every element, and a basic-block hook for every iteration.

This filter puts the hook's own first test in front of each call, inline: a load or store hook
is called only when the address lies in the thread's range, which holds every address while
the thread runs a CUDA thread and, while it runs host code, the two ranges (and, in a program
with `__managed__` variables, what lies between them); the basic-block
hook, which does nothing on the host, only as a CUDA thread (the runtime's `current_thread` is
set). Every check the hook makes is made as before, on the same addresses, at
the same line; what is left out is a call that would have returned at once.

The inserted code uses only %rax and %rcx and the flags, which the call it guards clobbers
anyway, so no value the compiler keeps across the call is touched. It is x86-64 assembly in
AT&T syntax, as GCC and Clang write it; elsewhere simcc compiles as before.

simcc (common/bin/simcc) compiles a .cu file with `assembly_command`, filters the assembly with
`filter_file` and assembles it with `assemble_command`.
"""

from __future__ import annotations

import os
import platform
import re

# The runtime's symbols the inserted code reads (memory/host_checked_ranges.hpp,
# threads/thread.hpp).
RANGE = "scanlab_sim_host_checked_range"
CURRENT_THREAD = "_ZN7scanlab3sim6detail14current_threadE"

# A plain or unaligned load or store hook with its address in %rdi. Volatile accesses, ranges
# and atomics keep their calls as they are.
_ACCESS_CALL = re.compile(r"^(\s*)(?:call|callq)\s+(__tsan_(?:unaligned_)?(?:read|write)(?:1|2|4|8|16))(@PLT)?\s*$")
_BLOCK_CALL = re.compile(r"^(\s*)(?:call|callq)\s+(__sanitizer_cov_trace_pc)(@PLT)?\s*$")


def filter_assembly(text: str) -> tuple[str, int]:
    """The assembly with every load, store and basic-block hook guarded; and how many."""
    out: list[str] = []
    guarded = 0
    for line in text.splitlines():
        access = _ACCESS_CALL.match(line)
        block = None if access else _BLOCK_CALL.match(line)
        if not access and not block:
            out.append(line)
            continue
        i = (access or block).group(1) or "\t"
        skip = f".Lscanlab_host_skip{guarded}"
        guarded += 1
        if access:  # the address in %rdi, against this thread's range
            out += [f"{i}movq\t{RANGE}@gottpoff(%rip), %rcx",
                    f"{i}movq\t%rdi, %rax",
                    f"{i}subq\t%fs:(%rcx), %rax",
                    f"{i}cmpq\t%fs:8(%rcx), %rax",
                    f"{i}jae\t{skip}"]
        else:  # a CUDA thread's
            out += [f"{i}movq\t{CURRENT_THREAD}@gottpoff(%rip), %rax",
                    f"{i}cmpq\t$0, %fs:(%rax)",
                    f"{i}je\t{skip}"]
        out += [line, f"{skip}:"]
    return "\n".join(out) + "\n", guarded


def applies(command: list[str]) -> bool:
    """Whether the filter can take this compile: instrumented x86-64 code compiled to an object."""
    return (platform.machine() in ("x86_64", "AMD64") and "-fsanitize=thread" in command and
            "-c" in command and "-o" in command and not any(a in ("-m32", "-mx32", "-flto") or
                                                            a.startswith("-flto=") for a in command))


def assembly_command(command: list[str], asm: str) -> list[str]:
    """The compile command (`... -c SOURCE -o OBJECT`) made to write assembly to `asm`."""
    obj = command[command.index("-o") + 1]
    to_assembly = [("-S" if a == "-c" else a) for a in command]
    to_assembly[to_assembly.index("-o") + 1] = asm
    # A dependency file names the object, as it would have, and lies beside it.
    if any(a in ("-MD", "-MMD") for a in command) and not any(a in ("-MT", "-MQ") for a in command):
        to_assembly += ["-MT", obj]
        if "-MF" not in command:
            to_assembly += ["-MF", os.path.splitext(obj)[0] + ".d"]
    return to_assembly


def filter_file(asm: str) -> None:
    """Filters an assembly file in place."""
    with open(asm, encoding="utf-8", errors="surrogateescape") as f:
        text, _ = filter_assembly(f.read())
    with open(asm, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def assemble_command(compiler: list[str], command: list[str], asm: str) -> list[str]:
    """Assembles `asm` into the compile command's object, with its assembler options."""
    obj = command[command.index("-o") + 1]
    return compiler + ["-c", asm, "-o", obj] + [a for a in command if a.startswith("-Wa,")]
