#!/usr/bin/env python3
"""Turn a CUDA C++ source into C++ that the CPU simulator runs, line for line.

Three constructs of CUDA C++ are not C++, and only these are rewritten (with a cast the simulator
cannot take, and two field names that are macros here):

  kernel<<<grid, block[, shmem[, stream]]>>>(args)
      -> ::scanlab::sim::KernelLaunch(__FILE__, __LINE__, grid, block...)([&](auto&&... a) { kernel(a...); }, args)
  __shared__ T name[N];            -> auto& name = ::scanlab::sim::block_shared<T[N]>([]{}, "name", __FILE__, __LINE__);
  extern __shared__ T name[];      -> auto* const name = ::scanlab::sim::dynamic_shared<T>("name", __FILE__, __LINE__);
  cudaLaunchCooperativeKernel((void*)kernel, ...) -> cudaLaunchCooperativeKernel(kernel, ...)  (and cudaLaunchKernel:
      the simulator calls the kernel by its type, which a cast to void* would hide)
  config.gridDim, config.blockDim  -> config.grid_dim_, config.block_dim_  (cudaLaunchConfig_t's fields: the
      built-in variables of the same names are macros)

Everything else (templates, lambdas, macros) is left to the C++ compiler. The source is read
as C++ tokens from libclang's lexer (cpp_tokens.py), so comments, string and character literals
(raw strings too) are never touched and a construct is recognized by its tokens, not by a
pattern: a launch inside a #define (a launch macro, `__VA_ARGS__` included), a kernel with
template arguments of any kind (`k<T, (N > 2)><<<...>>>`), `static`, `volatile`, templated and
aligned `__shared__` declarations, several declarators in one of them, `__shared__` in
`__device__` functions. Every rewrite keeps the number of lines (inside a directive, as line
continuations), so with the `#line 1 "file.cu"` put in front, compiler errors and simulator
reports name the student's own file and line. Inline PTX (`asm`) cannot run on a CPU and is
rejected here, with its line; so is a `__shared__` declaration inside a macro, and a launch
whose `<<<` and `>>>` lie on both sides of a macro's use.

The program's own headers are rewritten too: every `#include "file"` (or `#include NAME`, NAME
defined in the same file as a quoted name) found next to the including file or in a -I directory
that holds one of these constructs (itself or through its own includes) is written beside the
output, rewritten the same way, and the directive points at that copy; other headers found so
are included from where they are. An `#include NAME` whose macro is defined elsewhere is not
followed, with a warning. --depfile lists every header read, so that a build runs the rewrite
again when one changes.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import os
import re
import sys
from dataclasses import dataclass, field

from cpp_tokens import Token, tokenize
from device_pass import ARCH_MACRO, read_arch_conditionals


class RewriteError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass
class Directive:
    """A preprocessor directive: its tokens are tokens[first:end]."""
    first: int
    end: int
    name: str  # "define", "include", "if", ...


@dataclass
class Source:
    """A file as tokens: comments apart, and each token's directive, if it is in one."""
    text: str
    tokens: list[Token] = field(default_factory=list)      # code: no comments
    comments: list[Token] = field(default_factory=list)
    directive_of: list[int] = field(default_factory=list)  # per token: index into directives, or -1
    directives: list[Directive] = field(default_factory=list)

    @classmethod
    def of(cls, text: str) -> "Source":
        src = cls(text)
        for t in tokenize(text):
            (src.comments if t.kind == "comment" else src.tokens).append(t)
        src._find_directives()
        return src

    def _breaks_line(self, begin: int, end: int) -> bool:
        """Whether text[begin:end] (between two tokens) ends a logical line: a newline that is not
        escaped by a backslash and not inside a comment."""
        k = bisect.bisect_left(self._comment_starts, begin)
        i = begin
        while i < end:
            if k < len(self.comments) and self.comments[k].start == i:
                if self.comments[k].text.startswith("//"):
                    return True  # a line comment runs to the end of its line
                i = self.comments[k].end
                k += 1
                continue
            if self.text[i] == "\n":
                before = self.text[begin:i].rstrip("\r")
                if not before.endswith("\\"):
                    return True
            i += 1
        return False

    def _find_directives(self) -> None:
        self._comment_starts = [c.start for c in self.comments]
        self.directive_of = [-1] * len(self.tokens)
        toks = self.tokens
        i = 0
        while i < len(toks):
            at_line_start = i == 0 or self._breaks_line(toks[i - 1].end, toks[i].start)
            if not (toks[i].text == "#" and at_line_start):
                i += 1
                continue
            j = i + 1
            while j < len(toks) and not self._breaks_line(toks[j - 1].end, toks[j].start):
                j += 1
            name = toks[i + 1].text if i + 1 < j else ""
            for k in range(i, j):
                self.directive_of[k] = len(self.directives)
            self.directives.append(Directive(i, j, name))
            i = j

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def column_of(self, offset: int) -> int:
        return offset - (self.text.rfind("\n", 0, offset) + 1) + 1

    def in_directive(self, k: int, name: str | None = None) -> bool:
        d = self.directive_of[k]
        return d >= 0 and (name is None or self.directives[d].name == name)

    def same_context(self, a: int, b: int) -> bool:
        """Tokens a and b are both ordinary code, or both in one directive."""
        return self.directive_of[a] == self.directive_of[b]

    def matching(self, k: int) -> int:
        """The index of the bracket that closes (or, for a closing one, opens) the one at k."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        opener = self.tokens[k].text
        if opener in pairs:
            closer, step = pairs[opener], 1
        else:
            closer, step = {v: o for o, v in pairs.items()}[opener], -1
        depth, i = 0, k
        while 0 <= i < len(self.tokens) and self.same_context(i, k):
            t = self.tokens[i].text
            depth += (t == opener) - (t == closer)
            if depth == 0:
                return i
            i += step
        raise RewriteError(self.tokens[k].start, f"no matching '{closer}' for this '{opener}'")

    def joined(self, first: int, end: int) -> str:
        """tokens[first:end] as one line of code (comments and line breaks dropped)."""
        return " ".join(t.text for t in self.tokens[first:end])

    def adjacent(self, a: int, b: int) -> bool:
        """Only spaces or tabs between tokens a and b (`<< <` as a formatter writes `<<<`)."""
        return self.text[self.tokens[a].end:self.tokens[b].start].strip(" \t") == ""


def keep_lines(src: Source, begin: int, end: int, replacement: str, in_directive: bool) -> str:
    """`replacement` for text[begin:end], followed by the line breaks it lost, so that every later
    line keeps its number; inside a directive, as continuations."""
    missing = src.text.count("\n", begin, end) - replacement.count("\n")
    return replacement + (" \\\n" if in_directive else "\n") * max(0, missing)


def template_opener(src: Source, close: int) -> int:
    """The `<` that opens the template arguments closed at token `close` (`>` or `>>`)."""
    depth, i = 0, close
    while i >= 0 and src.same_context(i, close):
        t = src.tokens[i].text
        if t in ")]}":
            i = src.matching(i)
        elif t in (">", ">>"):
            depth += len(t)
        elif t == "<":
            depth -= 1
            if depth == 0:
                return i
        i -= 1
    raise RewriteError(src.tokens[close].start, "cannot find the kernel before <<<")


def callee_start(src: Source, launch_at: int) -> int:
    """The first token of the expression naming the kernel before the launch at token
    `launch_at`: `name`, `ns::name`, `name<T, Op>`, `ns::template name<T>` or `(expr)`."""
    toks = src.tokens
    i = launch_at - 1
    if i >= 0 and toks[i].text == ")" and src.same_context(i, launch_at):
        return src.matching(i)
    start = None
    while i >= 0 and src.same_context(i, launch_at):
        if toks[i].text in (">", ">>"):
            i = template_opener(src, i) - 1
        if i < 0 or toks[i].kind != "identifier":
            break
        start = i
        i -= 1
        if i >= 0 and toks[i].text == "template":
            start = i
            i -= 1
        if i >= 0 and toks[i].text == "::":
            start = i
            i -= 1
            continue
        break
    if start is None:
        raise RewriteError(toks[launch_at].start, "cannot find the kernel before <<<")
    return start


def is_launch_open(src: Source, k: int) -> bool:
    t = src.tokens
    return t[k].text == "<<" and k + 1 < len(t) and t[k + 1].text == "<" and src.adjacent(k, k + 1)


def is_launch_close(src: Source, k: int) -> bool:
    t = src.tokens
    return t[k].text == ">>" and k + 1 < len(t) and t[k + 1].text == ">" and src.adjacent(k, k + 1)


def rewrite_launches(src: Source, edits: list[tuple[int, int, str]]) -> None:
    """`k<<<grid, block...>>>(args)`, in code and in the body of a #define (a launch macro)."""
    toks = src.tokens
    k = 0
    while k < len(toks):
        if not is_launch_open(src, k) or (src.in_directive(k) and not src.in_directive(k, "define")):
            k += 1
            continue
        at = toks[k].start
        close, depth = k + 2, 0
        while close < len(toks) and src.same_context(close, k):
            if depth == 0 and is_launch_close(src, close):
                break
            t = toks[close].text
            depth += (t in "([{") - (t in ")]}")
            close += 1
        else:
            raise RewriteError(at, "kernel launch: no '>>>' after '<<<'")
        if close >= len(toks) or not src.same_context(close, k):
            raise RewriteError(at, "kernel launch: no '>>>' after '<<<' (a launch split across a macro "
                                   "and its use cannot be rewritten)")
        if close == k + 2:
            raise RewriteError(at, "kernel launch: the configuration <<<grid, block>>> is empty")
        open_args = close + 2
        if open_args >= len(toks) or toks[open_args].text != "(" or not src.same_context(open_args, k):
            raise RewriteError(toks[close].start, "kernel launch: expected '(' with the kernel's arguments after '>>>'")
        close_args = src.matching(open_args)
        start = callee_start(src, k)
        in_macro = src.in_directive(k)
        kernel = src.text[toks[start].start:at]
        config = src.text[toks[k + 1].end:toks[close].start]
        args = src.text[toks[open_args].end:toks[close_args].start]
        separator = ", " if args.strip() else ""
        if in_macro and re.sub(r"\\\s*\n", " ", args).strip() == "__VA_ARGS__":
            separator = ", ##"  # a launch macro called with no kernel arguments drops the comma
        replacement = (
            f"::scanlab::sim::KernelLaunch(__FILE__, __LINE__, {config})"
            f"([&](auto&&... scanlab_args) {{ {kernel}(scanlab_args...); }}{separator}{args})"
        )
        begin, end = toks[start].start, toks[close_args].end
        edits.append((begin, end, keep_lines(src, begin, end, replacement, in_macro)))
        k = close_args + 1


