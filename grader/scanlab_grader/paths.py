"""Where the kit is: the one place that knows the package's position in the repository."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the kit's top folder (grader/scanlab_grader/ is two below)
GRADE = REPO / "grader" / "grade"  # the command a batch starts once per student
