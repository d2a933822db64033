"""The fixed-point path from Python against kdop: recorded axis tests equal kdop vectors' bit for
bit, the SAT verdicts and diffs equal kdop sat-eval's, the set-up's integers equal the vectors'
quantization, verify_bound's counts equal kdop verify-bound's."""
import numpy as np
import pytest

import kdopcd
from conftest import read_json


def one_pose_file(path, pose):
    # repr() is the shortest text that reads back as the same double.
    path.write_text(" ".join(repr(float(x)) for x in pose) + "\n")
    return path


def sat_eval_lines(kdop, vectors):
    out = kdop("sat-eval", "--vectors", vectors).stdout.split()
    return np.array([int(x) for x in out], dtype=object).reshape(-1, 3)


@pytest.fixture(scope="module")
def close_pose_file(cow_poses, tmp_path_factory):
    return one_pose_file(tmp_path_factory.mktemp("close") / "close.txt", cow_poses[1])


def test_recorded_axis_tests_equal_kdop_vectors(kdop, cow_path, cow_tree, cow_poses, close_pose_file, tmp_path):
    kdop("vectors", cow_path, cow_path, "--poses", close_pose_file, "--out", tmp_path / "v.txt")
    from_kdop = kdopcd.load_test_vectors(str(tmp_path / "v.txt"))
    recorded = kdopcd.record_axis_tests(cow_tree, cow_tree, cow_poses[1])
    assert len(recorded["real"]) == recorded["stats"]["axis_tests"] > 1000
    assert set(from_kdop["kind"]) == {"R"}
    np.testing.assert_array_equal(recorded["real"], from_kdop["real"])  # the doubles, bit for bit
    # The traversal's own verdicts are the bit-accurate SAT's, here and in kdop sat-eval.
    expected = sat_eval_lines(kdop, tmp_path / "v.txt")
    got = kdopcd.sat_eval(recorded["real"], recorded["bits"])
    np.testing.assert_array_equal(got["diff1"], expected[:, 0].astype(np.int64))
    np.testing.assert_array_equal(got["diff2"], expected[:, 1].astype(np.int64))
    np.testing.assert_array_equal(got["separated"], expected[:, 2] == 1)
    np.testing.assert_array_equal(got["separated"], recorded["separated"])
    assert got["separated"].any() and not got["separated"].all()


def test_quantized_vectors_equal_kdop_at_44_bits(kdop, cow_path, cow_tree, cow_poses, close_pose_file, tmp_path):
    # At b = c = z = 44 the diffs need 93 bits: Python integers.
    kdop("vectors", cow_path, cow_path, "--poses", close_pose_file, "--out", tmp_path / "q.txt",
         "--format", "quantized", "--bits", "44", "--limit", "200")
    from_kdop = kdopcd.load_test_vectors(str(tmp_path / "q.txt"))
    recorded = kdopcd.record_axis_tests(cow_tree, cow_tree, cow_poses[1], bits=(44, 44, 44), limit=200)
    quantized = kdopcd.quantize_operands(recorded["real"], (44, 44, 44))
    np.testing.assert_array_equal(quantized, from_kdop["fixed"])
    expected = sat_eval_lines(kdop, tmp_path / "q.txt")
    got = kdopcd.sat_eval(quantized, (44, 44, 44))
    assert got["diff1"].dtype == object
    assert list(got["diff1"]) == list(expected[:, 0]) and list(got["diff2"]) == list(expected[:, 1])
    assert max(abs(int(d)) for d in got["diff2"]) >= 2**63  # beyond int64: the case this covers


def test_vector_text_round_trips(cow_tree, cow_poses):
    real = kdopcd.record_axis_tests(cow_tree, cow_tree, cow_poses[0], limit=50)["real"]
    text = kdopcd.format_test_vectors(real, (18, 18, 18))
    back = kdopcd.parse_test_vectors(text, "made")
    np.testing.assert_array_equal(back["real"], real)
    assert (back["bits"] == [18, 18, 18]).all() and list(back["line"]) == list(range(1, 51))


def test_setup_integers_are_the_vectors_quantization(cow_tree, cow_poses):
    # The root pair's first axis test is axis 0 of the query's set-up: its quantized P' and p' are
    # the axis table the hardware is programmed with.
    pose = cow_poses[1]
    setup = kdopcd.query_setup(cow_tree, cow_tree, pose)
    first = kdopcd.record_axis_tests(cow_tree, cow_tree, pose, limit=1)["real"]
    q = kdopcd.quantize_operands(first, (18, 18, 18))[0]
    axis = setup["fixed_axes"]
    np.testing.assert_array_equal(q[0:3], axis["PA"][0])
    np.testing.assert_array_equal(q[3:6], axis["PB"][0])
    assert q[6] == axis["p"][0]
    assert setup["scale"] == kdopcd.scene_scale(cow_tree, cow_tree)
    np.testing.assert_array_equal(setup["centred"], kdopcd.centred_pose(cow_tree, cow_tree, pose))
    assert setup["triangle_pose"]["in_range"]


def test_verify_bound_equals_kdop(kdop, tmp_path, cow_tree, cow_poses):
    kdop("verify-bound", "--samples", 20000, "--seed", 7, "--report", tmp_path / "r.json")
    expected = read_json(tmp_path / "r.json")
    got = kdopcd.verify_bound((18, 18, 18), samples=20000, seed=7)
    assert got["passed"] and expected["passed"]
    for key, value in expected["random"].items():
        assert got["random"][key] == value, key
    for key in ["r_max", "paper_bound", "tight_bound"]:
        assert got[key] == expected[key], key
    # Recorded axis tests of a real scene pass too, and a bound that is too tight would not.
    real = kdopcd.record_axis_tests(cow_tree, cow_tree, cow_poses[0])["real"]
    recorded = kdopcd.verify_bound((18, 18, 18), vectors=real)
    assert recorded["passed"] and recorded["recorded"]["samples"] == len(real)


def test_bad_vectors_raise_the_parser_message(cow_tree):
    row = np.zeros((1, 19))
    row[0, 0] = 0.5  # a mapping-vector entry must lie in [-1, 0]
    with pytest.raises(ValueError, match=r"operands:1: expected PA0 in \[-1, 0\]"):
        kdopcd.sat_eval(row, (18, 18, 18))
    with pytest.raises(ValueError, match=r"expected b as an integer in \[4, 44\]"):
        kdopcd.sat_eval(np.zeros((1, 19)), (2, 18, 18))
    with pytest.raises(ValueError, match="vectors:1: expected 'R' or 'Q'"):
        kdopcd.parse_test_vectors("X 18 18 18\n")
    with pytest.raises(ValueError, match="fixed-point z = 45 outside"):
        kdopcd.query_setup(cow_tree, cow_tree, [1, 0, 0, 0, 0, 0, 0], bits=(18, 18, 45))
    with pytest.raises(ValueError, match="nothing to check"):
        kdopcd.verify_bound((18, 18, 18))
