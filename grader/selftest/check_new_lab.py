"""A lab is its three folders and nothing else: a throw-away lab, added to a copy of the
kit as three folders and no other edit, is built, graded, benchmarked and checked like the
others, following grader/README.md's "Adding a lab".

In a copy of the repository (its tracked and unignored files), the test adds
  solutions/99-throwaway/   a marked solution: an inclusive scan of every pair of elements,
                            generic over the element type and the operator, through shared
                            memory (so that it needs a barrier)
  labs/99-throwaway/        the assignment (README.md with an empty points table)
  grader/labs/99-throwaway/ lab.toml (a correctness and a race-freedom check, a known-bad
                            kernel for each), CMakeLists.txt, the api header, instantiations.cu,
                            two tests, and the bench adapter
then expects:
  - grader/sync-labs writes the skeleton (no markers, no tags), the lab's points table and
    its row in README.md's lab table, after which `sync-labs --check` is clean;
  - the build has lab99_tests, and `lab_tests` (what the nvcc build check builds) depends on it;
  - grader/grade gives the solution full marks and the skeleton none;
  - each known-bad kernel is rejected by the check it names (the missing barrier by the
    simulator's race check);
  - reports/bench (simulator) measures the lab's series through its adapter, right, with counters.

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
// Throw-away lab, reference solution: an inclusive scan of every pair of elements.
// END SOLUTION
// BEGIN PROMPT
//| // Throw-away lab: an inclusive scan of every pair of elements.
// END PROMPT
#include <cuda_runtime.h>

#include <cstddef>

constexpr unsigned kPairBlock = 128;

template <class T, class Op>
__global__ void pair_scan_kernel(const T* in, T* out, std::size_t n, Op op) {
    __shared__ T tile[kPairBlock];
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    // BEGIN SOLUTION
    tile[threadIdx.x] = i < n ? in[i] : op.identity();
    __syncthreads();  // the first element of every pair is in the tile  //@ barrier
    if (i < n) out[i] = threadIdx.x % 2 == 1 ? op(tile[threadIdx.x - 1], tile[threadIdx.x]) : tile[threadIdx.x];  //@ pair
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: out[i] = in[i] at an even i, op(in[i - 1], in[i]) at an odd one, through `tile`.
    // END PROMPT
}

template <class T, class Op>
void pair_scan(const T* d_in, T* d_out, std::size_t n, Op op) {
    if (n == 0) return;
    pair_scan_kernel<<<static_cast<unsigned>((n + kPairBlock - 1) / kPairBlock), kPairBlock>>>(d_in, d_out, n, op);
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
summary = "scans every pair of elements"

[[check]]
id = "correctness"
title = "Every pair is scanned"
category = "correctness"
tests = "Lab99PairScan.*"
points = 10

[[check]]
id = "race-freedom"
title = "No race on the tile"
category = "race-freedom"
tests = "Lab99RaceFreedom.*"
points = 5

[[mutant]]
name = "swapped-operands"
file = "pair_scan.cu"
at = "pair"
find = "op(tile[threadIdx.x - 1], tile[threadIdx.x])"
replace = "op(tile[threadIdx.x], tile[threadIdx.x])"
rejected_by = ["correctness"]
feedback = "index 1: expected"

[[mutant]]
name = "missing-barrier"
file = "pair_scan.cu"
at = "barrier"
replace = ""
rejected_by = ["race-freedom"]
finding = "race"
names = "pair"
"""

CMAKE = "scanlab_add_lab_tests(SOURCE pair_scan.cu)\n"

API = """\
#pragma once

#include <cstddef>

template <class T, class Op>
void pair_scan(const T* d_in, T* d_out, std::size_t n, Op op);
"""

INSTANTIATIONS = """\
#include SCANLAB_LAB_SOURCE

#include "scanlab/operators.hpp"

template void pair_scan<int, scanlab::Plus<int>>(const int*, int*, std::size_t, scanlab::Plus<int>);
"""

TEST_HELPERS = """\
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "pair_scan_api.hpp"
#include "scanlab/operators.hpp"

inline std::vector<int> pair_scan_of(const std::vector<int>& input) {
    int* in = nullptr;
    int* out = nullptr;
    const std::size_t bytes = input.size() * sizeof(int);
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, bytes);
    cudaMemcpy(in, input.data(), bytes, cudaMemcpyHostToDevice);
    pair_scan(in, out, input.size(), scanlab::Plus<int>{});
    std::vector<int> result(input.size());
    cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    return result;
}
"""

CORRECTNESS_TEST = """\
#include <gtest/gtest.h>

#include "pair_scan_run.hpp"

TEST(Lab99PairScan, EveryPair) {
    std::vector<int> input(1001);
    for (int i = 0; i < 1001; ++i) input[i] = i - 500;
    const std::vector<int> output = pair_scan_of(input);
    for (int i = 0; i < 1001; ++i) {
        const int expected = i % 2 == 1 ? input[i - 1] + input[i] : input[i];
        ASSERT_TRUE(::testing::AssertionResult(output[i] == expected)
                    << "index " << i << ": expected " << expected << ", actual " << output[i]);
    }
}
"""

