#include "kdopcd/pose.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string_view>
#include <sstream>

#include "kdopcd/error.hpp"
#include "kdopcd/exact_sum.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/scale_limits.hpp"

namespace kdopcd {

Pose parse_pose(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  std::vector<double> v;
  std::string token;
  while (in >> token) {
    double x = 0;
    const char* first = token.data();
    const char* last = first + token.size();
    // Decimals, or C99 hex floats (0x1.8p-3) for poses that must be bit-exact.
    const bool negative = *first == '-';
    const char* digits = first + (negative || *first == '+');
    const bool hex = last - digits > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    auto [ptr, ec] = hex ? std::from_chars(digits + 2, last, x, std::chars_format::hex) : std::from_chars(first, last, x);
    if (hex && negative) x = -x;
    if (ec != std::errc() || ptr != last)
      throw InputError(fmt::format("{}: '{}' is not a number (expected 'qw qx qy qz tx ty tz')", where, token));
    v.push_back(x);
  }
  if (v.size() != 7)
    throw InputError(fmt::format("{}: expected 7 numbers 'qw qx qy qz tx ty tz', found {}", where, v.size()));
  for (double x : v)
    if (!std::isfinite(x)) throw InputError(fmt::format("{}: non-finite value in pose", where));
  for (int i = 4; i < 7; ++i)
    if (!within_scale(v[std::size_t(i)]))
      throw InputError(fmt::format("{}: translation component {:g} lies beyond the scale limit (magnitude at most {})",
                                   where, v[std::size_t(i)], kMaxCoordinateText));
  Eigen::Quaterniond q(v[0], v[1], v[2], v[3]);
  const double norm = q.norm();
  if (!(norm > 0) || !std::isfinite(norm))
    throw InputError(fmt::format("{}: quaternion ({}, {}, {}, {}) cannot be normalized", where, v[0], v[1], v[2], v[3]));
  Pose pose;
  pose.rotation = q.normalized();
  pose.translation = Vec3(v[4], v[5], v[6]);
  return pose;
}

namespace {

// One line of a pose file, numbered `number`: false for a blank or comment line, else the pose.
bool pose_of_line(std::string_view line, int number, const std::string& path, Pose& pose) {
  if (line.size() > kMaxPoseLineBytes)
    throw InputError(fmt::format("{}:{}: line longer than {} bytes", path, number, kMaxPoseLineBytes));
  if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return false;
  pose = parse_pose(std::string(line), fmt::format("{}:{}", path, number));
  return true;
}

}  // namespace

std::vector<Pose> load_poses(const std::string& path) {
  return parse_poses(read_whole_file(path, "pose file"), path);
}

std::vector<Pose> parse_poses(const std::string& text, const std::string& path) {
  std::vector<Pose> poses;
  std::string_view rest = text;
  for (int number = 1; !rest.empty(); ++number) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (Pose pose; pose_of_line(line, number, path, pose)) poses.push_back(pose);
  }
  if (poses.empty()) throw InputError(fmt::format("{}: no poses in file", path));
  return poses;
}

PoseReader::PoseReader(const std::string& path) : path_(path) {
  require_regular_file(path, "pose file");
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr)
    throw InputError(fmt::format("{}: cannot open the pose file for reading: {}", path, std::strerror(errno)));
}

PoseReader::~PoseReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool PoseReader::next(Pose& pose) {
  for (;;) {
    std::size_t end = buffer_.find('\n', start_);
    while (end == std::string::npos && !eof_) {
      buffer_.erase(0, start_);
      start_ = 0;
      if (buffer_.size() > kMaxPoseLineBytes)
        throw InputError(fmt::format("{}:{}: line longer than {} bytes", path_, line_ + 1, kMaxPoseLineBytes));
      char chunk[1 << 16];
      const std::size_t n = std::fread(chunk, 1, sizeof chunk, file_);
      if (n == 0) {
        if (std::ferror(file_)) throw InputError(fmt::format("{}:{}: read error: {}", path_, line_ + 1, std::strerror(errno)));
        eof_ = true;
      }
      const std::size_t searched = buffer_.size();
      buffer_.append(chunk, n);
      end = buffer_.find('\n', searched);
    }
    if (end == std::string::npos) {  // the end of the file: a last line without a newline, or none
      if (start_ == buffer_.size()) {
        if (count_ == 0) throw InputError(fmt::format("{}: no poses in file", path_));
        return false;
      }
      end = buffer_.size();
    }
    const std::string_view line(buffer_.data() + start_, end - start_);
    start_ = std::min(end + 1, buffer_.size());
    if (pose_of_line(line, ++line_, path_, pose)) {
      ++count_;
      return true;
    }
  }
}

