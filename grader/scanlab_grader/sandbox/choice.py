"""The boxes this machine can make, the choice of one for the whole grade process, and how
a program is started in it (the package's text says what each box keeps out)."""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from . import leftovers
from . import build_limits, view
from .running import NAMESPACE_SHIM, Box, NamespaceBox, Rlimits

UNPRIVILEGED_USER = "nobody"
SHM_BYTES = 64 << 20  # the namespace box's /dev/shm

NAMESPACES = "namespaces"
SEPARATE_USER = "separate user"
SCREEN_ONLY = "symbol screen only"
CANNOT_HIDE = "no view of the file system: builds and test programs can read what this user may, solutions/ included"


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
    # NAMESPACES: the lab being graded, which decides what of the file system its builds and
    # runs see (view.py); None: the whole file system, read-only.
    scope: view.Scope | None = None

    @property
    def description(self) -> str:
        # Only the namespace box has a view (view.py): the weaker ones say what they cannot hide.
        cannot_hide = "" if self.strength == NAMESPACES else CANNOT_HIDE
        detail = "; ".join(d for d in (self.detail, cannot_hide) if d)
        return f"{self.strength} ({detail})" if detail else self.strength

    def _bwrap_command(self, cmd: list[str], cwd: Path, writable: tuple[Path, ...], status_fd: int,
                       exited_fd: int, building: bool) -> list[str]:
        before, after = view.mounts(self.scope, building=building, writable=writable,
                                    program=None if building else Path(cmd[0]))
        argv = list(self.bwrap) + before + _devices()
        for path in self.hidden:
            argv += ["--tmpfs", str(path)]
        for path in self.shown:
            argv += ["--ro-bind", str(path), str(path)]
        argv += after
        for path in writable:
            argv += ["--bind", str(path), str(path)]
        argv += view.hide_other_labs(self.scope) + view.hide_hidden_tests(self.scope, building=building)
        argv += ["--chdir", str(cwd), "--json-status-fd", str(status_fd)]
        return argv + ["--", "/bin/bash", "-c", NAMESPACE_SHIM.replace("EXITED", str(exited_fd)), "bash", *cmd]

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
              rlimits: Rlimits = Rlimits(), building: bool = False) -> Box:
        """Starts `cmd` in the box, in a session of its own, stdin from /dev/null, stdout and
        stderr to `stdout`, with the file descriptors `pass_fds` inherited. It may write the
        folders `writable` only; `scratch`, one of them or inside one, is its TMPDIR. `building`:
        a build step, which sees ccache's cache and its build tree (view.py)."""
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
            proc = subprocess.Popen(self._bwrap_command(cmd, cwd, writable, status_w, exited_w, building),
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
        return NamespaceBox(proc, init_pid, os.fdopen(exited_r, "rb"), status)

    def run(self, cmd: list[str], *, cwd: Path, writable: tuple[Path, ...], timeout: float,
            limits: build_limits.BuildLimits = build_limits.LIMITS) -> tuple[int, str]:
        """Runs `cmd` to its end in the box (a build step that compiles student code) under the
        build limits (build_limits.py): (exit status, its output); 124 when it ran out of time,
        125 when a limit stopped it (the output's last line says which), 127 when it could not
        be started. A separate user could not write the grader's build tree, so builds run in
        the namespace box or as the grader's user."""
        box_of_build = self if self.strength == NAMESPACES else Sandbox(SCREEN_ONLY, self.detail)
        with tempfile.TemporaryFile() as out:
            try:
                box = box_of_build.spawn(cmd, cwd=cwd, env=dict(os.environ), stdout=out, writable=writable,
                                         scratch=writable[0] if writable else None,
                                         rlimits=Rlimits(file_size_bytes=limits.file_bytes), building=True)
            except FileNotFoundError as e:
                return 127, str(e)
            rc, said = build_limits.watch(box, out, timeout, limits)
            box.wait()
            box.leftovers()
            out.seek(0)
            text = out.read(limits.output_bytes).decode("utf-8", errors="replace")
        return rc, text + (f"\n{said}" if said else "")


def _devices() -> list[str]:
    """A /dev of its own: the usual character devices, the GPU's where there is one (the cuda
    backend's test programs need them), a small /dev/shm, the rest read-only (a memory-backed
    file system would otherwise take files outside the memory limit); a /proc of its own."""
    gpu = [a for node in sorted(glob.glob("/dev/nvidia*")) for a in ("--dev-bind", node, node)]
    return ["--dev", "/dev", *gpu, "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
            "--proc", "/proc"]


def _bwrap_base(binary: str, user_namespace: bool) -> list[str]:
    argv = [binary, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
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
        ok, out = _works(base + ["--ro-bind", "/", "/", *_devices(), "--chdir", str(repo), "--", "test", "-r",
                                 str(repo / "grader" / "grade")])
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
    read. The two weaker boxes need the grader to be a child subreaper (leftovers.py)."""
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
        leftovers.become_subreaper()
    # A folder that holds the kit stays visible: the kit is what builds and tests read.
    chosen.hidden = tuple(h for h in hidden if not repo.resolve().is_relative_to(h.resolve()))
    chosen.shown = tuple(shown)
    _current = chosen
    return chosen


def current() -> Sandbox:
    """The box chosen for this process (the weakest where `choose` was not called)."""
    global _current
    if _current is None:
        leftovers.become_subreaper()
        _current = Sandbox(SCREEN_ONLY, "no sandbox was chosen")
    return _current


class SandboxError(Exception):
    pass
