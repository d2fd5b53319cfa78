"""The device pass's view of `__CUDA_ARCH__`, for code that only the device pass compiles.

nvcc compiles a .cu file twice: once for the host, where `__CUDA_ARCH__` is undefined, and once
for the device, where it is the architecture (900 for compute capability 9.0). The simulator
compiles the file once, with the host compiler, so a conditional on `__CUDA_ARCH__` has to be
given one of the two readings. This module gives each conditional the reading of the pass whose
code it selects:

- inside the body of a `__global__` or `__device__` function (not `__host__ __device__`), and at
  file or namespace scope when every declaration in its groups is device code (a kernel, a
  `__device__` function or variable): the device pass's, with `__CUDA_ARCH__` as
  SIMULATED_ARCH, so that a kernel whose body is guarded by `#if __CUDA_ARCH__ >= 700` runs
  instead of compiling to nothing;
- everywhere else the host pass's (undefined), as the compiler sees it anyway. Where that code
  is also compiled for the device (a `__host__ __device__` function, or a group that mixes host
  and device declarations), the simulator runs the host pass's version, and a warning says so
  at the line.

The readings are edits of the directives' conditions (`__CUDA_ARCH__` -> 900, `defined
__CUDA_ARCH__` -> 1, `#ifdef`/`#ifndef __CUDA_ARCH__` -> `#if 1`/`#if 0`); every line keeps its
number.
"""

from __future__ import annotations

from dataclasses import dataclass

SIMULATED_ARCH = 900  # compute capability 9.0: what the simulator's device queries report
ARCH_MACRO = "__CUDA_ARCH__"
DEVICE_MARKERS = {"__global__", "__device__"}
CONDITIONAL_OPENERS = {"if", "ifdef", "ifndef"}
CONDITIONAL_CONTINUERS = {"elif", "elifdef", "elifndef", "else"}
# A `(` after one of these opens a statement's condition, not a function's parameters.
STATEMENT_KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
                      "static_assert", "noexcept", "constexpr"}
# What may stand between a function's `)` and its body's `{`.
AFTER_PARAMETERS = {"const", "volatile", "noexcept", "override", "final", "&", "&&", "mutable", "throw"}


@dataclass
class Chain:
    """One #if ... #endif: the directives of its branches, and the token ranges of its groups."""
    directives: list[int]             # indices into src.directives: #if, #elif..., #else, #endif
    groups: list[tuple[int, int]]     # (first, end) tokens between consecutive directives


@dataclass
class Reading:
    edits: list[tuple[int, int, str]]
    warnings: list[tuple[int, str]]   # (offset, message)


def conditional_chains(src) -> list[Chain]:
    chains: list[Chain] = []
    open_chains: list[Chain] = []
    for number, d in enumerate(src.directives):
        if d.name in CONDITIONAL_OPENERS:
            open_chains.append(Chain([number], []))
        elif d.name in CONDITIONAL_CONTINUERS or d.name == "endif":
            if not open_chains:
                continue  # an unbalanced file: the compiler says so
            chain = open_chains[-1]
            before = src.directives[chain.directives[-1]]
            chain.groups.append((before.end, d.first))
            chain.directives.append(number)
            if d.name == "endif":
                chains.append(open_chains.pop())
    return chains


def mentions_arch(src, directive) -> bool:
    return any(t.text == ARCH_MACRO for t in src.tokens[directive.first:directive.end])


def function_kinds(src) -> list[str | None]:
    """Per token, the kind of the innermost function whose body holds it: "device" (a
    `__global__` or `__device__` function), "host-device", "host", or None at file, namespace or
    class scope. Directive tokens are skipped when matching braces."""
    toks = src.tokens
    kinds: list[str | None] = [None] * len(toks)
    stack: list[str | None] = []  # per open brace: the function kind it puts in force
    for k, t in enumerate(toks):
        if src.in_directive(k):
            kinds[k] = stack[-1] if stack else None
            continue
        if t.text == "{":
            enclosing = stack[-1] if stack else None
            stack.append(enclosing if enclosing is not None else body_kind(src, k))
        elif t.text == "}" and stack:
            stack.pop()
        kinds[k] = stack[-1] if stack else None
    return kinds


def previous_code(src, k: int) -> int:
    """The index of the nearest token before k that is not in a directive, or -1."""
    k -= 1
    while k >= 0 and src.in_directive(k):
        k -= 1
    return k


