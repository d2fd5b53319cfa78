#!/usr/bin/env python3
"""Turn a CUDA C++ source into C++ that the CPU simulator runs, line for line.

Three constructs of CUDA C++ are not C++, and only these are rewritten:

  kernel<<<grid, block[, shmem[, stream]]>>>(args)
      -> ::scanlab::sim::KernelLaunch(__FILE__, __LINE__, grid, block...)([&](auto&&... a) { kernel(a...); }, args)
  __shared__ T name[N];            -> auto& name = ::scanlab::sim::block_shared<T[N]>([]{}, "name", __FILE__, __LINE__);
  extern __shared__ T name[];      -> auto* const name = ::scanlab::sim::dynamic_shared<T>("name", __FILE__, __LINE__);

Everything else (templates, lambdas, macros) is left to the C++ compiler. Comments and string
literals are never touched, and every rewrite keeps the number of lines, so with the
`#line 1 "file.cu"` put in front, compiler errors and simulator reports name the student's own
file and line. Inline PTX (`asm`) cannot run on a CPU and is rejected here, with its line.

The program's own headers are rewritten too: every `#include "file"` found next to the
including file or in a -I directory that holds one of these constructs (itself or through its
own includes) is written beside the output, rewritten the same way, and the directive points
at that copy; other headers found so are included from where they are. --depfile lists every
header read, so that a build runs the rewrite again when one changes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from dataclasses import dataclass

IDENT = re.compile(r"[A-Za-z_]\w*")


class RewriteError(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def code_mask(text: str, directives: list[int] | None = None) -> list[bool]:
    """True for characters that are C++ code: not in a comment, a literal or a preprocessor line.
    The offsets of the preprocessor directives' '#' are appended to `directives` if given."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # A preprocessor directive runs to the end of the line, continuations included.
            if directives is not None:
                directives.append(i)
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                if text.startswith("/*", j):  # a block comment may span lines inside a directive
                    end = text.find("*/", j + 2)
                    j = n if end < 0 else end + 2
                    continue
                j += 1
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i + raw.end())
            j = n if end < 0 else end + len(raw.group(1)) + 2
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and (i + 1 < n and text[i + 1].isalnum()):
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        i += 1
    return mask


@dataclass
class Source:
    text: str
    mask: list[bool]

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def column_of(self, offset: int) -> int:
        return offset - (self.text.rfind("\n", 0, offset) + 1) + 1

    def is_code(self, i: int) -> bool:
        return 0 <= i < len(self.text) and self.mask[i]

    def find_code(self, needle: str, start: int) -> int:
        i = self.text.find(needle, start)
        while i >= 0 and not all(self.mask[i:i + len(needle)]):
            i = self.text.find(needle, i + 1)
        return i

    def matching_close(self, open_at: int, opener: str, closer: str) -> int:
        depth = 0
        for i in range(open_at, len(self.text)):
            if not self.mask[i]:
                continue
            if self.text[i] == opener:
                depth += 1
            elif self.text[i] == closer:
                depth -= 1
                if depth == 0:
                    return i
        raise RewriteError(open_at, f"no matching '{closer}' for this '{opener}'")

    def skip_space(self, i: int) -> int:
        while i < len(self.text) and (self.text[i].isspace() or not self.mask[i]):
            i += 1
        return i

    def skip_space_back(self, i: int) -> int:
        while i >= 0 and (self.text[i].isspace() or not self.mask[i]):
            i -= 1
        return i


def callee_start(src: Source, launch_at: int) -> int:
    """Start of the expression naming the kernel: `name`, `ns::name`, `name<T, Op>` or `(expr)`."""
    t = src.text

    def back_to_opener(i: int, opener: str, closer: str) -> int:
        depth = 0
        while i >= 0:
            if src.mask[i]:
                depth += t[i] == closer
                depth -= t[i] == opener
                if depth == 0:
                    return i
            i -= 1
        raise RewriteError(launch_at, "cannot find the kernel before <<<")

    i = src.skip_space_back(launch_at - 1)
    if i >= 0 and t[i] == ")":
        return back_to_opener(i, "(", ")")
    while i >= 0:
        if t[i] == ">":  # template arguments
            i = src.skip_space_back(back_to_opener(i, "<", ">") - 1)
        if i < 0 or not (t[i].isalnum() or t[i] == "_"):
            break
        while i >= 0 and (t[i].isalnum() or t[i] == "_"):
            i -= 1
        start = i + 1
        j = src.skip_space_back(i)
        if j >= 1 and t[j] == ":" and t[j - 1] == ":":
            i = src.skip_space_back(j - 2)
            if i < 0 or not (t[i].isalnum() or t[i] in "_>"):
                return j - 1  # a leading `::`
            continue
        return start
    raise RewriteError(launch_at, "cannot find the kernel before <<<")


