#pragma once
// Helpers for tests that use the real meshes of Debian's libcgal-demo (scripts/fetch-meshes.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

inline std::string real_mesh_path(const std::string& name) { return std::string(KDOPCD_MESH_DIR) + "/" + name; }

// Real meshes are part of the suite: a missing one is a failure with a fix, not a skip.
#define REQUIRE_REAL_MESH(name)                                                                          \
  ASSERT_TRUE(std::filesystem::exists(real_mesh_path(name)))                                            \
      << real_mesh_path(name) << " is missing: run scripts/fetch-meshes.sh (needs libcgal-demo)"
