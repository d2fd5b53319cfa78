"""Sample student submissions, written from the reference solutions: correct ones, known-bad
kernels of the labs' manifests ([[mutant]]), code that does not compile, code that hangs, and
one submission for each way of cheating that the grader rejects (grader/README.md, "Tamper
resistance"). Nothing here is committed as a copy of a solution: every sample is generated.

  sample_submissions.py cheats DIR          one submission, a different cheat in each of labs 01-05
  sample_submissions.py batch DIR [--count N] [--archives]
                                            N students of lab 02 (folders, and archives) for
                                            `grade --batch`

Used by check_tamper.py and check_batch.py, and by hand to try `grade --batch`."""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

from scanlab_grader import manifest, solution_source  # noqa: E402


class FixtureError(Exception):
    pass


def _replace_once(text: str, old: str, new: str, where: str) -> str:
    if text.count(old) != 1:
        raise FixtureError(f"{where}: the sample's anchor text occurs {text.count(old)} times, not once:\n{old}")
    return text.replace(old, new)


def _before_guard_end(text: str, code: str, where: str) -> str:
    """`code` inserted before the file's closing `#endif` (inside its include guard)."""
    index = text.rstrip().rfind("#endif")
    if index < 0:
        raise FixtureError(f"{where}: no closing #endif")
    return text[:index] + code + "\n" + text[index:]


# Each cheat: (lab folder, file, what the grader must say, edit of the solution's text).
# The functions a cheat adds are ordinary external definitions, so they are compiled into the
# lab's object whether or not anything calls them: the grader judges what the linker sees.
def _cheat_exit(text: str, where: str) -> str:
    return _before_guard_end(text, "#include <cstdlib>\nvoid scanlab_sample_leave_early() { std::exit(0); }\n",
                             where)


def _cheat_channel(text: str, where: str) -> str:
    return _before_guard_end(text, "#include <cstring>\n#include <unistd.h>\n"
                             "void scanlab_sample_forge(const char* record) { "
                             "(void)write(3, record, std::strlen(record)); }\n", where)


def _cheat_simulator_control(text: str, where: str) -> str:
    return _before_guard_end(text, "#include <scanlab/sim/diagnostics.hpp>\n"
                             "void scanlab_sample_hide_reports() { scanlab::sim::set_error_exit_status(0); "
                             "(void)scanlab::sim::take_reports(); }\n", where)


def _cheat_reads_reference(lab_dir: str, file: str) -> Callable[[str, str], str]:
    def edit(_text: str, _where: str) -> str:
        return f'// The whole answer, taken from the kit\'s own copy.\n#include "{lab_dir}/{file}"\n'
    return edit


def _reads_own_reference(text: str, where: str) -> str:
    lab_dir, file = where.split(" ")[0].split("/")
    return _cheat_reads_reference(lab_dir, file)(text, where)


_KOGGE_STONE_LAUNCH = """    kogge_stone_inplace_kernel<<<section_count(n, section_size), section_size, shared_bytes>>>(  //@ inplace-launch
        d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());"""
_KOGGE_STONE_ON_HOST = """    (void)shared_bytes;
    std::vector<T> host(n);  // the answer computed on the CPU and copied back
    cudaMemcpy(host.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % section_size != 0) host[i] = op(host[i - 1], host[i]);
    }
    cudaMemcpy(d_out, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);"""


def _cheat_host_computation(text: str, where: str) -> str:
    text = _replace_once(text, _KOGGE_STONE_LAUNCH, _KOGGE_STONE_ON_HOST, where)
    return _replace_once(text, "#include <stdexcept>\n", "#include <stdexcept>\n#include <vector>\n", where)


@dataclass(frozen=True)
class Cheat:
    name: str
    lab: str  # folder, e.g. "02-kogge-stone"
    file: str
    kind: str  # the grader's kind for the lab
    says: str  # text the lab's reason must contain
    edit: Callable[[str, str], str]


CHEATS = (
    Cheat("process-escape", "01-sequential", "sequential_scan.cu", "forbidden", "process escape: lab code calls exit",
          _cheat_exit),
    Cheat("host-computation", "02-kogge-stone", "kogge_stone.cu", "host-computation", "host computation:",
          _cheat_host_computation),
    Cheat("reads-reference", "03-exclusive-scan", "exclusive_scan.cu", "forbidden",
          "reads outside the lab: lab code reads solutions/03-exclusive-scan/exclusive_scan.cu",
          _reads_own_reference),
    Cheat("grader-channel", "04-brent-kung", "brent_kung.cu", "forbidden", "grader channel: lab code calls write",
          _cheat_channel),
    Cheat("simulator-control", "05-three-phase", "three_phase.cu", "forbidden",
          "simulator control: lab code calls scanlab::sim::", _cheat_simulator_control),
)
CHEATS_BY_NAME = {c.name: c for c in CHEATS}


def in_lab(cheat: Cheat, lab_dir: str, file: str) -> Cheat:
    """The same cheat in another lab's file (the host computation is lab 02's only)."""
    if cheat.name == "host-computation":
        return cheat
    says = cheat.says.replace(f"{cheat.lab}/{cheat.file}", f"{lab_dir}/{file}")
    return Cheat(cheat.name, lab_dir, file, cheat.kind, says, cheat.edit)

# Headers that would break the build if anything of the submission besides the lab's own file
# were on the compiler's path: they sit beside lab 01's file in the cheating submission.
SHADOW_HEADERS = {"cuda_runtime.h": "#error a submission's header shadowed the kit's\n",
                  "gtest/gtest.h": "#error a submission's header shadowed GoogleTest\n"}