# The runtime API's launches that take the kernel as `const void*`; the simulator calls the kernel
# by its type (include/scanlab/sim/launch_by_arguments.hpp), so a cast of their first argument to
# void* is dropped: `cudaLaunchCooperativeKernel((void *)k, ...)` becomes `cudaLaunchCooperativeKernel(k, ...)`.
LAUNCHES_BY_ARGUMENTS = {"cudaLaunchKernel", "cudaLaunchCooperativeKernel"}
NAMED_CASTS = {"reinterpret_cast", "static_cast"}


def void_pointer_type_end(toks: list[Token], k: int) -> int:
    """The end of `[const] void *` at toks[k], or -1 where none is there."""
    if k < len(toks) and toks[k].text == "const":
        k += 1
    if k + 1 < len(toks) and toks[k].text == "void" and toks[k + 1].text == "*":
        return k + 2
    return -1


def rewrite_kernel_casts(src: Source, edits: list[tuple[int, int, str]]) -> None:
    toks = src.tokens
    for k, token in enumerate(toks[:-2]):
        if token.text not in LAUNCHES_BY_ARGUMENTS or toks[k + 1].text != "(":
            continue
        first = k + 2
        if toks[first].text == "(":  # (void *)kernel
            end = void_pointer_type_end(toks, first + 1)
            if end >= 0 and end < len(toks) and toks[end].text == ")":
                begin, stop = toks[first].start, toks[end].end
                edits.append((begin, stop, keep_lines(src, begin, stop, "", src.in_directive(k))))
        elif toks[first].text in NAMED_CASTS and first + 1 < len(toks) and toks[first + 1].text == "<":
            end = void_pointer_type_end(toks, first + 2)  # reinterpret_cast<void *>(kernel)
            if end >= 0 and end < len(toks) and toks[end].text == ">":
                begin, stop = toks[first].start, toks[end].end
                edits.append((begin, stop, keep_lines(src, begin, stop, "", src.in_directive(k))))


