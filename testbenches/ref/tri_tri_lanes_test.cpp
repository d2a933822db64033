// The triangle-pair test in SIMD lanes (tri_tri_lanes.hpp), on every Highway target: every lane it
// decides has triangles_intersect's answer (itself checked against the rational test in
// tri_tri_test.cpp), its placed vertices are place_vertex's doubles, pairs in general position are
// nearly all decided, and coplanar, degenerate and out-of-range pairs are left undecided.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "every_target.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/triangle_batch.hpp"
#include "kdopcd/tri_tri.hpp"
#include "kdopcd/tri_tri_lanes.hpp"

namespace {

using kdopcd::Mat3;
using kdopcd::Vec3;
using Tri = std::array<Vec3, 3>;
using Rng = std::mt19937_64;

double uni(Rng& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
int irand(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
Vec3 rand_box(Rng& rng, double lo, double hi) { return {uni(rng, lo, hi), uni(rng, lo, hi), uni(rng, lo, hi)}; }
Vec3 rand_int(Rng& rng, int lo, int hi) {
  return {double(irand(rng, lo, hi)), double(irand(rng, lo, hi)), double(irand(rng, lo, hi))};
}

// A pair: the first triangle in the first object's frame, the second in its own, and the pose
// that places the second (rotation R, translation t).
struct Case {
  Tri first, second;
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
};

Mat3 random_rotation(Rng& rng) {
  Eigen::Quaterniond q(uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1));
  q.normalize();
  return q.toRotationMatrix();
}

// Cases [b, b + count) into the lanes, copies of case b in the lanes past count.
void fill_lanes(const std::vector<Case>& cases, std::size_t b, int count, kdopcd::TriangleLanes& lanes) {
  for (int l = 0; l < kdopcd::kTriangleLanes; ++l) {
    const Case& c = cases[b + std::size_t(l < count ? l : 0)];
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) {
        lanes.first[3 * v + k][l] = c.first[std::size_t(v)][k];
        lanes.second[3 * v + k][l] = c.second[std::size_t(v)][k];
      }
  }
}

struct Tally {
  long pairs = 0, decided = 0, decided_hits = 0, hits = 0, wrong = 0, wrong_placement = 0, bits_past_count = 0;
};

// Runs the cases in batches of `batch` pairs (all sharing the first case's pose), with copies of
// the batch's first pair in the unused lanes, and checks every lane against triangles_intersect.
Tally run(const std::vector<Case>& cases, int batch = kdopcd::kTriangleLanes) {
  const kdopcd::TriangleLanesTest test = kdopcd::triangle_lanes_test();
  Tally tally;
  for (std::size_t b = 0; b < cases.size(); b += std::size_t(batch)) {
    const int count = int(std::min<std::size_t>(std::size_t(batch), cases.size() - b));
    const Case& lead = cases[b];
    double R[9], t[3];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) R[3 * i + j] = lead.R(i, j);
      t[i] = lead.t[i];
    }
    kdopcd::TriangleLanes lanes;
    fill_lanes(cases, b, count, lanes);
    const kdopcd::TriangleLaneVerdicts verdicts = test(lanes, count, R, t);
    tally.bits_past_count += (verdicts.decided | verdicts.intersecting) >> count != 0;
    for (int l = 0; l < count; ++l) {
      const Case& c = cases[b + std::size_t(l)];
      Tri placed;
      for (int v = 0; v < 3; ++v) {
        placed[std::size_t(v)] = kdopcd::place_vertex(lead.R, lead.t, c.second[std::size_t(v)]);
        for (int k = 0; k < 3; ++k)
          tally.wrong_placement += lanes.placed[3 * v + k][l] != placed[std::size_t(v)][k];
      }
      const bool exact = kdopcd::triangles_intersect(c.first[0], c.first[1], c.first[2], placed[0], placed[1], placed[2]);
      ++tally.pairs;
      tally.hits += exact;
      if (verdicts.decided >> l & 1u) {
        ++tally.decided;
        const bool meet = (verdicts.intersecting >> l & 1u) != 0;
        tally.decided_hits += meet;
        tally.wrong += meet != exact;
      } else {
        EXPECT_EQ(verdicts.intersecting >> l & 1u, 0u) << "an undecided lane says intersecting";
      }
    }
  }
  return tally;
}

std::vector<Case> make_cases(std::uint64_t seed, int n, const std::function<void(Rng&, Case&)>& gen) {
  Rng rng(seed);
  std::vector<Case> cases(static_cast<std::size_t>(n));
  for (Case& c : cases) gen(rng, c);
  return cases;
}

