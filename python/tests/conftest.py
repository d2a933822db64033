"""Fixtures shared by the Python tests: the module, kdop (the C++ results they compare with), the
meshes and the cow/cow scene. ctest sets the environment (python/CMakeLists.txt); run by hand:
  PYTHONPATH=build/release/python KDOPCD_KDOP=build/release/sim/kdop KDOPCD_MESH_DIR=data/meshes \
    /usr/bin/python3 -m pytest python/tests
"""
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import kdopcd


def _env_path(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set (ctest sets it; see conftest.py)")
    return Path(value)


@pytest.fixture(scope="session")
def kdop():
    """Runs kdop with the given arguments; returns its stdout (fails the test on a non-zero exit)."""
    exe = _env_path("KDOPCD_KDOP")

    def run(*args, check=True):
        done = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            pytest.fail(f"kdop {' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def mesh_dir():
    return _env_path("KDOPCD_MESH_DIR")


@pytest.fixture(scope="session")
def cow_path(mesh_dir):
    return mesh_dir / "cow.off"


@pytest.fixture(scope="session")
def cow(cow_path):
    return kdopcd.load_mesh(str(cow_path))


@pytest.fixture(scope="session")
def cow_tree(cow):
    return kdopcd.DopTree(cow, 24)


@pytest.fixture(scope="session")
def cow_pose_file(kdop, cow_path, tmp_path_factory):
    """kdop poses cow cow: one pose per class, found by the C++ command."""
    path = tmp_path_factory.mktemp("poses") / "cow_cow.txt"
    kdop("poses", cow_path, cow_path, "--out", path)
    return path


@pytest.fixture(scope="session")
def cow_poses(cow_pose_file):
    """The poses of kdop poses, in class order (intersecting, close, small, separated)."""
    return kdopcd.load_poses(str(cow_pose_file))


def read_pairs(path):
    """kdop's --pairs file: 'pose <i> <n>' then n lines '<first> <second>'; a list of (n, 2) arrays."""
    poses = []
    for line in Path(path).read_text().splitlines():
        fields = line.split()
        if fields[0] == "pose":
            poses.append([])
        else:
            poses[-1].append((int(fields[0]), int(fields[1])))
    return [np.array(p, dtype=np.uint32).reshape(-1, 2) for p in poses]


def read_json(path):
    return json.loads(Path(path).read_text())
