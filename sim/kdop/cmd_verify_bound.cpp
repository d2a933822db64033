// kdop verify-bound: the fixed-point SAT against the exact one on random samples and on vectors
// recorded from real scenes (bound_check.hpp, docs/fixed-point.md §6).
//   kdop verify-bound [--bits b,c,z] [--k K] [--samples N] [--seed S] [--shard i/N]
//                     [--vectors FILE]... [--scene FIRST SECOND --poses FILE] [--report OUT]
//   kdop verify-bound merge A.json B.json ... --report OUT
// Exit status 1 when any check fails (a false negative, an error outside the bound, ...); a run that
// would check nothing is an input error (docs/cli.md).
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <thread>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/bound_check.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/test_vectors.hpp"

namespace kdopcd::cli {
namespace {

struct VerifyArgs {
  std::string bits = "18,18,18";
  int k = 24;
  std::uint64_t samples = 1000000;
  std::uint64_t seed = 1;
  std::string shard = "0/1";
  std::vector<std::string> vectors;
  std::vector<std::string> scene;
  std::string poses;
  std::string backend = "fixed";
  std::uint64_t limit = 0;
  std::string report;
  std::vector<std::string> merge_inputs;
  struct {
    bool backend = false, limit = false, seed = false;
  } given;  // options named on the command line
};

// A progress line on stderr, only when stderr is a terminal.
class Progress {
 public:
  Progress(std::atomic<std::uint64_t>& done, std::uint64_t expected) : done_(done), expected_(expected) {
    if (!isatty(fileno(stderr))) return;
    thread_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      const auto t0 = std::chrono::steady_clock::now();
      while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::uint64_t d = done_.load(std::memory_order_relaxed);
        const double frac = expected_ ? std::min(1.0, double(d) / double(expected_)) : 0;
        const int width = 30, filled = int(frac * width);
        fmt::print(stderr, "\r[{}{}] {} samples, {:.0f}/s ", std::string(filled, '#'), std::string(width - filled, ' '),
                   d, s > 0 ? d / s : 0.0);
        std::fflush(stderr);
      }
      fmt::print(stderr, "\r{:70}\r", "");
    });
  }
  ~Progress() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::atomic<std::uint64_t>& done_;
  std::uint64_t expected_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

// i/N, each a decimal number in the width of BoundConfig's fields.
void parse_shard(const std::string& text, std::uint32_t& index, std::uint32_t& count) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw InputError(fmt::format("--shard '{}': expected i/N with 0 <= i < N", text));
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint32_t>::max();
  const std::string what = fmt::format("--shard '{}'", text);
  count = std::uint32_t(parse_unsigned(std::string_view(text).substr(slash + 1), 1, kMax, what + ": N"));
  index = std::uint32_t(parse_unsigned(std::string_view(text).substr(0, slash), 0, count - 1, what + ": i (below N)"));
}

void print_stats(const char* title, const BoundStats& s) {
  if (s.samples == 0) return;
  fmt::print("{}: {} samples ({} with |p| <= 4, {} clamped)\n", title, s.samples, s.unclamped, s.clamped);
  fmt::print("  false negatives            {}\n", s.false_negatives);
  fmt::print("  clamped: verdict failures  {}, bound violations {}\n", s.clamp_verdict_failures,
             s.clamped_bound_violations);
  fmt::print("  err_i < 0                  {}\n", s.negative_errors);
  fmt::print("  err_i > bound   paper {}   tight {}\n", s.paper_bound_violations, s.tight_bound_violations);
  fmt::print("  max err_i/bound paper {:.6f}   tight {:.6f}\n", s.max_ratio_paper, s.max_ratio_tight);
  fmt::print("  separated       exact {}   fixed {} (extra false positives {})\n", s.exact_separated,
             s.fixed_separated, s.exact_separated - s.fixed_separated);
  for (const auto& [name, h] : {std::pair{"paper", &s.histogram_paper}, std::pair{"tight", &s.histogram_tight}}) {
    fmt::print("  histogram of err/bound ({}), bins of 0.1:", name);
    for (std::uint64_t c : *h) fmt::print(" {}", c);
    fmt::print("\n");
  }
}