std::vector<Vec3> place_vertices(const Mesh& mesh, const Pose& pose) {
  const Mat3 R = pose.matrix();
  std::vector<Vec3> out;
  out.reserve(mesh.vertices.size());
  for (const Vec3& x : mesh.vertices) out.push_back(place_vertex(R, pose.translation, x));
  return out;
}

namespace {

// An error-free transformation (round to nearest, no overflow): a + b = s + err exactly.
inline void two_sum(double a, double b, double& s, double& err) {
  s = a + b;
  const double bb = s - a;
  err = (a - (s - bb)) + (b - bb);
}

// a * b - fl(a * b), exactly: an fma, or Dekker's product (Veltkamp's split into 26-bit halves),
// which is exact in round-to-nearest without contraction (this file is compiled with
// -ffp-contract=off). A call to the library's fma cost a third of centred_pose, so the fma is
// taken only where it is one instruction (kFma: the target has one).
template <bool kFma>
[[gnu::always_inline]] inline double product_error(double a, double b, double p) {
  if constexpr (kFma) {
    return std::fma(a, b, -p);
  } else {
    constexpr double kSplit = 134217729.0;  // 2^27 + 1
    const double ca = kSplit * a, cb = kSplit * b;
    const double ah = ca - (ca - a), al = a - ah;
    const double bh = cb - (cb - b), bl = b - bh;
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  }
}

// A row of centred_pose, M_i . c2 + t_i - c1_i, as ExactSum::rounded gives it (the nearest
// double, ties to even), without big integers: the fixed backend works it out on every query, and
// the big-integer sum was the larger part of a separated query. The products split exactly into
// p_j + e_j (product_error); the five large terms are summed with two_sum, so S = hi + (the exact sum of
// the seven error terms), and those seven are summed in plain doubles, with an error below
// B = 2^-49 sum|v| (recursive summation: gamma_6 < 2^-50). r = fl(hi + lo) with the exact
// remainder d = hi + lo - r; then |S - r| <= |d| + B, and r is returned only when that is
// clearly inside r's rounding interval (so r is the nearest double and S is no tie). Anything
// else (a bound too close, inputs too large or too small for the transformations to be exact,
// non-finite inputs, r = 0) is left to ExactSum.
// Inside these magnitudes every product's rounding error is a normal double and nothing
// overflows.
constexpr double kFastMin = 0x1p-400, kFastMax = 0x1p400;

inline bool fast_range(double x) {
  const double a = std::fabs(x);
  return (a == 0) | ((a >= kFastMin) & (a <= kFastMax));  // false for NaN and infinities; no branch
}

// The three rows side by side, with no branch until the end: each row is one long chain of
// dependent additions, and interleaving the rows lets them overlap. Sets ok[i] where out[i] is
// the row's rounded sum.
template <bool kFma>
[[gnu::always_inline]] inline void rounded_rows_impl(const Mat3& M, const Vec3& c2, const Vec3& t, const Vec3& c1,
                                                     double out[3], bool ok[3]) {
  bool in_range = true;
  for (int j = 0; j < 3; ++j) in_range &= fast_range(c2[j]);
  double hi[3], lo[3], mass[3];
#pragma GCC unroll 3  // g++ 12 kept a loop (with a branch per range check) over the rows
  for (int i = 0; i < 3; ++i) {
    bool row_in_range = in_range;
    row_in_range &= fast_range(t[i]);
    row_in_range &= fast_range(c1[i]);
    double p[3], v[7];  // v: the error terms
    for (int j = 0; j < 3; ++j) {
      row_in_range &= fast_range(M(i, j));
      p[j] = M(i, j) * c2[j];
      v[j] = product_error<kFma>(M(i, j), c2[j], p[j]);
    }
    ok[i] = row_in_range;
    double h01, h2t;
    two_sum(p[0], p[1], h01, v[3]);
    two_sum(p[2], t[i], h2t, v[4]);
    two_sum(h01, h2t, hi[i], v[5]);
    two_sum(hi[i], -c1[i], hi[i], v[6]);
    lo[i] = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + v[6]);
    mass[i] = ((std::fabs(v[0]) + std::fabs(v[1])) + (std::fabs(v[2]) + std::fabs(v[3]))) +
              ((std::fabs(v[4]) + std::fabs(v[5])) + std::fabs(v[6]));
  }
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    const double bound = 0x1p-49 * mass[i];  // gamma_6 < 2^-50 bounds the error of lo, in any order
    double r, d;
    two_sum(hi[i], lo[i], r, d);
    const double mag = std::fabs(r);
    // Half the smaller gap to r's neighbours: ulp(r) / 2, or ulp(r) / 4 when |r| is a power of
    // two (the bit pattern is only used when mag is in range).
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(mag);
    const double ulp = std::bit_cast<double>(((bits >> 52) - 52) << 52);
    const double half_gap = (bits & ((std::uint64_t(1) << 52) - 1)) == 0 ? ulp / 4 : ulp / 2;
    // mag: also r == 0, which ExactSum gives as +0. The margin 2^-10 covers the rounding of the
    // left side (relative 2^-53).
    ok[i] = ok[i] & (mag >= 0x1p-900) & (mag <= 0x1p900) & (std::fabs(d) + 2 * bound < half_gap * (1 - 0x1p-10));
    out[i] = r;
  }
}

