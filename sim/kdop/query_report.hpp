#pragma once
// Shared input and output of the query commands (collide, sim, demo): the poses of --poses or
// --pose, the per-pose table on stdout, the --pairs file and the --json report. Poses stream in
// and results stream out pose by pose, so a run's memory does not grow with its number of poses.
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kdopcd/file_io.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"

namespace kdopcd::cli {

struct PoseOutcome {
  QueryResult result;
  double seconds = 0;  // query time (set-up + traversal)
};

// The poses of --poses FILE (read line by line) or of the one --pose TEXT. The file is read once
// through when the stream is made, so that a malformed line is an input error before any work,
// and then again pose by pose.
class PoseStream {
 public:
  PoseStream(const std::string& file, const std::string& text, const char* text_option = "--pose");
  bool next(Pose& pose);
  std::size_t count() const { return count_; }  // poses in all

 private:
  std::string file_;
  std::optional<Pose> single_;
  std::unique_ptr<PoseReader> reader_;
  std::size_t count_ = 0;
};

void print_table_header();
// with_stack: print the traversal's deepest stack (the GPU path does not record it: "-").
void print_table_row(std::size_t pose_index, const PoseOutcome& outcome, bool with_stack = true);

// The --pairs file, written pose by pose: "pose <index> <count>" then count lines
// "<tri_first> <tri_second>", poses in order. Writes nothing for an empty path.
class PairsWriter {
 public:
  explicit PairsWriter(const std::string& path);
  void add(std::size_t pose_index, const std::vector<ContactPair>& contacts);
  void close();  // checked; call it when every pose is in

 private:
  std::optional<OutputFile> out_;
};

nlohmann::json stats_json(const TraversalStats& stats);
void write_json_file(const std::string& path, const nlohmann::json& report);

// The --json report of a query command, written as it goes: the fields known before the poses
// (`head`), the array "poses" one row at a time, then the fields known only at the end (the
// `tail` of close()). Writes nothing for an empty path.
class JsonReportWriter {
 public:
  JsonReportWriter(const std::string& path, const nlohmann::json& head);
  void add_pose(const nlohmann::json& row);
  void close(const nlohmann::json& tail = nlohmann::json::object());

 private:
  std::optional<OutputFile> out_;
  bool first_row_ = true;
};

}  // namespace kdopcd::cli