void print_report(const BoundReport& r) {
  fmt::print("b,c,z = {},{},{}  k = {}  r_max = {:.6f}  paper bound {:.6g}  tight bound {:.6g}  (units of s)\n",
             r.bits.b, r.bits.c, r.bits.z, r.k, r.r_max, r.paper_bound, r.tight_bound);
  print_stats("random", r.random);
  print_stats("recorded", r.recorded);
  fmt::print("{} ({:.2f} s)\n", r.passed() ? "PASSED" : "FAILED", r.seconds);
}

void finish(const BoundReport& report, const std::string& path) {
  if (report.random.samples + report.recorded.samples == 0)
    throw InputError("nothing was checked: give --samples N > 0 (this shard got none), --vectors FILE or --scene");
  print_report(report);
  if (!path.empty()) write_bound_report(path, report);
  if (!report.passed()) throw CheckFailed("verify-bound FAILED (see the counts above)");
}

void run_verify(const VerifyArgs& args) {
  const auto t0 = std::chrono::steady_clock::now();
  BoundConfig config;
  config.bits = parse_bits_option(args.bits);
  config.k = args.k;
  config.seed = args.seed;
  parse_shard(args.shard, config.shard_index, config.shard_count);
  std::atomic<std::uint64_t> done{0};
  config.progress = &done;
  if (!args.scene.empty() && args.poses.empty()) throw InputError("--scene FIRST SECOND needs --poses FILE");
  if (args.scene.empty() && !args.poses.empty()) throw InputError("--poses FILE belongs to --scene FIRST SECOND");
  // Options that would be ignored: the scene's, without a scene; the seed, without random samples.
  if (args.scene.empty() && args.given.backend) throw InputError("--backend belongs to --scene FIRST SECOND");
  if (args.scene.empty() && args.given.limit) throw InputError("--limit belongs to --scene FIRST SECOND");
  if (args.samples == 0 && args.given.seed) throw InputError("--seed seeds the random samples: it needs --samples N > 0");
  if (args.samples == 0 && args.vectors.empty() && args.scene.empty())
    throw InputError("nothing to check: --samples 0 and no --vectors FILE or --scene FIRST SECOND --poses FILE");
  {
    std::vector<std::string> inputs = args.vectors;
    inputs.insert(inputs.end(), args.scene.begin(), args.scene.end());
    inputs.push_back(args.poses);
    check_outputs({{"--report", args.report}}, inputs);
  }

  BoundReport report;
  report.bits = config.bits;
  report.k = config.k;
  report.r_max = orientation_set(config.k).r_max();
  report.paper_bound = paper_error_bound(config.bits);
  report.tight_bound = fixed_error_bound(config.bits, report.r_max);
  report.seed = config.seed;
  report.random_samples = args.samples;
  report.shard_count = config.shard_count;
  report.shards = {config.shard_index};
  {
    Progress progress(done, args.samples / config.shard_count);
    report.random = check_random_samples(config, args.samples);

    // Recorded vectors: files first, then the scene, one global index sequence (for sharding).
    std::uint64_t next_index = 0;
    for (const std::string& path : args.vectors) {
      std::vector<RealOperands> reals;
      const std::vector<TestVector> vectors = load_test_vectors(path);
      if (vectors.empty()) throw InputError(fmt::format("{}: no test vectors in the file (docs/test-vectors.md)", path));
      for (const TestVector& v : vectors) {
        if (v.kind != TestVector::Kind::Real)
          throw InputError(fmt::format("{}:{}: expected an R line (verify-bound needs the real operands)", path, v.line));
        reals.push_back(v.real);  // re-quantized with --bits
      }
      report.recorded.merge(check_recorded_samples(config, reals, next_index));
      next_index += reals.size();
      report.sources.push_back(path);
    }
    if (!args.scene.empty()) {
      const SatBackend backend = parse_sat_backend(args.backend);
      const Mesh first = load_mesh(args.scene[0]), second = load_mesh(args.scene[1]);
      const DopTree first_tree(first, config.k), second_tree(second, config.k);
      const std::vector<Pose> poses = load_poses(args.poses);
      std::vector<RealOperands> batch;
      std::uint64_t recorded = 0;
      auto flush = [&] {
        report.recorded.merge(check_recorded_samples(config, batch, next_index));
        next_index += batch.size();
        batch.clear();
      };
      for (const Pose& pose : poses) {
        record_axis_tests(first_tree, second_tree, pose, TraversalOptions{}, backend, config.bits,
                          [&](const TestVector& v, bool) {
                            if (args.limit != 0 && recorded >= args.limit) return false;
                            batch.push_back(v.real);
                            ++recorded;
                            if (batch.size() >= (1u << 20)) flush();
                            return true;
                          });
      }
      flush();
      report.sources.push_back(fmt::format("scene {} {} poses {} backend {} limit {}", args.scene[0], args.scene[1],
                                           args.poses, args.backend, args.limit));
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  finish(report, args.report);
}

void run_merge(const VerifyArgs& args) {
  if (args.report.empty()) throw InputError("merge: --report OUT is required");
  check_outputs({{"--report", args.report}}, args.merge_inputs);
  std::vector<BoundReport> reports;
  for (const std::string& path : args.merge_inputs) reports.push_back(load_bound_report(path));
  const BoundReport merged = merge_bound_reports(reports);
  fmt::print("merged {} reports, shards {} of {}\n", reports.size(), merged.shards.size(), merged.shard_count);
  finish(merged, args.report);
}

void add_verify_bound_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "verify-bound", "fixed-point SAT vs exact: false negatives and the error bound (random and recorded vectors)");
  cmd->add_option("--bits", args->bits, "fractional bits b,c,z (or one n for all three), each 4..44")->capture_default_str();
  cmd->add_option("--k", args->k, "k: the orientation set (r_max, random axes)")
      ->check(k_values())
      ->capture_default_str();
  cmd->add_option("--samples", args->samples, "random samples N (all shards together; 0 = none: then give --vectors or --scene)")
      ->check(CLI::Range(std::uint64_t(0), kMaxCount))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of the random samples")->capture_default_str();
  cmd->add_option("--shard", args->shard, "i/N: take the sample indices j with j % N == i")->capture_default_str();
  cmd->add_option("--vectors", args->vectors, "R-line vector file(s) (re-quantized with --bits)");
  cmd->add_option("--scene", args->scene, "FIRST SECOND meshes: record every axis test of their traversals")
      ->expected(2);
  cmd->add_option("--poses", args->poses, "pose file for --scene");
  cmd->add_option("--backend", args->backend, "traversal recorded for --scene: fixed or float")->capture_default_str();
  cmd->add_option("--limit", args->limit, "--scene: at most N recorded vectors (0 = all)")
      ->check(CLI::Range(std::uint64_t(0), kMaxCount));
  cmd->add_option("--report", args->report, "write a JSON report");
  CLI::App* merge = cmd->add_subcommand("merge", "add the JSON reports of the shards of one run");
  merge->add_option("REPORTS", args->merge_inputs, "reports to add")->required();
  merge->add_option("--report", args->report, "merged JSON report to write")->required();
  merge->callback([args] { run_merge(*args); });
  cmd->require_subcommand(0, 1);
  const CLI::Option* backend = cmd->get_option("--backend");
  const CLI::Option* limit = cmd->get_option("--limit");
  const CLI::Option* seed = cmd->get_option("--seed");
  cmd->callback([args, merge, backend, limit, seed] {
    if (merge->parsed()) return;
    args->given = {backend->count() > 0, limit->count() > 0, seed->count() > 0};
    run_verify(*args);
  });
}

const CommandRegistration registration(54, add_verify_bound_command);
}  // namespace

}  // namespace kdopcd::cli
