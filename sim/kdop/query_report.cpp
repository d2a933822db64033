#include "query_report.hpp"

#include <fmt/format.h>

#include "kdopcd/error.hpp"

namespace kdopcd::cli {

namespace {

// Paths need not be UTF-8: replace what is not, rather than fail to write the report.
std::string dump(const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); }

// `text` (a dump at indent 2) indented by `by` more spaces on every line after the first.
std::string indented(const std::string& text, std::size_t by) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(by, ' ');
  }
  return out;
}

// The members of a JSON object as the lines of its dump, without the braces ("" when empty).
std::string members(const nlohmann::json& object) {
  if (object.empty()) return "";
  const std::string text = dump(object);  // "{\n  ...\n}"
  return text.substr(2, text.size() - 4);
}

}  // namespace

PoseStream::PoseStream(const std::string& file, const std::string& text, const char* text_option) : file_(file) {
  if (!file.empty()) {
    PoseReader check(file);
    for (Pose pose; check.next(pose);) ++count_;
    reader_ = std::make_unique<PoseReader>(file);
  }
  if (!text.empty()) {
    single_ = parse_pose(text, text_option);
    ++count_;
  }
  if (count_ == 0) throw InputError("give --poses FILE or --pose \"qw qx qy qz tx ty tz\"");
}

bool PoseStream::next(Pose& pose) {
  if (reader_ && reader_->next(pose)) return true;
  if (!single_) return false;
  pose = *single_;
  single_.reset();
  return true;
}

void print_table_header() {
  fmt::print("{:>5} {:>9} {:>11} {:>12} {:>10} {:>6} {:>11}\n", "pose", "contacts", "pair_tests", "axis_tests",
             "tri_tests", "stack", "query_ms");
}

void print_table_row(std::size_t pose_index, const PoseOutcome& o, bool with_stack) {
  const TraversalStats& s = o.result.stats;
  fmt::print("{:>5} {:>9} {:>11} {:>12} {:>10} {:>6} {:>11.3f}\n", pose_index, s.contacts, s.pair_tests, s.axis_tests,
             s.triangle_tests, with_stack ? fmt::format("{}", s.max_stack_depth) : "-", o.seconds * 1e3);
}

PairsWriter::PairsWriter(const std::string& path) {
  if (!path.empty()) out_.emplace(path, "--pairs");
}

void PairsWriter::add(std::size_t pose_index, const std::vector<ContactPair>& contacts) {
  if (!out_) return;
  std::string text = fmt::format("pose {} {}\n", pose_index, contacts.size());
  for (const ContactPair& c : contacts) text += fmt::format("{} {}\n", c.first, c.second);
  out_->write(text);
}

void PairsWriter::close() {
  if (out_) out_->close();
}

nlohmann::json stats_json(const TraversalStats& s) {
  return {{"contacts", s.contacts},         {"pair_tests", s.pair_tests},
          {"axis_tests", s.axis_tests},     {"leaf_pairs", s.leaf_pairs},
          {"triangle_tests", s.triangle_tests}, {"max_stack_depth", s.max_stack_depth}};
}

void write_json_file(const std::string& path, const nlohmann::json& report) { write_whole_file(path, dump(report) + "\n"); }

JsonReportWriter::JsonReportWriter(const std::string& path, const nlohmann::json& head) {
  if (path.empty()) return;
  out_.emplace(path, "--json");
  const std::string fields = members(head);
  out_->write("{\n" + fields + (fields.empty() ? "" : ",\n") + "  \"poses\": [");
}

void JsonReportWriter::add_pose(const nlohmann::json& row) {
  if (!out_) return;
  out_->write((first_row_ ? "\n    " : ",\n    ") + indented(dump(row), 4));
  first_row_ = false;
}

void JsonReportWriter::close(const nlohmann::json& tail) {
  if (!out_) return;
  const std::string fields = members(tail);
  out_->write(std::string(first_row_ ? "]" : "\n  ]") + (fields.empty() ? "" : ",\n" + fields) + "\n}\n");
  out_->close();
}

}  // namespace kdopcd::cli
