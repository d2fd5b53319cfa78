"""Import a Python module that scanlab takes from a Debian package (python3-matplotlib,
python3-clang, ...), whichever Python 3 runs the kit's scripts.

Debian installs such modules for its own interpreter, in /usr/lib/python3/dist-packages. A
machine whose `python3` is another build of the same version (pyenv, a virtual environment,
a container's own Python) does not look there, although the modules work in it: the compiled
parts are built for the version's ABI, not for one binary. So the kit looks there too, and
only for the same major.minor version, where that holds.
"""

import importlib
import sys
import sysconfig
from pathlib import Path

DEBIAN_SITE = Path("/usr/lib/python3/dist-packages")


def _debian_site_matches_this_python() -> bool:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ""
    # Debian's extension modules carry the ABI tag of its interpreter (cpython-311-...).
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    return DEBIAN_SITE.is_dir() and (tag in suffix or any(DEBIAN_SITE.glob(f"*{tag}*")))


def import_debian_module(module: str, package: str):
    """Import `module`; when this Python cannot see it, look in Debian's site directory.
    Raises ImportError naming the Debian `package` to install when it is not there either."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pass
    if _debian_site_matches_this_python() and str(DEBIAN_SITE) not in sys.path:
        sys.path.append(str(DEBIAN_SITE))
        try:
            return importlib.import_module(module)
        except ImportError:
            pass
    raise ImportError(
        f"the Python module '{module}' is missing: install the Debian package {package} "
        f"(common/bin/prerequisites does, where it may)")
