// The spine of the suite: one differential test over every backend that answers a collision
// query, on real scenes in the four pose classes. Each backend's contact set must equal the
// reference's fixed backend (which the exact and float backends agree with: contact sets are
// exact everywhere); backends that run the accelerator's arithmetic (model, RTL tops, the CUDA
// traversal with the fixed SAT on the host) must also count the same pair tests. The RTL tops
// must start on every pose: none of the four classes is beyond the fixed-point pose range, and a
// top that refuses a query answers "no contact", which would equal the reference on three classes.
// A backend whose engine is not in this build is skipped with the reason.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "kdopcd/collide.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#if KDOPCD_WITH_MODEL
#include "kdopcd_model/model.hpp"
#endif
#if KDOPCD_WITH_RTL_TOP
#include "kdopcd/rtl_top_engine.hpp"
#endif
#if KDOPCD_WITH_RTL_V2
#include "kdopcd/rtl_v2_top_engine.hpp"
#endif
#if KDOPCD_WITH_CUDA
#include "kdopcd_cuda/multibody.hpp"
#endif

namespace kdopcd {
namespace {

struct Scene {
  std::string name;
  Mesh first_mesh, second_mesh;
  std::unique_ptr<DopTree> first, second;
  std::array<ClassifiedPose, 4> poses;
};

const Scene& scene(int i) {
  static const char* const pairs[][2] = {{"cow", "cow"}, {"elephant", "hand"}, {"mushroom", "couplingdown"}};
  static const double angles[] = {0.5, 1.0, 0.8};
  static std::unique_ptr<Scene> scenes[3];
  if (!scenes[i]) {
    auto s = std::make_unique<Scene>();
    s->name = std::string(pairs[i][0]) + "/" + pairs[i][1];
    s->first_mesh = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + pairs[i][0] + ".off");
    s->second_mesh = load_mesh(std::string(KDOPCD_MESH_DIR) + "/" + pairs[i][1] + ".off");
    s->first = std::make_unique<DopTree>(s->first_mesh, 24, kHardwareTreeBuild);
    s->second = std::make_unique<DopTree>(s->second_mesh, 24, kHardwareTreeBuild);
    s->poses = make_pose_classes(*s->first, *s->second,
                                 Eigen::Quaterniond(Eigen::AngleAxisd(angles[i], Vec3(0.3, 1, 0.2).normalized())),
                                 Vec3(1, 0.5, 0.25));
    scenes[i] = std::move(s);
  }
  return *scenes[i];
}

struct Outcome {
  std::vector<ContactPair> contacts;
  std::uint64_t pair_tests = 0;
  bool fixed_arithmetic = false;  // counts comparable with the fixed backend's
  bool started = true;            // false: an RTL top did not run the query
};

using Run = std::function<Outcome(const Scene&, const Pose&)>;

struct Backend {
  const char* name;
  Run run;  // empty: not in this build
  const char* missing;
};

std::vector<Backend> backends() {
  std::vector<Backend> b;
  b.push_back({"ref_float", [](const Scene& s, const Pose& p) {
                 const QueryResult r = collide(*s.first, *s.second, p, kHardwareTraversal, SatBackend::Float);
                 return Outcome{r.contacts, r.stats.pair_tests, false};
               }, ""});
  b.push_back({"ref_exact", [](const Scene& s, const Pose& p) {
                 const QueryResult r = collide(*s.first, *s.second, p, kHardwareTraversal, SatBackend::Exact);
                 return Outcome{r.contacts, r.stats.pair_tests, false};
               }, ""});
#if KDOPCD_WITH_MODEL
  b.push_back({"model_paper", [](const Scene& s, const Pose& p) {
                 const model::ModelResult r = model::simulate(*s.first, *s.second, p, model::paper_params());
                 return Outcome{r.contacts, r.stats.pair_tests, true};
               }, ""});
  b.push_back({"model_v2", [](const Scene& s, const Pose& p) {
                 const model::ModelResult r = model::simulate(*s.first, *s.second, p, model::v2_params());
                 return Outcome{r.contacts, r.stats.pair_tests, true};
               }, ""});
#else
  b.push_back({"model_paper", {}, "the SystemC model is not built"});
  b.push_back({"model_v2", {}, "the SystemC model is not built"});
#endif
#if KDOPCD_WITH_RTL_TOP
  b.push_back({"rtl_paper_top", [](const Scene& s, const Pose& p) {
                 const rtl::TopResult r = rtl::simulate_top(*s.first, *s.second, p, rtl::TopParams{});
                 return Outcome{r.contacts, r.counters.pair_tests, true, r.started};
               }, ""});
#else
  b.push_back({"rtl_paper_top", {}, "the verilated paper top is not built"});
#endif
#if KDOPCD_WITH_RTL_V2
  b.push_back({"rtl_v2_top", [](const Scene& s, const Pose& p) {
                 const rtl::V2TopResult r = rtl::simulate_v2_top(*s.first, *s.second, p, rtl::V2TopParams{});
                 return Outcome{r.contacts, r.counter(contract::v2::Counter::kPairTests), true, r.started};
               }, ""});
#else
  b.push_back({"rtl_v2_top", {}, "the verilated v2 top is not built"});
#endif
#if KDOPCD_WITH_CUDA
  // The CUDA part's traversal and narrow phase, run on the host: a two-object world whose first
  // object sits at the identity, so the relative pose is the query's.
  b.push_back({"cuda_host_fixed", [](const Scene& s, const Pose& p) {
                 const cuda::MultibodyWorld world({s.first_mesh, s.second_mesh}, {0, 1}, {Pose{}, p}, 24);
                 cuda::MultibodyOptions o;
                 o.backend = cuda::Backend::Host;
                 o.sat = SatBackend::Fixed;
                 o.threads = 1;
                 const cuda::MultibodyResult r = world.run(o);
                 Outcome out;
                 // Its broad phase (world boxes) may drop a separated pair before any pair test;
                 // a pair it keeps is traversed as the fixed reference traverses it.
                 out.fixed_arithmetic = !r.pairs.empty();
                 for (const cuda::PairResult& pr : r.pairs) {
                   out.contacts.insert(out.contacts.end(), pr.contacts.begin(), pr.contacts.end());
                   out.pair_tests += pr.stats.pair_tests;
                 }
                 std::sort(out.contacts.begin(), out.contacts.end());
                 return out;
               }, ""});
#else
  b.push_back({"cuda_host_fixed", {}, "the CUDA part is not built"});
#endif
  return b;
}

class Differential : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(Differential, ContactsEqualTheFixedReference) {
  const Backend b = backends()[std::size_t(std::get<0>(GetParam()))];
  if (!b.run) GTEST_SKIP() << b.name << ": " << b.missing;
  const Scene& sc = scene(std::get<1>(GetParam()));
  for (const ClassifiedPose& cp : sc.poses) {
    SCOPED_TRACE(std::string(b.name) + " on " + sc.name + " " + to_string(cp.kind));
    const QueryResult ref = collide(*sc.first, *sc.second, cp.pose, kHardwareTraversal, SatBackend::Fixed);
    const Outcome o = b.run(sc, cp.pose);
    EXPECT_TRUE(o.started) << "the top did not start the query";
    EXPECT_EQ(o.contacts, ref.contacts);
    if (o.fixed_arithmetic) {
      EXPECT_EQ(o.pair_tests, ref.stats.pair_tests);
    }
  }
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
  static const char* const scenes[] = {"cow_cow", "elephant_hand", "mushroom_couplingdown"};
  return std::string(backends()[std::size_t(std::get<0>(info.param))].name) + "_" + scenes[std::get<1>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Backends, Differential,
                         ::testing::Combine(::testing::Range(0, int(backends().size())), ::testing::Range(0, 3)),
                         param_name);

}  // namespace
}  // namespace kdopcd
