"""Student code cannot touch anything but its own scratch space (grader/README.md, "The sandbox").

Hostile lab code that the symbol screen lets through (none of mkdir, rename, remove, symlink,
truncate, chmod, socket, connect or access is on its list) runs as a static initializer of
lab 02, in every run of the lab's test program, and attacks:

- the kit: a folder and a symbolic link created at its top, README.md renamed, a lab's README
  removed, lab 02's manifest truncated, grader/grade made unreadable;
- another student of the same batch: the other student's submission renamed and a folder
  created in it, their report removed, the gradebook truncated;
- the student graded before in the same worker: what they left in the worker's build tree
  (their lab 03's rewritten source, objects, test program and test log), read and changed
  (truncated, made unreadable) by a static initializer of lab 01;
- the network: a TCP connection to a port this test listens on (127.0.0.1);
- privacy: when it can see the other student's submission or report, or the gradebook, it
  aborts, and the lab scores 0.

Two students are graded by one worker of a batch: `a-victim` hands in the reference
solutions and is graded first, alone in the class (labs 01, 02 and 03); then `b-hostile`
joins the class (labs 01 and 02: its grading never rebuilds the victim's lab 03), whose lab
02 is the reference with the attack added and whose lab 01 attacks the worker's tree.
Afterwards the kit (but its build/ and .git/), the victim's submission, the victim's reports
and what the victim left in the worker's tree must be byte-identical to before (a checksum of
each; what the victim left may also be gone: the batch removes it before the next student's
turn), both students must keep full marks in lab 01 (the hostile lab 01 aborts when it can
read anything the victim left in the worker's tree, in every box), the victim in labs 02 and
03 too. In the namespace sandbox the hostile lab 02 must keep its marks as well (it sees
nothing to abort on) and no connection may arrive; the weaker boxes (a separate user, the
screen alone) do not cut the network or hide what the world may read, and this test says so
instead of checking it.

With `--sandbox none` (`SCANLAB_SANDBOX=none`) the attacks on the kit succeed and this test
fails: it restores what it can of the kit from the copies it made, and names what changed. A
batch that left the victim's files in the worker's tree fails it in every box.

Usage: check_sandbox.py --work-dir DIR [--sandbox auto|namespaces|user|none]"""

import argparse
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402

LABS = ["01-sequential", "02-kogge-stone", "03-exclusive-scan"]
HOSTILE_LAB, HOSTILE_FILE = "02-kogge-stone", "kogge_stone.cu"
SNOOPING_LAB, SNOOPING_FILE = "01-sequential", "sequential_scan.cu"
LEFT_LAB, LEFT_TARGET = "03-exclusive-scan", "lab03_tests"  # graded for the victim only
# Kit files the attack changes (restored from copies if it succeeds).
KIT_TARGETS = ["README.md", "labs/01-sequential/README.md", "grader/labs/02-kogge-stone/lab.toml", "grader/grade"]
KIT_LEFT_OUT = {"build", ".git"}  # build trees change legitimately; .git is git's
GENERATED = "__pycache__"  # Python's, written by the grader itself (never by lab code, which cannot run Python)


def hostile_code(kit: Path, victim: Path, results: Path, port: int) -> str:
    """A static initializer that attacks with calls the symbol screen does not list."""
    def q(path: Path) -> str:
        return json.dumps(str(path))
    return f"""
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {{
struct Attack {{
  Attack() {{
    const std::string kit = {q(kit)}, victim = {q(victim)}, results = {q(results)};
    // The kit.
    mkdir((kit + "/hostile-folder").c_str(), 0777);
    symlink("/", (kit + "/hostile-link").c_str());
    std::rename((kit + "/README.md").c_str(), (kit + "/README.md.renamed").c_str());
    std::remove((kit + "/labs/01-sequential/README.md").c_str());
    truncate((kit + "/grader/labs/02-kogge-stone/lab.toml").c_str(), 0);
    chmod((kit + "/grader/grade").c_str(), 0);
    // Another student and the results.
    mkdir((victim + "/hostile-folder").c_str(), 0777);
    std::rename((victim + "/{HOSTILE_LAB}/{HOSTILE_FILE}").c_str(), (victim + "/{HOSTILE_LAB}/moved.cu").c_str());
    std::remove((results + "/reports/a-victim.json").c_str());
    truncate((results + "/gradebook.csv").c_str(), 0);
    // The network.
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{{}};
    to.sin_family = AF_INET;
    to.sin_port = htons({port});
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s >= 0) connect(s, reinterpret_cast<sockaddr*>(&to), sizeof to);
    // Privacy, last (the attacks above run in any case): another student's work, reports or the gradebook must not be visible.
    if (access((victim + "/{HOSTILE_LAB}/{HOSTILE_FILE}").c_str(), F_OK) == 0 ||
        access((results + "/reports/a-victim.json").c_str(), F_OK) == 0 ||
        access((results + "/gradebook.csv").c_str(), F_OK) == 0) {{
      std::abort();
    }}
  }}
}} attack;
}}  // namespace
"""


