#pragma once
// Gappa scripts that prove the fixed-point SAT's error bound, its clamp and its widths for every
// input in range (docs/formal.md; the hand proof is docs/fixed-point.md §5-§6). The scripts are
// generated from the constants the C++ uses: k's r_max (orientations.hpp), as the tight bound of
// `kdop verify-bound` rounds it up (bound_check.hpp), the fractional bits b, c, z, the rounding
// directions of fixed_format.hpp and the widths of sat_fixed.hpp.
#include <string>
#include <string_view>
#include <vector>

#include "kdopcd/fixed_format.hpp"

namespace kdopcd::formal {

// A deliberate error planted in the scripts: each one must make some proof fail (docs/formal.md,
// "Each proof can fail").
enum class SatMutant {
  None,
  BoundOneUnitTighter,     // the claimed bound one unit smaller than the proven one
  CoefficientRoundsDown,   // a' = floor instead of ceil
  MappingRoundsUp,         // P' = ceil instead of floor
  OffsetRoundsUp,          // p' = ceil instead of floor
  NoPlusOne,               // diff2 takes p' instead of p' + 1 as the upper bound of p
  NoNegativeCorrection,    // sn(x') left out of Eq. 22
  CrossSumUnbounded,       // the hypothesis -sum P_i <= r_max dropped
  SumOneBitNarrower,       // diff' claimed to fit b+c+4 bits
  ShiftRoundsWrongWay,     // z > b+c: the p' term of diff1 shifted with ceil, of diff2 with floor
};
std::vector<SatMutant> all_sat_mutants();
std::string_view mutant_name(SatMutant m);

// One proof obligation: a complete Gappa input whose success proves `claim`.
struct GappaScript {
  std::string name;   // file stem: sign-correction, diff1-error, ...
  std::string claim;  // one line, for reports
  std::string text;   // the Gappa input
};

struct SatProofSpec {
  FixedParams bits;
  int k = 24;
  SatMutant mutant = SatMutant::None;
};

// The bound the proofs establish for err_i = diff_i - diff_i' (units of the scene scale):
// r 2^(1-b) + 6 2^-c + 2^-z [+ 2^-(b+c) when z > b+c], r = tight_bound_radius(r_max of k), as an
// exact dyadic "NbE" (Gappa's notation: N 2^E) and as a double rounded up.
struct ProvenBound {
  std::string gappa;
  double value = 0;
  double radius = 0;  // r
};
ProvenBound proven_sat_bound(const FixedParams& bits, int k);

// Every script of one (k, b, c, z), with the mutant planted. Validates bits and k (InputError).
std::vector<GappaScript> sat_bound_scripts(const SatProofSpec& spec);

}  // namespace kdopcd::formal
