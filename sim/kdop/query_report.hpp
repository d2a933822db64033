#pragma once
// Shared output of the query commands (collide, demo, and later sim): the per-pose table on
// stdout, the --pairs file and the --json report.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "kdopcd/traversal.hpp"

namespace kdopcd::cli {

struct PoseOutcome {
  QueryResult result;
  double seconds = 0;  // query time (set-up + traversal)
};

void print_table_header();
// with_stack: print the traversal's deepest stack (the GPU path does not record it: "-").
void print_table_row(std::size_t pose_index, const PoseOutcome& outcome, bool with_stack = true);

// "pose <index> <count>" then count lines "<tri_first> <tri_second>", poses in order.
void write_pairs_file(const std::string& path, const std::vector<PoseOutcome>& outcomes);

nlohmann::json stats_json(const TraversalStats& stats);
void write_json_file(const std::string& path, const nlohmann::json& report);

}  // namespace kdopcd::cli