# cudaLaunchConfig_t's fields gridDim and blockDim share their names with the built-in variables,
# which the simulator's headers define as macros: a member access to them is spelt with the
# field names the simulator gives them (launch_by_arguments.hpp), `config.grid_dim_`.
CONFIG_FIELDS = {"gridDim": "grid_dim_", "blockDim": "block_dim_"}


def rewrite_config_fields(src: Source, edits: list[tuple[int, int, str]]) -> None:
    toks = src.tokens
    for k in range(1, len(toks)):
        if toks[k].text in CONFIG_FIELDS and toks[k - 1].text in (".", "->"):
            edits.append((toks[k].start, toks[k].end, CONFIG_FIELDS[toks[k].text]))


SPECIFIERS_DROPPED = {"__shared__", "extern", "static", "__device__"}
UNREADABLE_SHARED = "cannot read this __shared__ declaration; write it as `__shared__ T name[N];`"


def split_declarators(src: Source, first: int, end: int) -> list[tuple[int, int]]:
    """tokens[first:end] split at the commas outside brackets and template arguments."""
    parts, depth, angles, start = [], 0, 0, first
    k = first
    while k < end:
        t = src.tokens[k].text
        if t in "([{":
            k = src.matching(k) + 1
            continue
        if t == "<":
            angles += 1
        elif t in (">", ">>") and angles:
            angles = max(0, angles - len(t))
        elif t == "," and depth == 0 and angles == 0:
            parts.append((start, k))
            start = k + 1
        k += 1
    parts.append((start, end))
    return parts


