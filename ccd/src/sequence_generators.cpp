// Benchmark sequence generators (sequence_generators.hpp, `kdop ccd-gen`).
#include "kdopcd/ccd/sequence_generators.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace kdopcd::ccd {
namespace {

constexpr double kGravity = 9.81;  // m / s^2, in each generator's metre

// A small deterministic generator (splitmix64): the same numbers on every platform and library,
// which std::uniform_real_distribution does not promise.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // A uniformly distributed rotation (Shoemake 1992, "Uniform random rotations").
  Eigen::Quaterniond rotation() {
    const double u1 = uniform(), u2 = 2 * std::numbers::pi * uniform(), u3 = 2 * std::numbers::pi * uniform();
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return Eigen::Quaterniond(b * std::cos(u3), a * std::sin(u2), a * std::cos(u2), b * std::sin(u3));
  }

 private:
  std::uint64_t state_;
};

void bounding_box(const std::vector<Vec3>& points, Vec3& lo, Vec3& hi) {
  if (points.empty()) throw std::invalid_argument("a mesh without vertices");
  lo = hi = points.front();
  for (const Vec3& p : points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
}

template <typename Body>
void parallel_vertices(std::size_t count, Body body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t v = r.begin(); v != r.end(); ++v) body(v);
  });
}

}  // namespace

// ---- cloth ------------------------------------------------------------------------------------

ClothDrape::ClothDrape(const Mesh& obstacle, const ClothOptions& options)
    : options_(options), field_(obstacle, options.field_cells) {
  if (options.resolution < 2) throw std::invalid_argument("ClothDrape: resolution below 2");
  Vec3 lo, hi;
  bounding_box(obstacle.vertices, lo, hi);
  const double diagonal = (hi - lo).norm();
  const int n = options.resolution;
  const double width = options.width_factor * diagonal;
  spacing_ = width / (n - 1);
  thickness_ = 0.75 * spacing_;
  ground_ = lo.y();
  gravity_ = kGravity * diagonal;  // the obstacle's diagonal is the scene's metre
  Random random(options.seed);
  const double turn = random.uniform(0, std::numbers::pi / 2);  // the square's symmetry
  const double c = std::cos(turn), s = std::sin(turn);
  const Vec3 centre = (lo + hi) / 2;
  const double start = hi.y() + options.drop_height * diagonal;
  positions_.resize(std::size_t(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = (i - (n - 1) / 2.0) * spacing_, z = (j - (n - 1) / 2.0) * spacing_;
      positions_[std::size_t(j) * n + i] =
          Vec3(centre.x() + c * x - s * z, start + 1e-4 * diagonal * random.uniform(-1, 1), centre.z() + s * x + c * z);
    }
  previous_ = positions_;
  // Two triangles per grid square, normals up (+y) at the start.
  triangles_.reserve(2 * std::size_t(n - 1) * (n - 1));
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const auto v00 = std::uint32_t(j * n + i), v10 = v00 + 1, v01 = v00 + std::uint32_t(n), v11 = v01 + 1;
      triangles_.push_back({v00, v01, v10});
      triangles_.push_back({v10, v01, v11});
    }
}

void ClothDrape::advance() {
  const double dt = 1.0 / (options_.frames_per_second * options_.substeps);
  for (int step = 0; step < options_.substeps; ++step) substep(dt);
}

void ClothDrape::substep(double dt) {
  // Position Verlet with a light air drag; the velocity is x - x_previous.
  const Vec3 fall(0, -gravity_ * dt * dt, 0);
  parallel_vertices(positions_.size(), [&](std::size_t v) {
    const Vec3 velocity = (positions_[v] - previous_[v]) * 0.999;
    previous_[v] = positions_[v];
    positions_[v] += velocity + fall;
  });
  for (int sweep = 0; sweep < options_.iterations; ++sweep) relax_springs();
  collide();
}

