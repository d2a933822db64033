"""docs/python.md's test bench, taken from the page and run: the page shows what the code does."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_the_documented_test_bench_passes(tmp_path, mesh_dir):
    if os.environ.get("KDOPCD_HAVE_RTL") != "1":
        pytest.skip("kdop was built without the verilated SAT pipeline (kdop sat-eval --engine rtl)")
    match = re.search(r"<!-- testbench\.py -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert match, "docs/python.md has no test bench block"
    script = tmp_path / "testbench.py"
    script.write_text(match.group(1))
    done = subprocess.run([sys.executable, str(script), str(mesh_dir), os.environ["KDOPCD_KDOP"]],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("all checks passed")
    # The output the page shows is what the script prints.
    shown = re.search(r"Its output .*?\n```text\n(.*?)```", DOC.read_text(), re.S)
    assert shown and done.stdout == shown.group(1)
