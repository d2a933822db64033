#pragma once
// Axis-test vectors (docs/test-vectors.md): one fixed-point SAT axis test per line, shared by the
// reference (kdop sat-eval, kdop verify-bound), the RTL pipeline testbench and the SystemC model.
//
//   R b c z PA0 PA1 PA2 PB0 PB1 PB2 p a0 a1 a2 ak0 ak1 ak2 b0 b1 b2 bk0 bk1 bk2   (reals)
//   Q b c z <the same 19 fields as integers: P', p', a', ...>                     (quantized)
//
// '#' starts a comment; blank lines are skipped. Reals are C99 hex floats (%a, exact) or decimals.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd {

struct TestVector {
  enum class Kind { Real, Quantized };
  Kind kind = Kind::Real;
  FixedParams bits;
  RealOperands real{};    // Kind::Real: the scaled doubles (p unclamped)
  FixedOperands fixed{};  // Kind::Quantized: the integers as given
  std::size_t line = 0;   // 1-based line in the file it came from, 0 if made in memory
};

// Throws InputError "<name>:<line>: <what was expected>" for a malformed line.
std::vector<TestVector> parse_test_vectors(std::istream& in, const std::string& name);
std::vector<TestVector> load_test_vectors(const std::string& path);  // InputError if unreadable or not a regular file

// One line, no newline. Real fields are written as hex floats (round-trip exact).
std::string format_test_vector(const TestVector& v);

// The integers Eq. 22 runs on: R lines are quantized with their own b, c, z first.
FixedOperands quantized_operands(const TestVector& v);
FixedDiffs evaluate_test_vector(const TestVector& v);  // width checks always on

// Decimal text of a 128-bit integer.
std::string to_decimal(__int128 v);
// The kdop sat-eval line of a vector: "diff1 diff2 verdict" (scale 2^-(b+c); 1 separated, 0 not).
std::string sat_eval_line(const TestVector& v);

// Records every axis test a traversal performs, in order (the pair test stops at the first
// separating axis, as in collide). backend: Float or Fixed (Exact is refused); the traversal is
// collide's with that backend, so the same pair and axis tests are recorded. Each vector is an R
// vector (bits = `bits`) of the test in the centred frames at the scene scale (the operands the
// fixed backend quantizes, also when the float backend steers the traversal in the file's frame),
// and `separated` is the verdict the traversal's own backend gave it.
// The sink returns false to stop early (the traversal is then abandoned). Returns the traversal's
// statistics (pair and axis tests; triangle tests are not run, so contacts are 0).
using AxisTestSink = std::function<bool(const TestVector& vector, bool separated)>;
TraversalStats record_axis_tests(const DopTree& first, const DopTree& second, const Pose& pose,
                                 const TraversalOptions& options, SatBackend backend, const FixedParams& bits,
                                 const AxisTestSink& sink);

}  // namespace kdopcd
