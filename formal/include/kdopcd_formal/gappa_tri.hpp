#pragma once
// Gappa scripts that prove the fixed-point triangle unit's datapath fits the widths the RTL
// declares (triangle_unit_widths, tri_fixed.hpp; derived by hand in docs/triangle-unit.md §2), for
// every in-range vertex, rotation and translation (docs/formal.md).
#include <string_view>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd_formal/gappa_sat.hpp"

namespace kdopcd::formal {

// Planted errors of the triangle unit's proofs; each must make a proof fail.
enum class TriMutant {
  None,
  TranslationUnclamped,        // |T / s| up to 8 instead of the clamp's 4
  DifferenceOneBitNarrower,    // X_a - X_b claimed in v+m+4 bits
  MinorOneBitNarrower,         // 2x2 minors claimed in 2(v+m)+8 bits
  DeterminantOneBitNarrower,   // orient3d claimed in 3(v+m)+12 bits
};
std::vector<TriMutant> all_tri_mutants();
std::string_view mutant_name(TriMutant m);

// The scripts of one (v, m): placement, differences, predicates. Validates v, m (InputError).
std::vector<GappaScript> triangle_width_scripts(TriangleFixedParams params, TriMutant mutant = TriMutant::None);

}  // namespace kdopcd::formal
