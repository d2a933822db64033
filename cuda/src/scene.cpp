// Scene files, the scene generator and relative poses (multibody.hpp).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/scale_limits.hpp"
#include "kdopcd_cuda/multibody.hpp"
#include "kdopcd_cuda/pose_record.hpp"

namespace kdopcd::cuda {

namespace fs = std::filesystem;

namespace {

double number_at(const nlohmann::json& j, const std::string& where) {
  if (!j.is_number()) throw InputError(fmt::format("{}: expected a number", where));
  const double x = j.get<double>();
  if (!std::isfinite(x)) throw InputError(fmt::format("{}: non-finite number", where));
  return x;
}

std::vector<double> numbers(const nlohmann::json& obj, const char* key, std::size_t count, const std::string& where) {
  if (!obj.contains(key)) throw InputError(fmt::format("{}: missing \"{}\"", where, key));
  const auto& arr = obj[key];
  if (!arr.is_array() || arr.size() != count)
    throw InputError(fmt::format("{}: \"{}\" must be an array of {} numbers", where, key, count));
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(number_at(arr[i], fmt::format("{}.{}[{}]", where, key, i)));
  return out;
}

// SplitMix64: a fixed, documented generator, so scenes are identical on every platform.
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

}  // namespace

Scene load_scene(const std::string& path) { return parse_scene(read_whole_file(path, "scene file"), path); }

Scene parse_scene(const std::string& text, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  if (!j.is_object() || !j.contains("objects") || !j["objects"].is_array())
    throw InputError(fmt::format("{}: expected {{\"objects\": [...]}}", path));
  const fs::path base = fs::path(path).parent_path();
  Scene scene;
  for (std::size_t i = 0; i < j["objects"].size(); ++i) {
    const auto& o = j["objects"][i];
    const std::string where = fmt::format("{}: objects[{}]", path, i);
    if (!o.is_object() || !o.contains("mesh") || !o["mesh"].is_string())
      throw InputError(fmt::format("{}: needs \"mesh\": \"file\"", where));
    const fs::path mesh = o["mesh"].get<std::string>();
    SceneObject obj;
    obj.mesh = (mesh.is_absolute() ? mesh : base / mesh).lexically_normal().string();
    const auto q = numbers(o, "rotation", 4, where);
    const auto t = numbers(o, "translation", 3, where);
    Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
    const double norm = quat.norm();
    if (!(norm > 0) || !std::isfinite(norm)) throw InputError(fmt::format("{}: rotation cannot be normalized", where));
    for (std::size_t i = 0; i < 3; ++i)
      if (!within_scale(t[i]))
        throw InputError(fmt::format("{}.translation[{}]: {:g} lies beyond the scale limit (magnitude at most {})",
                                     where, i, t[i], kMaxCoordinateText));
    obj.pose.rotation = quat.normalized();
    obj.pose.translation = Vec3(t[0], t[1], t[2]);
    for (const auto& [key, target] : {std::pair<const char*, Vec3*>{"velocity", &obj.velocity}, {"spin", &obj.spin}})
      if (o.contains(key)) {
        const auto v = numbers(o, key, 3, where);
        *target = Vec3(v[0], v[1], v[2]);
      }
    scene.objects.push_back(std::move(obj));
  }
  if (scene.objects.empty()) throw InputError(fmt::format("{}: no objects", path));
  return scene;
}

void save_scene(const Scene& scene, const std::string& path) {
  const fs::path base = fs::absolute(fs::path(path)).parent_path();
  std::string text = "{\"objects\":[\n";
  for (std::size_t i = 0; i < scene.objects.size(); ++i) {
    const auto& o = scene.objects[i];
    const fs::path mesh = fs::absolute(fs::path(o.mesh)).lexically_normal();
    const std::string rel = mesh.lexically_relative(base).generic_string();
    const auto& q = o.pose.rotation;
    const auto& t = o.pose.translation;
    // A scene file holds only numbers a reader takes back.
    if (!q.coeffs().allFinite() || !within_scale(t.x()) || !within_scale(t.y()) || !within_scale(t.z()))
      throw InputError(fmt::format("{}: object {} has a rotation that is not finite or a translation ({:g}, {:g}, {:g}) "
                                   "beyond the scale limit (magnitude at most {}); nothing written",
                                   path, i, t.x(), t.y(), t.z(), kMaxCoordinateText));
    std::string mesh_json;
    try {
      mesh_json = nlohmann::json(rel.empty() ? mesh.generic_string() : rel).dump();
    } catch (const nlohmann::json::exception&) {
      throw InputError(fmt::format("{}: mesh path {} is not valid UTF-8, which a JSON scene cannot hold", path, o.mesh));
    }
    std::string motion;
    if (!o.velocity.isZero(0.0) || !o.spin.isZero(0.0))
      motion = fmt::format(",\"velocity\":[{:.17g},{:.17g},{:.17g}],\"spin\":[{:.17g},{:.17g},{:.17g}]", o.velocity.x(),
                           o.velocity.y(), o.velocity.z(), o.spin.x(), o.spin.y(), o.spin.z());
    text += fmt::format(
        "  {{\"mesh\":{},\"rotation\":[{:.17g},{:.17g},{:.17g},{:.17g}],\"translation\":[{:.17g},{:.17g},{:.17g}]{}}}{}\n",
        mesh_json, q.w(), q.x(), q.y(), q.z(), t.x(), t.y(), t.z(), motion, i + 1 < scene.objects.size() ? "," : "");
  }
  text += "]}\n";
  write_whole_file(path, text);
}

namespace {
// A uniformly random unit vector (Marsaglia's method: rejection in the unit disc).
Vec3 random_direction(SplitMix& rng) {
  for (;;) {
    const double a = 2 * rng.uniform() - 1, b = 2 * rng.uniform() - 1, s = a * a + b * b;
    if (s >= 1 || s == 0) continue;
    const double f = 2 * std::sqrt(1 - s);
    return Vec3(a * f, b * f, 1 - 2 * s);
  }
}
}  // namespace

Pose pose_at(const Pose& start, const Vec3& centre, const Vec3& velocity, const Vec3& spin, double time) {
  Pose p;
  const double angle = spin.norm() * time;
  const Eigen::Quaterniond turn =
      angle > 0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, spin.normalized())) : Eigen::Quaterniond::Identity();
  p.rotation = (turn * start.rotation).normalized();
  const Vec3 centre_world = start.rotation * centre + start.translation + velocity * time;
  p.translation = centre_world - p.rotation * centre;
  return p;
}

