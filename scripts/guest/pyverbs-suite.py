#!/usr/bin/python3
# scripts/guest/pyverbs-suite.py DIR OUT ARGS... - run rdma-core's python
# test suite (python3-pyverbs' tests, unpacked into DIR) the way its
# run_tests.py does, with ARGS for its argument parser (--dev, --gid), and
# write one line per test to OUT: its outcome (pass, fail, error, skip,
# xfail, xpass) and its id, and for a skip its reason. unittest's verbose report goes to stderr as
# usual; the exit status is 0 once the suite ran, whatever its outcome.
import os
import sys
import unittest
from importlib.machinery import SourceFileLoader


class Recorder(unittest.TextTestResult):
    """A text result that also remembers each test's outcome."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes.append(("pass", test.id()))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.outcomes.append(("fail", test.id()))

    def addError(self, test, err):
        super().addError(test, err)
        self.outcomes.append(("error", test.id()))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        # one line: the reason's first line, blanks squeezed
        why = " ".join(str(reason).split("\n")[0].split())
        self.outcomes.append(("skip", f"{test.id()} {why}".rstrip()))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.outcomes.append(("xfail", test.id()))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.outcomes.append(("xpass", test.id()))


def main():
    top, out = sys.argv[1], sys.argv[2]
    sys.path.insert(0, top)
    # the suite's parser reads sys.argv when its package loads
    sys.argv = [os.path.join(top, "run_tests.py")] + sys.argv[3:]
    from args_parser import parser
    parser.parse_args()
    tests = SourceFileLoader("tests", os.path.join(top, "__init__.py")).load_module()
    suite = unittest.defaultTestLoader.loadTestsFromModule(tests)
    runner = unittest.TextTestRunner(verbosity=2, resultclass=Recorder)
    result = runner.run(suite)
    with open(out, "w") as f:
        for outcome, name in result.outcomes:
            f.write(f"{outcome} {name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
