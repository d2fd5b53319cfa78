"""A lab is its three folders and nothing else: a throw-away lab, added to a copy of the
kit as three folders and no other edit, is built, graded and checked like the others.

In a copy of the repository (its tracked and unignored files), the test adds
  solutions/99-throwaway/   a marked solution
  labs/99-throwaway/        the assignment (README.md with an empty points table)
  grader/labs/99-throwaway/ lab.toml, CMakeLists.txt, instantiations.cu, one test
then expects:
  - grader/sync-labs writes the skeleton (no markers, no tags), the lab's points table and
    its row in README.md's lab table, after which `sync-labs --check` is clean;
  - the build has lab99_tests, and `lab_tests` (what the nvcc build check builds) depends on it;
  - grader/grade gives the solution full marks and the skeleton none;
  - the lab's known-bad kernel is rejected by the check it names.

Usage: check_new_lab.py --work-dir DIR [--jobs N]"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LAB = "99-throwaway"

SOLUTION = """\
// BEGIN SOLUTION
// Throw-away lab, reference solution: doubles every element.
// END SOLUTION
// BEGIN PROMPT
//| // Throw-away lab: double every element.
// END PROMPT
#include <cuda_runtime.h>

#include <cstddef>

__global__ void double_kernel(int* data, std::size_t n) {
    // BEGIN SOLUTION
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= 2;  //@ double
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: double data[i] for every i < n.
    // END PROMPT
}

inline void double_elements(int* d_data, std::size_t n) {
    constexpr unsigned kBlockSize = 128;
    if (n == 0) return;
    double_kernel<<<static_cast<unsigned>((n + kBlockSize - 1) / kBlockSize), kBlockSize>>>(d_data, n);
}
"""

README = f"""\
# Lab 99 — throw-away

## What is checked

<!-- points table: written by grader/sync-labs from grader/labs/{LAB}/lab.toml -->
<!-- end of points table -->
"""

MANIFEST = """\
title = "Throw-away lab"
summary = "doubles every element"

[[check]]
id = "correctness"
title = "Every element is doubled"
category = "correctness"
tests = "Lab99Double.*"
points = 10

[[mutant]]
name = "triples"
file = "double_elements.cu"
at = "double"
find = "*= 2"
replace = "*= 3"
rejected_by = ["correctness"]
"""

CMAKE = "scanlab_add_lab_tests(SOURCE double_elements.cu)\n"

INSTANTIATIONS = """\
#include SCANLAB_LAB_SOURCE

#include <vector>

