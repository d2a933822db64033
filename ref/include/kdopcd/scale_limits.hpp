#pragma once
// The scale limit of the geometry kdopcd accepts (docs/cli.md, "Limits"): every mesh coordinate
// and every translation (pose files, --pose, scene files, generated poses and scenes) has a
// magnitude of at most 2^100 (about 1.27e30). Inside it no backend can overflow: placed vertices
// stay below 2^102, the exact predicates' products of three coordinate differences below 2^310,
// and the sums and squares of the float, fixed and exact set-ups far below the double range;
// beyond it a finite input could end in infinities. The readers refuse larger values with an
// InputError, and the generators refuse to write them.
#include <cmath>

namespace kdopcd {

inline constexpr double kMaxCoordinate = 0x1p100;
inline constexpr const char* kMaxCoordinateText = "2^100 (about 1.27e30)";

// |x| <= kMaxCoordinate; false for NaN and infinities too.
inline bool within_scale(double x) { return std::fabs(x) <= kMaxCoordinate; }

}  // namespace kdopcd
