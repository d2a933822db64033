"""cmake --install puts the module into the prefix's Python path, where a fresh interpreter imports
it and runs a query."""
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest


def test_install_into_a_prefix(tmp_path, cow_path):
    build = os.environ.get("KDOPCD_BUILD_DIR")
    relative = os.environ.get("KDOPCD_PYTHON_INSTALL_DIR")
    if not build or not relative:
        pytest.fail("KDOPCD_BUILD_DIR and KDOPCD_PYTHON_INSTALL_DIR are set by ctest")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--component", "kdopcd_python", "--prefix", str(prefix)],
                   check=True, capture_output=True, text=True)
    # The build's default is the interpreter's own layout for a prefix (site-packages under lib).
    default = sysconfig.get_path("platlib", "posix_prefix", vars={"platbase": "/p", "base": "/p"})
    assert Path("/p", os.environ["KDOPCD_PYTHON_DEFAULT_DIR"]) == Path(default)
    site = prefix / relative
    installed = list(site.glob("kdopcd*.so"))
    assert len(installed) == 1
    script = (
        "import kdopcd, sys\n"
        f"m = kdopcd.load_mesh({str(cow_path)!r}); t = kdopcd.DopTree(m)\n"
        "c, s = kdopcd.collide(t, t, kdopcd.pose_classes(t, t)['intersecting'])\n"
        "print(kdopcd.__file__, len(c))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    where, contacts = done.stdout.split()
    assert Path(where) == installed[0] and int(contacts) > 0
