"""What calling the reference from Python adds to the C++ call (docs/python.md, "Overhead").

For each cow/cow pose class (kdopcd.pose_classes), and poses between two of them with about 10^3
and 2 10^3 DOP pair tests, the same query is timed call by call, the three ways alternating in a
random order: the C++ call alone (Query.time_cpp: kdopcd::collide timed in C++, no Python in
between), the call of a kdopcd.Query from Python, and kdopcd.collide (which also checks its
options on every call). Medians over all calls; overhead = Python / C++ - 1. Then the batch:
Query.batch(parallel=False) of the same pose repeated, per pose, against as many C++ calls in a
row (means).

  PYTHONPATH=build/release/python /usr/bin/python3 python/bench/overhead.py [--mesh data/meshes/cow.off]
"""
import argparse
import random
import statistics
import time

import numpy as np

import kdopcd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesh", default="data/meshes/cow.off")
    parser.add_argument("--backend", default="float")
    parser.add_argument("--calls", type=int, default=2000, help="calls of each way per pose class")
    parser.add_argument("--pair-tests", type=int, nargs="*", default=[1000, 2000],
                        help="also poses with at least these many DOP pair tests")
    args = parser.parse_args()

    mesh = kdopcd.load_mesh(args.mesh)
    tree = kdopcd.DopTree(mesh, 24)
    query = kdopcd.Query(tree, tree, backend=args.backend)
    print(f"{mesh.name}/{mesh.name}, k = 24, backend {args.backend}: {args.calls} calls each way, "
          "medians of single calls")
    print(f"{'pose class':<16} {'pair tests':>10} {'C++ us':>9} {'Query us':>9} {'overhead':>9} "
          f"{'collide us':>10} {'overhead':>9} {'batch us':>9} {'overhead':>9}")
    classes = kdopcd.pose_classes(tree, tree)
    # The criterion's threshold: poses between close proximity and intersecting (same rotation,
    # translation interpolated), bisected to the least pair tests >= each target.
    close, hit = classes["close-proximity"], classes["intersecting"]
    for target in args.pair_tests:
        lo, hi = 0.0, 1.0  # fraction of the way from the close-proximity pose to the intersecting one
        for _ in range(40):
            mid = (lo + hi) / 2
            if query(close + mid * (hit - close))[1]["pair_tests"] >= target:
                hi = mid
            else:
                lo = mid
        classes[f">= {target} pair tests"] = close + hi * (hit - close)
    rng = random.Random(1)
    for name, pose in classes.items():
        _, stats = query(pose)
        query.time_cpp(pose, args.calls)  # warm caches (the first query of a scale quantizes the trees)
        cpp, py_query, py_collide = [], [], []
        # The three ways alternate call by call, in an order drawn anew each time, so that each sees
        # the machine, and follows the others, as often as the others do.
        def time_cpp():
            cpp.append(query.time_cpp(pose, 1)[0])

        def time_query():
            t0 = time.perf_counter()
            query(pose)
            py_query.append(time.perf_counter() - t0)

        def time_collide():
            t0 = time.perf_counter()
            kdopcd.collide(tree, tree, pose, backend=args.backend)
            py_collide.append(time.perf_counter() - t0)

        ways = [time_cpp, time_query, time_collide]
        for _ in range(args.calls):
            rng.shuffle(ways)
            for way in ways:
                way()
        # Query.batch(parallel=False): the same pose `calls` times in one call from Python, per pose,
        # against as many C++ calls in a row (both means, as a batch has no single-call times).
        repeated = np.tile(pose, (args.calls, 1))
        batch, cpp_run = [], []
        for _ in range(10):
            t0 = time.perf_counter()
            query.batch(repeated, parallel=False)
            batch.append((time.perf_counter() - t0) / args.calls)
            cpp_run.append(query.time_cpp(pose, args.calls).mean())
        c, q, f = (statistics.median(v) * 1e6 for v in (cpp, py_query, py_collide))
        b, cr = statistics.median(batch) * 1e6, statistics.median(cpp_run) * 1e6
        print(f"{name:<16} {stats['pair_tests']:>10} {c:>9.2f} {q:>9.2f} {100 * (q / c - 1):>8.1f}% "
              f"{f:>10.2f} {100 * (f / c - 1):>8.1f}% {b:>9.2f} {100 * (b / cr - 1):>8.1f}%")


if __name__ == "__main__":
    main()
