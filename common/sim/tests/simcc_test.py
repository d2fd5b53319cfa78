"""simcc reads nvcc's command line as people write it: -Xcompiler in both forms and with
spaces, -fopenmp through to the link, nvcc-only options ignored with a note that names them,
and a clear error for what it cannot take; a device function it does not provide is named at
the program's line; Thrust's CUDA memory resources and par(allocator) build and run; host code
skips the access hook only where it checks nothing (every hook call guarded, host accesses to
device and managed memory still reported), with GCC or Clang as $CXX; a program run with
SCANLAB_SIM_PAGE writes the page of its run, with the picture of each finding; a built-in
variable read in host code is named at its line.

Run: python3 common/sim/tests/simcc_test.py (ctest: sim-simcc)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
SIMCC = REPO / "common" / "bin" / "simcc"
sys.path.insert(0, str(REPO / "common" / "sim" / "tools"))
import nvcc_command_line as ncl  # noqa: E402
from cu_rewrite import Source, keep_lines, needs_rewrite, rewrite  # noqa: E402
from device_pass import read_arch_conditionals  # noqa: E402
from host_access_filter import applies, assemble_command, assembly_command, filter_assembly  # noqa: E402

def marked_line(source: Path) -> int:
    """The line of source marked `expect:`."""
    return next(n for n, text in enumerate(source.read_text().splitlines(), 1) if "expect:" in text)


def build_and_run(test: unittest.TestCase, source: Path, *options: str):
    """Builds source with simcc (the build must succeed), runs it, and returns both results."""
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "prog"
        built = subprocess.run([sys.executable, str(SIMCC), *options, str(source), "-o", str(program)],
                               capture_output=True, text=True)
        test.assertEqual(built.returncode, 0, built.stderr)
        ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    return built, ran


GPU_ONLY_OPTIONS = ["-arch=sm_90", "-gencode", "arch=compute_90,code=sm_90", "--expt-relaxed-constexpr",
                    "--expt-extended-lambda", "-lineinfo", "-rdc=true", "-Xptxas", "-v", "-lcudart"]


class ParseTest(unittest.TestCase):
    def test_xcompiler_value_with_spaces_is_split_like_a_shell(self):
        inv = ncl.parse(["-Xcompiler", "-O3 -march=native -fopenmp", "a.cu"])
        self.assertEqual(inv.compile_args, ["-O3", "-march=native", "-fopenmp"])

    def test_xcompiler_value_with_commas_and_the_equals_form(self):
        inv = ncl.parse(["-Xcompiler", "-a,-b", "--compiler-options=-c", "-Xcompiler=-d,-e", "a.cu"])
        self.assertEqual(inv.compile_args, ["-a", "-b", "-c", "-d", "-e"])

    def test_options_that_change_the_link_reach_it(self):
        inv = ncl.parse(["-Xcompiler", "-fopenmp,-O2", "-pthread", "a.cu", "-lm", "-Xlinker", "-rpath,/x"])
        self.assertIn("-fopenmp", inv.compile_args)
        self.assertEqual(inv.link_args, ["-fopenmp", "-pthread", "-lm", "-Xlinker", "-rpath", "-Xlinker", "/x"])
        self.assertNotIn("-O2", inv.link_args)

    def test_gpu_only_options_are_ignored_and_named(self):
        inv = ncl.parse(["a.cu"] + GPU_ONLY_OPTIONS + ["-maxrregcount=32", "-G", "-cudart", "shared"])
        self.assertEqual(inv.compile_args, [])
        self.assertEqual(inv.link_args, [])
        self.assertEqual(inv.ignored, ["-arch=sm_90", "-gencode arch=compute_90,code=sm_90",
                                       "--expt-relaxed-constexpr", "--expt-extended-lambda", "-lineinfo",
                                       "-rdc=true", "-Xptxas -v", "-lcudart", "-maxrregcount=32", "-G",
                                       "-cudart shared"])
        self.assertIn("-arch=sm_90", inv.ignored_note())
        self.assertIsNone(ncl.parse(["a.cu"]).ignored_note())

    def test_standard_output_and_files(self):
        inv = ncl.parse(["-std", "c++20", "-c", "a.cu", "--output-file", "a.o"])
        self.assertEqual((inv.std, inv.compile_only, inv.output, inv.cu_files), ("-std=c++20", True, "a.o", ["a.cu"]))
        inv = ncl.parse(["-Xcompiler", "-std=c++17", "main.cpp", "k.cu", "lib.o", "-o", "prog"])
        self.assertEqual((inv.std, inv.host_files, inv.cu_files, inv.objects, inv.compile_args),
                         ("-std=c++17", ["main.cpp"], ["k.cu"], ["lib.o"], []))

    def test_what_cannot_be_taken_is_an_error_naming_it(self):
        for argv, message in ((["--frobnicate", "a.cu"], "unknown option or file: --frobnicate"),
                              (["a.cu", "-o"], "-o needs a value"),
                              (["-x", "ptx", "a.cu"], "-x ptx is not supported"),
                              (["-O2"], "no input files"),
                              (["-c", "a.cu", "b.cu", "-o", "x.o"], "-c with -o takes one input file")):
            with self.subTest(argv=argv):
                with self.assertRaises(ncl.CommandLineError) as caught:
                    ncl.parse(argv)
                self.assertEqual(str(caught.exception), message)


class BuildTest(unittest.TestCase):
    """Whole builds of a program whose host code uses OpenMP: without -fopenmp at the link it
    does not link, and without it at the compile it does not use the OpenMP runtime at all."""

    def build_and_run(self, options: list[str]) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "prog"
            built = subprocess.run([sys.executable, str(SIMCC), str(HERE / "command_line" / "openmp_host.cu"),
                                    "-o", str(program)] + options, capture_output=True, text=True)
            self.assertEqual(built.returncode, 0, built.stderr)
            ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
            return built, ran

    def test_xcompiler_with_spaces_and_gpu_options_as_in_public_makefiles(self):
        built, ran = self.build_and_run(["-Xcompiler", "-O3 -march=native -fopenmp"] + GPU_ONLY_OPTIONS)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        self.assertRegex(ran.stdout, r"^sum 332833500, openmp threads [1-9]")
        note = [line for line in built.stderr.splitlines() if line.startswith("simcc: note:")]
        self.assertEqual(len(note), 1, built.stderr)
        for option in ("-arch=sm_90", "-lineinfo", "--expt-relaxed-constexpr", "-rdc=true", "-lcudart"):
            self.assertIn(option, note[0])

    def test_xcompiler_with_commas_and_the_equals_form(self):
        built, ran = self.build_and_run(["-Xcompiler", "-O2,-fopenmp", "-Xcompiler=-Wall"])
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        self.assertRegex(ran.stdout, r"^sum 332833500, openmp threads [1-9]")
        self.assertNotIn("simcc: note:", built.stderr)


class HostAccessFilterTest(unittest.TestCase):
    """Host code calls the access hook only for addresses the hook checks; everything it checked
    before, it still reports at the same line."""

    # What GCC 12 and Clang write for an instrumented load, a store, a volatile load (never
    # guarded: a spin-wait point) and a basic block.
    ASSEMBLY = ("main:\n\tmovq\t%rbx, %rdi\n\tcall\t__tsan_read4@PLT\n\tmovl\t(%rbx), %eax\n"
                "\tcallq\t__tsan_unaligned_write8\n\tcall\t__tsan_volatile_read4@PLT\n"
                "\tcall\t__sanitizer_cov_trace_pc@PLT\n\tcall\tprintf@PLT\n")

    def test_each_load_store_and_block_hook_is_guarded_and_nothing_else(self):
        text, guarded = filter_assembly(self.ASSEMBLY)
        self.assertEqual(guarded, 3)
        lines = text.splitlines()
        for hook in ("call\t__tsan_read4@PLT", "callq\t__tsan_unaligned_write8"):
            at = lines.index("\t" + hook)
            self.assertEqual(lines[at - 2:at], ["\tcmpq\t%fs:8(%rcx), %rax", f"\tjae\t{lines[at + 1][:-1]}"])
        at = lines.index("\tcall\t__sanitizer_cov_trace_pc@PLT")
        self.assertEqual(lines[at - 1], f"\tje\t{lines[at + 1][:-1]}")
        for untouched in ("\tcall\t__tsan_volatile_read4@PLT", "\tcall\tprintf@PLT"):
            at = lines.index(untouched)
            self.assertFalse(lines[at - 1].startswith("\tj"), untouched)
        self.assertEqual(len(set(line for line in lines if line.startswith(".Lscanlab"))), 3)

    def test_the_compile_goes_through_assembly_and_keeps_its_object_and_dependency_file(self):
        command = ["g++", "-fsanitize=thread", "-MD", "-Wa,--noexecstack", "-c", "scan.cu.cpp", "-o", "out/scan.o"]
        self.assertTrue(applies(command))
        to_assembly = assembly_command(command, "tmp/scan.s")
        self.assertIn("-S", to_assembly)
        self.assertNotIn("-c", to_assembly)
        self.assertEqual(to_assembly[to_assembly.index("-o") + 1], "tmp/scan.s")
        self.assertEqual(to_assembly[to_assembly.index("-MT") + 1], "out/scan.o")
        self.assertEqual(to_assembly[to_assembly.index("-MF") + 1], "out/scan.d")
        self.assertEqual(assemble_command(["ccache", "g++"], command, "tmp/scan.s"),
                         ["ccache", "g++", "-c", "tmp/scan.s", "-o", "out/scan.o", "-Wa,--noexecstack"])

    def test_what_the_filter_cannot_take_is_compiled_directly(self):
        base = ["g++", "-fsanitize=thread", "-c", "scan.cu.cpp", "-o", "scan.o"]
        for option in ("-flto", "-flto=auto", "-m32", "-mx32"):
            self.assertFalse(applies(base + [option]), option)
        self.assertFalse(applies(["g++", "-c", "host.cpp", "-o", "host.o"]))
        self.assertFalse(applies(["g++", "-fsanitize=thread", "scan.cu.cpp", "-o", "scan"]))

    def test_a_built_program_has_no_unguarded_load_or_store_hook(self):
        with tempfile.TemporaryDirectory() as tmp:
            obj = Path(tmp) / "host_loops.o"
            built = subprocess.run([sys.executable, str(SIMCC), "-c", str(HERE / "command_line" / "host_loops.cu"),
                                    "-o", str(obj)], capture_output=True, text=True)
            self.assertEqual(built.returncode, 0, built.stderr)
            listing = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", str(obj)], capture_output=True,
                                     text=True, check=True).stdout.splitlines()
        instructions = [line for line in listing if re.match(r"^\s+[0-9a-f]+:\t", line)]
        hook = re.compile(r"R_X86_64_PLT32\s+__tsan_(unaligned_)?(read|write)\d+-")
        calls = [n for n, line in enumerate(listing) if hook.search(line)]
        self.assertGreater(len(calls), 10)
        for n in calls:
            call = instructions.index(listing[n - 1])
            self.assertRegex(instructions[call - 1], r"\tjae ", listing[n - 1])
            self.assertRegex(instructions[call - 2], r"cmp\s+%fs:0x8\(%rcx\),%rax", listing[n - 1])

    def test_host_code_on_device_and_managed_memory_and_a_later_kernel_are_checked_as_before(self):
        self.check_host_loops(os.environ)

    @unittest.skipUnless(shutil.which("clang++"), "clang++ is not installed")
    def test_the_same_with_clang(self):
        # simcc takes its host compiler from $CXX; Clang's assembly goes through the same filter,
        # and the runtime, built by Clang too, defines the C library's putchar over glibc's inline one.
        self.check_host_loops(dict(os.environ, CXX="clang++"))

    def check_host_loops(self, env):
        source = HERE / "command_line" / "host_loops.cu"
        lines = {text.split("expect: ")[1].split()[0]: n for n, text in enumerate(source.read_text().splitlines(), 1)
                 if "expect: " in text}
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "prog"
            built = subprocess.run([sys.executable, str(SIMCC), str(source), "-o", str(program)],
                                   capture_output=True, text=True, env=env)
            self.assertEqual(built.returncode, 0, built.stderr)
            # One OS thread: the kernels run on the thread whose host code skipped the hook.
            ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                                 env=dict(os.environ, SCANLAB_SIM_THREADS="1"))
        self.assertEqual(ran.returncode, 1, ran.stderr)
        self.assertIn("last prefix 12582907, threads 32", ran.stdout)
        self.assertRegex(ran.stderr, rf"race .*\n(.*\n)*.*{source}:{lines['shared-memory-race']}")
        self.assertIn(f"write: {source}:{lines['host-writes-device-memory']} (in main)", ran.stderr)
        self.assertIn(f"read:   {source}:{lines['host-reads-managed-memory-early']} (in main)", ran.stderr)
        self.assertIn("read of 4 bytes of shared memory that nothing wrote", ran.stderr)
        self.assertIn("4 errors, 0 warnings", ran.stderr)


class BuiltinVariableTest(unittest.TestCase):
    def test_a_built_in_variable_read_in_host_code_is_named_at_its_line(self):
        source = HERE / "command_line" / "builtin_in_host_code.cu"
        _, ran = build_and_run(self, source)
        self.assertNotEqual(ran.returncode, 0)
        self.assertIn("kernel saw a block of 32 threads", ran.stdout)
        self.assertNotIn("host reads", ran.stdout)
        self.assertIn("blockDim used outside a kernel", ran.stderr)
        self.assertIn(f"use: {source}:{marked_line(source)} (in main)", ran.stderr)


class SpilledChecksTest(unittest.TestCase):
    """Checks kept in a file (SCANLAB_SIM_SPILL=always) find what checks in memory find."""

    def test_a_buffers_checks_in_a_file_report_the_same_and_go_when_it_is_freed(self):
        source = HERE / "command_line" / "spilled_checks.cu"
        lines = {text.split("expect:")[1].strip(): n
                 for n, text in enumerate(source.read_text().splitlines(), 1) if "expect:" in text}
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir="/var/tmp") as spill_dir:
            program = Path(tmp) / "prog"
            built = subprocess.run([sys.executable, str(SIMCC), str(source), "-o", str(program)],
                                   capture_output=True, text=True)
            self.assertEqual(built.returncode, 0, built.stderr)
            runs = {}
            for policy in ("always", "never"):
                env = dict(os.environ, SCANLAB_SIM_SPILL=policy, SCANLAB_SIM_SPILL_DIR=spill_dir)
                runs[policy] = subprocess.run([str(program), spill_dir], capture_output=True, text=True,
                                              timeout=120, env=env)
            self.assertEqual(os.listdir(spill_dir), [], "the file of checks has no name")
        spilled, in_memory = runs["always"], runs["never"]
        self.assertEqual(spilled.returncode, 1, spilled.stderr)
        self.assertIn("mappings while the buffers live: 1\n", spilled.stdout)
        self.assertIn("mappings after cudaFree: 0\n", spilled.stdout)
        self.assertIn("wrong elements of the new buffer: 0\n", spilled.stdout)
        note, _, findings = spilled.stderr.partition("\n")
        self.assertIn(f"are kept in a file in {spill_dir}", note)
        self.assertIn(f"data race (read-after-write) on global memory\n  write: {source}:{lines['write']} ", findings)
        self.assertIn(f"  read:  {source}:{lines['race']} ", findings)
        self.assertIn(f"that nothing wrote\n  read: {source}:{lines['unwritten']} ", findings)
        self.assertIn("3 errors, 0 warnings", findings)
        # The same reports, word for word, with the checks in memory (and no file mapped).
        self.assertEqual(in_memory.stderr, findings)
        self.assertIn("mappings while the buffers live: 0\n", in_memory.stdout)


class ReportedFileTest(unittest.TestCase):
    def test_a_report_in_a_function_the_compiler_made_names_the_programs_file(self):
        source = HERE / "command_line" / "openmp_reads_device_memory.cu"
        line = marked_line(source)
        _, ran = build_and_run(self, source, "-Xcompiler", "-fopenmp")
        self.assertEqual(ran.returncode, 1, ran.stderr)
        self.assertIn(f"read: {source}:{line} (in main._omp_fn.0)", ran.stderr)
        self.assertNotIn("simcc-", ran.stderr)


class HostMathVersionsTest(unittest.TestCase):
    def test_a_programs_host_min_max_rsqrtf_are_overloads_not_redefinitions(self):
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "prog"
            built = subprocess.run([sys.executable, str(SIMCC), str(HERE / "command_line" / "host_math_versions.cu"),
                                    "-o", str(program)], capture_output=True, text=True)
            self.assertEqual(built.returncode, 0, built.stderr)
            ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        # Clamped to [4, 40] and halved: i = 0..4 give 4, i = 5..39 themselves, i = 40..63 give 40.
        self.assertEqual(ran.stdout, "sum 875.0, widest 12, max of unsigned 12\n")


class ThrustMemoryResourceTest(unittest.TestCase):
    def test_cuda_memory_resources_and_par_with_an_allocator_run_in_the_host_system(self):
        source = HERE / "command_line" / "thrust_memory_resources.cu"
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "prog"
            built = subprocess.run([sys.executable, str(SIMCC), "-O2", str(source), "-o", str(program)],
                                   capture_output=True, text=True)
            self.assertEqual(built.returncode, 0, built.stderr)
            ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        # 1 + ... + 1000; 1 + ... + 999; 0^2 + ... + 999^2.
        self.assertEqual(ran.stdout, "total 500500, last exclusive 499500, sorted ascending, sum of squares 332833500, "
                                     "temporaries balanced\n")
        self.assertNotIn("scanlab-sim:", ran.stderr)


class LaunchByArgumentsRewriteTest(unittest.TestCase):
    """The runtime API's launches take the kernel itself, and a launch configuration's fields keep their names."""

    def test_a_cast_of_the_kernel_to_void_pointer_is_dropped_line_for_line(self):
        source = ("void f() {\n  cudaLaunchCooperativeKernel(\n      (void *)k<int, 2>, g, b, args, 0, s);\n"
                  "  cudaLaunchKernel(reinterpret_cast<const void*>(k), g, b, args);\n"
                  "  cudaLaunchKernel((void*)other, g, b, args);\n}\n")
        self.assertTrue(needs_rewrite(source))
        text = rewrite(source)
        self.assertEqual(text.count("\n"), source.count("\n"))
        self.assertIn("      k<int, 2>, g, b, args, 0, s);", text)
        self.assertIn("cudaLaunchKernel((k), g, b, args);", text)
        self.assertIn("cudaLaunchKernel(other, g, b, args);", text)
        self.assertNotIn("void", text.replace("void f()", ""))

    def test_other_casts_and_calls_are_left_alone(self):
        source = "void f() {\n  g((void*)k);\n  cudaLaunchKernel((int*)k, a);\n}\n"
        self.assertEqual(rewrite(source), source)

    def test_a_configurations_grid_and_block_fields_are_renamed_where_accessed(self):
        text = rewrite("void f(cudaLaunchConfig_t* c) {\n  cfg.gridDim = dim3(4);\n  c->blockDim = 32;\n"
                       "  int n = gridDim.x * blockDim.x;\n}\n")
        self.assertIn("cfg.grid_dim_ = dim3(4);", text)
        self.assertIn("c->block_dim_ = 32;", text)
        self.assertIn("int n = gridDim.x * blockDim.x;", text)


class IncludeByMacroTest(unittest.TestCase):
    """An include through a macro defined elsewhere is warned about, except the kit's own lab-source macro."""

    REWRITER = REPO / "common" / "sim" / "tools" / "cu_rewrite.py"

    def rewrite_stderr(self, text: str) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "instantiations.cu"
            source.write_text(text)
            done = subprocess.run([sys.executable, str(self.REWRITER), str(source), "-o", str(Path(tmp) / "out.cpp")],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            return done.stderr

    def test_the_lab_source_that_the_kits_build_rewrote_is_included_without_a_warning(self):
        self.assertEqual(self.rewrite_stderr("#include SCANLAB_LAB_SOURCE\n\ntemplate void f<int>(int);\n"), "")

    def test_a_users_header_named_by_a_macro_is_still_warned_about_at_its_line(self):
        stderr = self.rewrite_stderr("#include SCANLAB_LAB_SOURCE\n#include MY_KERNELS\n")
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertIn("instantiations.cu:2:1: warning: #include MY_KERNELS: a header named by a macro defined "
                      "elsewhere is not followed", stderr)


class DevicePassTest(unittest.TestCase):
    """Conditionals on __CUDA_ARCH__ read as the pass whose code they select."""

    @staticmethod
    def read(text: str) -> tuple[str, list[int]]:
        """The rewritten directives of `text` as one string, and the lines warned about."""
        src = Source.of(text)
        reading = read_arch_conditionals(src, lambda b, e, r, d: keep_lines(src, b, e, r, d))
        edited = [text[:begin].count("\n") + 1 for begin, _, _ in reading.edits]
        lines = text.splitlines()
        for (begin, end, replacement), line in zip(reading.edits, edited):
            lines[line - 1] = replacement
        return "\n".join(lines), [src.line_of(offset) for offset, _ in reading.warnings]

    def test_inside_a_kernel_the_device_pass_reads_the_architecture(self):
        text, warned = self.read("__global__ void k(int* p) {\n#if __CUDA_ARCH__ >= 700\n  *p = 1;\n#elif "
                                 "defined(__CUDA_ARCH__)\n  *p = 2;\n#endif\n}\n")
        self.assertIn("#if 900 >= 700", text)
        self.assertIn("#elif 1", text)
        self.assertEqual(warned, [])

    def test_ifdef_and_ifndef_in_a_device_function(self):
        text, _ = self.read("template <class T> __device__ __forceinline__ T f(T x) {\n#ifdef __CUDA_ARCH__\n"
                            "  return x;\n#endif\n#ifndef __CUDA_ARCH__\n  return -x;\n#endif\n}\n")
        self.assertIn("#if 1\n", text)
        self.assertIn("#if 0\n", text)

    def test_at_file_scope_around_device_declarations_alone(self):
        text, warned = self.read("#if defined __CUDA_ARCH__ && __CUDA_ARCH__ < 600\n__device__ double atomicAdd("
                                 "double* a, double v) { return v; }\n__device__ int counter;\n#endif\n")
        self.assertIn("#if 1 && 900 < 600", text)
        self.assertEqual(warned, [])

    def test_host_code_keeps_the_host_pass_reading_without_a_warning(self):
        source = "int main() {\n#ifndef __CUDA_ARCH__\n  return 0;\n#endif\n}\n"
        text, warned = self.read(source)
        self.assertEqual(text, source.rstrip("\n"))
        self.assertEqual(warned, [])

    def test_code_of_both_passes_keeps_the_host_reading_with_a_warning(self):
        source = ("__host__ __device__ int f() {\n#ifdef __CUDA_ARCH__\n  return 2;\n#else\n  return 1;\n"
                  "#endif\n}\n#if __CUDA_ARCH__ >= 800\nint host_helper();\n__device__ int g();\n#endif\n")
        text, warned = self.read(source)
        self.assertEqual(text, source.rstrip("\n"))
        self.assertEqual(warned, [2, 8])

    def test_a_guarded_kernel_runs_and_the_specialization_is_used(self):
        source = HERE / "command_line" / "arch_guarded_kernel.cu"
        line = marked_line(source)
        built, ran = build_and_run(self, source)
        # 0 + 1 + ... + 31 = 496, plus the mark of the sm_80 specialization.
        self.assertEqual((ran.returncode, ran.stdout), (0, "total 1496, host pass 1\n"), ran.stderr)
        warnings = [text for text in built.stderr.splitlines() if ": warning: " in text]
        self.assertEqual(len(warnings), 1, built.stderr)
        self.assertTrue(warnings[0].startswith(f"{source}:{line}:"), warnings[0])
        self.assertIn("read here as in nvcc's host pass", warnings[0])


class RefusalTest(unittest.TestCase):
    """What the simulator cannot build is refused at the program's own line (the one marked
    `expect:` in the source), with the feature named."""

    def compile(self, name: str) -> tuple[Path, int, subprocess.CompletedProcess]:
        source = HERE / "command_line" / name
        line = next(n for n, text in enumerate(source.read_text().splitlines(), 1) if "expect:" in text)
        with tempfile.TemporaryDirectory() as tmp:
            built = subprocess.run([sys.executable, str(SIMCC), "-c", str(source), "-o", str(Path(tmp) / "k.o")],
                                   capture_output=True, text=True)
        self.assertEqual(built.returncode, 1, built.stderr)
        return source, line, built

    def test_an_unsupported_device_function_is_named(self):
        source, line, built = self.compile("unsupported_device_function.cu")
        self.assertIn(f"{source}:{line}: note: __fns is not declared by the scanlab simulator's CUDA headers: "
                      "if it is a CUDA device function, the simulator does not support it", built.stderr)

    def test_what_a_multi_warp_tile_lacks_is_refused_at_the_call_not_at_the_instantiation(self):
        source, line, built = self.compile("multi_warp_tile.cu")
        stated = [text for text in built.stderr.splitlines() if text.startswith(f"{source}:") and ": error: " in text]
        self.assertTrue(stated, built.stderr)
        self.assertEqual(stated[0], f"{source}:{line}: error: static assertion failed: thread_block_tile<N>::shfl_xor "
                         "exists in CUDA only for tiles of at most 32 threads: use cg::reduce, or a tile of 32")

class RunPageTest(unittest.TestCase):
    """SCANLAB_SIM_PAGE=FILE.html: at exit the program writes the page of its run (its findings,
    each with its picture), and exits as it would without the page."""

    def build_and_run(self, name: str, *defines: str, env: dict | None = None, args: tuple = ()):
        source = HERE / "planted" / name
        tmp = Path(self.enterContext(tempfile.TemporaryDirectory()))
        program = tmp / "prog"
        built = subprocess.run([sys.executable, str(SIMCC), "-O2", *defines, str(source), "-o", str(program)],
                               capture_output=True, text=True)
        self.assertEqual(built.returncode, 0, built.stderr)
        page = tmp / "pages" / "run.html"
        ran = subprocess.run([str(program), *args], capture_output=True, text=True, timeout=300, cwd=tmp,
                             env={**os.environ, **(env or {}), "SCANLAB_SIM_PAGE": "pages/run.html"})
        without = subprocess.run([str(program), *args], capture_output=True, text=True, timeout=300, cwd=tmp,
                                 env={**os.environ, **(env or {})})
        self.assertEqual(ran.returncode, without.returncode, "the page changed the program's exit status")
        self.assertIn(f"the page of this run: {page}", ran.stderr)
        text = page.read_text()
        for fetched in ("<script", "<link", "src=\"http", "@import", "url(http"):
            self.assertNotIn(fetched, text)
        return source, ran, text

    def expected_lines(self, source: Path, kind: str) -> list[int]:
        return [n for n, line in enumerate(source.read_text().splitlines(), 1)
                if "expect:" in line and kind in line.split("expect:")[1]]

    def test_a_race_is_drawn_from_a_second_run_with_its_pair_at_the_programs_lines(self):
        source, ran, text = self.build_and_run("kogge_stone_inplace.cu")
        self.assertEqual(ran.returncode, 1, ran.stderr)
        self.assertIn("(1 finding, 1 drawn)", ran.stderr)
        self.assertIn('class="race-picture"', text)
        pair = re.findall(r'class="racing (?:earlier|later)"[^>]*data-line="(\d+)"', text)
        self.assertEqual(sorted(int(n) for n in pair), self.expected_lines(source, "race"))
        self.assertEqual(text.count('class="missing-barrier"'), 1)

    def test_a_deadlock_is_drawn_as_its_blocks(self):
        source, ran, text = self.build_and_run("lookback_by_block_index.cu",
                                               env={"SCANLAB_SIM_RESIDENT_BLOCKS": "16"})
        self.assertEqual(ran.returncode, 1, ran.stderr)
        self.assertIn('class="wait-picture"', text)
        self.assertIn(f"{source}:{self.expected_lines(source, 'deadlock')[0]}", text)

    def test_a_clean_run_gets_a_page_that_says_so(self):
        _, ran, text = self.build_and_run("kogge_stone_inplace.cu", "-DPLANTED_FIXED")
        self.assertEqual(ran.returncode, 0, ran.stderr)
        self.assertIn("(0 findings, 0 drawn)", ran.stderr)
        self.assertIn("found nothing in this run", text)
        self.assertNotIn("<figure", text)


if __name__ == "__main__":
    unittest.main()
