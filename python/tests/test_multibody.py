"""The multibody engine from Python against kdop multibody and the reference: every object pair's
contacts equal kdopcd.collide's at the pair's relative pose."""
from pathlib import Path

import numpy as np
import pytest

import kdopcd

pytestmark = pytest.mark.skipif(not kdopcd.has_multibody, reason="built without the CUDA part's engine")


def read_multibody_pairs(path):
    """kdop multibody --pairs: 'pair <a> <b> <n>' then n lines '<tri_a> <tri_b>'."""
    pairs = {}
    key = None
    for line in Path(path).read_text().splitlines():
        fields = line.split()
        if fields[0] == "pair":
            key = (int(fields[1]), int(fields[2]))
            pairs[key] = []
        else:
            pairs[key].append((int(fields[0]), int(fields[1])))
    return {k: np.array(v, dtype=np.uint32).reshape(-1, 2) for k, v in pairs.items()}


@pytest.fixture(scope="module")
def scene(kdop, cow_path, tmp_path_factory):
    path = tmp_path_factory.mktemp("scene") / "cows.json"
    kdop("multibody-scene", "--mesh", cow_path, "--objects", 27, "--density", 3, "-o", path)
    return path


@pytest.mark.parametrize("sat", ["float", "fixed"])
def test_scene_equals_kdop_multibody_and_the_reference(sat, kdop, scene, cow_tree, tmp_path):
    kdop("multibody", scene, "--backend", "host", "--sat", sat, "--pairs", tmp_path / "pairs.txt")
    expected = read_multibody_pairs(tmp_path / "pairs.txt")
    world = kdopcd.MultibodyWorld(str(scene))
    got = world.run(backend="host", sat=sat)
    touching = {(a, b): c for a, b, c, _ in got["pairs"] if len(c) > 0}
    assert touching.keys() == expected.keys() and len(expected) > 0
    for key, contacts in expected.items():
        np.testing.assert_array_equal(touching[key], contacts)
    # Every candidate pair, touching or not, is the reference's query at the relative pose.
    assert len(got["pairs"]) == len(got["broad_pairs"]) > len(expected)
    for a, b, contacts, stats in got["pairs"]:
        pose = kdopcd.relative_pose(world.pose(a), world.pose(b))
        ref, ref_stats = kdopcd.collide(cow_tree, cow_tree, pose, backend=sat, leaf_planes=False)
        np.testing.assert_array_equal(contacts, ref)
        assert stats["pair_tests"] == ref_stats["pair_tests"]


def test_world_from_arrays(cow, cow_tree, cow_poses):
    # Object 0 at the origin, object 1 at the intersecting pose, object 2 far away.
    poses = np.array([[1, 0, 0, 0, 0, 0, 0], cow_poses[0], [1, 0, 0, 0, 50, 0, 0]])
    world = kdopcd.MultibodyWorld([cow], [0, 0, 0], poses)
    got = world.run(backend="host")
    np.testing.assert_array_equal(got["broad_pairs"], [[0, 1]])
    (a, b, contacts, _), = got["pairs"]
    np.testing.assert_array_equal(contacts, kdopcd.collide(cow_tree, cow_tree, cow_poses[0])[0])
    # New poses, same resident trees: now every object is far from the others.
    world.set_poses(np.array([[1, 0, 0, 0, 100 * i, 0, 0] for i in range(3)]))
    assert len(world.run(backend="host")["broad_pairs"]) == 0
    with pytest.raises(ValueError, match="object 3 of 3"):
        world.pose(3)
    with pytest.raises(ValueError, match="one pose per object"):
        world.set_poses(poses[:2])
    with pytest.raises(ValueError, match="unknown broad phase 'octree'"):
        world.run(broad="octree")
    with pytest.raises(ValueError, match="^missing.json"):
        kdopcd.MultibodyWorld("missing.json")