RACE_TEST = """\
#include <gtest/gtest.h>

#include "pair_scan_run.hpp"
#include "sim_reports.hpp"

TEST(Lab99RaceFreedom, Tile) {
    scanlab::grading::discard_simulator_reports();
    const std::vector<int> output = pair_scan_of(std::vector<int>(1000, 1));
    EXPECT_TRUE(scanlab::grading::no_simulator_errors());
    for (int i = 0; i < 1000; ++i) {
        const int expected = i % 2 == 1 ? 2 : 1;
        ASSERT_TRUE(::testing::AssertionResult(output[i] == expected)
                    << "index " << i << ": expected " << expected << ", actual " << output[i]);
    }
}
"""

BENCH_ADAPTER = """\
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    list.add(lab_series("99-throwaway", "pair_scan", "99 pair scan", "pair-scan", "sections", kPairBlock, 2),
             [](auto in, auto out, std::size_t n, auto op) { pair_scan(in, out, n, op); });
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
        f"solutions/{LAB}/pair_scan.cu": SOLUTION,
        f"labs/{LAB}/README.md": README,
        f"grader/labs/{LAB}/lab.toml": MANIFEST,
        f"grader/labs/{LAB}/CMakeLists.txt": CMAKE,
        f"grader/labs/{LAB}/pair_scan_api.hpp": API,
        f"grader/labs/{LAB}/instantiations.cu": INSTANTIATIONS,
        f"grader/labs/{LAB}/pair_scan_run.hpp": TEST_HELPERS,
        f"grader/labs/{LAB}/correctness_test.cpp": CORRECTNESS_TEST,
        f"grader/labs/{LAB}/race_freedom_test.cpp": RACE_TEST,
        f"grader/labs/{LAB}/bench_adapter.cu": BENCH_ADAPTER,
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
    skeleton = repo / "labs" / LAB / "pair_scan.cu"
    text = skeleton.read_text() if skeleton.exists() else ""
    if "TODO: out[i] = in[i]" not in text or "BEGIN" in text or "//@" in text or "__syncthreads" in text:
        problems.append(f"the skeleton written by sync-labs is not the prompt without the solution:\n{text}")
    if "| `race-freedom` | No race on the tile | 5 |" not in (repo / "labs" / LAB / "README.md").read_text():
        problems.append("the lab's README has no points table")
    if f"| [{LAB}](labs/{LAB}/README.md) | scans every pair of elements |" not in (repo / "README.md").read_text():
        problems.append("README.md's lab table has no row for the new lab")
    check = run([sys.executable, str(repo / "grader" / "sync-labs"), "--check"], repo)
    if check.returncode != 0:
        problems.append(f"sync-labs --check after sync-labs: {check.stderr}")

    # One scratch submission: the solution, then the skeleton, then the known-bad kernel.
    scratch = args.work_dir / "submission"
    shutil.copytree(repo / "solutions" / LAB, scratch / LAB)
    target = scratch / LAB / "pair_scan.cu"
    doc = grade(repo, scratch, args)
    lab = doc["labs"][0]
    if lab["score"] != lab["max_score"] or lab["max_score"] != 15:
        problems.append(f"the solution scored {lab['score']}/{lab['max_score']}: {lab['checks']}")
    if not lab_tests_depends_on(args.work_dir / "build", "lab99_tests"):
        problems.append("the lab_tests target (built by the nvcc build check) does not include lab99_tests")

    # The bench program of the lab, through its adapter, in the same build tree as the grading.
    results = args.work_dir / "bench.json"
    bench = run([str(repo / "reports" / "bench"), "--backend", "sim", "--submission", str(scratch), "--labs", "99",
                 "--sizes", "10:12:2", "--build-root", str(args.work_dir / "build"), "--jobs", args.jobs,
                 "-o", str(results)], repo)
    series = json.loads(results.read_text())["series"] if results.is_file() else []
    ours = [s for s in series if s["lab"] == LAB]
    if bench.returncode != 0 or [s["id"] for s in ours] != [f"{LAB}/pair_scan/int32"] or not ours[0]["correct"] \
            or not all(p["counters"] for p in ours[0]["points"]):
        problems.append(f"reports/bench did not measure the lab through its adapter ({bench.returncode}): {ours}\n"
                        f"{bench.stderr[-2000:]}")

    target.write_text(skeleton.read_text())  # a fresh mtime, so that the build sees the change
    lab = grade(repo, scratch, args)["labs"][0]
    if lab["score"] != 0 or any(c["kind"] != "assertion" for c in lab["checks"]):
        problems.append(f"the skeleton was not failed by its assertions: {lab['checks']}")

    mutants = run([sys.executable, str(repo / "grader" / "selftest" / "run_mutants.py"), "--build-root",
                   str(args.work_dir / "build"), "--jobs", args.jobs, "99"], repo)
    print(mutants.stdout)
    if mutants.returncode != 0 or "99/swapped-operands" not in mutants.stdout or "99/missing-barrier" not in mutants.stdout:
        problems.append(f"the known-bad kernels were not rejected ({mutants.returncode}):\n{mutants.stdout[-2000:]}"
                        f"{mutants.stderr[-2000:]}")

    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print(f"\nOK: lab {LAB}, added as three folders, was written, built, graded, benchmarked and checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
