// libFuzzer target: the kdop command line's parser (sim/kdop/app.hpp): every subcommand of a build
// without the engines (sim is then its stub), their options, validators and the strict reading of
// integer options. The input is an argument vector: the words after "kdop", separated by NUL
// bytes (at most 32). The commands do not run; parsing may end only in a CLI11 parse error. After
// a parse that succeeds, every integer option given holds exactly the number written: its text is
// a canonical decimal in 64 bits and the value CLI11 converted prints back as the same text (no
// wrap, no saturation, no octal or hexadecimal reading).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app.hpp"

namespace {

// Thrown once the arguments are parsed, before any command runs (the commands own their options'
// storage through their callbacks, so those stay in place and are never called).
struct Parsed {};

// Every integer option of `app` and its subcommands that was given holds what was written.
void check_integers(CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const bool is_unsigned = type.rfind("UINT", 0) == 0, is_signed = !is_unsigned && type.rfind("INT", 0) == 0;
    if (option->count() == 0 || (!is_signed && !is_unsigned)) continue;
    for (const std::string& text : option->results()) {
      if (!kdopcd::cli::decimal_integer_error(text, is_signed).empty()) std::abort();
      const bool canonical = text == "0" || (text[text[0] == '-'] != '0' && text != "-0");
      if (!canonical) std::abort();
    }
    if (option->get_items_expected_max() != 1) continue;
    const std::string text = option->results().front();
    const std::string value = is_signed ? std::to_string(option->as<std::int64_t>())
                                        : std::to_string(option->as<std::uint64_t>());
    if (value != text) std::abort();
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) check_integers(*sub);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words{"kdop"};
  std::string word;
  for (std::size_t i = 0; i < size && words.size() <= 32; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word += char(data[i]);
    }
  }
  if (words.size() <= 32) words.push_back(word);
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());

  CLI::App app{"kdop"};
  kdopcd::cli::build_kdop_app(app);
  // The root's parse-complete callback runs after every option is stored and before the
  // subcommands' callbacks.
  app.parse_complete_callback([&app] {
    check_integers(app);
    throw Parsed{};
  });
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    // a usage error (status 2), or --help / --version
  } catch (const Parsed&) {
  }
  return 0;
}