void expect_sound(const Tally& t, const std::string& family) {
  EXPECT_EQ(t.wrong, 0) << family;
  EXPECT_EQ(t.wrong_placement, 0) << family;
  EXPECT_EQ(t.bits_past_count, 0) << family;
}

// General position, random poses: nearly every pair decided, both answers well represented.
TEST(TriTriLanes, DecidesPairsInGeneralPositionAsTrianglesIntersect) {
  // The second triangle is made in the first object's frame and carried back into its own frame,
  // so that the placed pairs overlap as often as the first family's.
  auto placed_back = [](Rng& rng, Case& c, const Tri& wanted) {
    c.R = random_rotation(rng);
    c.t = rand_box(rng, -3, 3);
    for (int v = 0; v < 3; ++v) c.second[std::size_t(v)] = c.R.transpose() * (wanted[std::size_t(v)] - c.t);
  };
  struct Family {
    const char* name;
    std::function<void(Rng&, Case&)> gen;
  };
  const Family families[] = {
      {"unit box, random pose",
       [&](Rng& r, Case& c) {
         Tri wanted;
         for (auto& v : c.first) v = rand_box(r, -1, 1);
         for (auto& v : wanted) v = rand_box(r, -1, 1);
         placed_back(r, c, wanted);
       }},
      {"near each other at [1e3, 1e3 + 1]",
       [&](Rng& r, Case& c) {
         const Vec3 centre = rand_box(r, 1e3, 1e3 + 1);
         Tri wanted;
         for (auto& v : c.first) v = centre + rand_box(r, -0.3, 0.3);
         for (auto& v : wanted) v = centre + rand_box(r, -0.3, 0.3);
         placed_back(r, c, wanted);
       }},
      {"slivers and small triangles",
       [&](Rng& r, Case& c) {
         const double s = std::ldexp(1.0, irand(r, -30, 0));
         const Vec3 centre = rand_box(r, -1, 1);
         Tri wanted;
         // A large first triangle whose centroid is the centre, so that the slivers cross it often.
         const Vec3 d1 = rand_box(r, -4, 4) * s, d2 = rand_box(r, -4, 4) * s;
         c.first = {centre + d1, centre + d2, centre - (d1 + d2)};
         for (auto& v : wanted) v = centre + rand_box(r, -1, 1) * s;
         wanted[2] = wanted[0] + (wanted[1] - wanted[0]) * 0.5 + rand_box(r, -1, 1) * (s * 1e-6);
         placed_back(r, c, wanted);
       }},
  };
  on_every_target([&] {
    for (std::size_t i = 0; i < std::size(families); ++i) {
      const Tally t = run(make_cases(40 + i, 40000, families[i].gen));
      expect_sound(t, families[i].name);
      EXPECT_GT(t.decided, t.pairs - t.pairs / 1000) << families[i].name;
      EXPECT_GT(t.decided_hits, t.pairs / 50) << families[i].name;
      EXPECT_LT(t.decided_hits, t.decided - t.decided / 50) << families[i].name;
    }
  });
}

