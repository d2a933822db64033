// ccd_fcl_bench: the first time of contact of kdopcd::ccd against FCL 0.7's fcl::continuousCollide
// (CCDM_LINEAR, the naive and the conservative-advancement solvers) on real mesh pairs, the second
// mesh translating from beside the first into it (docs/ccd.md, "FCL"). Translation only: there
// FCL's linear motion (translation lerped, rotation interpolated about a centre) and the vertex
// lerp of kdopcd::ccd are the same motion. Where the times differ, the discrete exact triangle test
// on the meshes at t - 1e-7 and t + 1e-7 (each side's time) is the arbiter: a time with
// intersections before it is late, one without intersections after it (and none at it) early.
// Run by hand: build/.../bench/ccd_fcl_bench [--meshes a.off,b.off ...] [--directions N]
#include <fcl/fcl.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "kdopcd/ccd/bracketing.hpp"
#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd/mesh_io.hpp"

namespace {

using namespace kdopcd;

std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_model(const Mesh& m) {
  auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Vector3d> v(m.vertices.begin(), m.vertices.end());
  std::vector<fcl::Triangle> t;
  for (const TriangleIndices& tri : m.triangles) t.emplace_back(tri[0], tri[1], tri[2]);
  model->beginModel();
  model->addSubModel(v, t);
  model->endModel();
  return model;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Whether the meshes intersect at time t (positions lerped, rounded: what bracketing.hpp uses).
bool intersecting_at(const ccd::MovingMesh& a, const ccd::MovingMesh& b, double t) {
  return !ccd::intersecting_triangles(*a.topology, ccd::positions_at(a.motion, t), *b.topology,
                                      ccd::positions_at(b.motion, t), false)
              .empty();
}

// What the discrete exact test says of a reported time (or of "no contact").
std::string arbiter(const ccd::MovingMesh& a, const ccd::MovingMesh& b, bool contact, double t) {
  constexpr double eps = ccd::kBracketEpsilon;
  if (!contact) return intersecting_at(a, b, 1.0) ? "missed: intersecting at t = 1" : "no contact: ok";
  const bool before = t > eps && intersecting_at(a, b, t - eps);
  const bool after = intersecting_at(a, b, std::min(1.0, t + eps)) || intersecting_at(a, b, t);
  if (before) return "late: intersecting at t - 1e-7";
  if (!after) return "early: no intersection at t, t + 1e-7";
  return "bracketed";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kdopcd::ccd against FCL's continuousCollide on translating real meshes"};
  std::vector<std::string> pairs{"cow.off,cow.off", "cow.off,bunny00.off"};
  std::string mesh_dir = "data/meshes";
  int directions = 3;
  app.add_option("--pairs", pairs, "FIRST,SECOND mesh names (in --mesh-dir)");
  app.add_option("--mesh-dir", mesh_dir, "folder of the meshes");
  app.add_option("--directions", directions, "approach directions per pair")->check(CLI::Range(1, 16));
  CLI11_PARSE(app, argc, argv);

  fmt::print("| pair | direction | kdopcd t* (pairs) | ms | arbiter | FCL naive t | ms | arbiter | FCL CA t | ms | arbiter |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& pair : pairs) {
    const auto comma = pair.find(',');
    const Mesh first = load_mesh(mesh_dir + "/" + pair.substr(0, comma));
    const Mesh second = load_mesh(mesh_dir + "/" + pair.substr(comma + 1));
    const ccd::Topology ta = ccd::Topology::of(first.triangles, first.vertices.size(), first.name);
    const ccd::Topology tb = ccd::Topology::of(second.triangles, second.vertices.size(), second.name);
    auto bounds = [](const Mesh& m) {
      Vec3 lo = m.vertices[0], hi = lo;
      for (const Vec3& v : m.vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
      }
      return std::pair{(lo + hi) / 2, (hi - lo).norm()};
    };
    const auto [c1, d1] = bounds(first);
    const auto [c2, d2] = bounds(second);
    const auto model_a = fcl_model(first), model_b = fcl_model(second);
    for (int k = 0; k < directions; ++k) {
      const double angle = 0.7 * k;
      const Vec3 dir = Vec3(std::cos(angle), 0.3 * k, std::sin(angle)).normalized();
      const Vec3 start = c1 - c2 - dir * (0.6 * (d1 + d2)), end = c1 - c2 + dir * (0.1 * d1);
      std::vector<Vec3> xa = first.vertices, xb0, xb1;
      for (const Vec3& v : second.vertices) {
        xb0.push_back(v + start);
        xb1.push_back(v + end);
      }
      const ccd::MovingMesh a{&ta, {xa, xa}}, b{&tb, {xb0, xb1}};
      auto t0 = std::chrono::steady_clock::now();
      const ccd::SweptTree tree_a(ta, a.motion, 18, ccd::SweptTree::Use::pairs), tree_b(tb, b.motion, 18, ccd::SweptTree::Use::pairs);
      const ccd::CcdResult ours = ccd::ccd_pair(a, tree_a, b, tree_b);
      const double our_ms = seconds_since(t0) * 1e3;
      std::string row = fmt::format("| {} | {} | {} ({}) | {:.1f} | {} ", pair, k, ours.time ? fmt::format("{:.12f}", *ours.time) : "none",
                                    ours.contacts.size(), our_ms, arbiter(a, b, ours.time.has_value(), ours.time.value_or(0)));
      for (fcl::CCDSolverType solver : {fcl::CCDC_NAIVE, fcl::CCDC_CONSERVATIVE_ADVANCEMENT}) {
        fcl::ContinuousCollisionRequestd request(100, 1e-8, fcl::CCDM_LINEAR, fcl::GST_LIBCCD, solver);
        fcl::ContinuousCollisionResultd result;
        fcl::Transform3d tf_a = fcl::Transform3d::Identity(), tf_b0 = fcl::Transform3d::Identity(),
                         tf_b1 = fcl::Transform3d::Identity();
        tf_b0.translation() = start;
        tf_b1.translation() = end;
        t0 = std::chrono::steady_clock::now();
        fcl::continuousCollide(model_a.get(), tf_a, tf_a, model_b.get(), tf_b0, tf_b1, request, result);
        const double ms = seconds_since(t0) * 1e3;
        row += fmt::format("| {} | {:.1f} | {} ", result.is_collide ? fmt::format("{:.12f}", result.time_of_contact) : "none", ms,
                           arbiter(a, b, result.is_collide, result.time_of_contact));
      }
      fmt::print("{}|\n", row);
      std::fflush(stdout);
    }
  }
  return 0;
}