def body_kind(src, brace: int) -> str | None:
    """If the `{` at `brace` opens a function's body, the function's kind; otherwise None."""
    toks = src.tokens
    k = previous_code(src, brace)
    while k >= 0 and toks[k].text in AFTER_PARAMETERS:
        k = previous_code(src, k)
    if k < 0 or toks[k].text != ")":
        return None
    try:
        opener = src.matching(k)
    except Exception:  # noqa: BLE001  (brackets split by a conditional: not a function we can read)
        return None
    name = previous_code(src, opener)
    if name < 0 or toks[name].kind not in ("identifier", "keyword") or toks[name].text in STATEMENT_KEYWORDS:
        return None  # a statement's condition, a lambda (`](`), an initializer
    # The declaration's words: back to the end of the previous declaration or scope.
    words: set[str] = set()
    j = previous_code(src, name)
    while j >= 0 and toks[j].text not in (";", "{", "}"):
        words.add(toks[j].text)
        j = previous_code(src, j)
    if "__host__" in words:
        return "host-device" if words & DEVICE_MARKERS else "host"
    return "device" if words & DEVICE_MARKERS else "host"


def declarations(src, first: int, end: int) -> list[tuple[int, int]]:
    """The top-level declarations among tokens[first:end] (directives apart): each runs to a `;`
    at depth 0, or to the `}` that closes a body at depth 0 (and a `;` right after it)."""
    toks = src.tokens
    found = []
    depth, start = 0, None
    k = first
    while k < end:
        if src.in_directive(k):
            k += 1
            continue
        if start is None:
            start = k
        text = toks[k].text
        if text in "([{":
            depth += 1
        elif text in ")]}":
            depth -= 1
        if depth <= 0 and (text == ";" or text == "}"):
            depth = 0
            stop = k + 1
            if text == "}" and stop < end and toks[stop].text == ";":
                stop += 1
            found.append((start, stop))
            start, k = None, stop
            continue
        k += 1
    if start is not None:
        found.append((start, end))
    return found


def device_only(src, declaration: tuple[int, int]) -> bool:
    words = {t.text for t in src.tokens[declaration[0]:declaration[1]]}
    return bool(words & DEVICE_MARKERS) and "__host__" not in words


def has_device_code(src, first: int, end: int) -> bool:
    return any(t.text in DEVICE_MARKERS for t in src.tokens[first:end])


def device_reading(src, directive) -> str:
    """The directive with `__CUDA_ARCH__` read as the device pass reads it."""
    toks = src.tokens[directive.first:directive.end]
    if directive.name in ("ifdef", "ifndef", "elifdef", "elifndef"):
        defined = directive.name in ("ifdef", "elifdef")
        keyword = "if" if directive.name.startswith("if") else "elif"
        return f"#{keyword} {1 if defined else 0}"
    words = [t.text for t in toks[2:]]
    out = [f"#{directive.name}"]
    i = 0
    while i < len(words):
        if words[i:i + 4] == ["defined", "(", ARCH_MACRO, ")"]:
            out.append("1")
            i += 4
        elif words[i:i + 2] == ["defined", ARCH_MACRO]:
            out.append("1")
            i += 2
        else:
            out.append(str(SIMULATED_ARCH) if words[i] == ARCH_MACRO else words[i])
            i += 1
    return " ".join(out)


def read_arch_conditionals(src, keep_lines) -> Reading:
    """The edits that give each conditional on `__CUDA_ARCH__` the device pass's reading where
    its code is device code, and the warnings where the host pass's reading covers code that is
    compiled for the device too. `keep_lines(begin, end, replacement, in_directive)` pads a
    replacement to the lines it replaces."""
    reading = Reading([], [])
    chains = [c for c in conditional_chains(src)
              if any(mentions_arch(src, src.directives[d]) for d in c.directives)]
    if not chains:
        return reading
    kinds = function_kinds(src)
    toks = src.tokens
    for chain in chains:
        opener = src.directives[chain.directives[0]]
        kind = kinds[opener.first]
        if kind is None:
            decls = [d for first, end in chain.groups for d in declarations(src, first, end)]
            device = bool(decls) and all(device_only(src, d) for d in decls)
            mixed = not device and any(has_device_code(src, first, end) for first, end in chain.groups)
        else:
            device = kind == "device"
            mixed = kind == "host-device"
        if device:
            for number in chain.directives:
                d = src.directives[number]
                if d.name in ("else", "endif") or not mentions_arch(src, d):
                    continue
                begin, end = toks[d.first].start, toks[d.end - 1].end
                reading.edits.append((begin, end, keep_lines(begin, end, device_reading(src, d), True)))
        elif mixed:
            reading.warnings.append((
                toks[opener.first].start,
                f"{ARCH_MACRO} is read here as in nvcc's host pass (undefined): this code is compiled for the "
                "device as well, and the simulator, which compiles a file once, runs the host pass's version "
                "on the device too (inside a __global__ or __device__ function, or around device declarations "
                f"alone, it reads {ARCH_MACRO} as {SIMULATED_ARCH})"))
    return reading