def split_declarator(src: Source, first: int, end: int) -> tuple[str, str, str, str] | None:
    """`T *name[N][M]` -> (type 'T', pointer stars '*', 'name', '[N][M]'); the type may be empty."""
    toks = src.tokens
    last = end - 1
    dims = ""
    while last >= first and toks[last].text == "]":
        opener = src.matching(last)
        dims = src.joined(opener, last + 1) + dims
        last = opener - 1
    if last < first or toks[last].kind != "identifier":
        return None
    name = toks[last].text
    stars = ""
    k = last - 1
    while k >= first and toks[k].text == "*":
        stars += "*"
        k -= 1
    return src.joined(first, k + 1), stars, name, dims


def rewrite_shared(src: Source, edits: list[tuple[int, int, str]]) -> None:
    toks = src.tokens
    for at, token in enumerate(toks):
        if token.text != "__shared__":
            continue
        if src.in_directive(at, "define"):
            raise RewriteError(token.start, "a __shared__ declaration in a macro cannot be rewritten; "
                                            "declare the variable outside the macro")
        if src.in_directive(at):
            continue
        begin = at
        while begin > 0 and toks[begin - 1].text not in (";", "{", "}") and not src.in_directive(begin - 1):
            begin -= 1
        end = at
        while end < len(toks) and toks[end].text != ";":
            if src.in_directive(end):
                raise RewriteError(token.start, UNREADABLE_SHARED + " (a directive inside it)")
            if toks[end].text in "([{":
                end = src.matching(end)
            end += 1
        if end >= len(toks):
            raise RewriteError(token.start, "__shared__ declaration without ';'")
        kept = []  # the declaration without storage specifiers and alignment
        k = begin
        is_extern = False
        while k < end:
            t = toks[k].text
            if t == "=":
                raise RewriteError(token.start, "__shared__ variables cannot have an initializer (CUDA forbids it)")
            if t in ("__align__", "alignas") and k + 1 < end and toks[k + 1].text == "(":
                k = src.matching(k + 1) + 1
                continue
            is_extern = is_extern or t == "extern"
            if t not in SPECIFIERS_DROPPED:
                kept.append(k)
            k += 1
        if not kept:
            raise RewriteError(token.start, UNREADABLE_SHARED)
        # Declarators are read from the kept tokens; specifiers may sit anywhere before the type.
        view = Source(src.text, [toks[j] for j in kept], src.comments, [src.directive_of[j] for j in kept],
                      src.directives)
        parts = split_declarators(view, 0, len(kept))
        first = split_declarator(view, *parts[0])
        if first is None or not first[0]:
            raise RewriteError(token.start, UNREADABLE_SHARED)
        type_text, stars, name, dims = first
        declarators = [(stars, name, dims)]
        for part in parts[1:]:  # `__shared__ int bid, prev;`: the others share the first one's type
            other = split_declarator(view, *part)
            if other is None or other[0]:
                raise RewriteError(token.start, UNREADABLE_SHARED)
            declarators.append(other[1:])
        replacements = []
        for stars, name, dims in declarators:
            if is_extern:
                if dims.replace(" ", "") != "[]" or len(declarators) > 1:
                    raise RewriteError(token.start, "dynamic shared memory is declared as `extern __shared__ T name[];`")
                replacements.append(f"auto* const {name} = ::scanlab::sim::dynamic_shared<{type_text}{stars}>"
                                    f"(\"{name}\", __FILE__, __LINE__);")
            else:
                replacements.append(f"auto& {name} = ::scanlab::sim::block_shared<{type_text}{stars}{dims}>"
                                    f"([] {{}}, \"{name}\", __FILE__, __LINE__);")
        start, stop = toks[begin].start, toks[end].end
        edits.append((start, stop, keep_lines(src, start, stop, " ".join(replacements), False)))