void run_double_elements(std::vector<int>& data) {
    int* device = nullptr;
    cudaMalloc(&device, data.size() * sizeof(int));
    cudaMemcpy(device, data.data(), data.size() * sizeof(int), cudaMemcpyHostToDevice);
    double_elements(device, data.size());
    cudaMemcpy(data.data(), device, data.size() * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(device);
}
"""

TEST = """\
#include <gtest/gtest.h>

#include <vector>

void run_double_elements(std::vector<int>& data);

TEST(Lab99Double, EveryElement) {
    std::vector<int> data(1000);
    for (int i = 0; i < 1000; ++i) data[i] = i - 500;
    run_double_elements(data);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(data[i], 2 * (i - 500)) << "at index " << i;
}
"""


def copy_repository(target: Path) -> None:
    """The kit's files: what git tracks or would track, or without git everything but builds."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if listed.returncode != 0:
        shutil.copytree(REPO, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("build", ".git"))
        return
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def add_lab(repo: Path) -> None:
    files = {
        f"solutions/{LAB}/double_elements.cu": SOLUTION,
        f"labs/{LAB}/README.md": README,
        f"grader/labs/{LAB}/lab.toml": MANIFEST,
        f"grader/labs/{LAB}/CMakeLists.txt": CMAKE,
        f"grader/labs/{LAB}/instantiations.cu": INSTANTIATIONS,
        f"grader/labs/{LAB}/double_test.cpp": TEST,
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    print("$", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def grade(repo: Path, submission: Path, args) -> dict:
    proc = run([str(repo / "grader" / "grade"), "--submission", str(submission), "--format", "json",
                "--build-root", str(args.work_dir / "build"), "--jobs", args.jobs, "99"], repo)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"grade printed no JSON (exit status {proc.returncode}):\n{proc.stderr[-3000:]}")


def lab_tests_depends_on(build_root: Path, target: str) -> bool:
    """Whether `lab_tests` in a grade build tree depends on `target` (CMake file API)."""
    for reply in build_root.glob("*/.cmake/api/v1/reply"):
        for path in reply.glob("target-lab_tests-*.json"):
            model = json.loads(path.read_text())
            ids = [d["id"] for d in model.get("dependencies", [])]
            if any(i.startswith(target + "::") for i in ids):
                return True
    return False


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True, type=Path)
    p.add_argument("--jobs", default="2")
    args = p.parse_args()
    args.work_dir = args.work_dir.resolve()
    repo = args.work_dir / "repo"
    if args.work_dir.exists():
        shutil.rmtree(args.work_dir)
    repo.mkdir(parents=True)
    copy_repository(repo)
    add_lab(repo)
    problems: list[str] = []

    sync = run([sys.executable, str(repo / "grader" / "sync-labs")], repo)
    if sync.returncode != 0:
        problems.append(f"sync-labs failed ({sync.returncode}):\n{sync.stderr}")
    skeleton = repo / "labs" / LAB / "double_elements.cu"
    text = skeleton.read_text() if skeleton.exists() else ""
    if "TODO: double data[i]" not in text or "BEGIN" in text or "//@" in text or "*= 2" in text:
        problems.append(f"the skeleton written by sync-labs is not the prompt without the solution:\n{text}")
    if "| `correctness` | Every element is doubled | 10 |" not in (repo / "labs" / LAB / "README.md").read_text():
        problems.append("the lab's README has no points table")
    if f"| [{LAB}](labs/{LAB}/README.md) | doubles every element |" not in (repo / "README.md").read_text():
        problems.append("README.md's lab table has no row for the new lab")
    check = run([sys.executable, str(repo / "grader" / "sync-labs"), "--check"], repo)
    if check.returncode != 0:
        problems.append(f"sync-labs --check after sync-labs: {check.stderr}")

    # One scratch submission: the solution, then the skeleton, then the known-bad kernel.
    scratch = args.work_dir / "submission"
    shutil.copytree(repo / "solutions" / LAB, scratch / LAB)
    target = scratch / LAB / "double_elements.cu"
    doc = grade(repo, scratch, args)
    lab = doc["labs"][0]
    if lab["score"] != lab["max_score"] or lab["max_score"] != 10:
        problems.append(f"the solution scored {lab['score']}/{lab['max_score']}: {lab['checks']}")
    if not lab_tests_depends_on(args.work_dir / "build", "lab99_tests"):
        problems.append("the lab_tests target (built by the nvcc build check) does not include lab99_tests")

    target.write_text(skeleton.read_text())  # a fresh mtime, so that the build sees the change
    lab = grade(repo, scratch, args)["labs"][0]
    if lab["score"] != 0 or lab["checks"][0]["kind"] != "assertion":
        problems.append(f"the skeleton was not failed by its assertions: {lab['checks']}")

    mutants = run([sys.executable, str(repo / "grader" / "selftest" / "run_mutants.py"), "--build-root",
                   str(args.work_dir / "build"), "--jobs", args.jobs, "99"], repo)
    print(mutants.stdout)
    if mutants.returncode != 0 or "99/triples" not in mutants.stdout:
        problems.append(f"the known-bad kernel was not rejected ({mutants.returncode}):\n{mutants.stdout[-2000:]}"
                        f"{mutants.stderr[-2000:]}")

    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print(f"\nOK: lab {LAB}, added as three folders, was written, built, graded and checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
