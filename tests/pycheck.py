# SPDX-License-Identifier: Apache-2.0
"""tests/pycheck.py: the check counter of the Python tests: check(desc, ok) counts and reports a
failing check; finish() prints the totals and exits 0 when none failed, else 1."""
import sys

_counts = {"checks": 0, "failed": 0}


def check(desc, ok):
    _counts["checks"] += 1
    if not ok:
        _counts["failed"] += 1
        print("FAIL: " + desc)


def finish():
    print("%d checks, %d failed" % (_counts["checks"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)
