"""Where student code runs: every test program, compute-sanitizer rerun and build of a
submission's files starts here, in the strongest box this machine can make.

One interface, three strengths, chosen once per grade process (`choose`) and named in every
report:

- `namespaces`: bubblewrap (Debian's `bubblewrap`, the tool Flatpak runs applications in)
  gives the program its own mount, PID, IPC, network, UTS and user namespaces: the whole file
  system read-only but the folders it is given (a test program: its lab's log folder, with its
  scratch folder, TMPDIR, inside), no network but loopback, no capabilities, an unprivileged
  user id, and folders of other students hidden. Whatever
  the program starts dies with it: the kernel kills a PID namespace's processes when its
  first process ends.
- `separate user`: where no namespace can be made but the grader runs as root, the program
  runs as `nobody` in a session of its own: it can write only the folders it is given and
  what the world may write, but it can read what the world may read and it has the network.
- `symbol screen only`: neither; the program runs as the grader's user in a session of its
  own. What keeps lab code in line is the screen of its imported symbols (linkage.py) before
  it runs.

In every box the time, memory, output and core-dump limits are the same, a timed-out program
is killed with all it started, and what it left running is stopped and named (containment.py
for the two weaker boxes, which have no namespace to do it).
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import resource
import select
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from . import containment

OUTPUT_LIMIT_BYTES = 64 << 20  # RLIMIT_FSIZE: what a program may print into its log
UNPRIVILEGED_USER = "nobody"
SHM_BYTES = 64 << 20  # the namespace box's /dev/shm

NAMESPACES = "namespaces"
SEPARATE_USER = "separate user"
SCREEN_ONLY = "symbol screen only"

_PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Rlimits:
    address_space_bytes: int | None = None

    def apply(self) -> None:
        """Runs in the child between fork and exec (inherited by everything it starts)."""
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT_BYTES, OUTPUT_LIMIT_BYTES))
        if self.address_space_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (self.address_space_bytes, self.address_space_bytes))
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _statm_resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _children(pid: int) -> list[int]:
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _descendants(pid: int) -> list[int]:
    """Every live process below `pid` (/proc/PID/task/TID/children), parents first."""
    order, todo = [], _children(pid)
    while todo:
        child = todo.pop(0)
        order.append(child)
        todo += _children(child)
    return order


class Box:
    """One running program in its box: the interface the runner uses."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc

    def poll(self) -> int | None:
        """The program's exit status once it has ended (negative: killed by that signal)."""
        return self.proc.poll()

    def wait(self, timeout: float | None = None) -> int:
        return self.proc.wait(timeout)

    def resident_bytes(self) -> int:
        return _statm_resident(self.proc.pid)

    def kill_tree(self) -> None:
        """Kills the program and everything it started that is still in its session."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def leftovers(self) -> list[containment.Leftover]:
        """Stops what the ended program left running and says what it was."""
        return containment.stop_leftovers(self.proc.pid)


class _NamespaceBox(Box):
    """Inside the namespace: bwrap's init (`init_pid`), its child the shell of `_SHIM`, and the
    program, the shell's child. When the program ends the shell says so on `exited` and waits:
    what the program left running is still there for the grader to name (the kernel would kill
    it with the namespace), until `leftovers` kills the namespace."""

    def __init__(self, proc: subprocess.Popen, init_pid: int | None, exited: IO[bytes], status: IO[bytes]):
        super().__init__(proc)
        self.init_pid = init_pid
        self.exited = exited
        self.status = status
        self.final: int | None = None
        self.seen: list[containment.Leftover] = []

    def _ended(self, status_line: bytes) -> None:
        self.exited.close()
        try:
            self.final = _shell_status(int(status_line))
        except ValueError:
            # The shell is gone without a word: the namespace was killed (a limit, or lab code
            # killed the shell), and whatever is still listed in it is dying, not left running.
            self.final = _shell_status(self.proc.wait())
            return
        tree = _descendants(self.init_pid) if self.init_pid is not None else []
        # tree[0] is the shell; everything else is what the program started.
        self.seen = [l for l in (containment.describe_process(p) for p in tree[1:]) if l is not None]

    def poll(self) -> int | None:
        if self.final is None and select.select([self.exited], [], [], 0)[0]:
            self._ended(self.exited.readline())
        return self.final

    def wait(self, timeout: float | None = None) -> int:
        if self.final is None:
            if not select.select([self.exited], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.proc.args, timeout)
            self._ended(self.exited.readline())
        return self.final

    def resident_bytes(self) -> int:
        if self.init_pid is None:
            return 0
        return sum(_statm_resident(p) for p in _descendants(self.init_pid))

    def kill_tree(self) -> None:
        if self.init_pid is None:  # bwrap did not get as far as the namespace
            super().kill_tree()
            return
        # The kernel kills the whole PID namespace with its first process; bwrap's own process
        # then reaps it and exits (killing that one too would leave the first process a zombie).
        try:
            os.kill(self.init_pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def leftovers(self) -> list[containment.Leftover]:
        self.kill_tree()
        self.proc.wait()
        self.status.close()
        if self.final is None:
            self.final = _shell_status(self.proc.returncode)
            self.exited.close()
        found, self.seen = self.seen, []  # said once
        return found


# The namespace's program runs under this bash script: it writes the program's exit status on
# fd EXITED (which the program does not inherit) and then waits to be killed with the
# namespace. Its own messages ("Segmentation fault") go nowhere: the log is the program's.
_SHIM = 'exec {err}>&2 2>/dev/null; "$@" 2>&$err {err}>&- EXITED>&-; echo $? >&EXITED; exec sleep infinity'


def _shell_status(rc: int) -> int:
    """The shell (and bwrap) pass a death by signal N on as 128 + N: give it back its sign."""
    if rc > 128 and rc - 128 < signal.NSIG:
        return -(rc - 128)
    return rc


@dataclass
class Sandbox:
    """How programs are started; `strength` says which box they get (see the module's text)."""
    strength: str = SCREEN_ONLY
    detail: str = ""
    user: pwd.struct_passwd | None = None  # SEPARATE_USER
    bwrap: list[str] = field(default_factory=list)  # NAMESPACES: bwrap and its fixed options
    # NAMESPACES: folders no run may see (in a batch: the class's submissions and results), and
    # folders inside them it may read again (this student's build trees). The weaker boxes
    # cannot hide anything.
    hidden: tuple[Path, ...] = ()
    shown: tuple[Path, ...] = ()

    @property
    def description(self) -> str:
        return f"{self.strength} ({self.detail})" if self.detail else self.strength

    def _bwrap_command(self, cmd: list[str], cwd: Path, writable: tuple[Path, ...], status_fd: int,
                       exited_fd: int) -> list[str]:
        argv = list(self.bwrap)
        for path in self.hidden:
            argv += ["--tmpfs", str(path)]
        for path in self.shown:
            argv += ["--ro-bind", str(path), str(path)]
        for path in writable:
            argv += ["--bind", str(path), str(path)]
        argv += ["--chdir", str(cwd), "--json-status-fd", str(status_fd)]
        return argv + ["--", "/bin/bash", "-c", _SHIM.replace("EXITED", str(exited_fd)), "bash", *cmd]

    def _prepare(self, writable: tuple[Path, ...]) -> None:
        if self.strength == SEPARATE_USER and self.user is not None:
            for path in writable:
                os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def _user_args(self) -> dict:
        if self.strength != SEPARATE_USER or self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def spawn(self, cmd: list[str], *, cwd: Path, env: dict[str, str], stdout: IO,
              writable: tuple[Path, ...] = (), scratch: Path | None = None, pass_fds: tuple[int, ...] = (),
              rlimits: Rlimits = Rlimits()) -> Box:
        """Starts `cmd` in the box, in a session of its own, stdin from /dev/null, stdout and
        stderr to `stdout`, with the file descriptors `pass_fds` inherited. It may write the
        folders `writable` only; `scratch`, one of them or inside one, is its TMPDIR."""
        # The scratch folder is made by the grader: the separate user must own it too, or a
        # program that writes its TMPDIR (compute-sanitizer does, before anything) fails.
        self._prepare(writable + ((scratch,) if scratch is not None else ()))
        env = dict(env)
        if scratch is not None:
            env["TMPDIR"] = str(scratch)
        if self.strength != NAMESPACES:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.STDOUT,
                                    env=env, cwd=cwd, pass_fds=pass_fds, start_new_session=True,
                                    preexec_fn=rlimits.apply, **self._user_args())
            return Box(proc)
        status_r, status_w = os.pipe()
        exited_r, exited_w = os.pipe()
        try:
            proc = subprocess.Popen(self._bwrap_command(cmd, cwd, writable, status_w, exited_w),
                                    stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.STDOUT, env=env,
                                    cwd=cwd, pass_fds=(*pass_fds, status_w, exited_w), start_new_session=True,
                                    preexec_fn=rlimits.apply)
        finally:
            os.close(status_w)
            os.close(exited_w)
        # bwrap writes the namespace's first process at once, before the program starts
        # (nothing when it failed), and its own exit status at the end: the pipe stays open
        # till then, or bwrap would die writing it. The program's status comes from the shell.
        status = os.fdopen(status_r, "rb")
        first = status.readline()
        try:
            init_pid = int(json.loads(first)["child-pid"]) if first else None
        except (ValueError, KeyError, TypeError):
            init_pid = None
        return _NamespaceBox(proc, init_pid, os.fdopen(exited_r, "rb"), status)

    def run(self, cmd: list[str], *, cwd: Path, writable: tuple[Path, ...], timeout: float) -> tuple[int, str]:
        """Runs `cmd` to its end in the box (a build): (exit status, its output); 124 when it
        ran out of time, 127 when it could not be started. A separate user could not write the
        grader's build tree, so builds run in the namespace box or as the grader's user."""
        box_of_build = self if self.strength == NAMESPACES else Sandbox(SCREEN_ONLY, self.detail)
        with tempfile.TemporaryFile() as out:
            try:
                box = box_of_build.spawn(cmd, cwd=cwd, env=dict(os.environ), stdout=out, writable=writable,
                                         scratch=writable[0] if writable else None)
            except FileNotFoundError as e:
                return 127, str(e)
            try:
                rc = box.wait(timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                box.kill_tree()
                rc, timed_out = 124, True
            box.wait()
            box.leftovers()
            out.seek(0)
            text = out.read().decode("utf-8", errors="replace")
        if timed_out:
            text += f"\n[build step timed out after {timeout:g} s]"
        return rc, text


def _bwrap_base(binary: str, user_namespace: bool) -> list[str]:
    # A /dev of its own: the usual character devices, the GPU's where there is one (the cuda
    # backend's test programs need them), a small /dev/shm, the rest read-only (a memory-backed
    # file system would otherwise take files outside the memory limit).
    gpu = [a for node in sorted(glob.glob("/dev/nvidia*")) for a in ("--dev-bind", node, node)]
    argv = [binary, "--ro-bind", "/", "/", "--dev", "/dev", *gpu, "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev", "--proc", "/proc",
            "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if user_namespace:
        nobody = _unprivileged_user()
        uid, gid = (nobody.pw_uid, nobody.pw_gid) if nobody else (65534, 65534)
        argv += ["--unshare-user", "--uid", str(uid), "--gid", str(gid)]
    return argv


def _unprivileged_user() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(UNPRIVILEGED_USER)
    except KeyError:
        return None


def _works(argv: list[str], **popen) -> tuple[bool, str]:
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=20, **popen)
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)
    return proc.returncode == 0, proc.stdout.decode(errors="replace").strip()


