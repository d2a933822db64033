// kdop ccd-sequence FILE [--other FILE] [--self] [options]: continuous collision detection over a
// deforming mesh's frames (docs/ccd.md): for every frame interval f -> f + 1 (each vertex moving
// linearly), the first time of contact and the pairs touching then, of the mesh with itself
// (--self, the default without --other) and with another sequence or a static mesh (--other).
// The swept-k-DOP trees are built once and refitted every interval (--rebuild: built anew;
// --restructure R: refitted, then subtrees grown past R times their built size rebuilt).
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/ccd/bracketing.hpp"
#include "kdopcd/ccd/ccd_query.hpp"
#include "kdopcd/ccd/ccd_report.hpp"
#include "kdopcd/ccd/frame_sequence.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "query_report.hpp"
#if defined(KDOPCD_WITH_CUDA)
#include "kdopcd_cuda/ccd_filter.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"
#endif

namespace kdopcd::cli {
namespace {

struct SequenceArgs {
  std::string file, other, json_path;
  bool self = false;
  bool rebuild = false;
  double restructure = 0;  // 0: off
  int k = 18;
  int threads = 0;
  std::size_t list = 5;
  bool check = false;
  bool patch_culling = true;
  std::string elementary = "inline";
};

// --elementary: where the elementary tests' filter runs (CcdOptions::elementary_filter).
ccd::ElementaryFilterBatch elementary_filter(const std::string& where) {
  if (where == "inline") return nullptr;
  if (where == "batch") return ccd::host_elementary_filter;
#if defined(KDOPCD_WITH_CUDA)
  std::string why;
  if (!cuda::device_available(&why)) throw InputError("--elementary cuda: no usable GPU: " + why);
  return cuda::device_elementary_filter;
#else
  throw InputError("--elementary cuda: this kdop was built without the CUDA part");
#endif
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The answer of one interval: self-collision and/or the pair, each with its own pair names.
struct IntervalAnswer {
  std::optional<ccd::CcdResult> self, pair;
  std::optional<double> time() const {
    std::optional<double> t;
    for (const auto* r : {&self, &pair})
      if (*r && (*r)->time && (!t || *(*r)->time < *t)) t = (*r)->time;
    return t;
  }
  // The parts whose time is the first: their pairs, with the names to print them by.
  std::vector<std::pair<const ccd::CcdResult*, std::array<std::string, 2>>> first_parts() const {
    std::vector<std::pair<const ccd::CcdResult*, std::array<std::string, 2>>> out;
    const std::optional<double> t = time();
    if (self && self->time && self->time == t) out.push_back({&*self, {"mesh", "mesh"}});
    if (pair && pair->time && pair->time == t) out.push_back({&*pair, {"mesh", "other"}});
    return out;
  }
  ccd::CcdStats stats() const {
    ccd::CcdStats s;
    if (self) s += self->stats;
    if (pair) s += pair->stats;
    return s;
  }
};

// One sequence's topology, trees and current interval.
struct Track {
  ccd::FrameSequence sequence;
  ccd::Topology topology;
  std::optional<ccd::SweptTree> tree;
  ccd::MovingMesh at(std::size_t f) const {
    // A one-frame sequence is a static obstacle: every interval is frame 0 to frame 0.
    const std::size_t s = std::min(f, sequence.frame_count() - 1), e = std::min(f + 1, sequence.frame_count() - 1);
    return {&topology, {sequence.frames[s], sequence.frames[e]}};
  }
};

Track load_track(const std::string& path) {
  Track t{ccd::read_frame_sequence(path), {}, std::nullopt};
  t.topology = ccd::Topology::of(t.sequence.triangles, t.sequence.vertex_count(), path);
  return t;
}

void run_sequence(const SequenceArgs& args) {
  check_outputs({{"--json", args.json_path}}, {args.file, args.other});
  if (args.rebuild && args.restructure > 0) throw InputError("--rebuild and --restructure exclude each other");
  const ccd::ElementaryFilterBatch filter = elementary_filter(args.elementary);
  Track main = load_track(args.file);
  std::optional<Track> other;
  if (!args.other.empty()) {
    other = load_track(args.other);
    if (other->sequence.frame_count() != 1 && other->sequence.frame_count() != main.sequence.frame_count())
      throw InputError(fmt::format("--other {}: {} frames, but {} has {} (give as many, or one for a static mesh)",
                                   args.other, other->sequence.frame_count(), args.file, main.sequence.frame_count()));
  }
  const bool self = args.self || !other;
  const std::size_t intervals = main.sequence.frame_count() - 1;
  if (intervals == 0) throw InputError(fmt::format("{}: one frame: no frame interval to test", args.file));
  fmt::print("{}: {} vertices, {} triangles, {} frames{}\n", args.file, main.sequence.vertex_count(),
             main.sequence.triangles.size(), main.sequence.frame_count(), self ? ", self-collision" : "");
  if (other)
    fmt::print("--other {}: {} triangles, {}\n", args.other, other->sequence.triangles.size(),
               other->sequence.frame_count() == 1 ? "static" : fmt::format("{} frames", other->sequence.frame_count()));
  fmt::print("k = {}, trees {}, threads {}, elementary tests {}\n", args.k,
             args.rebuild ? "rebuilt every interval"
                          : (args.restructure > 0 ? fmt::format("refitted, restructured past {:g}x", args.restructure)
                                                  : std::string("refitted")),
             args.threads == 0 ? std::string("all") : std::to_string(args.threads), args.elementary);

  nlohmann::json rows = nlohmann::json::array();
  double total_seconds = 0, worst_seconds = 0, total_update = 0;
  std::size_t colliding = 0, check_failures = 0;
  for (std::size_t f = 0; f < intervals; ++f) {
    const std::string where = fmt::format("{} frames {}-{}", args.file, f, f + 1);
    const ccd::MovingMesh m = main.at(f);
    ccd::check_motion(m, where);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t rebuilt = 0;
    // The main sequence's tree serves its self-collision; the other's only pairs.
    auto update = [&](Track& t, const ccd::MovingMesh& mm) {
      const auto use = &t == &main && self ? ccd::SweptTree::Use::self_collision : ccd::SweptTree::Use::pairs;
      if (!t.tree || args.rebuild)
        t.tree.emplace(t.topology, mm.motion, args.k, use);
      else {
        t.tree->refit(mm.motion);
        if (args.restructure > 0) rebuilt += t.tree->restructure(mm.motion, args.restructure);
      }
    };
    std::optional<ccd::MovingMesh> o;
    if (other) {
      o = other->at(f);
      ccd::check_motion(*o, fmt::format("{} frames {}-{}", args.other, f, f + 1));
    }
    // The refit's parallel loops run on --threads threads too, as the queries do (their own arena).
    auto update_all = [&] {
      update(main, m);
      if (other) update(*other, *o);
    };
    if (args.threads > 0)
      tbb::task_arena(args.threads).execute(update_all);
    else
      update_all();
    const double update_seconds = seconds_since(t0);
    IntervalAnswer answer;
    const ccd::CcdOptions options{.threads = args.threads, .patch_culling = args.patch_culling, .elementary_filter = filter};
    if (self) answer.self = ccd::ccd_self(m, *main.tree, options);
    if (other) answer.pair = ccd::ccd_pair(m, *main.tree, *o, *other->tree, options);
    const double seconds = seconds_since(t0);
    total_seconds += seconds;
    total_update += update_seconds;
    worst_seconds = std::max(worst_seconds, seconds);
    const std::optional<double> time = answer.time();
    const ccd::CcdStats stats = answer.stats();
    std::size_t pair_count = 0;
    for (const auto& [part, names] : answer.first_parts()) pair_count += part->contacts.size();
    colliding += time.has_value();
    fmt::print("frames {:>4}-{:<4} {:<28} pairs {:>5}  tests {:>8}  exact {:>5}  patches culled {:>5}  update {:7.2f} ms  total {:7.2f} ms{}\n", f,
               f + 1, ccd::describe_time(time), pair_count, stats.elementary_tests, stats.exact_intervals, stats.patches_culled,
               update_seconds * 1e3, seconds * 1e3, rebuilt ? fmt::format("  ({} subtrees rebuilt)", rebuilt) : "");
    nlohmann::json row = {{"frame", f}, {"time", time ? nlohmann::json(*time) : nlohmann::json(nullptr)},
                          {"update_seconds", update_seconds}, {"seconds", seconds}, {"stats", ccd::stats_json(stats)}};
    std::size_t listed = 0;
    for (const auto& [part, names] : answer.first_parts()) {
      for (std::size_t i = 0; i < part->contacts.size() && listed < args.list; ++i, ++listed)
        fmt::print("    {}\n", ccd::describe_contact(part->contacts[i], names));
      row[names[1] == "mesh" ? "self" : "pair"] = ccd::result_json(*part, names);
    }
    if (args.check) {
      // Brute force per part (self, pair), each against its own traversal answer, and the bracketing
      // of every part whose interval starts free of intersections.
      auto check_part = [&](const ccd::MovingMesh& a, const ccd::MovingMesh& b, bool is_self, const ccd::CcdResult& got) {
        const ccd::CcdResult brute = is_self ? ccd::brute_force_self(a) : ccd::brute_force_pair(a, b);
        const bool equal = brute.time == got.time && brute.contacts == got.contacts;
        const bool free_start = ccd::intersecting_triangles(*a.topology, std::vector<Vec3>(a.motion.start.begin(), a.motion.start.end()),
                                                            *b.topology, std::vector<Vec3>(b.motion.start.begin(), b.motion.start.end()),
                                                            is_self)
                                    .empty();
        const ccd::Bracketing bracket = ccd::check_bracketing(a, b, is_self, got);
        const bool bracketed = (!free_start || bracket.before.empty()) && bracket.not_shown_after.empty();
        fmt::print("    check {}: brute force {}; bracketing {}\n", is_self ? "self" : "pair", equal ? "equal" : "DIFFERENT",
                   !got.time ? "(no contact)"
                             : (bracketed ? (free_start ? "ok" : "ok after t* (the interval starts interpenetrating)")
                                          : fmt::format("FAILED ({} intersecting before, {} not shown after)",
                                                        bracket.before.size(), bracket.not_shown_after.size())));
        check_failures += !equal + !bracketed;
      };
      if (answer.self) check_part(m, m, true, *answer.self);
      if (answer.pair) check_part(m, *o, false, *answer.pair);
    }
    rows.push_back(row);
  }
  const double mean = total_seconds / double(intervals);
  fmt::print("{} interval(s), {} with a contact; per interval: mean {:.2f} ms (tree update {:.2f} ms), worst {:.2f} ms\n",
             intervals, colliding, mean * 1e3, total_update / double(intervals) * 1e3, worst_seconds * 1e3);
  if (!args.json_path.empty())
    write_json_file(args.json_path, {{"file", args.file},
                                     {"other", args.other},
                                     {"self", self},
                                     {"k", args.k},
                                     {"trees", args.rebuild ? "rebuild" : (args.restructure > 0 ? "restructure" : "refit")},
                                     {"threads", args.threads},
                                     {"patch_culling", args.patch_culling},
                                     {"elementary", args.elementary},
                                     {"mean_seconds", mean},
                                     {"worst_seconds", worst_seconds},
                                     {"intervals", rows}});
  if (check_failures > 0) throw CheckFailed(fmt::format("{} check(s) failed (see the lines marked DIFFERENT / FAILED)", check_failures));
}

void add_ccd_sequence_command(CLI::App& app) {
  auto args = std::make_shared<SequenceArgs>();
  CLI::App* cmd = app.add_subcommand("ccd-sequence", "continuous collision detection over a deforming mesh's frames");
  cmd->add_option("FILE", args->file, "frame sequence: .kframes, a frame list, or one mesh file (docs/formats.md)")->required();
  cmd->add_option("--other", args->other, "a second sequence (as many frames) or a static mesh (one frame)");
  cmd->add_flag("--self", args->self, "self-collision of FILE (the default without --other)");
  cmd->add_flag("--rebuild", args->rebuild, "build the trees anew every interval instead of refitting them");
  cmd->add_option("--restructure", args->restructure,
                  "refit, then rebuild every subtree grown past this many times its built size (0 = off)")
      ->check(finite_range(0, 1e6))
      ->capture_default_str();
  cmd->add_option("--k", args->k, "k of the swept k-DOPs")->check(k_values())->capture_default_str();
  cmd->add_option("--threads", args->threads, "threads of the tree updates and the queries (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
  cmd->add_option("--list", args->list, "feature pairs printed per interval")
      ->check(CLI::Range(std::size_t(0), std::size_t(kMaxCount)))
      ->capture_default_str();
  cmd->add_option("--json", args->json_path, "write a JSON report (every interval, every pair) to this file");
  cmd->add_flag("!--no-patch-culling", args->patch_culling,
                "self-collision: descend into every patch, also those proven free of contact by their normals and "
                "boundary (the same answer, slower; for comparisons)");
  cmd->add_option("--elementary", args->elementary,
                  "where the elementary tests run: inline (each where the traversal meets it), batch (collected, "
                  "then on the host's threads) or cuda (collected, then on the GPU); the same answer")
      ->check(CLI::IsMember({"inline", "batch", "cuda"}))
      ->capture_default_str();
  cmd->add_flag("--check", args->check,
                "also test every feature pair (brute force: small sequences only) and bracket each t* with the discrete "
                "exact test; exit 1 on a difference");
  cmd->callback([args] { run_sequence(*args); });
}

const CommandRegistration registration(23, add_ccd_sequence_command);
}  // namespace

}  // namespace kdopcd::cli
