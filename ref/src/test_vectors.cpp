#include "kdopcd/test_vectors.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <optional>
#include <sstream>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/sat_float.hpp"

namespace kdopcd {

namespace {

constexpr const char* kFieldNames[19] = {"PA0", "PA1", "PA2", "PB0", "PB1", "PB2", "p",   "a0",  "a1", "a2",
                                         "ak0", "ak1", "ak2", "b0",  "b1",  "b2",  "bk0", "bk1", "bk2"};

// Field i of the operands, in line order.
template <class Operands>
auto& field(Operands& o, int i) {
  if (i < 3) return o.PA[i];
  if (i < 6) return o.PB[i - 3];
  if (i == 6) return o.p;
  if (i < 10) return o.a[i - 7];
  if (i < 13) return o.ak[i - 10];
  if (i < 16) return o.b[i - 13];
  return o.bk[i - 16];
}

bool parse_int(const std::string& token, std::int64_t& out) {
  const char* begin = token.data();
  const char* end = begin + token.size();
  const auto [next, ec] = std::from_chars(begin, end, out);
  return ec == std::errc() && next == end;
}

bool parse_real(const std::string& token, double& out) {
  if (token.empty()) return false;
  char* end = nullptr;
  out = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size() && std::isfinite(out);
}

TestVector parse_line(const std::vector<std::string>& tokens, const std::string& where) {
  auto fail = [&](const std::string& what) -> InputError { return InputError(fmt::format("{}: {}", where, what)); };
  TestVector v;
  if (tokens[0] == "R") v.kind = TestVector::Kind::Real;
  else if (tokens[0] == "Q") v.kind = TestVector::Kind::Quantized;
  else throw fail(fmt::format("expected 'R' or 'Q' at the start of a vector line, found '{}'", tokens[0]));
  if (tokens.size() != 23)
    throw fail(fmt::format("expected '{} b c z' and 19 operand fields (23 tokens), found {} tokens", tokens[0],
                           tokens.size()));
  int bits[3];
  for (int i = 0; i < 3; ++i) {
    std::int64_t value = 0;
    if (!parse_int(tokens[1 + i], value) || value < kMinFixedBits || value > kMaxFixedBits)
      throw fail(fmt::format("expected {} as an integer in [{}, {}], found '{}'", "bcz"[i], kMinFixedBits,
                             kMaxFixedBits, tokens[1 + i]));
    bits[i] = int(value);
  }
  v.bits = {bits[0], bits[1], bits[2]};
  for (int i = 0; i < 19; ++i) {
    const std::string& token = tokens[4 + i];
    if (v.kind == TestVector::Kind::Real) {
      double x = 0;
      if (!parse_real(token, x))
        throw fail(fmt::format("expected {} as a finite real (hex float or decimal), found '{}'", kFieldNames[i], token));
      const bool mapping = i < 6, offset = i == 6;
      if (mapping && !(x >= -1.0 && x <= 0.0))
        throw fail(fmt::format("expected {} in [-1, 0] (a mapping vector entry), found '{}'", kFieldNames[i], token));
      if (!mapping && !offset && !(x >= -1.0 && x <= 1.0))
        throw fail(fmt::format("expected {} in [-1, 1] (a scaled coefficient), found '{}'", kFieldNames[i], token));
      field(v.real, i) = x;
    } else {
      std::int64_t x = 0;
      if (!parse_int(token, x))
        throw fail(fmt::format("expected {} as a decimal integer, found '{}'", kFieldNames[i], token));
      const bool mapping = i < 6, offset = i == 6;
      std::int64_t lo, hi;
      const char* range;
      if (mapping) lo = -(std::int64_t(1) << v.bits.c), hi = 0, range = "[-2^c, 0]";
      else if (offset) lo = -(std::int64_t(1) << (v.bits.z + 2)), hi = -lo, range = "[-2^(z+2), 2^(z+2)]";
      else lo = -(std::int64_t(1) << v.bits.b), hi = -lo, range = "[-2^b, 2^b]";
      if (x < lo || x > hi) throw fail(fmt::format("expected {} in {}, found '{}'", kFieldNames[i], range, token));
      field(v.fixed, i) = x;
    }
  }
  return v;
}

}  // namespace

std::vector<TestVector> parse_test_vectors(std::istream& in, const std::string& name) {
  std::vector<TestVector> out;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string t; words >> t;) tokens.push_back(t);
    if (tokens.empty()) continue;
    TestVector v = parse_line(tokens, fmt::format("{}:{}", name, number));
    v.line = number;
    out.push_back(v);
  }
  return out;
}

