#!/usr/bin/env python3
"""The verdict of scripts/regress (docs/regressions.md) without a cluster: the merge's exit status
and `--slurm --wait`'s both come from the cases' statuses in the merged result.json, so a merge log
that reads "10 failed, 0 errors" (which contains "0 failed, 0 errors") is a failure, and a merge
job that left no result is an error (2). Usage: regress_outcome_test.py [path to scripts/regress]"""
import importlib.machinery
import importlib.util
import io
import json
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

REGRESS = Path(sys.argv.pop(1) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "scripts" / "regress")
loader = importlib.machinery.SourceFileLoader("regress", str(REGRESS))
spec = importlib.util.spec_from_loader("regress", loader)
regress = importlib.util.module_from_spec(spec)
loader.exec_module(regress)


def cases(passed, failed=0, errors=0):
    return ([{"suite": "scenes", "id": f"p{i}", "status": "passed", "result": {}} for i in range(passed)] +
            [{"suite": "scenes", "id": f"f{i}", "status": "failed", "result": {}} for i in range(failed)] +
            [{"suite": "scenes", "id": f"e{i}", "status": "error", "result": {}} for i in range(errors)])


class Verdict(unittest.TestCase):
    def test_all_passed_is_0(self):
        self.assertEqual(regress.verdict(cases(5)), 0)

    def test_any_failure_or_error_is_1(self):
        for failed, errors in [(1, 0), (10, 0), (0, 1), (0, 10), (3, 2)]:
            self.assertEqual(regress.verdict(cases(5, failed, errors)), 1, (failed, errors))

    def test_no_case_is_not_a_pass(self):
        self.assertEqual(regress.verdict([]), 1)


class MergedOutcome(unittest.TestCase):
    """What `--slurm --wait` returns once the merge job has left the queue."""

    def outcome(self, result_cases, log_text):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "slurm").mkdir()
            log = out / "slurm" / "merge.out"
            if log_text is not None:
                log.write_text(log_text)
            if result_cases is not None:
                (out / "result.json").write_text(json.dumps({"cases": result_cases}))
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                return regress.merged_outcome(out, log)

    def test_ten_failures_fail_although_the_log_contains_0_failed_0_errors(self):
        log = "merged 3 shard reports: 5 passed, 10 failed, 0 errors; result.json, junit.xml\n"
        self.assertIn("0 failed, 0 errors", log)
        self.assertEqual(self.outcome(cases(5, 10), log), 1)

    def test_passing_merge_is_0(self):
        self.assertEqual(self.outcome(cases(5), "merged 3 shard reports: 5 passed, 0 failed, 0 errors\n"), 0)

    def test_the_statuses_decide_not_the_log(self):
        self.assertEqual(self.outcome(cases(5, 0, 1), "merged 3 shard reports: 5 passed, 0 failed, 0 errors\n"), 1)

    def test_merge_that_did_not_run_is_2(self):
        self.assertEqual(self.outcome(None, None), 2)
        self.assertEqual(self.outcome(cases(5), None), 2)
        self.assertEqual(self.outcome(None, "cancelled\n"), 2)


class ModelSweepMerge(unittest.TestCase):
    """The model sweep's merge compares contact pair sets (the hash of each configuration's --pairs
    file), not contact counts: equal counts with other pairs fail."""

    def merge(self, hashes):
        counts = {"cycles": [10], "pair_tests": [3], "axis_tests": [9], "axis_tests_issued": [9],
                  "triangle_tests": [2], "contacts": [1], "mem_beats": [4], "stall_cycles": [0]}
        sweep = [{"suite": "model-sweep", "id": f"a1-{name}", "group": "a1", "status": "passed",
                  "result": {**counts, "pairs_sha256": h}} for name, h in hashes.items()]
        with tempfile.TemporaryDirectory() as tmp:
            ctx = type("Ctx", (), {"out": tmp})()
            extra, _ = regress.merge_model_sweep(sweep, ctx)
        return {c["id"]: c["status"] for c in extra}

    def test_same_pairs_pass(self):
        self.assertEqual(self.merge({"n24": "ab" * 32, "n8": "ab" * 32}),
                         {"a1-contacts-independent-of-configuration": "passed"})

    def test_other_pairs_with_the_same_counts_fail(self):
        self.assertEqual(self.merge({"n24": "ab" * 32, "n8": "cd" * 32}),
                         {"a1-contacts-independent-of-configuration": "failed"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
