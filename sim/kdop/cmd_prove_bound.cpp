// kdop prove-bound: the fixed-point SAT's no-false-negative bound, clamp and widths, and the
// triangle unit's widths, proven with Gappa for every input in range (formal/, docs/formal.md),
// where verify-bound samples.
//   kdop prove-bound [--k K]... [--bits b,c,z]... [--tri-bits v,m]... [--mutants] [--emit DIR]
//                    [--gappa PROG] [--timeout S] [--jobs N] [--verbose]
// Every (k, bits) pair and every --tri-bits is proven. With --mutants each planted error
// (gappa_sat.hpp, gappa_tri.hpp) is proven instead, and must make some proof fail. Exit status 1
// when a proof fails or a mutant survives.
// g++ 12 reports a false -Wrestrict in std::string's operator+ as CLI11 instantiates it for the
// vector options here (GCC bug 105329); the code involved is the standard library's.
#pragma GCC diagnostic ignored "-Wrestrict"
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "cli_support.hpp"
#include "commands.hpp"
#include "kdopcd/bound_check.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/tri_fixed.hpp"
#include "kdopcd_formal/gappa_run.hpp"
#include "kdopcd_formal/gappa_sat.hpp"
#include "kdopcd_formal/gappa_tri.hpp"

namespace kdopcd::cli {
namespace {

namespace fs = std::filesystem;
using formal::SatMutant;
using formal::TriMutant;

struct ProveArgs {
  std::vector<int> k{24};
  std::vector<std::string> bits{"18,18,18"};
  std::vector<std::string> tri_bits{"24,24"};
  bool mutants = false;
  std::string emit;
  std::string gappa = "gappa";
  double timeout = 120;
  int jobs = 0;
  bool verbose = false;
};

// One case: the SAT's scripts of (k, bits) or the triangle unit's of (v, m), with or without a
// mutant, and their outcomes.
struct Case {
  std::string label;         // "k=24 bits=18,18,18" or "triangle v,m=24,24"
  std::string mutant;        // "none" or the mutant's name
  bool sat = true;
  int k = 24;
  FixedParams bits;
  std::vector<formal::GappaScript> scripts;
  std::vector<formal::GappaOutcome> outcomes;
  fs::path dir;