#if defined(FP_FAST_FMA) || defined(__FMA__)
void rounded_rows(const Mat3& M, const Vec3& c2, const Vec3& t, const Vec3& c1, double out[3], bool ok[3]) {
  rounded_rows_impl<true>(M, c2, t, c1, out, ok);
}
#elif defined(__x86_64__) && defined(__GNUC__)
// Built for x86-64 without FMA: the fma instruction where the processor has it.
[[gnu::target("fma")]] void rounded_rows_fma(const Mat3& M, const Vec3& c2, const Vec3& t, const Vec3& c1,
                                             double out[3], bool ok[3]) {
  rounded_rows_impl<true>(M, c2, t, c1, out, ok);
}
void rounded_rows(const Mat3& M, const Vec3& c2, const Vec3& t, const Vec3& c1, double out[3], bool ok[3]) {
  static const bool has_fma = __builtin_cpu_supports("fma");
  if (has_fma) return rounded_rows_fma(M, c2, t, c1, out, ok);
  rounded_rows_impl<false>(M, c2, t, c1, out, ok);
}
#else
void rounded_rows(const Mat3& M, const Vec3& c2, const Vec3& t, const Vec3& c1, double out[3], bool ok[3]) {
  rounded_rows_impl<false>(M, c2, t, c1, out, ok);
}
#endif

}  // namespace

Vec3 centred_translation(const Mat3& M, const Vec3& translation, const Vec3& first_centre, const Vec3& second_centre) {
  Vec3 out;
  double fast[3];
  bool ok[3];
  rounded_rows(M, second_centre, translation, first_centre, fast, ok);
  for (int i = 0; i < 3; ++i) {
    if (ok[i]) {
      out[i] = fast[i];
      continue;
    }
    ExactSum t;
    for (int j = 0; j < 3; ++j) t.add_product(M(i, j), second_centre[j]);
    t.add(translation[i]).sub(first_centre[i]);
    out[i] = t.rounded();
  }
  return out;
}

Pose centred_pose(const Pose& pose, const Vec3& first_centre, const Vec3& second_centre) {
  Pose out = pose;
  out.translation = centred_translation(pose.matrix(), pose.translation, first_centre, second_centre);
  return out;
}

}  // namespace kdopcd
