#pragma once
// Runs a test body once per SIMD instruction set that Highway built and this CPU has, so that code
// dispatched at run time (the SIMD set-up and pair tests) is checked on every path it can take.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>

template <class Check>
void on_every_target(const Check& check) {
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
}