void ClothDrape::relax_springs() {
  // Spring families by the grid offset (di, dj) from a spring's first vertex to its second, with
  // their stiffness (the fraction of the length error corrected per sweep). Within a family the
  // springs whose first vertex has an even (i / |di|) (or j / |dj| for di = 0) share no vertex,
  // and neither do the odd ones: each colour is corrected in parallel, in Gauss-Seidel order
  // between colours, with the same result for any number of threads.
  struct Family {
    int di, dj;
    double stiffness;
  };
  static constexpr Family kFamilies[] = {{1, 0, 1.0}, {0, 1, 1.0},  {1, 1, 0.8},   // structural, shear
                                         {1, -1, 0.8}, {2, 0, 0.3}, {0, 2, 0.3}};  // shear, bend
  const int n = options_.resolution;
  for (const Family& family : kFamilies) {
    const double rest = spacing_ * std::sqrt(double(family.di * family.di + family.dj * family.dj));
    const int i0 = std::max(0, -family.di), i1 = n - 1 - std::max(0, family.di);
    const int j0 = std::max(0, -family.dj), j1 = n - 1 - std::max(0, family.dj);
    const int offset = family.dj * n + family.di;
    for (int colour = 0; colour < 2; ++colour) {
      tbb::parallel_for(tbb::blocked_range<int>(j0, j1 + 1, 8), [&](const tbb::blocked_range<int>& rows) {
        for (int j = rows.begin(); j != rows.end(); ++j) {
          if (family.di == 0 && (j / family.dj) % 2 != colour) continue;
          for (int i = i0; i <= i1; ++i) {
            if (family.di != 0 && (i / family.di) % 2 != colour) continue;
            Vec3& a = positions_[std::size_t(j) * n + i];
            Vec3& b = positions_[std::size_t(j * n + i + offset)];
            const Vec3 delta = b - a;
            const double length = delta.norm();
            if (!(length > 0)) continue;
            const Vec3 correction = delta * (0.5 * family.stiffness * (length - rest) / length);
            a += correction;
            b -= correction;
          }
        }
      });
    }
  }
}

void ClothDrape::collide() {
  constexpr double kFriction = 0.2;  // fraction of the tangential velocity a contact removes per substep
  parallel_vertices(positions_.size(), [&](std::size_t v) {
    Vec3& p = positions_[v];
    Vec3 normal = Vec3::Zero();
    if (p.y() < ground_ + thickness_) {
      p.y() = ground_ + thickness_;
      normal = Vec3(0, 1, 0);
    }
    if (const double distance = field_.distance(p); distance < thickness_) {
      normal = field_.normal(p);
      p += (thickness_ - distance) * normal;
    }
    if (normal.isZero()) return;
    Vec3 velocity = p - previous_[v];
    const double into = velocity.dot(normal);
    if (into < 0) velocity -= into * normal;
    const Vec3 tangential = velocity - velocity.dot(normal) * normal;
    velocity -= kFriction * tangential;
    previous_[v] = p - velocity;
  });
}

// ---- twist ------------------------------------------------------------------------------------

TwistBend::TwistBend(const Mesh& mesh, const TwistOptions& options) : mesh_(mesh), options_(options) {
  Vec3 lo, hi;
  bounding_box(mesh.vertices, lo, hi);
  const Vec3 extent = hi - lo;
  extent.maxCoeff(&axis_);
  // The bend curves towards the thinner of the two other sides.
  const int b1 = (axis_ + 1) % 3, b2 = (axis_ + 2) % 3;
  bend_ = extent[b1] <= extent[b2] ? b1 : b2;
  centre_ = (lo + hi) / 2;
  length_ = extent[axis_];
  if (!(length_ > 0)) throw std::invalid_argument("TwistBend: a mesh of zero extent");
  positions_ = mesh.vertices;
}

void TwistBend::advance() {
  ++frame_;
  const double s = options_.frames > 1 ? std::min(1.0, double(frame_) / double(options_.frames - 1)) : 1.0;
  pose(s);
}

void TwistBend::pose(double s) {
  const int a = axis_, b1 = (axis_ + 1) % 3, b2 = (axis_ + 2) % 3;
  const double bend = s * options_.bend_angle;
  const double radius = std::fabs(bend) > 1e-12 ? length_ / bend : 0;  // of the bent axis; 0: straight
  parallel_vertices(positions_.size(), [&](std::size_t v) {
    Vec3 q = mesh_.vertices[v] - centre_;
    const double u = q[a];
    const double angle = s * options_.twist_angle * (u / length_ + 0.5);
    const double c = std::cos(angle), sn = std::sin(angle);
    const double w1 = q[b1], w2 = q[b2];
    q[b1] = c * w1 - sn * w2;
    q[b2] = sn * w1 + c * w2;
    if (radius != 0) {
      const double w = q[bend_], alpha = u / radius;
      q[a] = (radius - w) * std::sin(alpha);
      q[bend_] = radius - (radius - w) * std::cos(alpha);
    }
    positions_[v] = centre_ + q;
  });
}

// ---- fall -------------------------------------------------------------------------------------

