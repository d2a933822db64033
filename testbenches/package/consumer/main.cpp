// Builds two DOP-trees from generated shapes, collides them at a pose where they overlap and at one
// where they are apart, and checks the contacts against the brute-force answer.
#include <cstdio>
#include <tuple>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/shapes.hpp"

int main() {
  const kdopcd::Mesh torus = kdopcd::make_torus(1.0, 0.3, 24, 12);
  const kdopcd::Mesh sphere = kdopcd::make_sphere(0.5, 2);
  const kdopcd::DopTree first(torus, 18);
  const kdopcd::DopTree second(sphere, 18);

  kdopcd::Pose touching;  // the sphere's centre on the torus's ring: its surface cuts the tube
  touching.translation = kdopcd::Vec3(1.0, 0.0, 0.2);
  kdopcd::Pose apart;  // the sphere in the hole of the torus, clear of the tube
  apart.translation = kdopcd::Vec3(0.0, 0.0, 0.0);
  apart.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, kdopcd::Vec3::UnitZ()));

  int failures = 0;
  for (const auto& [name, pose, expect_contact] :
       std::vector<std::tuple<const char*, kdopcd::Pose, bool>>{{"touching", touching, true}, {"apart", apart, false}}) {
    const kdopcd::QueryResult result = kdopcd::collide(first, second, pose, kdopcd::TraversalOptions{});
    const std::vector<kdopcd::ContactPair> expected = kdopcd::brute_force_contacts(torus, sphere, pose);
    const bool ok = result.contacts == expected && (!expected.empty()) == expect_contact;
    std::printf("%s: %zu contacts (brute force %zu), %llu DOP pair tests: %s\n", name, result.contacts.size(),
                expected.size(), static_cast<unsigned long long>(result.stats.pair_tests), ok ? "ok" : "FAILED");
    failures += ok ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
