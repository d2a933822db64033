"""Queries of the reference from Python against the C++ results: kdop poses / kdop collide on
cow/cow, brute force on cow/bull, batches and parallel queries, bad input."""
import sys
import threading
import time

import numpy as np
import pytest

import kdopcd
from conftest import read_json, read_pairs

CLASSES = ["intersecting", "close-proximity", "small-proximity", "separated"]
STATS = ["contacts", "pair_tests", "axis_tests", "leaf_pairs", "triangle_tests", "max_stack_depth"]


def test_pose_classes_are_kdop_poses(cow_tree, cow_poses):
    found = kdopcd.pose_classes(cow_tree, cow_tree)
    assert list(found) == CLASSES
    # Bit for bit: the same search in the same library, and the pose file holds %.17g.
    np.testing.assert_array_equal(np.array([found[c] for c in CLASSES]), cow_poses)


@pytest.mark.parametrize("backend", ["float", "fixed", "exact"])
def test_collide_equals_kdop_collide(backend, kdop, cow_path, cow_tree, cow_pose_file, cow_poses, tmp_path):
    # The module's defaults are the hardware's tree and rule (docs/python.md); kdop collide's float
    # and exact backends default to the software's, so the tree and rule are named here.
    kdop("collide", cow_path, cow_path, "--poses", cow_pose_file, "--backend", backend, "--build", "median",
         "--rule", "shallower", "--pairs", tmp_path / "pairs.txt", "--json", tmp_path / "report.json")
    expected_contacts = read_pairs(tmp_path / "pairs.txt")
    expected_stats = read_json(tmp_path / "report.json")["poses"]
    assert len(expected_contacts) == len(cow_poses) == 4
    for pose, contacts, stats in zip(cow_poses, expected_contacts, expected_stats):
        got_contacts, got_stats = kdopcd.collide(cow_tree, cow_tree, pose, backend=backend)
        np.testing.assert_array_equal(got_contacts, contacts)
        assert {k: got_stats[k] for k in STATS} == {k: stats[k] for k in STATS}
    # The scene is one where the answer is not trivial: the intersecting pose has contacts and
    # more than 10^3 DOP pair tests.
    assert len(expected_contacts[0]) > 0 and expected_stats[0]["pair_tests"] >= 1000


def test_wide_and_binary_descent_equal_kdop_collide(kdop, cow_path, cow, cow_pose_file, cow_poses, tmp_path):
    # kdop collide's float defaults (SAH tree, larger rule) take the wide descent, --binary-descent
    # the binary one: the module's wide=True / wide=False give their contacts and counters.
    tree = kdopcd.DopTree(cow, 24, build="sah")
    answers = {}
    for wide, flags in [(True, []), (False, ["--binary-descent"])]:
        kdop("collide", cow_path, cow_path, "--poses", cow_pose_file, *flags, "--pairs", tmp_path / "pairs.txt",
             "--json", tmp_path / "report.json")
        expected_contacts = read_pairs(tmp_path / "pairs.txt")
        expected_stats = read_json(tmp_path / "report.json")["poses"]
        answers[wide] = []
        for pose, contacts, stats in zip(cow_poses, expected_contacts, expected_stats):
            got_contacts, got_stats = kdopcd.collide(tree, tree, pose, rule="larger", wide=wide)
            np.testing.assert_array_equal(got_contacts, contacts)
            assert {k: got_stats[k] for k in STATS} == {k: stats[k] for k in STATS}
            answers[wide].append((got_contacts, got_stats["pair_tests"]))
    # The same contacts either way; the intersecting pose's pair tests differ.
    for (c_wide, _), (c_binary, _) in zip(answers[True], answers[False]):
        np.testing.assert_array_equal(c_wide, c_binary)
    assert answers[True][0][1] != answers[False][0][1]


def test_contacts_equal_brute_force(mesh_dir, cow, cow_tree):
    bull = kdopcd.load_mesh(str(mesh_dir / "bull.off"))
    tree = kdopcd.DopTree(bull, 24)
    pose = kdopcd.pose_classes(cow_tree, tree)["intersecting"]
    brute = kdopcd.brute_force_contacts(cow, bull, pose)
    assert len(brute) > 0
    for backend in ["float", "exact"]:
        contacts, stats = kdopcd.collide(cow_tree, tree, pose, backend=backend)
        np.testing.assert_array_equal(contacts, brute)
        assert stats["contacts"] == len(brute)


def test_batch_and_parallel_queries_equal_single_ones(cow_tree, cow_poses):
    singles = [kdopcd.collide(cow_tree, cow_tree, p, backend="fixed") for p in cow_poses]
    batch = kdopcd.collide_batch(cow_tree, cow_tree, cow_poses, backend="fixed")
    parallel = kdopcd.Query(cow_tree, cow_tree, backend="fixed", threads=0).batch(cow_poses)
    assert len(batch) == len(parallel) == len(singles)
    for (c1, s1), (c2, s2), (c3, s3) in zip(singles, batch, parallel):
        np.testing.assert_array_equal(c1, c2)
        np.testing.assert_array_equal(c1, c3)
        assert s1 == s2
        # A parallel query's deepest stack is its deepest task stack (traversal.hpp).
        assert {k: s1[k] for k in STATS if k != "max_stack_depth"} == {k: s3[k] for k in STATS if k != "max_stack_depth"}


