"""common/bin/prerequisites decides right: nothing to do, install as root, install through
sudo, or one message and exit status 2. dpkg-query, apt-get, sudo and id are stand-ins, and
PATH holds only them and the utilities the script uses, so nothing is installed and the
machine's own packages and tools do not matter."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "common" / "bin" / "prerequisites"
SIMCC = REPO / "common" / "bin" / "simcc"
LIST = REPO / "common" / "setup" / "debian-packages.txt"
UTILITIES = ("bash", "env", "grep", "mktemp", "tail", "rm", "dirname", "true")

FAKES = {
    # dpkg-query -W -f='${Status}' PACKAGE: installed when PACKAGE is in $FAKE_INSTALLED.
    "dpkg-query": 'for p in $FAKE_INSTALLED; do [ "$p" = "${!#}" ] && { printf "install ok installed"; exit 0; }; done; exit 1',
    "id": 'echo "$FAKE_UID"',
    # sudo -n CMD...: allowed when FAKE_SUDO=yes, else the refusal of a sudo that wants a password.
    "sudo": '[ "$FAKE_SUDO" = yes ] || { echo "sudo: a password is required" >&2; exit 1; }; shift; '
            'echo "sudo" >> "$FAKE_LOG"; exec "$@"',
    "apt-get": 'echo "apt-get $*" >> "$FAKE_LOG"; exit "${FAKE_APT_STATUS:-0}"',
}


def packages(purpose: str, backend: str = "sim") -> list[str]:
    """What the list asks for: every line, or only those whose prefix fits."""
    plotting = purpose == "reports"  # reads a results file and builds nothing
    wanted = {"": not plotting, "sim:": not plotting and (purpose == "check" or backend == "sim"),
              "check:": purpose == "check", "reports:": purpose in ("reports", "check"), "recommended:": not plotting}
    names = []
    for line in LIST.read_text().splitlines():
        words = line.split("#")[0].split()
        if words:
            prefix, name = (words[0], words[1]) if words[0].endswith(":") else ("", words[0])
            if name.startswith("command="):
                raise AssertionError(line)
            if wanted[prefix]:
                names.append(name)
    return names


class PrerequisitesTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.bin = Path(tmp.name) / "bin"
        self.bin.mkdir()
        for name, body in FAKES.items():
            path = self.bin / name
            path.write_text("#!/usr/bin/env bash\n" + body + "\n")
            path.chmod(0o755)
        for name in UTILITIES:
            (self.bin / name).symlink_to(shutil.which(name))
        self.log = Path(tmp.name) / "log"
        self.log.touch()

    def environment(self, installed, uid="1000", sudo="no", apt_status="0", skip=""):
        return dict(os.environ, PATH=str(self.bin), FAKE_INSTALLED=" ".join(installed),
                    FAKE_UID=uid, FAKE_SUDO=sudo, FAKE_LOG=str(self.log), FAKE_APT_STATUS=apt_status,
                    SCANLAB_SKIP_PREREQUISITES=skip)

    def run_script(self, installed, uid="1000", sudo="no", purpose="grade", apt_status="0", backend="sim",
                   skip=""):
        env = self.environment(installed, uid, sudo, apt_status, skip)
        return subprocess.run([str(SCRIPT), purpose, "--backend", backend], env=env, capture_output=True,
                              text=True, timeout=60)

    def run_simcc(self, installed, uid="1000", sudo="no", apt_status="0"):
        """simcc on a file that does not exist: once the prerequisites are there, it gets as far
        as the host compiler, which is not on this PATH (nor python3: simcc is started by this
        interpreter, so that the stand-ins decide whether the python3 package is there)."""
        env = self.environment(installed, uid, sudo, apt_status)
        return subprocess.run([sys.executable, str(SIMCC), "missing.cu", "-o", "missing"], env=env, capture_output=True,
                              text=True, timeout=60)

    def apt_calls(self):
        return [l for l in self.log.read_text().splitlines() if l.startswith("apt-get")]

    def test_everything_there_is_silent(self):
        proc = self.run_script(packages("check"), purpose="check")
        self.assertEqual((proc.returncode, proc.stderr, self.apt_calls()), (0, "", []))

    def test_grading_does_not_need_the_benchmark_library(self):
        self.assertNotIn("libbenchmark-dev", packages("grade"))
        self.assertIn("libbenchmark-dev", packages("check"))
        proc = self.run_script(packages("grade"))
        self.assertEqual((proc.returncode, self.apt_calls()), (0, []))

    def test_only_reports_and_the_test_suite_need_matplotlib(self):
        self.assertNotIn("python3-matplotlib", packages("grade"))
        self.assertIn("python3-matplotlib", packages("reports"))
        self.assertIn("python3-matplotlib", packages("check"))
        proc = self.run_script(packages("grade"))
        self.assertEqual((proc.returncode, self.apt_calls()), (0, []))
        proc = self.run_script(packages("grade"), purpose="reports")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("missing: python3-matplotlib", proc.stderr)

    def test_plotting_needs_matplotlib_alone(self):
        self.assertEqual(packages("reports"), ["python3-matplotlib"])
        proc = self.run_script(["python3-matplotlib"], purpose="reports")
        self.assertEqual((proc.returncode, proc.stderr, self.apt_calls()), (0, "", []))

    def test_the_gpu_backend_does_not_need_the_simulator(self):
        self.assertNotIn("libboost-context-dev", packages("grade", "cuda"))
        self.assertIn("libboost-context-dev", packages("grade", "sim"))
        proc = self.run_script(packages("grade", "cuda"), backend="cuda")
        self.assertEqual((proc.returncode, self.apt_calls()), (0, []))

    def test_a_machine_set_up_otherwise_can_skip_the_check(self):
        proc = self.run_script([], skip="1")
        self.assertEqual((proc.returncode, proc.stderr, self.apt_calls()), (0, "", []))

    def test_a_tool_on_path_is_enough(self):
        # cmake from pip, say: no Debian package, but the command is there.
        (self.bin / "cmake").write_text("#!/bin/sh\n")
        (self.bin / "cmake").chmod(0o755)
        proc = self.run_script([p for p in packages("grade") if p != "cmake"])
        self.assertEqual((proc.returncode, self.apt_calls()), (0, []), proc.stderr)

    def test_root_installs_exactly_the_missing_packages(self):
        have = [p for p in packages("grade") if p != "libboost-context-dev"]
        proc = self.run_script(have, uid="0")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("installing missing Debian packages: libboost-context-dev", proc.stderr)
        calls = self.apt_calls()
        self.assertEqual(calls[0], "apt-get update -qq")
        self.assertEqual(calls[1], "apt-get install -y -qq --no-install-recommends libboost-context-dev")
        self.assertNotIn("sudo", self.log.read_text())

    def test_passwordless_sudo_installs(self):
        proc = self.run_script(["cmake"], sudo="yes")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # The needed packages first, then the recommended one.
        missing = [p for p in packages("grade") if p not in ("cmake", "bubblewrap")] + ["bubblewrap"]
        self.assertEqual(self.apt_calls()[1], "apt-get install -y -qq --no-install-recommends " + " ".join(missing))
        self.assertIn("sudo", self.log.read_text())

    def test_without_rights_one_message_and_status_2(self):
        proc = self.run_script([p for p in packages("grade") if p not in ("libgtest-dev", "libssl-dev")])
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(self.apt_calls(), [])
        self.assertEqual(proc.stderr.splitlines(), [
            "scanlab: these Debian packages are missing: libgtest-dev libssl-dev",
            "scanlab: install them with:  sudo apt-get install libgtest-dev libssl-dev",
        ])

    def test_failed_install_is_status_2(self):
        proc = self.run_script([], uid="0", apt_status="100")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("apt-get could not install", proc.stderr)

    def test_a_recommended_package_missing_without_rights_is_named_and_grading_goes_on(self):
        proc = self.run_script([p for p in packages("grade") if p != "bubblewrap"])
        self.assertEqual((proc.returncode, self.apt_calls()), (0, []), proc.stderr)
        self.assertEqual(proc.stderr.splitlines(), [
            "scanlab: these Debian packages are missing: bubblewrap",
            "scanlab: install them with:  sudo apt-get install bubblewrap",
            "scanlab: grading goes on without: bubblewrap (grader/README.md, 'The sandbox', says what is weaker)",
        ])

    def test_a_recommended_package_the_archive_lacks_does_not_keep_the_needed_ones_out(self):
        # The first install (both packages) fails, the second (the needed one alone) succeeds.
        (self.bin / "apt-get").write_text(
            '#!/usr/bin/env bash\necho "apt-get $*" >> "$FAKE_LOG"\n'
            '[[ $1 == install && " $* " == *" bubblewrap "* ]] && exit 100\nexit 0\n')
        have = [p for p in packages("grade") if p not in ("bubblewrap", "libgtest-dev")]
        proc = self.run_script(have, uid="0")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.apt_calls()[-1], "apt-get install -y -qq --no-install-recommends libgtest-dev")
        self.assertIn("scanlab: apt-get could not install: libgtest-dev bubblewrap", proc.stderr)
        self.assertIn("scanlab: grading goes on without: bubblewrap", proc.stderr)

    def test_the_test_suite_needs_the_recommended_packages(self):
        proc = self.run_script([p for p in packages("check") if p != "bubblewrap"], purpose="check")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("missing: bubblewrap", proc.stderr)
        self.assertNotIn("goes on", proc.stderr)

    def test_simcc_on_a_fresh_machine_names_the_packages_and_builds_nothing(self):
        have = [p for p in packages("grade") if p not in ("python3-clang", "libboost-context-dev")]
        proc = self.run_simcc(have)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(self.apt_calls(), [])
        self.assertEqual(proc.stderr.splitlines(), [
            "scanlab: these Debian packages are missing: libboost-context-dev python3-clang",
            "scanlab: install them with:  sudo apt-get install libboost-context-dev python3-clang",
        ])

    def test_simcc_as_root_installs_what_grade_installs(self):
        have = [p for p in packages("grade") if p not in ("python3-clang", "libboost-context-dev")]
        proc = self.run_simcc(have, uid="0")
        self.assertIn("installing missing Debian packages: libboost-context-dev python3-clang", proc.stderr)
        self.assertEqual(self.apt_calls()[1],
                         "apt-get install -y -qq --no-install-recommends libboost-context-dev python3-clang")
        # Then it goes on to build, and stops only at the missing host compiler or source file.
        self.assertNotIn("these Debian packages are missing", proc.stderr)

    def test_simcc_with_everything_there_goes_straight_to_the_build(self):
        proc = self.run_simcc(packages("grade"))
        self.assertEqual(self.apt_calls(), [])
        self.assertNotIn("scanlab:", proc.stderr)
        self.assertNotEqual(proc.returncode, 0)  # missing.cu and the compiler are not there

    def test_unknown_argument(self):
        proc = subprocess.run([str(SCRIPT), "everything"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("usage", proc.stderr)


if __name__ == "__main__":
    unittest.main()


# Stand-ins for a machine without matplotlib: python3 finds no module, makes a virtual
# environment whose python has matplotlib once its pip installed it, and runs what it is given.
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python3 $*" >> "$FAKE_LOG"
case $1 in
  -c) exit 1 ;;
  -m) [[ $2 == venv ]] || exit 1
      mkdir -p "$3/bin"; cp "$FAKE_VENV_PYTHON" "$3/bin/python"; exit 0 ;;
esac
exit 1
"""
FAKE_VENV_PYTHON = """#!/usr/bin/env bash
echo "venv-python $*" >> "$FAKE_LOG"
here=$(dirname "$0")
case $1 in
  -c) [[ -e $here/matplotlib ]] ;;
  -m) [[ $2 == pip ]] && touch "$here/matplotlib"; exit 0 ;;
  *) exit 1 ;;
esac
"""


