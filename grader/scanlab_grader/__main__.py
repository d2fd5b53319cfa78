"""python3 -m scanlab_grader: what grader/grade runs once the machine's prerequisites are there."""

import sys

if sys.version_info < (3, 11):
    sys.exit("grade: Python 3.11 or newer is needed (tomllib)")

from scanlab_grader import options  # noqa: E402

parser = options.parser()
args = parser.parse_args()
if args.batch:
    from scanlab_grader.batch import main  # noqa: E402
    args.jobs = args.jobs or 1
elif not args.labs and not args.prepare:
    parser.error("name the labs to grade (or all)")
else:
    from scanlab_grader.cli import main  # noqa: E402
sys.exit(main(args))
