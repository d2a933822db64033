#pragma once
// The command line's error policy in one place (docs/cli.md): the exit statuses, the check-failed
// exception, and the option validators every subcommand uses so that each numeric option has
// bounds that --help shows.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/sat_fixed.hpp"

namespace kdopcd::cli {

// Exit statuses of kdop (docs/cli.md has the table with examples).
enum ExitStatus : int {
  kExitOk = 0,
  kExitCheckFailed = 1,  // a check the user asked for found a difference (--check, --compare, verify-bound)
  kExitInputError = 2,   // invalid option, file or combination; an output that cannot be written
  kExitDefect = 3,       // internal error: a defect of kdop, never the answer to any input
  kExitOverflow = 4,     // a fixed capacity (stack, pending set, queue, fixed-point range) overflowed
};

// Thrown when a comparison the user asked for finds a difference beyond what is documented as
// legitimate: the run completed, the report says what differs (exit status 1).
class CheckFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A real number in [lo, hi]; NaN and infinities are refused (CLI::Range lets "nan" through, since
// every comparison with NaN is false). The --help text shows the interval.
inline CLI::Validator finite_range(double lo, double hi) {
  CLI::Validator v(
      [lo, hi](std::string& input) -> std::string {
        double x = 0;
        if (!CLI::detail::lexical_cast(input, x)) return fmt::format("'{}' is not a number", input);
        if (!std::isfinite(x)) return fmt::format("'{}' is not a finite number (expected {:g} .. {:g})", input, lo, hi);
        if (x < lo || x > hi) return fmt::format("{} is outside {:g} .. {:g}", input, lo, hi);
        return {};
      },
      fmt::format("FLOAT in [{:g} - {:g}]", lo, hi));
  return v;
}

// A finite number > 0 and at most hi.
inline CLI::Validator positive_finite(double hi) {
  CLI::Validator v(
      [hi](std::string& input) -> std::string {
        double x = 0;
        if (!CLI::detail::lexical_cast(input, x)) return fmt::format("'{}' is not a number", input);
        if (!std::isfinite(x) || !(x > 0) || x > hi)
          return fmt::format("{} is not a finite number in (0, {:g}]", input, hi);
        return {};
      },
      fmt::format("FLOAT in (0 - {:g}]", hi));
  return v;
}

// Counts given on the command line (--limit, --samples) stay at most 2^53, where every integer is
// exact in the JSON reports that echo them.
inline constexpr std::uint64_t kMaxCount = std::uint64_t(1) << 53;

// An unsigned 64-bit integer written in decimal digits. CLI11 converts "-1" into an unsigned
// option as 2^64 - 1; this refuses the sign, so a seed or a count is what was typed.
inline CLI::Validator unsigned_integer() {
  CLI::Validator v(
      [](std::string& input) -> std::string {
        if (input.empty() || input.find_first_not_of("0123456789") != std::string::npos)
          return fmt::format("'{}' is not an unsigned decimal integer (0 .. 2^64-1)", input);
        std::uint64_t x = 0;
        if (!CLI::detail::lexical_cast(input, x)) return fmt::format("{} does not fit in 64 bits", input);
        return {};
      },
      "UINT64");
  return v;
}

// --bits b,c,z (or one n for all three), with the option named in the message.
inline FixedParams parse_bits_option(const std::string& text, const char* option = "--bits") {
  try {
    return parse_fixed_params(text);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{} {}: {} (expected b,c,z or one n, each {}..{})", option, text, e.what(),
                                 kMinFixedBits, kMaxFixedBits));
  }
}

// The k values of the orientation sets (orientations.hpp).
inline CLI::IsMember k_values() { return CLI::IsMember({6, 14, 18, 24, 26}); }

}  // namespace kdopcd::cli
