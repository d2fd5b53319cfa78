"""A submission's build and its test programs reach nothing they must not (grader/README.md,
"The build is student code too" and "What a submission can reach").

Attacks, each with its expected outcome:

- reads at run time, by every route the C library offers (open, open64, openat, __open_2,
  __openat_2, syscall(SYS_open), syscall(SYS_openat), syscall(SYS_openat2), mmap, fopen,
  ifstream, opendir, stat: attacks/read_by_every_route.cpp), run in the sandbox with lab 02's
  view: the lab's own reference and a later lab's, the kit's .git, another build tree, /etc/hostname,
  /etc/passwd, /home and a file of the grader's home folder give nothing by any route, while lab 01's reference (an earlier lab) and a
  kit header are read by every route (the routes work). The same program with the whole file
  system in view (the box without a lab's view) reads the reference by every route: this
  test can fail;
- compile-time bombs, one submission graded `01 02 03 04 05`: lab 01 is the reference and keeps
  its marks; lab 02 includes /dev/zero and lab 03 a template that doubles its parameter pack
  (each: the compiler used more than the memory limit), lab 04 holds static assertions each
  just under the compiler's constexpr operation limit (more than the CPU limit); each is a
  compile error in words, graded once, within 2 minutes; lab 05 includes its own reference by
  its path in the kit and /etc/hostname (refused by the file system: "reads outside the lab");
  lab 06 includes /dev/stderr, a pipe that nothing writes (the build waited, doing nothing: the
  waiting limit, set to 5 s here); lab 07 probes its reference with __has_include and includes
  it through /proc/1/root (the box's own root: not found, and the grade goes on); lab 08 embeds
  /etc/hostname with an assembler `.incbin` written through a macro, out of the rewriter's sight
  (refused by the file system: "reads outside the lab"); lab 01's static initializer reads lab
  02's reference and /etc/hostname by __open_2 and read, __openat_2 and pread, and mmap, calls
  the screen lets through, and aborts if it got a byte of them or did not get one of a kit header
  (so lab 01's full marks say the routes work and the files were hidden);
- a submission whose labs/ is a symbolic link to the kit's solutions/: not taken (lab 02 is
  missing, with a note), never the reference's marks;
- a hidden check's test file (in a kit of its own: this one has none) is empty to a test
  program and to a build that imports a prebuilt tree;
- the C library's other ways to start a process (_Fork, __fork, __clone, execveat, ...), which
  a fork bomb in a static initializer would call: each a process escape to the symbol screen;
- includes through build trees: the same folder graded again, `01 02`, with a lab 02 that
  includes the rewritten copy of lab 02's reference that lab 03's build left in the
  submission's own build tree: not found (the other labs' folders of the tree are empty in
  its view), never full marks.

After every grade no process of it is left running. Without the namespace box (bubblewrap)
the build limits are checked all the same; the reads are not hidden there, and this test says
so instead of checking them.

The CPU limit is set to 15 s for this test (SCANLAB_BUILD_CPU_S) so that the constexpr bomb
costs 15 s, not a minute, and the waiting limit to 5 s (SCANLAB_BUILD_WAITING_S).

Usage: check_isolation.py --work-dir DIR [--jobs N]"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE.parent), str(REPO / "common" / "python")]

from scanlab_grader import sandbox, symbol_screen  # noqa: E402

CPU_S = "15"
WAITING_S = "5"
BOMB_SECONDS = 120  # what one bomb may cost, its lab graded to the end

# Lab 02's view must hide these, lab 01's reference and the header must be read by every route.
ROUTES = ("open", "open64", "openat", "__open_2", "__openat_2", "syscall(SYS_open)", "syscall(SYS_openat)",
          "syscall(SYS_openat2)", "mmap", "fopen", "ifstream", "stat")
DEVICE_FILE = '\n#include "/dev/zero"\n'
DOUBLING = """
template <int N, class... T> struct Doubling : Doubling<N - 1, T..., T...> {};
template <class... T> struct Doubling<0, T...> { static constexpr int size = sizeof...(T); };
static_assert(Doubling<40, int>::size > 0, "grows");
"""
SPIN = ("\nconstexpr unsigned spin(unsigned n) { unsigned s = 0; for (unsigned i = 0; i < n; ++i) "
        "for (unsigned j = 0; j < 1000; ++j) s += i ^ j; return s; }\n")


WAITS_FOR_EVER = '\n#include "/dev/stderr"\n'  # the compiler's own output pipe, opened for reading
# __asm__ spelt through a macro: the simulator's rewriter, which refuses asm, never sees the word.
INCBIN = ('\n#define SCANLAB_PASTE(a, b) a##b\nSCANLAB_PASTE(__as, m__)(".pushsection .rodata\\n'
          '.incbin \\"/etc/hostname\\"\\n.popsection");\n')


def probing(reference_path: Path) -> str:
    return (f'\n#if __has_include("{reference_path}")\n#error the reference is in view\n#endif\n'
            f'#include "/proc/1/root{reference_path}"\n')


def reads_at_run_time(hidden: list[Path], shown: Path) -> str:
    """A static initializer of lab code that reads by calls the screen lets through, and aborts
    when it read a byte of a `hidden` file or none of `shown`."""
    paths = ", ".join(f'"{p}"' for p in hidden)
    return f"""
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cstdlib>
#include <initializer_list>
extern "C" int __open_2(const char*, int);
extern "C" int __openat_2(int, const char*, int);
namespace {{
bool any_byte(const char* path) {{
  char byte = 0;
  bool got = false;
  int fd = __open_2(path, O_RDONLY);
  if (fd >= 0) got = read(fd, &byte, 1) == 1 || got;
  int at = __openat_2(AT_FDCWD, path, O_RDONLY);
  if (at >= 0) got = pread(at, &byte, 1, 0) == 1 || got;
  if (fd >= 0) {{
    void* p = mmap(nullptr, 1, PROT_READ, MAP_PRIVATE, fd, 0);
    got = (p != MAP_FAILED && static_cast<const char*>(p)[0] != 0) || got;
  }}
  return got;
}}
struct ReadsAtStart {{
  ReadsAtStart() {{
    for (const char* path : {{{paths}}})
      if (any_byte(path)) std::abort();
    if (!any_byte("{shown}")) std::abort();
  }}
}} reads_at_start;
}}  // namespace
"""


def constexpr_bomb() -> str:
    # spin(4000 + K) takes about 28 million of the compiler's 33.5 million constexpr operations:
    # each of the 400 static assertions passes, one after the other.
    return SPIN + ("template <unsigned K> struct Chain : Chain<K - 1> "
                   "{ static_assert(spin(4000 + K) != 1, \"just under the limit\"); };\n"
                   "template <> struct Chain<0> {};\ntemplate struct Chain<400>;\n")


def reference(lab_dir: str) -> tuple[str, str]:
    folder = REPO / "solutions" / lab_dir
    source = next(p for p in sorted(folder.glob("*.cu")))
    return source.name, source.read_text()


def write_lab(submission: Path, lab_dir: str, extra: str) -> None:
    name, text = reference(lab_dir)
    (submission / lab_dir).mkdir(parents=True, exist_ok=True)
    (submission / lab_dir / name).write_text(text + extra)


def leftovers(work: Path) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(work) in cmdline:
            found.append(f"{entry}: {cmdline[:120]}")
    return found


def grade(work: Path, submission: Path, labs: list[str], jobs: str, problems: list[str]) -> dict:
    env = dict(os.environ, SCANLAB_BUILD_CPU_S=CPU_S, SCANLAB_BUILD_WAITING_S=WAITING_S)
    cmd = [str(HERE.parent / "grade"), "--submission", str(submission), "--format", "json", "--build-root",
           str(work / "grade"), "--jobs", jobs, "--timeout", "60", *labs]
    print(f"$ SCANLAB_BUILD_CPU_S={CPU_S} SCANLAB_BUILD_WAITING_S={WAITING_S}", " ".join(cmd), flush=True)
    started = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env)
    seconds = time.monotonic() - started
    print(f"  {seconds:.0f} s, exit status {proc.returncode}")
    left = leftovers(work)
    if left:
        problems.append(f"grade {' '.join(labs)} left processes running: {'; '.join(left)}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        problems.append(f"grade {' '.join(labs)} printed no JSON report (exit status {proc.returncode})")
        return {}
    bombs = sum(1 for lab in doc["labs"] if any(w in c["reason"] for c in lab["checks"]
                                                for w in ("used more than", "doing nothing")))
    if seconds > 60 + BOMB_SECONDS * max(1, bombs):
        problems.append(f"grade {' '.join(labs)} took {seconds:.0f} s: a bomb's lab must end within "
                        f"{BOMB_SECONDS} s")
    return {lab["number"]: lab for lab in doc["labs"]}


def expect_full_marks(labs: dict, number: str, problems: list[str]) -> None:
    lab = labs.get(number)
    graded = [c for c in lab["checks"] if c["status"] != "skip"] if lab else []
    failed = [c for c in graded if c["status"] != "pass"]
    print(f"lab {number}: {'full marks' if graded and not failed else 'NOT full marks'}")
    if not graded or failed:
        problems.append(f"lab {number} (the reference) lost marks: "
                        + (f"{failed[0]['id']}: {failed[0]['reason']}" if failed else "no checks"))


def expect_compile_error(labs: dict, number: str, says: str, problems: list[str], kind: str = "compile") -> None:
    lab = labs.get(number)
    graded = [c for c in lab["checks"] if c["status"] != "skip"] if lab else []
    wrong = [c for c in graded if c["status"] != "fail" or c["kind"] != kind
             or says not in " ".join([c["reason"], *c.get("details", [])])]
    print(f"lab {number}: {graded[0]['kind'] + ': ' + graded[0]['reason'] if graded else 'no checks'}")
    if not graded or wrong:
        got = wrong[0] if wrong else {"status": "-", "kind": "-", "reason": "no checks"}
        problems.append(f"lab {number}: expected every check to fail as {kind} saying '{says}', got "
                        f"{got['status']} {got['kind']}: {got['reason']}")


def expect_not_said(labs: dict, number: str, text: str, problems: list[str]) -> None:
    said = [c["id"] for c in labs.get(number, {}).get("checks", [])
            if text in " ".join([c["reason"], *c.get("details", [])])]
    if said:
        problems.append(f"lab {number}: '{text}' ({said[0]})")


def check_reads(work: Path, box: sandbox.Sandbox, problems: list[str]) -> None:
    reader = work / "reader" / "read_by_every_route"
    reader.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["c++", "-std=c++17", "-O1", "-o", str(reader), str(HERE / "attacks" / "read_by_every_route.cpp")],
                   check=True)
    other_tree = work / "another-grade" / "sim-someone"
    other_tree.mkdir(parents=True, exist_ok=True)
    (other_tree / "secret.txt").write_text("another grade's build tree\n")
    # A file of the home folder (a Python installed there is in view, the rest of the folder not).
    home_file = next((p for p in sorted(Path.home().iterdir()) if p.is_file()), None) if Path.home().is_dir() else None
    hidden = [REPO / "solutions" / "02-kogge-stone" / "kogge_stone.cu",
              REPO / "solutions" / "03-exclusive-scan" / "exclusive_scan.cu",
              other_tree / "secret.txt", Path("/etc/hostname"), Path("/etc/passwd"), Path("/home"), REPO / ".git"]
    hidden = [p for p in hidden + ([home_file] if home_file else []) if p.exists()]
    shown = [REPO / "solutions" / "01-sequential" / "sequential_scan.cu",
             REPO / "common" / "include" / "scanlab" / "cuda_check.hpp"]

    def reads(scope: sandbox.Scope | None) -> set[tuple[str, str]]:
        sandbox.grading(scope)
        with tempfile.TemporaryDirectory(dir=work) as scratch, tempfile.TemporaryFile() as out:
            run = box.spawn([str(reader), *map(str, hidden + shown)], cwd=Path(scratch), env={"PATH": "/usr/bin"},
                            stdout=out, writable=(Path(scratch),))
            run.wait(60)
            run.leftovers()
            out.seek(0)
            lines = out.read().decode(errors="replace").splitlines()
        return {tuple(l.split(" ", 2)[1:]) for l in lines if l.startswith("read ")}

    tree = work / "grade" / "tree-of-lab-02"
    tree.mkdir(parents=True, exist_ok=True)
    got = reads(sandbox.Scope(REPO, "02-kogge-stone", tree, None, None, (reader,)))
    leaked = sorted({path for _route, path in got if Path(path) in hidden})
    for path in map(str, hidden):
        routes = sorted(r for r, p in got if p == path)
        print(f"run time, lab 02's view: {path}: {'read by ' + ', '.join(routes) if routes else 'nothing read'}")
    if leaked:
        problems.append("run time: lab 02's view let these be read: " + ", ".join(leaked))
    for path in map(str, shown):
        missing = [r for r in ROUTES if (r, path) not in got]
        if missing:
            problems.append(f"run time: {path}, which lab 02 may read, was not read by {', '.join(missing)}: the "
                            f"reading program does not work, so its silence on hidden files proves nothing")
    whole = reads(None)
    secret = str(hidden[0])
    missed = [r for r in ROUTES if (r, secret) not in whole]
    print(f"run time, the whole file system in view: {secret}: "
          + ("read by every route" if not missed else "NOT read by " + ", ".join(missed)))
    if missed:
        problems.append(f"run time: with the whole file system in view {secret} was not read by {', '.join(missed)}: "
                        f"this test could not have failed")
    sandbox.grading(None)


def check_hidden_tests(work: Path, box: sandbox.Sandbox, problems: list[str]) -> None:
    """A hidden check's test file, in a kit of its own (the kit has none): empty to a test
    program, and to a build that imports a prebuilt tree."""
    kit = work / "kit-with-a-hidden-check"
    hidden = kit / "grader" / "labs" / "02-kogge-stone" / "hidden_large_inputs_test.cpp"
    hidden.parent.mkdir(parents=True)
    hidden.write_text("the hidden check's inputs\n")
    for building in (False, True):
        sandbox.grading(sandbox.Scope(kit, "02-kogge-stone", None, None, REPO / "build", ()))
        with tempfile.TemporaryFile() as out:
            run = box.spawn(["/bin/cat", str(hidden)], cwd=Path("/"), env={"PATH": "/usr/bin"}, stdout=out,
                            building=building)
            run.wait(60)
            run.leftovers()
            out.seek(0)
            got = out.read()
        print(f"{'build' if building else 'run'} time: a hidden check's test file: "
              + ("read" if got else "empty"))
        if got:
            problems.append(f"{'build' if building else 'run'} time: a hidden check's test file was read")
    sandbox.grading(None)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--jobs", default="2")
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    problems: list[str] = []
    box = sandbox.choose(REPO, os.environ.get("SCANLAB_SANDBOX", "auto"))
    print(f"sandbox: {box.description}")
    namespaces = box.strength == sandbox.NAMESPACES
    if namespaces:
        check_reads(work, box, problems)
        check_hidden_tests(work, box, problems)
    else:
        print("run time: reads are not hidden in this box (only the namespace box has a view); not checked")

    submission = work / "submission"
    write_lab(submission, "01-sequential", reads_at_run_time(
        [REPO / "solutions" / "02-kogge-stone" / reference("02-kogge-stone")[0], Path("/etc/hostname")],
        REPO / "common" / "include" / "scanlab" / "cuda_check.hpp") if namespaces else "")
    write_lab(submission, "02-kogge-stone", DEVICE_FILE)
    write_lab(submission, "03-exclusive-scan", DOUBLING)
    write_lab(submission, "04-brent-kung", constexpr_bomb())
    own_reference = REPO / "solutions" / "05-three-phase" / reference("05-three-phase")[0]
    write_lab(submission, "05-three-phase", f'\n#include "{own_reference}"\n#include "/etc/hostname"\n')
    write_lab(submission, "06-hierarchical", WAITS_FOR_EVER)
    write_lab(submission, "07-single-pass",
              probing(REPO / "solutions" / "07-single-pass" / reference("07-single-pass")[0]))
    write_lab(submission, "08-binary-scans", INCBIN)
    labs = grade(work, submission, ["01", "02", "03", "04", "05", "06", "07", "08"], args.jobs, problems)
    if labs:
        expect_full_marks(labs, "01", problems)
        expect_compile_error(labs, "02", "the compiler used more than 1 GiB compiling kogge_stone.cu", problems)
        expect_compile_error(labs, "03", "the compiler used more than 1 GiB compiling exclusive_scan.cu", problems)
        expect_compile_error(labs, "04", f"the compiler used more than {CPU_S} s of CPU compiling brent_kung.cu",
                             problems)
        expect_compile_error(labs, "06", f"the compiler waited {WAITING_S} s, doing nothing, compiling "
                             "hierarchical_scan.cu", problems)
        if namespaces:
            expect_compile_error(labs, "05", "reads outside the lab: lab code reads solutions/05-three-phase/",
                                 problems, kind="forbidden")
            expect_compile_error(labs, "07", "/proc/1/root", problems)
            expect_not_said(labs, "07", "the reference is in view", problems)
            expect_compile_error(labs, "08", "reads outside the lab: lab code reads /etc/hostname", problems,
                                 kind="forbidden")

    # Lab 03's build rewrote lab 02's reference (the earlier lab it builds on) into its own
    # folder of the submission's build tree: the next grade's lab 02 must not reach it.
    copies = sorted((work / "grade").glob("sim-*/grader/labs/03-exclusive-scan/scanlab_sim/*/headers/*/"
                                          "kogge_stone.cu"))
    if not copies:
        problems.append("lab 03's build left no rewritten copy of lab 02's reference in the build tree: the attack "
                        "through the build tree was not tried")
    elif namespaces:
        name, _ = reference("02-kogge-stone")
        (submission / "02-kogge-stone" / name).write_text(f'#include "{copies[0]}"\n')
        labs = grade(work, submission, ["01", "02"], args.jobs, problems)
        if labs:
            expect_full_marks(labs, "01", problems)
            expect_compile_error(labs, "02", "No such file or directory", problems)
    # The C library's other doors to a new process, which a fork bomb in a static initializer
    # would use: refused by the screen like fork (no lab's build needed to see it).
    escapes = ["_Fork", "__fork", "__libc_fork", "__vfork", "__clone", "execveat"]
    let_through = sorted(set(escapes) - {f.what for f in symbol_screen.forbidden_among(escapes)})
    print(f"screen: {', '.join(escapes)}: " + ("each a process escape" if not let_through else
                                                  "let through: " + ", ".join(let_through)))
    if let_through:
        problems.append("the symbol screen lets lab code call " + ", ".join(let_through))

    # A student repository whose labs/ is a symbolic link to the kit's solutions/.
    linked = work / "linked-submission"
    linked.mkdir()
    (linked / "labs").symlink_to(REPO / "solutions")
    labs = grade(work, linked, ["02"], args.jobs, problems)
    if labs:
        lab = labs.get("02", {})
        taken = [c for c in lab.get("checks", []) if c["status"] == "pass"]
        print(f"lab 02 through a linked labs/: {len(taken)} checks passed; notes: {lab.get('notes', [])}")
        if taken or not any("symbolic link" in n for n in lab.get("notes", [])):
            problems.append("a submission whose labs/ links to the kit's solutions/ was taken: "
                            f"{len(taken)} checks of lab 02 passed, notes {lab.get('notes', [])}")
    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print("\nOK: every attack contained" + ("" if namespaces else " (the build limits; reads not checked in this box)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
