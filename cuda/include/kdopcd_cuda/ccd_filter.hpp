#pragma once
// The continuous collision detection's elementary tests on the GPU (docs/ccd.md, "Elementary
// tests on a GPU"): the filter of each feature pair, ccd::filtered_first_contact, the host's
// KDOPCD_HD code, one thread per pair, compiled with --fmad=false like the rest of the device code,
// so its times are the host filter's bit for bit. A ccd::ElementaryFilterBatch for
// ccd::CcdOptions::elementary_filter: the pairs it leaves to exact arithmetic (kNeedsExact) are
// finished on the host.
#include <span>

#include "kdopcd/ccd/elementary.hpp"

namespace kdopcd::cuda {

// times[i] = ccd::filtered_first_contact(kinds[i], points[i]) on the device. Throws
// std::runtime_error without a usable GPU (device_available) or on a CUDA error. Thread-safe.
void device_elementary_filter(std::span<const ccd::ElementaryKind> kinds, std::span<const ccd::ElementaryPoints> points,
                              std::span<double> times);

}  // namespace kdopcd::cuda