def copy_solutions(dest: Path, labs: list[str] | None = None) -> None:
    """The reference solutions, as a student would hand them in (lab folders at the top)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for folder in sorted((REPO / "solutions").iterdir()):
        if folder.is_dir() and (labs is None or folder.name in labs):
            shutil.copytree(folder, dest / folder.name)


def apply_cheat(dest: Path, cheat: Cheat) -> None:
    path = dest / cheat.lab / cheat.file
    path.write_text(cheat.edit(path.read_text(), f"{cheat.lab}/{cheat.file} ({cheat.name})"))


def cheating_submission(dest: Path) -> None:
    """Labs 01-05 with a cheat each, lab 06 a symbolic link into the reference solutions, and
    headers that would break the build if the submission's folder were on the include path."""
    copy_solutions(dest, [c.lab for c in CHEATS] + ["06-hierarchical"])
    for cheat in CHEATS:
        apply_cheat(dest, cheat)
    for name, text in SHADOW_HEADERS.items():
        (dest / "01-sequential" / name).parent.mkdir(parents=True, exist_ok=True)
        (dest / "01-sequential" / name).write_text(text)
    linked = dest / "06-hierarchical" / "hierarchical_scan.cu"
    linked.unlink()
    linked.symlink_to(REPO / "solutions" / "06-hierarchical" / "hierarchical_scan.cu")


def apply_mutant(dest: Path, lab: manifest.Lab, mutant: manifest.Mutant) -> None:
    source = solution_source.parse(REPO / "solutions" / lab.dir / mutant.file)
    (dest / lab.dir / mutant.file).write_text(source.edited(mutant.at, mutant.find, mutant.replace))


def _hang(text: str, where: str) -> str:
    """A host entry that never returns (the grader's time limit must end it)."""
    return _replace_once(text, _KOGGE_STONE_LAUNCH, "    for (volatile int spin = 0; ; spin = spin + 1) {}\n"
                         + _KOGGE_STONE_LAUNCH, where)


def _syntax_error(text: str, _where: str) -> str:
    return text + "\nthis line is not C++;\n"


@dataclass(frozen=True)
class Sample:
    """One student of the batch: what is wrong with their lab 02 (or nothing)."""
    student: str
    expect: str  # full | mutant | compile | hang | cheat
    edit: Callable[[Path], None]


def batch_samples() -> list[Sample]:
    """Students of lab 02 in a fixed mix: correct, buggy (each known-bad kernel of its
    manifest), not compiling, hanging, and one per cheat of CHEATS."""
    all_labs = manifest.discover(REPO / "grader" / "labs")
    lab02 = all_labs["02"]
    samples: list[Sample] = [Sample(f"correct-{i}", "full", lambda d: None) for i in range(1, 3)]

    def edit_file(lab_dir: str, file: str, fn) -> Callable[[Path], None]:
        def go(d: Path) -> None:
            p = d / lab_dir / file
            p.write_text(fn(p.read_text(), f"{lab_dir}/{file}"))
        return go

    samples.append(Sample("not-compiling", "compile", edit_file("02-kogge-stone", "kogge_stone.cu", _syntax_error)))
    samples.append(Sample("hanging", "hang", edit_file("02-kogge-stone", "kogge_stone.cu", _hang)))
    for cheat in CHEATS:
        moved = in_lab(cheat, "02-kogge-stone", "kogge_stone.cu")
        samples.append(Sample(f"cheat-{cheat.name}", "cheat", lambda d, c=moved: apply_cheat(d, c)))
    for m in lab02.mutants:
        samples.append(Sample(f"buggy-{m.name}", "mutant", lambda d, m=m: apply_mutant(d, lab02, m)))
    return samples


def write_batch(dest: Path, count: int, archives: bool) -> list[Sample]:
    """`count` students of lab 02 (the mix of batch_samples, topped up with correct ones) in
    `dest`, every third one as an archive (.zip or .tar.gz) when `archives` is set."""
    samples = batch_samples()
    while len(samples) < count:
        samples.append(Sample(f"correct-{len(samples) + 1}", "full", lambda d: None))
    samples = samples[:count]
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for i, sample in enumerate(samples):
        folder = dest / sample.student
        copy_solutions(folder, ["02-kogge-stone"])
        sample.edit(folder)
        if archives and i % 3 == 2:
            _archive(folder, zip_format=(i % 2 == 0))
    return samples


def _archive(folder: Path, zip_format: bool) -> None:
    """Replaces `folder` by an archive holding it, as a learning platform hands it over."""
    if zip_format:
        with zipfile.ZipFile(folder.with_suffix(".zip"), "w") as z:
            for p in sorted(folder.rglob("*")):
                if p.is_file():
                    z.write(p, str(Path(folder.name) / p.relative_to(folder)))
    else:
        with tarfile.open(str(folder) + ".tar.gz", "w:gz") as t:
            t.add(folder, arcname=folder.name)
    shutil.rmtree(folder)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cheats")
    c.add_argument("dir")
    b = sub.add_parser("batch")
    b.add_argument("dir")
    b.add_argument("--count", type=int, default=20)
    b.add_argument("--archives", action="store_true")
    args = p.parse_args()
    if args.what == "cheats":
        cheating_submission(Path(args.dir))
        return 0
    samples = write_batch(Path(args.dir), args.count, args.archives)
    for s in samples:
        print(f"{s.student:<40} {s.expect}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