  bool all_proved() const {
    return std::all_of(outcomes.begin(), outcomes.end(), [](const formal::GappaOutcome& o) { return o.proved; });
  }
  double seconds() const {
    double s = 0;
    for (const formal::GappaOutcome& o : outcomes) s += o.seconds;
    return s;
  }
};

std::string bits_text(const FixedParams& f) { return fmt::format("{},{},{}", f.b, f.c, f.z); }

fs::path work_directory(const std::string& emit) {
  if (!emit.empty()) {
    std::error_code ec;
    fs::create_directories(emit, ec);
    if (ec) throw InputError(fmt::format("--emit {}: cannot create the directory ({})", emit, ec.message()));
    return emit;
  }
  std::string pattern = (fs::temp_directory_path() / "kdop-prove-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw InputError("cannot create a temporary directory for the Gappa scripts");
  return pattern;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw InputError(fmt::format("{}: cannot write", path.string()));
}

void run_prove(const ProveArgs& args) {
  std::vector<FixedParams> widths;
  for (const std::string& b : args.bits) widths.push_back(parse_bits_option(b));
  std::vector<TriangleFixedParams> tri_widths;
  for (const std::string& t : args.tri_bits) tri_widths.push_back(parse_tri_bits(t));
  if (!formal::gappa_available(args.gappa))
    throw InputError(fmt::format("cannot run '{} --version': install Gappa (scripts/install-deps.sh) or name it "
                                 "with --gappa PROG",
                                 args.gappa));
  const fs::path root = work_directory(args.emit);

  std::vector<Case> cases;
  auto add_case = [&](Case c) {
    c.outcomes.resize(c.scripts.size());
    std::string tag;  // "k24_bits18_18_18_none"
    for (char ch : c.label + "_" + c.mutant)
      if (ch != '=') tag += (ch == ' ' || ch == ',') ? '_' : ch;
    c.dir = root / tag;
    fs::create_directories(c.dir);
    for (const formal::GappaScript& s : c.scripts) write_file(c.dir / (s.name + ".g"), s.text);
    cases.push_back(std::move(c));
  };
  for (int k : args.k)
    for (const FixedParams& f : widths) {
      std::vector<SatMutant> mutants{SatMutant::None};
      if (args.mutants) {
        mutants.clear();
        for (SatMutant m : formal::all_sat_mutants())  // the shift exists only when z > b+c
          if (m != SatMutant::ShiftRoundsWrongWay || f.z > f.b + f.c) mutants.push_back(m);
      }
      for (SatMutant m : mutants) {
        Case c;
        c.label = fmt::format("k={} bits={}", k, bits_text(f));
        c.mutant = formal::mutant_name(m);
        c.k = k;
        c.bits = f;
        c.scripts = formal::sat_bound_scripts({f, k, m});
        add_case(std::move(c));
      }
    }
  for (const TriangleFixedParams& t : tri_widths) {
    std::vector<TriMutant> mutants{TriMutant::None};
    if (args.mutants) mutants = formal::all_tri_mutants();
    for (TriMutant m : mutants) {
      Case c;
      c.label = fmt::format("triangle v,m={},{}", t.v, t.m);
      c.mutant = formal::mutant_name(m);
      c.sat = false;
      c.scripts = formal::triangle_width_scripts(t, m);
      add_case(std::move(c));
    }
  }

  // Every script is an independent Gappa run: spread them over the cores.
  std::vector<std::pair<std::size_t, std::size_t>> work;
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::size_t j = 0; j < cases[i].scripts.size(); ++j) work.emplace_back(i, j);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::string spawn_error;
  auto worker = [&] {
    for (std::size_t w; (w = next.fetch_add(1)) < work.size();) {
      Case& c = cases[work[w].first];
      const std::size_t j = work[w].second;
      try {
        c.outcomes[j] = formal::run_gappa(args.gappa, (c.dir / (c.scripts[j].name + ".g")).string(), args.timeout);
      } catch (const InputError& e) {
        const std::lock_guard lock(error_mutex);
        spawn_error = e.what();
      }
    }
  };
  const int jobs = args.jobs > 0 ? args.jobs : std::max(1, int(std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min<int>(jobs, int(work.size())); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (!spawn_error.empty()) throw InputError(spawn_error);

  int failed = 0, survivors = 0;
  for (const Case& c : cases) {
    if (c.mutant == "none") {
      const int proved = int(std::count_if(c.outcomes.begin(), c.outcomes.end(),
                                           [](const formal::GappaOutcome& o) { return o.proved; }));
      std::string bound;
      if (c.sat) {
        const formal::ProvenBound b = formal::proven_sat_bound(c.bits, c.k);
        bound = fmt::format("  bound {:.6e} (r {:.6f}; verify-bound's tight bound {:.6e})", b.value, b.radius,
                            fixed_error_bound(c.bits, b.radius));
      }
      fmt::print("{:<22} {}/{} proved{}  {:.2f} s\n", c.label, proved, c.outcomes.size(), bound, c.seconds());
      for (std::size_t j = 0; j < c.scripts.size(); ++j) {
        if (args.verbose || !c.outcomes[j].proved)
          fmt::print("    {:<16} {:<7} {:6.2f} s  {}\n", c.scripts[j].name, c.outcomes[j].proved ? "proved" : "FAILED",
                     c.outcomes[j].seconds, c.scripts[j].claim);
        if (!c.outcomes[j].proved) fmt::print("      {}\n", c.outcomes[j].diagnostics);
      }
      if (!c.all_proved()) ++failed;
    } else {
      std::vector<std::string> broken;
      for (std::size_t j = 0; j < c.scripts.size(); ++j)
        if (!c.outcomes[j].proved) broken.push_back(c.scripts[j].name);
      if (broken.empty()) ++survivors;
      fmt::print("{:<22} mutant {:<28} {}\n", c.label, c.mutant,
                 broken.empty() ? std::string("SURVIVES (every proof passed)")
                                : fmt::format("fails: {}", fmt::join(broken, ", ")));
    }
  }
  // A temporary directory is kept only when something failed (its scripts and Gappa's messages).
  if (args.emit.empty() && !failed && !survivors) {
    std::error_code ec;
    fs::remove_all(root, ec);
  } else {
    fmt::print("scripts in {}\n", root.string());
  }
  if (failed) throw CheckFailed(fmt::format("prove-bound: {} of {} cases not proven", failed, cases.size()));
  if (survivors) throw CheckFailed(fmt::format("prove-bound: {} mutants survived: the proofs cannot see them", survivors));
}

void add_prove_bound_command(CLI::App& app) {
  auto args = std::make_shared<ProveArgs>();
  CLI::App* cmd = app.add_subcommand(
      "prove-bound", "prove the fixed-point SAT's error bound, clamp and widths, and the triangle unit's widths (Gappa)");
  cmd->add_option("--k", args->k, "k: the orientation set (its r_max); repeat for several (default 24)")
      ->check(k_values());
  cmd->add_option("--bits", args->bits,
                  "fractional bits b,c,z (or one n), each 4..44; repeat for several (default 18,18,18)");
  cmd->add_option("--tri-bits", args->tri_bits,
                  "the triangle unit's fractional bits v,m; repeat for several (default 24,24)");
  cmd->add_flag("--mutants", args->mutants, "prove each planted error instead: every one must make a proof fail");
  cmd->add_option("--emit", args->emit,
                  "keep the Gappa scripts here (default: a temporary directory, removed unless a proof failed)");
  cmd->add_option("--gappa", args->gappa, "the Gappa program")->capture_default_str();
  cmd->add_option("--timeout", args->timeout, "seconds per Gappa run")->check(positive_finite(86400))->capture_default_str();
  cmd->add_option("--jobs", args->jobs, "parallel Gappa runs (0 = one per core)")->check(CLI::Range(0, 1024));
  cmd->add_flag("--verbose", args->verbose, "one line per proof");
  cmd->callback([args] { run_prove(*args); });
}

const CommandRegistration registration(55, add_prove_bound_command);
}  // namespace

}  // namespace kdopcd::cli