// Boundary cases with exact coordinates (the identity pose keeps them exact): shared vertices and
// edges, vertices on the other's face or one unit in the last place off it, coplanar and
// degenerate triangles. Every decided lane is right; coplanar and degenerate pairs stay undecided.
TEST(TriTriLanes, LeavesCoplanarDegenerateAndBoundaryPairsUndecidedOrRight) {
  on_every_target([&] {
    // The small integer grid: zero signs everywhere, and many pairs still in general position.
    const Tally grid = run(make_cases(50, 40000, [](Rng& r, Case& c) {
      for (auto& v : c.first) v = rand_int(r, 0, 3);
      for (auto& v : c.second) v = rand_int(r, 0, 3);
    }));
    expect_sound(grid, "grid");
    EXPECT_GT(grid.decided, grid.pairs / 4) << "grid";
    EXPECT_LT(grid.decided, grid.pairs) << "grid";
    EXPECT_GT(grid.decided_hits, 100) << "grid";

    // Coplanar: every sign is 0, never certified.
    const Tally coplanar = run(make_cases(51, 8000, [](Rng& r, Case& c) {
      Vec3 e1, e2;
      do {
        e1 = rand_int(r, -3, 3);
        e2 = rand_int(r, -3, 3);
      } while (e1.cross(e2).isZero(0.0));
      const Vec3 o = rand_int(r, -5, 5);
      for (auto& v : c.first) v = o + irand(r, -3, 3) * e1 + irand(r, -3, 3) * e2;
      for (auto& v : c.second) v = o + irand(r, -3, 3) * e1 + irand(r, -3, 3) * e2;
    }));
    expect_sound(coplanar, "coplanar");
    EXPECT_EQ(coplanar.decided, 0) << "coplanar";
    EXPECT_GT(coplanar.hits, 1000) << "coplanar";

    // Degenerate second triangles (a repeated vertex) crossing the first's plane: the first's
    // plane test may separate them, nothing else may decide them.
    const Tally degenerate = run(make_cases(52, 8000, [](Rng& r, Case& c) {
      for (auto& v : c.first) v = rand_box(r, -1, 1);
      c.second[0] = rand_box(r, -1, 1);
      c.second[1] = rand_box(r, -1, 1);
      c.second[2] = c.second[irand(r, 0, 1)];
    }));
    expect_sound(degenerate, "degenerate");
    EXPECT_EQ(degenerate.decided_hits, 0) << "degenerate";
    EXPECT_GT(degenerate.hits, 100) << "degenerate";

    // A vertex exactly on the other's face, or one unit in the last place to either side.
    const Tally on_face = run(make_cases(53, 8000, [](Rng& r, Case& c) {
      c.first = {Vec3(0, 0, 0.75), Vec3(4, 0, 0.75), Vec3(0, 4, 0.75)};
      const Vec3 apex(uni(r, 0.1, 1.5), uni(r, 0.1, 1.5), 0.75);
      const int step = irand(r, -1, 1);
      c.second[0] = step == 0 ? apex : Vec3(apex.x(), apex.y(), std::nextafter(0.75, step * 2.0));
      c.second[1] = apex + Vec3(uni(r, -1, 1), uni(r, -1, 1), uni(r, 0.5, 1) * (irand(r, 0, 1) ? 1 : -1));
      c.second[2] = apex + Vec3(uni(r, -1, 1), uni(r, -1, 1), uni(r, 0.5, 1) * (irand(r, 0, 1) ? 1 : -1));
    }));
    expect_sound(on_face, "on face");
    EXPECT_GT(on_face.decided, 1000) << "on face";
    EXPECT_GT(on_face.hits, 1000) << "on face";

    // An edge of each triangle through one point X (rounded coordinates, so the edges pass within
    // a few units in the last place of each other): the two intervals of the interval test meet
    // at X, and its orientations are as near 0 as the products' rounding errors.
    const Tally edges = run(make_cases(54, 20000, [](Rng& r, Case& c) {
      const Vec3 x = rand_box(r, -1, 1);
      const Vec3 e = rand_box(r, -1, 1), f = rand_box(r, -1, 1);
      c.first = {x - uni(r, 0.1, 1) * e, x + uni(r, 0.1, 1) * e, x + rand_box(r, -1, 1)};
      c.second = {x - uni(r, 0.1, 1) * f, x + uni(r, 0.1, 1) * f, x + rand_box(r, -1, 1)};
    }));
    expect_sound(edges, "edges through one point");
    EXPECT_GT(edges.decided, 1000) << "edges through one point";
    EXPECT_GT(edges.decided_hits, 100) << "edges through one point";
    EXPECT_LT(edges.decided, edges.pairs) << "edges through one point";

    // A vertex of the second triangle inside the first, on its plane up to rounding, the other two
    // on one side: the plane signs are as near 0 as the products' rounding errors.
    const Tally grazing = run(make_cases(55, 20000, [](Rng& r, Case& c) {
      for (auto& v : c.first) v = rand_box(r, -1, 1);
      const Tri& a = c.first;
      const double s = uni(r, 0.05, 0.45), t = uni(r, 0.05, 0.45);
      const Vec3 n = (a[1] - a[0]).cross(a[2] - a[0]), side = irand(r, 0, 1) ? n : Vec3(-n);
      c.second[0] = a[0] + s * (a[1] - a[0]) + t * (a[2] - a[0]);
      c.second[1] = c.second[0] + rand_box(r, -1, 1) + uni(r, 0.1, 1) * side;
      c.second[2] = c.second[0] + rand_box(r, -1, 1) + uni(r, 0.1, 1) * side;
    }));
    expect_sound(grazing, "grazing");
    EXPECT_LT(grazing.decided, grazing.pairs) << "grazing";
  });
}