void generate_motions(Scene& scene, double speed, double spin_rate, std::uint64_t seed) {
  // A stream of its own, so that the poses of a generated scene do not depend on its motions.
  SplitMix rng{seed ^ 0x6d6f74696f6e73ull};
  for (SceneObject& o : scene.objects) {
    const Vec3 v = random_direction(rng) * speed, w = random_direction(rng) * spin_rate;
    if (!o.velocity.isZero(0.0) || !o.spin.isZero(0.0)) continue;
    o.velocity = v;
    o.spin = w;
  }
}

Scene generate_scene(const std::string& mesh_path, const Mesh& mesh, int objects, double density, std::uint64_t seed) {
  if (objects < 1) throw InputError("multibody-scene: --objects must be at least 1");
  if (!(density > 0) || !std::isfinite(density)) throw InputError("multibody-scene: --density must be positive");
  if (mesh.vertices.empty()) throw InputError(fmt::format("{}: mesh has no vertices", mesh_path));
  Vec3 lo = mesh.vertices[0], hi = mesh.vertices[0];
  for (const Vec3& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const Vec3 centre = 0.5 * lo + 0.5 * hi;
  double r = 0;
  for (const Vec3& v : mesh.vertices) r = std::max(r, (v - centre).stableNorm());  // no overflow of the squares
  if (!(r > 0)) r = 1;
  const int side = int(std::ceil(std::cbrt(double(objects)) - 1e-9));
  const double spacing = 2 * r / std::cbrt(density);
  // The farthest grid point and its jitter, plus the rotated centre: every translation is below.
  const double reach = spacing * (double(side) + 0.5) + centre.stableNorm();
  if (!within_scale(reach))
    throw InputError(fmt::format("{}: {} objects of this mesh (bounding-sphere radius {:g}) at density {:g} would lie "
                                 "up to {:g} from the origin, beyond the scale limit (translations of magnitude at "
                                 "most {}): use a smaller mesh, fewer objects or a higher density",
                                 mesh_path, objects, r, density, reach, kMaxCoordinateText));
  SplitMix rng{seed};
  Scene scene;
  for (int i = 0; i < objects; ++i) {
    const int x = i % side, y = (i / side) % side, z = i / (side * side);
    // Uniform random rotation (Shoemake): three uniforms to a unit quaternion.
    const double u1 = rng.uniform(), u2 = rng.uniform(), u3 = rng.uniform();
    const double s1 = std::sqrt(1 - u1), s2 = std::sqrt(u1);
    const double two_pi = 6.283185307179586;
    Eigen::Quaterniond q(s2 * std::cos(two_pi * u3), s1 * std::sin(two_pi * u2), s1 * std::cos(two_pi * u2),
                         s2 * std::sin(two_pi * u3));
    q.normalize();
    Vec3 jitter(rng.uniform() - 0.5, rng.uniform() - 0.5, rng.uniform() - 0.5);
    jitter *= 0.5 * spacing;
    // Place the rotated box centre at the grid point: t = p - R c.
    const Vec3 point = spacing * Vec3(x, y, z) + jitter;
    SceneObject obj;
    obj.mesh = mesh_path;
    obj.pose.rotation = q;
    obj.pose.translation = point - q.toRotationMatrix() * centre;
    scene.objects.push_back(std::move(obj));
  }
  return scene;
}

Pose relative_pose(const Pose& a, const Pose& b) { return to_pose(relative_pose_record(to_record(a), to_record(b))); }

}  // namespace kdopcd::cuda