class PlotWithoutAptTest(unittest.TestCase):
    """reports/plot on a machine whose apt has no archive: matplotlib from pip, into a
    virtual environment of the kit's own, and nothing else asked for."""

    environment = PrerequisitesTest.environment

    def setUp(self):
        PrerequisitesTest.setUp(self)  # the stand-ins for dpkg-query, id, sudo and apt-get
        for name in ("cat", "mkdir", "cp", "touch"):
            (self.bin / name).symlink_to(shutil.which(name))
        venv_python = self.bin.parent / "venv-python"
        venv_python.write_text(FAKE_VENV_PYTHON)
        venv_python.chmod(0o755)
        (self.bin / "python3").write_text(FAKE_PYTHON)
        (self.bin / "python3").chmod(0o755)
        self.venv = self.bin.parent / "plot-venv"
        self.env = dict(self.environment([], uid="0", apt_status="100"), SCANLAB_PLOT_VENV=str(self.venv),
                        FAKE_VENV_PYTHON=str(venv_python), TMPDIR=str(self.bin.parent))

    def plot(self):
        return subprocess.run(["bash", str(REPO / "reports" / "plot"), "results.json", "-o", "out"], env=self.env,
                              capture_output=True, text=True, timeout=60)

    def test_matplotlib_comes_from_pip_where_apt_cannot_bring_it(self):
        proc = self.plot()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        log = self.log.read_text().splitlines()
        self.assertIn("apt-get update -qq", log)  # apt was asked first
        self.assertIn(f"python3 -m venv {self.venv}", log)
        self.assertIn("venv-python -m pip install -q matplotlib", log)
        self.assertEqual(log[-1], "venv-python -m scanlab_reports.plot results.json -o out")
        self.assertIn(f"installing it with pip into {self.venv}", proc.stderr)
        # Once there, it is used as it is.
        self.log.write_text("")
        proc = self.plot()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("venv-python -m pip install -q matplotlib", self.log.read_text())
        self.assertEqual(self.log.read_text().splitlines()[-1], "venv-python -m scanlab_reports.plot results.json -o out")