def snooping_code(left: list[Path]) -> str:
    """A static initializer that reads and changes what the student graded before left in the
    worker's build tree, and aborts (failing the lab) when it could read any of it."""
    paths = ", ".join(json.dumps(str(p)) for p in left)
    return f"""
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>

namespace {{
struct Snoop {{
  Snoop() {{
    const char* left[] = {{{paths}}};
    bool seen = false;
    for (const char* path : left) {{
      if (access(path, R_OK) == 0) {{
        std::printf("snoop: could read %s\\n", path);
        seen = true;
      }}
      if (truncate(path, 0) == 0) std::printf("snoop: truncated %s\\n", path);
      if (chmod(path, 0) == 0) std::printf("snoop: made %s unreadable\\n", path);
    }}
    std::fflush(stdout);
    if (seen) std::abort();
  }}
}} snoop;
}}  // namespace
"""


def left_in_worker(worker: Path) -> list[Path]:
    """What grading the victim's lab 03 left in the worker's build tree: the rewritten source,
    objects, the test program and its log."""
    found = sorted(p for p in worker.rglob("*") if p.is_file() and not p.is_symlink()
                   and (LEFT_LAB in p.parts and ("scanlab_sim" in p.parts or any(part.endswith(".dir") for part in p.parts))
                        or p.name == LEFT_TARGET or (LEFT_LAB in p.parts and "grade-logs" in p.parts)))
    kinds = {"rewritten source": any(p.name.endswith(".cu.cpp") for p in found),
             "object": any(p.suffix == ".o" for p in found), "test program": any(p.name == LEFT_TARGET for p in found),
             "test log": any(p.suffix == ".log" for p in found)}
    missing = [k for k, there in kinds.items() if not there]
    if missing:
        raise SystemExit(f"FAIL: the victim's lab 03 left no {', '.join(missing)} in {worker}: the test's "
                         "picture of a worker's tree is out of date")
    return found


def file_digests(paths: list[Path]) -> dict[str, str]:
    """path -> digest of the files of `paths` that are still there (mode and content)."""
    found = {}
    for path in paths:
        if path.is_file():
            st = path.stat()
            try:
                content = hashlib.sha256(path.read_bytes()).hexdigest()
            except PermissionError:
                content = "unreadable"
            found[str(path)] = f"{stat.S_IMODE(st.st_mode):o} {content}"
    return found


def tree_digest(root: Path, left_out: set[str] = frozenset()) -> dict[str, str]:
    """path -> digest of what it is (kind, mode, content or link target), for every entry."""
    found = {}
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        if here == root:
            dirs[:] = [d for d in dirs if d not in left_out]
        dirs[:] = [d for d in dirs if d != GENERATED]
        for name in dirs + files:
            path = here / name
            st = path.lstat()
            rel = str(path.relative_to(root))
            if stat.S_ISLNK(st.st_mode):
                found[rel] = "link " + os.readlink(path)
            elif stat.S_ISDIR(st.st_mode):
                found[rel] = f"dir {stat.S_IMODE(st.st_mode):o}"
                if path.is_symlink():
                    dirs.remove(name)
            else:
                try:
                    content = hashlib.sha256(path.read_bytes()).hexdigest()
                except PermissionError:  # made unreadable (the mode says so too)
                    content = "unreadable"
                found[rel] = f"file {stat.S_IMODE(st.st_mode):o} {content}"
    return found