def test_arrays_round_trip(cow, cow_tree, cow_poses):
    # A mesh made from the loaded one's arrays builds the same tree and answers the same query.
    copy = kdopcd.Mesh(cow.vertices, cow.triangles.astype(np.int64), "copy")
    tree = kdopcd.DopTree(copy, 24)
    np.testing.assert_array_equal(tree.coefficients, cow_tree.coefficients)
    np.testing.assert_array_equal(tree.nodes, cow_tree.nodes)
    a, _ = kdopcd.collide(tree, tree, cow_poses[0])
    b, _ = kdopcd.collide(cow_tree, cow_tree, cow_poses[0])
    np.testing.assert_array_equal(a, b)
    # The views are the library's memory, read-only.
    assert not cow.vertices.flags.writeable and not cow_tree.coefficients.flags.writeable
    with pytest.raises(ValueError):
        cow.vertices[0, 0] = 1.0


def test_queries_release_the_gil(mesh_dir, cow, cow_tree):
    """While one thread is inside a reference query, another Python thread keeps running."""
    bull = kdopcd.load_mesh(str(mesh_dir / "bull.off"))
    pose = kdopcd.pose_classes(cow_tree, kdopcd.DopTree(bull, 24))["intersecting"]
    done = threading.Event()
    seconds = []

    def query():
        t0 = time.perf_counter()
        kdopcd.brute_force_contacts(cow, bull, pose)
        seconds.append(time.perf_counter() - t0)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        worker = threading.Thread(target=query)
        worker.start()
        time.sleep(0.01)  # let the worker enter the query
        steps = 0
        while not done.is_set():
            steps += 1
        worker.join()
    finally:
        sys.setswitchinterval(old)
    # With the GIL held for the query this loop could not run while it lasts (tens of ms).
    assert seconds[0] > 0.02
    assert steps > 10000


def test_bad_input_raises_the_library_message(cow, cow_tree, cow_poses, mesh_dir):
    pose = cow_poses[0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'backnd'"):
        kdopcd.collide(cow_tree, cow_tree, pose, backnd="float")
    with pytest.raises(TypeError, match="axes has the wrong type"):
        kdopcd.collide(cow_tree, cow_tree, pose, axes="3")
    with pytest.raises(ValueError, match="unknown SAT backend 'fast'"):
        kdopcd.collide(cow_tree, cow_tree, pose, backend="fast")
    with pytest.raises(ValueError, match="unknown descent rule 'deeper'"):
        kdopcd.collide(cow_tree, cow_tree, pose, rule="deeper")
    with pytest.raises(ValueError, match="fixed-point b = 3 outside"):
        kdopcd.collide(cow_tree, cow_tree, pose, backend="fixed", bits=(3, 18, 18))
    with pytest.raises(ValueError, match="bits sets the fixed-point arithmetic"):
        kdopcd.collide(cow_tree, cow_tree, pose, bits=(18, 18, 18))
    with pytest.raises(ValueError, match="cannot be normalized"):
        kdopcd.collide(cow_tree, cow_tree, [0, 0, 0, 0, 1, 2, 3])
    with pytest.raises(ValueError, match="non-finite value in pose"):
        kdopcd.collide(cow_tree, cow_tree, [1, 0, 0, 0, np.nan, 0, 0])
    with pytest.raises(ValueError, match="beyond the scale limit"):
        kdopcd.collide(cow_tree, cow_tree, [1, 0, 0, 0, 1e31, 0, 0])
    with pytest.raises(ValueError, match="7 numbers"):
        kdopcd.collide(cow_tree, cow_tree, [1, 0, 0, 0])
    with pytest.raises(ValueError, match="must share k"):
        kdopcd.collide(cow_tree, kdopcd.DopTree(cow, 6), pose)
    with pytest.raises(kdopcd.CapacityError, match="pair stack overflow: capacity 2"):
        kdopcd.collide(cow_tree, cow_tree, pose, stack_capacity=2)
    with pytest.raises(ValueError, match=r"p\.txt:2: expected 7 numbers"):
        kdopcd.parse_poses("1 0 0 0 0 0 0\n1 2 3\n", "p.txt")
    missing = str(mesh_dir / "no-such-mesh.off")
    with pytest.raises(ValueError, match="^" + missing):
        kdopcd.load_mesh(missing)
    with pytest.raises(ValueError, match="vertex index 3 out of range"):
        kdopcd.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 3]])
    with pytest.raises(ValueError, match="non-finite coordinate"):
        kdopcd.Mesh([[0, 0, np.inf], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    with pytest.raises(ValueError, match="integer vertex indices"):
        kdopcd.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 1.5]])
    with pytest.raises(ValueError, match="empty mesh"):
        kdopcd.Mesh(np.zeros((3, 3)), np.zeros((0, 3), dtype=np.int64))
    with pytest.raises(ValueError):
        kdopcd.DopTree(cow, 25)
    with pytest.raises(ValueError, match="median or sah|'octree'"):
        kdopcd.DopTree(cow, 24, build="octree")


def test_pose_normalization_is_parse_pose(cow_tree):
    # A pose given unnormalized is the pose file's: normalized as parse_pose normalizes it.
    text = "2 0.5 0.25 0 0.1 0.2 0.3"
    from_text = kdopcd.parse_poses(text)[0]
    from_array = kdopcd.normalize_pose(np.array([2, 0.5, 0.25, 0, 0.1, 0.2, 0.3]))
    np.testing.assert_array_equal(from_array, from_text)
    assert abs(np.linalg.norm(from_array[:4]) - 1) < 1e-15
