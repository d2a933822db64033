// libFuzzer target: axis-test vector files (kdopcd::parse_test_vectors), and the fixed-point SAT
// on every vector that parses (the parser promises operands within the documented ranges).
#include <cstdint>
#include <sstream>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/test_vectors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    for (const kdopcd::TestVector& v : kdopcd::parse_test_vectors(in, "fuzz.vec")) (void)kdopcd::sat_eval_line(v);
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