RigidFall::RigidFall(const std::vector<Mesh>& meshes, const FallOptions& options) : options_(options) {
  if (meshes.empty() || options.bodies < 1) throw std::invalid_argument("RigidFall: no bodies");
  for (int b = 0; b < options.bodies; ++b) {
    const Mesh& mesh = meshes[std::size_t(b) % meshes.size()];
    Vec3 lo, hi;
    bounding_box(mesh.vertices, lo, hi);
    const double scale = 1 / (hi - lo).norm();
    Vec3 centroid = Vec3::Zero();
    for (const Vec3& p : mesh.vertices) centroid += p;
    centroid /= double(mesh.vertices.size());
    Body body;
    body.radius = 0;
    for (const Vec3& p : mesh.vertices) {
      body.local.push_back((p - centroid) * scale);
      body.radius = std::max(body.radius, body.local.back().norm());
    }
    const auto first = std::uint32_t(positions_.size());
    first_vertex_.push_back(first);
    for (const TriangleIndices& t : mesh.triangles) triangles_.push_back({t[0] + first, t[1] + first, t[2] + first});
    positions_.resize(positions_.size() + mesh.vertices.size());
    bodies_.push_back(std::move(body));
  }
  first_vertex_.push_back(positions_.size());
  // A loose column: each body's contact sphere clear of the one below, offset sideways so the
  // bodies land on each other's sides and tumble.
  Random random(options.seed);
  double height = 0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    Body& body = bodies_[b];
    const double contact = options.contact_radius * body.radius;
    height += b == 0 ? body.radius + 0.3 : options.contact_radius * bodies_[b - 1].radius + contact + 0.15;
    body.position = Vec3(random.uniform(-0.3, 0.3), height, random.uniform(-0.3, 0.3));
    body.velocity = Vec3::Zero();
    body.spin = Vec3(random.uniform(-2, 2), random.uniform(-2, 2), random.uniform(-2, 2));
    body.rotation = random.rotation();
  }
  place();
}

void RigidFall::place() {
  tbb::parallel_for(0, int(bodies_.size()), [&](int b) {
    const Body& body = bodies_[b];
    const Mat3 rotation = body.rotation.toRotationMatrix();
    for (std::size_t v = 0; v < body.local.size(); ++v) positions_[first_vertex_[b] + v] = rotation * body.local[v] + body.position;
  });
}

void RigidFall::advance() {
  const double dt = 1.0 / (options_.frames_per_second * options_.substeps);
  for (int step = 0; step < options_.substeps; ++step) substep(dt);
  place();
}

void RigidFall::substep(double dt) {
  for (Body& body : bodies_) {
    body.velocity.y() -= kGravity * dt;
    body.position += body.velocity * dt;
    const Eigen::Quaterniond turn(0, body.spin.x(), body.spin.y(), body.spin.z());
    body.rotation.coeffs() += 0.5 * dt * (turn * body.rotation).coeffs();
    body.rotation.normalize();
    body.spin *= 0.999;
  }
  // Body-body: contact spheres pushed apart, a few passes so a stack settles.
  constexpr double kRestitution = 0.2;
  for (int pass = 0; pass < 3; ++pass)
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      for (std::size_t j = i + 1; j < bodies_.size(); ++j) {
        Body &a = bodies_[i], &b = bodies_[j];
        const Vec3 between = a.position - b.position;
        const double distance = between.norm(), reach = options_.contact_radius * (a.radius + b.radius);
        if (!(distance < reach)) continue;
        const Vec3 normal = distance > 0 ? Vec3(between / distance) : Vec3(0, 1, 0);
        a.position += 0.5 * (reach - distance) * normal;
        b.position -= 0.5 * (reach - distance) * normal;
        const Vec3 relative = a.velocity - b.velocity;
        const double closing = relative.dot(normal);
        if (closing < 0) {
          const double impulse = -(1 + kRestitution) * closing / 2;
          // Friction: a fifth of the sliding velocity goes, so a body landing on another's side
          // tends to stay on it and the bodies pile up instead of spreading over the floor.
          const Vec3 sliding = relative - closing * normal;
          a.velocity += impulse * normal - 0.1 * sliding;
          b.velocity -= impulse * normal - 0.1 * sliding;
          a.spin *= 0.98;
          b.spin *= 0.98;
        }
      }
  // Ground: lift each body that reaches below y = 0 by its lowest vertex.
  tbb::parallel_for(0, int(bodies_.size()), [&](int index) {
    Body& body = bodies_[index];
    if (body.position.y() - body.radius >= 0) return;
    const Mat3 rotation = body.rotation.toRotationMatrix();
    const Eigen::RowVector3d up_row = rotation.row(1);
    double lowest = 0;
    for (const Vec3& p : body.local) lowest = std::min(lowest, up_row.dot(p.transpose()) + body.position.y());
    if (lowest >= 0) return;
    body.position.y() -= lowest;
    if (body.velocity.y() < 0) body.velocity.y() *= -kRestitution;
    body.velocity.x() *= 0.9;
    body.velocity.z() *= 0.9;
    body.spin *= 0.9;
  });
}

}  // namespace kdopcd::ccd
