#pragma once
// Numbers and width claims in Gappa's notation, shared by the script generators.
#include <fmt/format.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <string>

namespace kdopcd::formal::gappa_text {

using boost::multiprecision::cpp_int;

// A dyadic rational N 2^-E (E >= 0), reduced, as Gappa writes it: "Nb-E".
inline std::string dyadic(cpp_int n, int e) {
  while (e > 0 && n != 0 && (n & 1) == 0) {
    n >>= 1;
    --e;
  }
  return fmt::format("{}b-{}", n.str(), e);
}

// 2^-e.
inline std::string pow2_neg(int e) { return fmt::format("1b-{}", e); }

// "`what` fits a `width`-bit two's-complement integer at scale 2^-frac": it lies in
// [-2^(width-1-frac), 2^(width-1-frac) - 2^-frac]. (A value on the 2^-frac grid in that interval
// is such an integer.)
inline std::string fits(const std::string& what, int width, int frac) {
  cpp_int half = 1;
  half <<= width - 1;
  cpp_int largest = half;
  --largest;
  return fmt::format("{} in [-{}, {}]", what, dyadic(half, frac), dyadic(largest, frac));
}

}  // namespace kdopcd::formal::gappa_text
