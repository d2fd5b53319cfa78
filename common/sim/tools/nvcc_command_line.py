"""nvcc's command line as people write it, read for simcc: which files to build, which options
reach the host compiler, which reach the link, and which mean nothing on a CPU.

nvcc accepts every option with a value as `-opt value` and as `-opt=value`, and hands
`-Xcompiler`/`--compiler-options` values to the host compiler split at commas; build scripts
also write `-Xcompiler "-O3 -march=native -fopenmp"`, which nvcc's own shell command splits at
the spaces. Options such as -fopenmp or -pthread must reach the link as well as the compile, as
they do with nvcc, or the program fails to link.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field


class CommandLineError(Exception):
    """An option simcc cannot take, with the message to print."""


# nvcc options that take a value and mean nothing on a CPU (GPU code generation, ptxas, nvlink).
IGNORED_WITH_VALUE = {
    "-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code",
    "-ccbin", "--compiler-bindir", "-maxrregcount", "--maxrregcount", "-Xptxas", "--ptxas-options",
    "-Xnvlink", "--nvlink-options", "-rdc", "--relocatable-device-code", "-t", "--threads",
    "-default-stream", "--default-stream", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt",
    "--prec-sqrt", "-fmad", "--fmad", "-cudart", "--cudart", "-split-compile", "--split-compile",
    "-diag-suppress", "--diag-suppress", "-Xcudafe", "--cudafe-options",
}
IGNORED_FLAGS = {
    "-lineinfo", "--generate-line-info", "--extended-lambda", "-extended-lambda", "-G", "--device-debug",
    "-use_fast_math", "--use_fast_math", "-dc", "--device-c", "-dw", "--device-w", "--resource-usage",
    "-res-usage", "-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", "-keep", "--keep",
    "-src-in-ptx", "--source-in-ptx", "-restrict", "--restrict",
}
IGNORED_PREFIXES = ("--expt-", "-expt-")
# Libraries of the CUDA runtime and driver: the simulator is the runtime, so linking them would
# put a second cudaMalloc beside its own.
CUDA_RUNTIME_LIBRARIES = {"cudart", "cudart_static", "cuda", "cudadevrt"}
# Host-compiler options that change what the link needs, passed to the link as well.
LINK_TOO_PREFIXES = ("-fopenmp", "-pthread", "-fsanitize=", "-fprofile", "--coverage", "-static", "-Wl,",
                     "-fuse-ld=", "-rdynamic", "-shared")

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".C")
OBJECT_SUFFIXES = (".o", ".a", ".so")


@dataclass
class Invocation:
    """What one simcc command asks for."""
    output: str | None = None
    compile_only: bool = False
    std: str = ""                                             # -std=..., if given
    cu_files: list[str] = field(default_factory=list)
    host_files: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    compile_args: list[str] = field(default_factory=list)     # to every compile
    link_args: list[str] = field(default_factory=list)        # to the link
    ignored: list[str] = field(default_factory=list)          # as written, for the note

    def ignored_note(self) -> str | None:
        if not self.ignored:
            return None
        return ("simcc: note: ignored on the CPU simulator (GPU code generation and the CUDA runtime "
                "library mean nothing there): " + " ".join(self.ignored))


def split_option(arg: str) -> tuple[str, str | None]:
    """`--opt=value` -> ("--opt", "value"); anything else -> (arg, None)."""
    if arg.startswith("-") and "=" in arg:
        name, value = arg.split("=", 1)
        return name, value
    return arg, None


def host_compiler_options(value: str) -> list[str]:
    """A -Xcompiler value as the host compiler receives it: split at commas (nvcc) and at
    spaces (the shell that runs the host compiler)."""
    return [part for piece in shlex.split(value) for part in piece.split(",") if part]


def parse(argv: list[str]) -> Invocation:
    inv = Invocation()
    i = 0

    def take_value(name: str, inline: str | None) -> str:
        nonlocal i
        if inline is not None:
            return inline
        if i + 1 >= len(argv):
            raise CommandLineError(f"{name} needs a value")
        i += 1
        return argv[i]

    def add_host_option(option: str) -> None:
        if option.startswith("-std="):
            inv.std = option
            return
        inv.compile_args.append(option)
        if option.startswith(LINK_TOO_PREFIXES):
            inv.link_args.append(option)

    while i < len(argv):
        arg = argv[i]
        name, inline = split_option(arg)
        if arg == "-o" or name in ("-o", "--output-file"):
            inv.output = take_value("-o", inline)
        elif arg in ("-c", "--compile"):
            inv.compile_only = True
        elif name in IGNORED_WITH_VALUE:
            value = take_value(name, inline)
            inv.ignored.append(f"{name}={value}" if inline is not None else f"{name} {value}")
        elif arg in IGNORED_FLAGS or name in IGNORED_FLAGS or arg.startswith(IGNORED_PREFIXES):
            inv.ignored.append(arg)
        elif name in ("-std", "--std"):
            inv.std = "-std=" + take_value(name, inline)
        elif arg in ("-I", "-D", "-U", "-isystem", "-include"):
            inv.compile_args += [arg, take_value(arg, None)]
        elif name in ("--include-path", "--define-macro", "--undefine-macro"):
            flag = {"--include-path": "-I", "--define-macro": "-D", "--undefine-macro": "-U"}[name]
            inv.compile_args.append(flag + take_value(name, inline))
        elif name in ("-Xcompiler", "--compiler-options"):
            for option in host_compiler_options(take_value(name, inline)):
                add_host_option(option)
        elif name in ("-Xlinker", "--linker-options"):
            for option in take_value(name, inline).split(","):
                inv.link_args += ["-Xlinker", option]
        elif arg in ("-L", "-l") or name in ("--library-path", "--library"):
            flag = "-L" if arg == "-L" or name == "--library-path" else "-l"
            value = take_value(name, inline if arg not in ("-L", "-l") else None)
            if flag == "-l" and value in CUDA_RUNTIME_LIBRARIES:
                inv.ignored.append(f"-l{value}")
            else:
                inv.link_args.append(flag + value)
        elif arg.startswith("-l") and arg[2:] in CUDA_RUNTIME_LIBRARIES:
            inv.ignored.append(arg)
        elif arg.startswith(("-L", "-l")):
            inv.link_args.append(arg)
        elif name in ("-x", "--x"):
            language = take_value(name, inline)
            if language not in ("cu", "c++"):
                raise CommandLineError(f"-x {language} is not supported")
        elif arg.startswith(("-I", "-D", "-U", "-O", "-W", "-f", "-m")) or arg in ("-g", "-pthread", "-w"):
            add_host_option(arg)
        elif arg.endswith(".cu"):
            inv.cu_files.append(arg)
        elif arg.endswith(SOURCE_SUFFIXES):
            inv.host_files.append(arg)
        elif arg.endswith(OBJECT_SUFFIXES):
            inv.objects.append(arg)
        else:
            raise CommandLineError(f"unknown option or file: {arg}")
        i += 1
    if not (inv.cu_files or inv.host_files or inv.objects):
        raise CommandLineError("no input files")
    if inv.compile_only and inv.output and len(inv.cu_files) + len(inv.host_files) > 1:
        raise CommandLineError("-c with -o takes one input file")
    return inv
