#include "query_report.hpp"

#include <fmt/format.h>

#include "kdopcd/file_io.hpp"

namespace kdopcd::cli {

void print_table_header() {
  fmt::print("{:>5} {:>9} {:>11} {:>12} {:>10} {:>6} {:>11}\n", "pose", "contacts", "pair_tests", "axis_tests",
             "tri_tests", "stack", "query_ms");
}

void print_table_row(std::size_t pose_index, const PoseOutcome& o, bool with_stack) {
  const TraversalStats& s = o.result.stats;
  fmt::print("{:>5} {:>9} {:>11} {:>12} {:>10} {:>6} {:>11.3f}\n", pose_index, s.contacts, s.pair_tests, s.axis_tests,
             s.triangle_tests, with_stack ? fmt::format("{}", s.max_stack_depth) : "-", o.seconds * 1e3);
}

void write_pairs_file(const std::string& path, const std::vector<PoseOutcome>& outcomes) {
  OutputFile out(path);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& contacts = outcomes[i].result.contacts;
    out << fmt::format("pose {} {}\n", i, contacts.size());
    for (const ContactPair& c : contacts) out << fmt::format("{} {}\n", c.first, c.second);
  }
  out.close();
}

nlohmann::json stats_json(const TraversalStats& s) {
  return {{"contacts", s.contacts},         {"pair_tests", s.pair_tests},
          {"axis_tests", s.axis_tests},     {"leaf_pairs", s.leaf_pairs},
          {"triangle_tests", s.triangle_tests}, {"max_stack_depth", s.max_stack_depth}};
}

void write_json_file(const std::string& path, const nlohmann::json& report) {
  // Paths need not be UTF-8: replace what is not, rather than fail to write the report.
  write_whole_file(path, report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace kdopcd::cli
