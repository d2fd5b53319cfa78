"""Building a submission's labs with CMake, as grader/grade and reports/bench both do: the build
tree (tree.py) and the first errors of a build that failed (compiler_errors.py)."""

from .compiler_errors import first_errors
from .tree import BuildResult, BuildTree, RunBuild, earlier_labs_dir, keep_configuration_only, run_plainly

__all__ = ["BuildResult", "BuildTree", "RunBuild", "earlier_labs_dir", "first_errors", "keep_configuration_only",
           "run_plainly"]