def _try_namespaces(repo: Path, _reach: tuple[Path, ...]) -> tuple[Sandbox | None, str]:
    binary = shutil.which("bwrap")
    if binary is None:
        return None, "bwrap is not installed (Debian package bubblewrap)"
    why = ""
    # An unprivileged user id inside needs a user namespace; as root without one (some
    # containers forbid them), root without capabilities on a read-only file system is next best.
    for user_namespace in (True, False) if os.geteuid() == 0 else (True,):
        base = _bwrap_base(binary, user_namespace)
        ok, out = _works(base + ["--chdir", str(repo), "--", "test", "-r", str(repo / "grader" / "grade")])
        if ok:
            detail = "bubblewrap" + ("" if user_namespace else ", as root without capabilities: no user namespace")
            return Sandbox(NAMESPACES, detail, bwrap=base), ""
        why = out.splitlines()[-1] if out else "bwrap failed"
    return None, f"bwrap cannot make namespaces here: {why}"


def _try_separate_user(repo: Path, reach: tuple[Path, ...]) -> tuple[Sandbox | None, str]:
    if os.geteuid() != 0:
        return None, "not root, so no other user to run as"
    user = _unprivileged_user()
    if user is None:
        return None, f"no user '{UNPRIVILEGED_USER}'"
    for path in (repo / "grader" / "grade", *reach):
        ok, _ = _works(["test", "-r", str(path)], user=user.pw_uid, group=user.pw_gid, extra_groups=[])
        if not ok:
            return None, f"user '{UNPRIVILEGED_USER}' cannot read {path}"
    return Sandbox(SEPARATE_USER, f"as '{UNPRIVILEGED_USER}'", user=user), ""