ASM_KEYWORDS = {"asm", "__asm__", "__asm"}
ASM_QUALIFIERS = {"volatile", "__volatile__", "goto", "inline"}


def reject_inline_asm(src: Source) -> None:
    toks = src.tokens
    for k, token in enumerate(toks):
        if token.text not in ASM_KEYWORDS or src.in_directive(k):
            continue
        j = k + 1
        while j < len(toks) and toks[j].text in ASM_QUALIFIERS:
            j += 1
        if j < len(toks) and toks[j].text == "(":
            raise RewriteError(token.start, "inline PTX (asm) cannot run on the CPU simulator; "
                                            "write it with CUDA C++ (intrinsics such as __popc, __ballot_sync)")


def apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    edits.sort()
    out, pos = [], 0
    for begin, end, replacement in edits:
        if begin < pos:
            raise RewriteError(begin, "overlapping constructs: a __shared__ declaration inside a kernel launch?")
        out.append(text[pos:begin])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def rewrite_edits(src: Source, warnings: list[tuple[int, str]] | None = None) -> list[tuple[int, int, str]]:
    """The edits that turn the CUDA constructs of `src` into C++; what deserves a warning is
    added to `warnings` as (offset, message)."""
    reject_inline_asm(src)
    edits: list[tuple[int, int, str]] = []
    rewrite_shared(src, edits)
    rewrite_launches(src, edits)
    rewrite_kernel_casts(src, edits)
    rewrite_config_fields(src, edits)
    reading = read_arch_conditionals(src, lambda begin, end, text, in_directive:
                                     keep_lines(src, begin, end, text, in_directive))
    edits += reading.edits
    if warnings is not None:
        warnings += reading.warnings
    return edits


def rewrite(text: str) -> str:
    return apply(text, rewrite_edits(Source.of(text)))


