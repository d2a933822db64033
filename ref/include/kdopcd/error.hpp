#pragma once
// The one exception type the library throws for bad input: the message names the file (and the
// line where there is one) and what was expected, so the CLI can print it as is.
#include <stdexcept>
#include <string>

namespace kdopcd {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kdopcd