_current: Sandbox | None = None


def choose(repo: Path, wanted: str = "auto", hidden: tuple[Path, ...] = (), shown: tuple[Path, ...] = (),
           reach: tuple[Path, ...] = ()) -> Sandbox:
    """Picks the strongest box this machine can make (or the one `wanted` names: namespaces,
    user, none) for the rest of this process, and returns it. `hidden` and `shown`: see
    Sandbox; `reach`: folders the programs live in, which a separate user must be able to
    read. The two weaker boxes need the grader to be a child subreaper (containment.py)."""
    global _current
    if wanted not in ("auto", "namespaces", "user", "none"):
        raise SandboxError(f"no sandbox '{wanted}' (auto, namespaces, user or none; SCANLAB_SANDBOX?)")
    reasons = []
    chosen = None
    for name, attempt in (("namespaces", _try_namespaces), ("user", _try_separate_user)):
        if wanted not in ("auto", name):
            continue
        chosen, why = attempt(repo, reach)
        if chosen is not None:
            break
        reasons.append(why)
        if wanted == name:
            raise SandboxError(f"--sandbox {wanted}: {why}")
    if chosen is None:
        chosen = Sandbox(SCREEN_ONLY, "; ".join(reasons) if wanted == "auto" else "chosen with --sandbox none")
    if chosen.strength != NAMESPACES:
        containment.become_subreaper()
    # A folder that holds the kit stays visible: the kit is what builds and tests read.
    chosen.hidden = tuple(h for h in hidden if not repo.resolve().is_relative_to(h.resolve()))
    chosen.shown = tuple(shown)
    _current = chosen
    return chosen


def current() -> Sandbox:
    """The box chosen for this process (the weakest where `choose` was not called)."""
    global _current
    if _current is None:
        containment.become_subreaper()
        _current = Sandbox(SCREEN_ONLY, "no sandbox was chosen")
    return _current


class SandboxError(Exception):
    pass