std::vector<TestVector> load_test_vectors(const std::string& path) {
  std::istringstream in(read_whole_file(path, "vector file"));
  return parse_test_vectors(in, path);
}

std::string format_test_vector(const TestVector& v) {
  const bool real = v.kind == TestVector::Kind::Real;
  std::string out = fmt::format("{} {} {} {}", real ? 'R' : 'Q', v.bits.b, v.bits.c, v.bits.z);
  for (int i = 0; i < 19; ++i) {
    if (real) out += fmt::format(" {:a}", field(v.real, i));
    else out += fmt::format(" {}", field(v.fixed, i));
  }
  return out;
}

FixedOperands quantized_operands(const TestVector& v) {
  return v.kind == TestVector::Kind::Real ? quantize_operands(v.real, v.bits) : v.fixed;
}

FixedDiffs evaluate_test_vector(const TestVector& v) { return fixed_diffs<true>(quantized_operands(v), v.bits); }

std::string to_decimal(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u != 0) {
    digits.push_back(char('0' + int(u % 10)));
    u /= 10;
  }
  if (negative) digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

std::string sat_eval_line(const TestVector& v) {
  const FixedDiffs d = evaluate_test_vector(v);
  return fmt::format("{} {} {}", to_decimal(d.diff1), to_decimal(d.diff2), d.separated() ? 1 : 0);
}

TraversalStats record_axis_tests(const DopTree& first, const DopTree& second, const Pose& pose,
                                 const TraversalOptions& options, SatBackend backend, const FixedParams& bits,
                                 const AxisTestSink& sink) {
  if (backend == SatBackend::Exact) throw InputError("vectors are recorded from the float or the fixed backend");
  if (first.k() != second.k()) throw std::invalid_argument("record_axis_tests: trees must share k");
  validate_fixed_params(bits);
  // The float traversal runs in the file's frame; every vector is the axis test in the centred
  // frames (docs/fixed-point.md §2), i.e. what the fixed backend evaluates for that pair and axis.
  const SatSetup setup = make_sat_setup(first.orientations(), pose);
  const SatSetup centred_setup = make_sat_setup(first.orientations(), centred_pose(first, second, pose));
  const std::vector<double> first_centred = centred_coefficients(first), second_centred = centred_coefficients(second);
  const int k = first.k(), half = k / 2;
  const int n = options.axes <= 0 ? k : std::min(options.axes, k);
  const double s = scene_scale(first, second);
  std::vector<QuantizedAxis> qaxes;
  std::optional<QuantizedTree> qf, qs;
  if (backend == SatBackend::Fixed) {
    qaxes = quantize_setup(centred_setup, s, bits);
    qf.emplace(first, s, bits.b);
    qs.emplace(second, s, bits.b);
  }
  bool stopped = false;
  TestVector v;
  v.kind = TestVector::Kind::Real;
  v.bits = bits;
  auto pair_test = [&](int nf, int ns) -> PairVerdict {
    if (stopped) return {true, 0};
    const double* b = first.coefficients(nf).data();
    const double* a = second.coefficients(ns).data();
    for (int i = 0; i < n; ++i) {
      const AxisSetup& ax = setup.axes[i];
      bool separated;
      if (backend == SatBackend::Fixed)
        separated = fixed_axis_diffs(qs->coefficients(ns), qf->coefficients(nf), half, qaxes[i], bits).separated();
      else
        separated = float_axis_diffs(a, b, half, ax.jA.data(), ax.PA.data(), ax.jB.data(), ax.PB.data(), ax.p).separated();
      v.real = real_operands(second_centred.data() + std::size_t(ns) * std::size_t(k),
                             first_centred.data() + std::size_t(nf) * std::size_t(k), half, centred_setup.axes[i], s);
      if (!sink(v, separated)) {
        stopped = true;
        return {true, i + 1};
      }
      if (separated) return {true, i + 1};
    }
    return {false, n};
  };
  // The triangle test does not steer the traversal: skip it.
  return traverse(first, second, options, pair_test, [](int, int) { return false; }).stats;
}

}  // namespace kdopcd