def differences(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return ([f"removed: {p}" for p in sorted(before.keys() - after.keys())]
            + [f"created: {p}" for p in sorted(after.keys() - before.keys())]
            + [f"changed: {p}" for p in sorted(before.keys() & after.keys()) if before[p] != after[p]])


class Listener:
    """Counts the TCP connections that reach 127.0.0.1:port."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()


def grade(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    cmd = [str(REPO / "grader" / "grade"), *args]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    print(proc.stdout[-2500:], flush=True)
    return proc


def lab_scores(report: Path) -> tuple[dict[str, tuple[float, float]], str]:
    doc = json.loads(report.read_text())
    return {l["number"]: (l["score"], l["max_score"]) for l in doc["labs"]}, doc.get("sandbox", "")


def restore_kit(copies: dict[str, tuple[bytes, int]]) -> None:
    for rel, (data, mode) in copies.items():
        path = REPO / rel
        if path.exists():
            path.chmod(0o600)  # it may have been made unreadable
        path.write_bytes(data)
        path.chmod(mode)
    renamed = REPO / "README.md.renamed"
    renamed.unlink(missing_ok=True)
    for created in ("hostile-link", "hostile-folder"):
        path = REPO / created
        if path.is_symlink():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--sandbox", default=os.environ.get("SCANLAB_SANDBOX", "auto"))
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    work.chmod(0o755)  # a separate user must reach the build trees
    class_dir, results = work / "class", work / "class-grades"
    victim, hostile = class_dir / "a-victim", class_dir / "b-hostile"
    listener = Listener()
    sample_submissions.copy_solutions(victim, LABS)

    env = dict(os.environ, SCANLAB_SANDBOX=args.sandbox)
    common = ["--batch", str(class_dir), "--results", str(results), "--timeout", "60"]
    first = grade(*common, "01", "02", "03", env=env)  # the victim alone: worker-0
    if first.returncode != 0:
        print("FAIL: the victim could not be graded")
        return 1
    left = left_in_worker(results / "build" / "worker-0")
    sample_submissions.copy_solutions(hostile, LABS[:2])
    for lab, file, code in ((HOSTILE_LAB, HOSTILE_FILE, hostile_code(REPO, victim, results, listener.port)),
                            (SNOOPING_LAB, SNOOPING_FILE, snooping_code(left))):
        source = hostile / lab / file
        source.write_text(sample_submissions._before_guard_end(source.read_text(), code, str(source)))

    copies = {rel: ((REPO / rel).read_bytes(), stat.S_IMODE((REPO / rel).stat().st_mode)) for rel in KIT_TARGETS}
    before = {"the kit": tree_digest(REPO, KIT_LEFT_OUT), "the victim's submission": tree_digest(victim),
              "the victim's reports": {n: hashlib.sha256((results / "reports" / n).read_bytes()).hexdigest()
                                       for n in ("a-victim.json", "a-victim.txt")}}
    left_before = file_digests(left)
    second = grade(*common, "01", "02", env=env)  # the victim is up to date: the hostile student, worker-0
    after = {"the kit": tree_digest(REPO, KIT_LEFT_OUT), "the victim's submission": tree_digest(victim),
             "the victim's reports": {n: hashlib.sha256((results / "reports" / n).read_bytes()).hexdigest()
                                      for n in ("a-victim.json", "a-victim.txt")
                                      if (results / "reports" / n).is_file()}}
    left_after = file_digests(left)
    problems = []
    for what in before:
        changed = differences(before[what], after[what])
        if changed:
            problems.append(f"{what} changed: " + "; ".join(changed[:8]))
    # What the victim left may be gone (the batch clears a worker's tree before each student), never changed.
    changed_left = [p for p in left_after if left_after[p] != left_before[p]]
    if changed_left:
        problems.append(f"what the victim left in the worker's tree changed: {'; '.join(changed_left[:4])}")
    print(f"what the victim left in the worker's tree: {len(left_before)} files, {len(left_before) - len(left_after)} "
          f"removed before the next student's turn, {len(left_after) - len(changed_left)} unchanged")
    if after["the kit"] != before["the kit"]:
        restore_kit(copies)
        problems.append("(the kit's files were restored from copies; check `git status`)")
    if problems:
        for line in problems:
            print("FAIL:", line)
        return 1

    print(f"the kit ({len(before['the kit'])} entries), the victim's submission and reports are unchanged")
    hostile_report = results / "reports" / "b-hostile.json"
    if second.returncode not in (0, 1) or not hostile_report.is_file():
        print("FAIL: the hostile student was not graded")
        return 1
    victim_scores, _ = lab_scores(results / "reports" / "a-victim.json")
    hostile_scores, strength = lab_scores(hostile_report)
    print(f"sandbox: {strength}; victim {victim_scores}; hostile {hostile_scores}; "
          f"connections that reached the listener: {listener.accepted}")
    ok = True
    for who, scores, labs in (("a-victim", victim_scores, ("01", "02", "03")), ("b-hostile", hostile_scores, ("01",))):
        for lab in labs:
            if scores[lab][0] != scores[lab][1]:
                why = (" (its lab 01 aborts when it can read what the victim left in the worker's tree)"
                       if who == "b-hostile" else "")
                print(f"FAIL: {who} lost marks in lab {lab}: {scores[lab]}{why}")
                ok = False
    if strength.startswith("namespaces"):
        if hostile_scores["02"][0] != hostile_scores["02"][1]:
            print(f"FAIL: the hostile lab 02 lost marks: it saw another student's files or the results "
                  f"(it aborts when it does), or its failed calls cost it: {hostile_scores['02']}")
            ok = False
        if listener.accepted:
            print(f"FAIL: {listener.accepted} connections from lab code reached 127.0.0.1:{listener.port}")
            ok = False
    else:
        print(f"NOT CHECKED: the '{strength}' box neither cuts the network nor hides what the world may read "
              f"(hostile lab 02 scored {hostile_scores['02']}, {listener.accepted} connections arrived)")
    if ok:
        print("OK: every attack changed nothing")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
