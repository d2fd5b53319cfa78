"""python3 -m scanlab_grader: what grader/grade runs once the machine's prerequisites are there."""

import sys

if sys.version_info < (3, 11):
    sys.exit("grade: Python 3.11 or newer is needed (tomllib)")

from scanlab_grader.cli import main  # noqa: E402

sys.exit(main())
