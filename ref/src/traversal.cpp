#include "kdopcd/traversal.hpp"

#include <fmt/format.h>

#include "kdopcd/error.hpp"

namespace kdopcd {

DescentRule parse_descent_rule(const std::string& name) {
  if (name == "shallower") return DescentRule::Shallower;
  if (name == "first") return DescentRule::First;
  if (name == "second") return DescentRule::Second;
  throw InputError(fmt::format("unknown descent rule '{}' (expected shallower, first or second)", name));
}

DescentRule parse_query_descent_rule(const std::string& name) {
  if (name == "larger") return DescentRule::Larger;
  if (name == "shallower" || name == "first" || name == "second") return parse_descent_rule(name);
  throw InputError(fmt::format("unknown descent rule '{}' (expected larger, shallower, first or second)", name));
}

const char* to_string(DescentRule rule) {
  switch (rule) {
    case DescentRule::Shallower: return "shallower";
    case DescentRule::First: return "first";
    case DescentRule::Second: return "second";
    case DescentRule::Larger: return "larger";
  }
  return "?";
}

}  // namespace kdopcd