# A cheap first look: a file in which none of these strings occurs holds nothing to rewrite,
# and is not tokenized at all.
MAY_NEED_REWRITE = re.compile(r"<<\s*<|__shared__|\b(?:asm|__asm__|__asm|__CUDA_ARCH__|cudaLaunchKernel|cudaLaunchCooperativeKernel)\b|(?:\.|->)\s*(?:gridDim|blockDim)\b")
# The quoted includes of a file that is not tokenized, to follow them to headers that need a
# rewrite: one in a comment costs a look at that header, nothing more.
QUOTED_INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)


def needs_rewrite(text: str) -> bool:
    if not MAY_NEED_REWRITE.search(text):
        return False
    src = Source.of(text)
    toks = src.tokens
    for k, t in enumerate(toks):
        if t.text in ASM_KEYWORDS or (t.text == "__shared__" and not src.in_directive(k)) or is_launch_open(src, k):
            return True
        if t.text in LAUNCHES_BY_ARGUMENTS or (t.text in CONFIG_FIELDS and k > 0 and toks[k - 1].text in (".", "->")):
            return True
    if not any(t.text == ARCH_MACRO for t in toks):
        return False
    reading = read_arch_conditionals(src, lambda *a: "")
    return bool(reading.edits or reading.warnings)  # a copy of its own, so that its warnings are said


# Macros that the kit's build defines, on the compiler's command line, as the quoted path of a
# file it has already rewritten for the simulator: a lab's test files (grader/labs/NN-name/
# instantiations.cu) and its benchmark and tuning programs `#include SCANLAB_LAB_SOURCE`, the
# submission's lab file, whose rewritten copy the same build generates and names
# (grader/cmake/LabTests.cmake). Such an include needs no following and no warning; any other
# macro a file includes by stays warned about, since its header would run unrewritten.
BUILD_REWRITTEN_INCLUDE_MACROS = frozenset({"SCANLAB_LAB_SOURCE"})


def include_directives(src: Source) -> list[tuple[int, int, str, str]]:
    """(start, end, name, how) of each `#include` of `src`: the file name spelt in quotes (how
    "quoted"), or through an object-like macro defined in the same file as a quoted name
    ("macro"), or a macro defined elsewhere (how "unresolved", name the macro)."""
    toks = src.tokens
    strings: dict[str, str] = {}
    found = []
    for d in src.directives:
        words = toks[d.first:d.end]
        if d.name == "define" and len(words) == 4 and words[3].kind == "literal" and words[3].text.startswith('"'):
            strings[words[2].text] = words[3].text[1:-1]
        if d.name != "include" or len(words) < 3:
            continue
        target = words[2]
        if target.kind == "literal" and target.text.startswith('"'):
            found.append((words[0].start, target.end, target.text[1:-1], "quoted"))
        elif target.kind == "identifier" and len(words) == 3:
            if target.text in strings:
                found.append((words[0].start, target.end, strings[target.text], "macro"))
            else:
                found.append((words[0].start, target.end, target.text, "unresolved"))
    return found


class HeaderError(Exception):
    def __init__(self, path: str, offset: int, message: str):
        super().__init__(message)
        self.path, self.offset, self.message = path, offset, message


