#pragma once
// The exception types the library throws for conditions that are not defects. The command line
// maps each to its own exit status (docs/cli.md): anything else that escapes is a defect.
#include <stdexcept>
#include <string>

namespace kdopcd {

// Bad input: the message names the file (and the line where there is one) and what was expected,
// so the CLI can print it as is (exit status 2).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A fixed capacity of the hardware or of an engine was exceeded while answering a valid query:
// the DOP-pair stack, the pending set, a queue, a traversal stack, or a fixed-point range. The
// run is complete but its answer is not (contacts may be missing); the message says which
// capacity and how to raise it (exit status 4).
class OverflowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kdopcd
