#pragma once
// How kdop ccd and ccd-sequence print a CCD answer and write it in JSON (header-only: the command
// line and the benchmarks link fmt and nlohmann_json, the library does not need them).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <string>

#include "kdopcd/ccd/ccd_query.hpp"

namespace kdopcd::ccd {

inline std::string describe_time(const std::optional<double>& time) {
  return time ? fmt::format("t* = {:.17g}", *time) : std::string("no contact in [0, 1]");
}

// One feature pair in words; `objects` names the first and second object ("first", "second"; in
// self-collision both the same).
inline std::string describe_contact(const FeatureContact& c, const std::array<std::string, 2>& objects) {
  if (c.kind == ElementaryKind::VertexFace)
    return fmt::format("vertex-face: vertex {} of {}, triangle {} of {}", c.ids[0], objects[c.vertex_object], c.ids[1],
                       objects[1 - c.vertex_object]);
  return fmt::format("edge-edge: edge ({}, {}) of {}, edge ({}, {}) of {}", c.ids[0], c.ids[1], objects[0], c.ids[2],
                     c.ids[3], objects[1]);
}

inline nlohmann::json stats_json(const CcdStats& s) {
  return {{"node_pairs", s.node_pairs},
          {"triangle_pairs", s.triangle_pairs},
          {"feature_pairs", s.feature_pairs},
          {"elementary_tests", s.elementary_tests},
          {"searched", s.searched},
          {"exact_intervals", s.exact_intervals},
          {"patches_culled", s.patches_culled},
          {"patch_tests", s.patch_tests},
          {"patch_triangles_culled", s.patch_triangles_culled}};
}

inline nlohmann::json result_json(const CcdResult& r, const std::array<std::string, 2>& objects) {
  nlohmann::json contacts = nlohmann::json::array();
  for (const FeatureContact& c : r.contacts) {
    if (c.kind == ElementaryKind::VertexFace)
      contacts.push_back({{"kind", "vertex-face"},
                          {"vertex_of", objects[c.vertex_object]},
                          {"vertex", c.ids[0]},
                          {"triangle", c.ids[1]}});
    else
      contacts.push_back({{"kind", "edge-edge"}, {"edge_first", {c.ids[0], c.ids[1]}}, {"edge_second", {c.ids[2], c.ids[3]}}});
  }
  return {{"time", r.time ? nlohmann::json(*r.time) : nlohmann::json(nullptr)},
          {"contacts", contacts},
          {"stats", stats_json(r.stats)}};
}

// The time, the pairs (at most `max_pairs` lines, then a count) and the counters.
inline void print_result(const CcdResult& r, const std::array<std::string, 2>& objects, std::size_t max_pairs = 1000) {
  fmt::print("{}{}\n", describe_time(r.time), r.time ? fmt::format(", {} feature pair(s) touching", r.contacts.size()) : "");
  for (std::size_t i = 0; i < r.contacts.size() && i < max_pairs; ++i)
    fmt::print("  {}\n", describe_contact(r.contacts[i], objects));
  if (r.contacts.size() > max_pairs) fmt::print("  ... and {} more (--json lists all)\n", r.contacts.size() - max_pairs);
  fmt::print("node pairs {}, triangle pairs {}, feature pairs {}, elementary tests {} ({} searched), exact intervals {}\n",
             r.stats.node_pairs, r.stats.triangle_pairs, r.stats.feature_pairs, r.stats.elementary_tests,
             r.stats.searched, r.stats.exact_intervals);
}

}  // namespace kdopcd::ccd
