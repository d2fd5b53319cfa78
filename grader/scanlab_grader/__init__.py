"""scanlab's grader: builds a submission's labs, runs their GoogleTest suites in
child processes, maps the signed per-test results to the checks of
each lab's manifest (grader/labs/NN-name/lab.toml) and writes the report in the requested format."""

__all__ = ["cli"]
