"""scanlab's grader: builds a submission's labs, runs their GoogleTest suites in
child processes, maps the signed per-test results to the checks of
grader/points.toml and writes the report in the requested format."""

__all__ = ["cli"]