// Outside the filters' range (coordinates above 2^298 or of magnitudes below 2^-240, or not
// finite) nothing is decided; the placement is still place_vertex's.
TEST(TriTriLanes, LeavesPairsOutsideTheFiltersRangeUndecided) {
  on_every_target([&] {
    for (const double scale : {1e250, 1e-250}) {
      const Tally t = run(make_cases(60, 4000, [scale](Rng& r, Case& c) {
        for (auto& v : c.first) v = rand_box(r, -1, 1) * scale;
        for (auto& v : c.second) v = rand_box(r, -1, 1) * scale;
      }));
      expect_sound(t, "scale " + std::to_string(scale));
      EXPECT_EQ(t.decided, 0) << scale;
    }
    // One bad coordinate in one lane leaves that lane undecided and its neighbours decided.
    for (const double bad : {std::numeric_limits<double>::quiet_NaN(), 0x1p-241, 0x1p299,
                             std::numeric_limits<double>::infinity()}) {
      std::vector<Case> cases(static_cast<std::size_t>(kdopcd::kTriangleLanes));
      for (Case& c : cases) {
        c.first = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 2, 0)};
        c.second = {Vec3(0.5, 0.5, -1), Vec3(0.5, 0.75, 1), Vec3(0.75, 0.5, 1)};
      }
      cases[3].first[1].y() = bad;
      const kdopcd::TriangleLanesTest test = kdopcd::triangle_lanes_test();
      kdopcd::TriangleLanes lanes;
      fill_lanes(cases, 0, kdopcd::kTriangleLanes, lanes);
      const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {0, 0, 0};
      const kdopcd::TriangleLaneVerdicts v = test(lanes, kdopcd::kTriangleLanes, R, t);
      EXPECT_EQ(v.decided, 0xFFu & ~(1u << 3)) << bad;
      EXPECT_EQ(v.intersecting, 0xFFu & ~(1u << 3)) << bad;
    }
  });
}

// Batches of every size from 1 to kTriangleLanes decide their pairs alike, and say nothing past
// their count.
TEST(TriTriLanes, EveryBatchSizeGivesTheSameVerdicts) {
  const std::vector<Case> cases = make_cases(70, 840, [](Rng& r, Case& c) {
    for (auto& v : c.first) v = rand_box(r, -1, 1);
    for (auto& v : c.second) v = rand_box(r, -1, 1);
  });
  on_every_target([&] {
    const Tally full = run(cases);
    for (int batch = 1; batch < kdopcd::kTriangleLanes; ++batch) {
      const Tally t = run(cases, batch);
      expect_sound(t, "batch " + std::to_string(batch));
      EXPECT_EQ(t.decided, full.decided) << batch;
      EXPECT_EQ(t.decided_hits, full.decided_hits) << batch;
    }
  });
}

// TriangleBatch (the wide descent's triangle stage) finds exactly the pairs triangles_intersect
// finds one by one on place_vertex's doubles: two tori at a turned pose (general position) and a
// torus against itself at the identity (every triangle touches its copy and its neighbours: the
// lanes leave those to triangles_intersect), every pair of triangles offered.
TEST(TriangleBatch, FindsTheContactsOfTrianglesIntersectPairForPair) {
  const kdopcd::Mesh a = kdopcd::make_torus(1.0, 0.3, 24, 12), b = kdopcd::make_torus(0.9, 0.35, 20, 10);
  kdopcd::Pose turned;
  turned.rotation = Eigen::Quaterniond(0.9, 0.3, 0.2, 0.1).normalized();
  turned.translation = Vec3(0.6, 0.2, 0.1);
  struct Scene {
    const char* name;
    const kdopcd::Mesh* second;
    kdopcd::Pose pose;
  };
  for (const Scene& scene : {Scene{"two tori, turned", &b, turned}, Scene{"one torus on itself", &a, kdopcd::Pose{}}}) {
    const kdopcd::Mesh& m = *scene.second;
    const Mat3 R = scene.pose.matrix();
    std::vector<Vec3> placed;
    for (const Vec3& v : m.vertices) placed.push_back(kdopcd::place_vertex(R, scene.pose.translation, v));
    std::vector<kdopcd::ContactPair> one_by_one, batched;
    kdopcd::TriangleBatch batch(a, m, R, scene.pose.translation);
    for (std::size_t f = 0; f < a.triangles.size(); ++f)
      for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        const auto& s = m.triangles[t];
        if (kdopcd::triangles_intersect(a.corner(f, 0), a.corner(f, 1), a.corner(f, 2), placed[s[0]], placed[s[1]],
                                        placed[s[2]]))
          one_by_one.push_back({std::uint32_t(f), std::uint32_t(t)});
        batch.add(std::int32_t(f), std::int32_t(t), batched);
      }
    batch.finish(batched);
    std::sort(batched.begin(), batched.end());
    EXPECT_EQ(batched, one_by_one) << scene.name;
    EXPECT_GT(one_by_one.size(), 100u) << scene.name;
  }
}

}  // namespace