class Program:
    """The rewrite of one source file and of the program's own headers that it includes."""

    def __init__(self, include_dirs: list[str], header_dir: str):
        self.include_dirs = [os.path.abspath(d) for d in include_dirs]
        self.header_dir = header_dir
        self.read: list[str] = []               # every header examined, for the depfile
        self._needs: dict[str, bool] = {}       # header -> whether it (or what it includes) needs a rewrite
        self._written: dict[str, str] = {}      # header -> its rewritten copy
        self.display_names: dict[str, str] = {}  # file -> the name diagnostics show, where not its path

    def display(self, path: str) -> str:
        return self.display_names.get(path, path)

    @staticmethod
    def _text(path: str) -> str:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()

    def _find(self, including: str, name: str) -> str | None:
        """The file `#include "name"` in `including` names: next to it, or in an include directory."""
        for base in [os.path.dirname(os.path.abspath(including))] + self.include_dirs:
            candidate = os.path.normpath(os.path.join(base, name))
            if os.path.isfile(candidate):
                return candidate
        return None

    def _needs_rewrite(self, header: str) -> bool:
        if header not in self._needs:
            self._needs[header] = False  # an include cycle ends here
            self.read.append(header)
            text = self._text(header)
            own = needs_rewrite(text)
            included = (self._find(header, m.group(1)) for m in QUOTED_INCLUDE_LINE.finditer(text))
            self._needs[header] = own or any(self._needs_rewrite(h) for h in included if h)
        return self._needs[header]

    def rewrite_file(self, path: str, text: str) -> str:
        """`text` rewritten, with its quoted includes pointing at rewritten copies where needed."""
        warnings: list[tuple[int, str]] = []
        try:
            src = Source.of(text)
            edits = rewrite_edits(src, warnings)
        except RewriteError as e:
            raise HeaderError(path, e.offset, e.message) from None
        for offset, message in warnings:
            print(f"{self.display(path)}:{src.line_of(offset)}:{src.column_of(offset)}: warning: {message}",
                  file=sys.stderr)
        for start, end, name, how in include_directives(src):
            if how == "unresolved" and name in BUILD_REWRITTEN_INCLUDE_MACROS:
                continue  # the build rewrote the file it names already: nothing here to follow
            if how == "unresolved":
                print(f"{self.display(path)}:{src.line_of(start)}:{src.column_of(start)}: warning: #include {name}: a header "
                      f"named by a macro defined elsewhere is not followed; kernels, launches and __shared__ in "
                      f"it are not rewritten for the simulator (write the file name in quotes)", file=sys.stderr)
                continue
            header = self._find(path, name)
            if header is None:
                continue  # a system header, or one the compiler will not find either
            target = self._rewritten_header(header) if self._needs_rewrite(header) else header
            edits.append((start, end, f'#include "{_quoted(target)}"'))
        try:
            return apply(text, edits)
        except RewriteError as e:
            raise HeaderError(path, e.offset, e.message) from None

    def _rewritten_header(self, header: str) -> str:
        if header not in self._written:
            tag = hashlib.md5(header.encode()).hexdigest()[:8]
            out = os.path.join(self.header_dir, tag, os.path.basename(header))
            self._written[header] = out
            body = self.rewrite_file(header, self._text(header))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            _write(out, header, body)
        return self._written[header]


def _quoted(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


def _write(output: str, display: str, body: str) -> None:
    with open(output, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("#include <scanlab/sim/cuda.hpp>\n")
        f.write(f'#line 1 "{_quoted(display)}"\n')
        f.write(body)


def _depfile_path(path: str) -> str:
    return path.replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the .cu file")
    parser.add_argument("-o", "--output", required=True, help="where to write the C++ file")
    parser.add_argument("--display-name", help="file name that diagnostics show (default: the source path)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="where else to look for the program's own headers")
    parser.add_argument("--depfile", help="write the headers read, as a Makefile rule for the output")
    args = parser.parse_args(argv)
    text = Program._text(args.source)
    display = args.display_name or args.source
    output = os.path.abspath(args.output)
    program = Program(args.include_dirs, os.path.join(os.path.dirname(output), "headers"))
    program.display_names[args.source] = display
    try:
        body = program.rewrite_file(args.source, text)
    except HeaderError as e:
        shown = display if e.path == args.source else e.path
        src = Source(Program._text(e.path))
        print(f"{shown}:{src.line_of(e.offset)}:{src.column_of(e.offset)}: error: {e.message}", file=sys.stderr)
        return 1
    except ImportError as e:  # no libclang: say which package brings it, not a traceback
        print(f"cu_rewrite: error: {e}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(output), exist_ok=True)
    _write(output, display, body)
    if args.depfile:
        with open(args.depfile, "w", encoding="utf-8") as f:
            deps = " ".join(_depfile_path(h) for h in [os.path.abspath(args.source)] + program.read)
            f.write(f"{_depfile_path(args.output)}: {deps}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
