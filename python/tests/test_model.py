"""The SystemC model from Python against kdop sim: the same contacts, cycles and counters; the
reference's fixed backend gives the same contacts; concurrent calls are serialized correctly."""
import threading

import numpy as np
import pytest

import kdopcd
from conftest import read_json, read_pairs

pytestmark = pytest.mark.skipif(not kdopcd.has_model, reason="built without SystemC")

COUNTERS = ["cycles", "contacts", "pair_tests", "axis_tests", "axis_tests_issued", "axis_tests_cancelled",
            "leaf_pairs", "triangle_tests", "max_stack_depth", "mem_beats", "stall_cycles", "stack_overflow"]


@pytest.mark.parametrize("arch", ["v2", "paper"])
def test_sim_equals_kdop_sim(arch, kdop, cow_path, cow_tree, cow_pose_file, cow_poses, tmp_path):
    kdop("sim", cow_path, cow_path, "--poses", cow_pose_file, "--arch", arch, "--pairs", tmp_path / "pairs.txt",
         "--json", tmp_path / "sim.json")
    expected = read_json(tmp_path / "sim.json")
    expected_contacts = read_pairs(tmp_path / "pairs.txt")
    got = kdopcd.sim(cow_tree, cow_tree, cow_poses, arch=arch)
    assert got["cycles"] == expected["batch_cycles"]
    assert len(got["queries"]) == len(expected["poses"]) == 4
    for (contacts, stats), row, pairs in zip(got["queries"], expected["poses"], expected_contacts):
        np.testing.assert_array_equal(contacts, pairs)
        assert {k: stats[k] for k in COUNTERS} == {k: row[k] for k in COUNTERS}
    assert got["queries"][0][1]["cycles"] > 0 and len(got["queries"][0][0]) > 0


def test_model_contacts_equal_the_fixed_reference(cow_tree, cow_poses):
    params = kdopcd.model_params("v2")
    got = kdopcd.sim(cow_tree, cow_tree, cow_poses)
    for pose, (contacts, stats) in zip(cow_poses, got["queries"]):
        ref, ref_stats = kdopcd.collide(cow_tree, cow_tree, pose, backend="fixed", bits=params["bits"],
                                        tri_bits=(params["vertex_bits"], params["rotation_bits"]))
        np.testing.assert_array_equal(contacts, ref)
        assert stats["pair_tests"] == ref_stats["pair_tests"]


def test_concurrent_simulations_wait_for_each_other(cow_tree, cow_poses):
    """Four Python threads call the model at once: the guard runs them one at a time, and each gets
    what it gets alone."""
    alone = {arch: kdopcd.sim(cow_tree, cow_tree, cow_poses, arch=arch) for arch in ["v2", "paper"]}
    results = {}

    def run(i):
        arch = ["v2", "paper"][i % 2]
        results[i] = (arch, kdopcd.sim(cow_tree, cow_tree, cow_poses, arch=arch))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for arch, got in results.values():
        assert got["cycles"] == alone[arch]["cycles"]
        for (c1, s1), (c2, s2) in zip(got["queries"], alone[arch]["queries"]):
            np.testing.assert_array_equal(c1, c2)
            assert {k: s1[k] for k in COUNTERS} == {k: s2[k] for k in COUNTERS}


def test_parameters(cow_tree, cow_poses):
    wide = kdopcd.sim(cow_tree, cow_tree, cow_poses[0], engines=1, sat_units=2)
    narrow = kdopcd.sim(cow_tree, cow_tree, cow_poses[0], engines=1, sat_units=1)
    assert wide["params"]["sat_units"] == 2
    # Same answer, different timing.
    np.testing.assert_array_equal(wide["queries"][0][0], narrow["queries"][0][0])
    assert wide["cycles"] != narrow["cycles"]
    with pytest.raises(ValueError, match="model: unknown parameter 'warp_speed'"):
        kdopcd.sim(cow_tree, cow_tree, cow_poses[0], warp_speed=9)
    with pytest.raises(ValueError, match=r"model: SAT pipelines P must lie in 1\.\.64 \(got 0\)"):
        kdopcd.sim(cow_tree, cow_tree, cow_poses[0], arch="paper", pipelines=0)
    with pytest.raises(ValueError, match="architecture must be paper or v2"):
        kdopcd.sim(cow_tree, cow_tree, cow_poses[0], arch="v3")
    with pytest.raises(kdopcd.CapacityError, match="pending set overflow"):
        kdopcd.sim(cow_tree, cow_tree, cow_poses[0], stack_depth=2)
    incomplete = kdopcd.sim(cow_tree, cow_tree, cow_poses[0], stack_depth=2, check_overflow=False)
    assert incomplete["queries"][0][1]["stack_overflow"]