# `<<<` and `>>>`, also as a formatter may write them: `<< <grid, block >> >`.
LAUNCH_OPEN = re.compile(r"<<[ \t]*<")
LAUNCH_CLOSE = re.compile(r">>[ \t]*>")


def find_code_pattern(src: Source, pattern: re.Pattern, start: int) -> re.Match | None:
    for match in pattern.finditer(src.text, start):
        if all(src.mask[match.start():match.end()]):
            return match
    return None


def rewrite_launches(src: Source, edits: list[tuple[int, int, str]]) -> None:
    pos = 0
    while True:
        opening = find_code_pattern(src, LAUNCH_OPEN, pos)
        if opening is None:
            return
        at = opening.start()
        closing = find_code_pattern(src, LAUNCH_CLOSE, opening.end())
        if closing is None:
            raise RewriteError(at, "kernel launch: no '>>>' after '<<<'")
        end_cfg = closing.start()
        config = src.text[opening.end():end_cfg]
        if not config.strip():
            raise RewriteError(at, "kernel launch: the configuration <<<grid, block>>> is empty")
        open_args = src.skip_space(closing.end())
        if open_args >= len(src.text) or src.text[open_args] != "(":
            raise RewriteError(end_cfg, "kernel launch: expected '(' with the kernel's arguments after '>>>'")
        close_args = src.matching_close(open_args, "(", ")")
        args = src.text[open_args + 1:close_args]
        start = callee_start(src, at)
        kernel = src.text[start:at]
        separator = ", " if args.strip() else ""
        replacement = (
            f"::scanlab::sim::KernelLaunch(__FILE__, __LINE__, {config})"
            f"([&](auto&&... scanlab_args) {{ {kernel}(scanlab_args...); }}{separator}{args})"
        )
        # Keep the line count: any newline inside the kernel name or between the parts moves to the end.
        replaced = src.text[start:close_args + 1]
        missing = replaced.count("\n") - replacement.count("\n")
        edits.append((start, close_args + 1, replacement + "\n" * max(0, missing)))
        pos = close_args + 1


def statement_start(src: Source, at: int) -> int:
    i = at - 1
    while i >= 0 and not (src.mask[i] and src.text[i] in ";{}"):
        i -= 1
    return src.skip_space(i + 1)


def blank_non_code(src: Source, begin: int, end: int) -> str:
    return "".join(c if src.mask[k] else " " for k, c in zip(range(begin, end), src.text[begin:end]))


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside brackets and template arguments."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    parts.append(text[start:].strip())
    return parts


def split_declarator(text: str) -> tuple[str, str, str, str] | None:
    """`T *name[N][M]` -> (type 'T', pointer stars '*', 'name', '[N][M]'); the type may be empty."""
    dims = ""
    while text.endswith("]"):
        depth, k = 0, len(text) - 1
        while k >= 0:
            if text[k] == "]":
                depth += 1
            elif text[k] == "[":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        dims = text[k:] + dims
        text = text[:k].rstrip()
    name_match = re.search(r"([A-Za-z_]\w*)$", text)
    if not name_match:
        return None
    rest = text[:name_match.start()].rstrip()
    stars = ""
    while rest.endswith("*"):
        stars += "*"
        rest = rest[:-1].rstrip()
    return rest, stars, name_match.group(1), dims


