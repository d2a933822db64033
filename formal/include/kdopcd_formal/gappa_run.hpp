#pragma once
// Runs Gappa on one script and says whether it proved it (docs/formal.md).
#include <string>

namespace kdopcd::formal {

struct GappaOutcome {
  bool proved = false;     // exit status 0, no unproven hint, not timed out
  bool timed_out = false;
  double seconds = 0;
  std::string diagnostics;  // Gappa's stderr (why it failed), trimmed
};

// `gappa` is the program (a name looked up in PATH, or a path). A hint that Gappa cannot verify as
// an identity ("not trivially equal") would make the proof rest on an unchecked step: it counts as
// a failure. Throws InputError when the program cannot be started.
GappaOutcome run_gappa(const std::string& gappa, const std::string& script_path, double timeout_seconds);

// Whether `gappa` can be started (for a clear message before a long run).
bool gappa_available(const std::string& gappa);

}  // namespace kdopcd::formal
