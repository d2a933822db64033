#pragma once
// The command line's error policy in one place (docs/cli.md): the exit statuses, the check-failed
// exception, and the option validators every subcommand uses so that each numeric option has
// bounds that --help shows.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kdopcd/error.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/tri_fixed.hpp"

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

// An integer written in decimal digits (a '-' first where `allow_negative`), read in the full
// width of 64 bits: no wrap, no saturation, no octal or hexadecimal reading. Empty when `text` is
// one; else what is wrong with it.
inline std::string decimal_integer_error(std::string_view text, bool allow_negative) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::string_view digits = negative ? text.substr(1) : text;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos ||
      (negative && !allow_negative))
    return fmt::format("'{}' is not {} decimal integer", text, allow_negative ? "a" : "an unsigned");
  std::int64_t s = 0;
  std::uint64_t u = 0;
  const auto [end, ec] = allow_negative ? std::from_chars(text.data(), text.data() + text.size(), s)
                                        : std::from_chars(text.data(), text.data() + text.size(), u);
  if (ec != std::errc() || end != text.data() + text.size())
    return fmt::format("{} does not fit in a 64-bit {}integer ({} .. {})", text, allow_negative ? "" : "unsigned ",
                       allow_negative ? std::numeric_limits<std::int64_t>::min() : 0,
                       allow_negative ? std::uint64_t(std::numeric_limits<std::int64_t>::max())
                                      : std::numeric_limits<std::uint64_t>::max());
  return {};
}

// An unsigned decimal integer in [lo, hi] from a part of an option's value (--shard i/N); throws
// InputError naming `what` otherwise.
inline std::uint64_t parse_unsigned(std::string_view text, std::uint64_t lo, std::uint64_t hi, std::string_view what) {
  if (const std::string error = decimal_integer_error(text, false); !error.empty())
    throw InputError(fmt::format("{}: {}", what, error));
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  if (value < lo || value > hi) throw InputError(fmt::format("{}: {} is outside {} .. {}", what, text, lo, hi));
  return value;
}

// Every integer option of `app` and its subcommands is read by decimal_integer_error's rules before
// any bound is checked: CLI11 alone reads "010" as 8 and "0x10" as 16, and lets a number beyond 64
// bits saturate. The check is a transform, so it runs before each option's own checks, and hands
// them the number written without leading zeros.
inline void make_integer_options_strict(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const bool is_signed = type.rfind("INT", 0) == 0, is_unsigned = type.rfind("UINT", 0) == 0;
    if (!is_signed && !is_unsigned) continue;
    option->transform(CLI::Validator(
        [is_signed](std::string& input) -> std::string {
          std::string error = decimal_integer_error(input, is_signed);
          if (!error.empty()) return error;
          const bool negative = input.front() == '-';
          const std::size_t first = input.find_first_not_of('0', negative ? 1 : 0);
          input = first == std::string::npos ? "0" : (negative ? "-" : "") + input.substr(first);
          return {};
        },
        ""));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) make_integer_options_strict(*sub);
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

// "v,m" or one "n" for both: the triangle unit's bits (TriangleFixedParams).
inline TriangleFixedParams parse_tri_bits(const std::string& text) {
  const auto comma = text.find(',');
  auto number = [&](const std::string& part) {
    int value = 0;
    const auto [next, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || next != part.data() + part.size() || part.empty())
      throw InputError(fmt::format("--tri-bits '{}': expected v,m or one number", text));
    return value;
  };
  const TriangleFixedParams p = comma == std::string::npos
                                    ? TriangleFixedParams{number(text), number(text)}
                                    : TriangleFixedParams{number(text.substr(0, comma)), number(text.substr(comma + 1))};
  if (p.v < 1 || p.m < 1 || p.v + p.m > kMaxTriangleFixedBits)
    throw InputError(fmt::format("--tri-bits '{}': need v, m >= 1 and v + m <= {}", text, kMaxTriangleFixedBits));
  return p;
}

// The k values of the orientation sets (orientations.hpp).
inline CLI::IsMember k_values() { return CLI::IsMember({6, 14, 18, 24, 26}); }

}  // namespace kdopcd::cli