def rewrite_shared(src: Source, edits: list[tuple[int, int, str]]) -> None:
    for match in re.finditer(r"\b__shared__\b", src.text):
        at = match.start()
        if not src.is_code(at):
            continue
        begin = statement_start(src, at)
        end = src.find_code(";", at)
        if end < 0:
            raise RewriteError(at, "__shared__ declaration without ';'")
        declaration = blank_non_code(src, begin, end)
        if "=" in declaration:
            raise RewriteError(at, "__shared__ variables cannot have an initializer (CUDA forbids it)")
        words = declaration
        is_extern = re.search(r"\bextern\b", words) is not None
        words = re.sub(r"\b(__shared__|extern|static|__device__)\b", " ", words)
        words = re.sub(r"\b(__align__|alignas)\s*\([^)]*\)", " ", words)
        words = words.strip()
        parts = split_top_level(words)
        first = split_declarator(parts[0])
        if first is None:
            raise RewriteError(at, "cannot read this __shared__ declaration; write it as `__shared__ T name[N];`")
        type_text, stars, name, dims = first
        if not type_text:
            raise RewriteError(at, "cannot read this __shared__ declaration; write it as `__shared__ T name[N];`")
        declarators = [(stars, name, dims)]
        for part in parts[1:]:  # `__shared__ int bid, prev;`: the others share the first one's type
            other = split_declarator(part)
            if other is None or other[0]:
                raise RewriteError(at, "cannot read this __shared__ declaration; write it as `__shared__ T name[N];`")
            declarators.append(other[1:])
        replacements = []
        for stars, name, dims in declarators:
            if is_extern:
                if dims.replace(" ", "") != "[]" or len(declarators) > 1:
                    raise RewriteError(at, "dynamic shared memory is declared as `extern __shared__ T name[];`")
                replacements.append(f"auto* const {name} = ::scanlab::sim::dynamic_shared<{type_text}{stars}>"
                                    f"(\"{name}\", __FILE__, __LINE__);")
            else:
                replacements.append(f"auto& {name} = ::scanlab::sim::block_shared<{type_text}{stars}{dims}>"
                                    f"([] {{}}, \"{name}\", __FILE__, __LINE__);")
        replacement = " ".join(replacements)
        original = src.text[begin:end + 1]
        edits.append((begin, end + 1, replacement + "\n" * original.count("\n")))


def reject_inline_asm(src: Source) -> None:
    for match in re.finditer(r"\b(asm|__asm__|__asm)\b(\s*(volatile|__volatile__|goto)\b)*\s*\(", src.text):
        if src.is_code(match.start()):
            raise RewriteError(match.start(), "inline PTX (asm) cannot run on the CPU simulator; "
                                              "write it with CUDA C++ (intrinsics such as __popc, __ballot_sync)")


def rewrite(text: str) -> str:
    src = Source(text, code_mask(text))
    reject_inline_asm(src)
    edits: list[tuple[int, int, str]] = []
    rewrite_shared(src, edits)
    rewrite_launches(src, edits)
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


QUOTED_INCLUDE = re.compile(r'#[ \t]*include[ \t]*"([^"\n]+)"')
NEEDS_REWRITE = re.compile(r"<<<|\b__shared__\b|\b(asm|__asm__|__asm)\b")


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

    @staticmethod
    def _text(path: str) -> str:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()

    def _includes(self, path: str, text: str) -> list[tuple[int, int, str]]:
        """(start, end, resolved path) of each `#include "..."` of `text` that names a file found
        next to `path` or in an include directory."""
        directives: list[int] = []
        code_mask(text, directives)
        found = []
        for at in directives:
            match = QUOTED_INCLUDE.match(text, at)
            if not match:
                continue
            for base in [os.path.dirname(os.path.abspath(path))] + self.include_dirs:
                candidate = os.path.normpath(os.path.join(base, match.group(1)))
                if os.path.isfile(candidate):
                    found.append((match.start(), match.end(), candidate))
                    break
        return found

    def _needs_rewrite(self, header: str) -> bool:
        if header not in self._needs:
            self._needs[header] = False  # an include cycle ends here
            self.read.append(header)
            text = self._text(header)
            mask = code_mask(text)
            own = any(all(mask[m.start():m.end()]) for m in NEEDS_REWRITE.finditer(text))
            self._needs[header] = own or any(self._needs_rewrite(h) for _, _, h in self._includes(header, text))
        return self._needs[header]

    def rewrite_file(self, path: str, text: str) -> str:
        """`text` rewritten, with its quoted includes pointing at rewritten copies where needed."""
        try:
            body = rewrite(text)
        except RewriteError as e:
            raise HeaderError(path, e.offset, e.message) from None
        # Directives are untouched by rewrite(), so their places are found again in the result.
        edits = []
        for start, end, header in self._includes(path, body):
            target = self._rewritten_header(header) if self._needs_rewrite(header) else header
            edits.append((start, end, f'#include "{_quoted(target)}"'))
        for start, end, replacement in reversed(edits):
            body = body[:start] + replacement + body[end:]
        return body

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
    try:
        body = program.rewrite_file(args.source, text)
    except HeaderError as e:
        shown = display if e.path == args.source else e.path
        src = Source(Program._text(e.path), [])
        print(f"{shown}:{src.line_of(e.offset)}:{src.column_of(e.offset)}: error: {e.message}", file=sys.stderr)
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
