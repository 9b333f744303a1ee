"""Soft checks for the Python tests of tests/tools: each failed check is
printed at once and counted, so that one run reports every failure.

    from checks import Checks
    check = Checks("model builder")
    check(value == 3, f"value {value}")     # returns the condition
    sys.exit(check.finish())                # 1 after any failure, else 0
"""

import sys


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def __call__(self, condition, what):
        if not condition:
            self.failures.append(what)
            print(f"FAIL: {what}", file=sys.stderr)
        return condition

    def finish(self):
        """Prints the outcome; the exit code: 1 after a failure, else 0."""
        if self.failures:
            print(f"{self.name}: {len(self.failures)} failure(s)", file=sys.stderr)
            return 1
        print(f"{self.name}: ok")
        return 0
