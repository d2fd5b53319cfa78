"""The C++ tokens of a source file, from libclang's lexer (Debian's python3-clang).

The rewriter looks for a few constructs in CUDA C++ (kernel launches, __shared__
declarations, inline asm, includes); a real lexer tells it exactly what is code, a comment, a
string or character literal (raw strings, digit separators and line continuations included)
or a preprocessor directive, where regular expressions can only approximate. Only the lexer is
used: nothing is parsed, no header is read.
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from debian_modules import import_debian_module  # noqa: E402

PACKAGE = "python3-clang"


@dataclass(frozen=True)
class Token:
    kind: str   # "punctuation", "keyword", "identifier", "literal" or "comment"
    text: str
    start: int  # character offsets in the source text
    end: int


_index = None
_KINDS = {0: "punctuation", 1: "keyword", 2: "identifier", 3: "literal", 4: "comment"}
# CXTranslationUnit flags: headers are not read, function bodies not parsed; the lexer alone works.
_SINGLE_FILE_PARSE = 0x400
_SKIP_FUNCTION_BODIES = 0x40


def _library_candidates(preferred: str) -> list[str]:
    """libclang shared objects where Debian and other distributions install them, the
    version the bindings were made for first."""
    patterns = ["/usr/lib/llvm-*/lib/libclang*.so*", "/usr/lib/*-linux-gnu/libclang*.so*",
                "/usr/lib64/libclang*.so*", "/usr/lib/libclang*.so*", "/usr/local/lib/libclang*.so*"]
    found = sorted({p for pattern in patterns for p in glob.glob(pattern)
                    if not os.path.basename(p).startswith("libclang-cpp")}, reverse=True)
    return sorted(found, key=lambda p: not os.path.basename(p).startswith(preferred))


def _load_index():
    global _index
    if _index is None:
        cindex = import_debian_module("clang.cindex", PACKAGE)
        try:
            _index = cindex.Index.create()
        except cindex.LibclangError:
            preferred = os.path.basename(cindex.Config().get_filename()).split(".so")[0]
            for candidate in _library_candidates(preferred):
                cindex.Config.set_library_file(candidate)
                try:
                    _index = cindex.Index.create()
                    break
                except cindex.LibclangError:
                    cindex.Config.library_file = None
            else:
                raise ImportError(f"libclang, which the Python module clang.cindex loads, was not found: "
                                  f"install the Debian package {PACKAGE}") from None
    return _index


def _char_offsets(text: str, data: bytes) -> list[int] | None:
    """For text that is not ASCII: the character offset of every byte offset of its UTF-8 form."""
    if len(data) == len(text):
        return None
    offsets = []
    for i, c in enumerate(text):
        offsets.extend([i] * len(c.encode("utf-8", "surrogateescape")))
    offsets.append(len(text))
    return offsets


def tokenize(text: str) -> list[Token]:
    """Every token of `text`, comments included, in order."""
    index = _load_index()
    cindex = sys.modules["clang.cindex"]
    lib = cindex.conf.lib
    data = text.encode("utf-8", "surrogateescape")
    # A name in no directory: the lexer needs a file, and no header is found next to it.
    name = "/scanlab-rewrite-nonexistent/source.cu"
    unit = index.parse(name, args=["-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++", "-w"],
                       unsaved_files=[(name, data)], options=_SINGLE_FILE_PARSE | _SKIP_FUNCTION_BODIES)
    source = unit.get_file(name)
    whole = cindex.SourceRange.from_locations(cindex.SourceLocation.from_offset(unit, source, 0),
                                              cindex.SourceLocation.from_offset(unit, source, len(data)))
    # libclang's C API directly: the bindings' Token objects cost several times as much per token.
    array = ctypes.POINTER(cindex.Token)()
    count = ctypes.c_uint()
    lib.clang_tokenize(unit, whole, ctypes.byref(array), ctypes.byref(count))
    char_at = _char_offsets(text, data)
    file, line, column, offset = ctypes.POINTER(ctypes.c_void_p)(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    location = lib.clang_getInstantiationLocation
    out = ctypes.byref(file), ctypes.byref(line), ctypes.byref(column), ctypes.byref(offset)
    tokens = []
    try:
        for k in range(count.value):
            token = array[k]
            extent = lib.clang_getTokenExtent(unit, token)
            location(lib.clang_getRangeStart(extent), *out)
            start = offset.value
            location(lib.clang_getRangeEnd(extent), *out)
            end = offset.value
            if char_at is not None:
                start, end = char_at[start], char_at[end]
            tokens.append(Token(_KINDS[lib.clang_getTokenKind(token)], text[start:end], start, end))
    finally:
        lib.clang_disposeTokens(unit, array, count)
    return tokens
