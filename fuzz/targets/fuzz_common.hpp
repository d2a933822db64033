#pragma once
// Shared by the libFuzzer targets (docs/fuzzing.md). A target feeds its input to one parser; the
// parser may reject it only with kdopcd::InputError. Any other exception escapes, std::terminate
// aborts, and libFuzzer reports the input as a crash: "bad input ends in exit status 2" is the
// property under test, together with AddressSanitizer's and UBSan's checks.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kdopcd::fuzz {

// A per-process scratch file for the parsers that read from a path (mesh_io goes through Assimp,
// which opens files itself): in KDOPCD_FUZZ_SCRATCH, else /dev/shm (memory: rewriting a file on
// a disk file system costs a flush per input, 30 times slower), else TMPDIR, else /tmp. Removed at
// exit.
inline const std::string& scratch_path(std::string_view extension) {
  static const std::string path = [&] {
    std::string dir = "/tmp";
    if (const char* t = std::getenv("TMPDIR"); t && *t) dir = t;
    if (access("/dev/shm", W_OK) == 0) dir = "/dev/shm";
    if (const char* s = std::getenv("KDOPCD_FUZZ_SCRATCH"); s && *s) dir = s;
    std::string p = dir + "/kdopcd-fuzz-" + std::to_string(getpid()) + std::string(extension);
    static std::string removed_at_exit;
    removed_at_exit = p;
    std::atexit([] { std::remove(removed_at_exit.c_str()); });
    return p;
  }();
  return path;
}

inline void write_scratch(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::remove(path.c_str());  // a new file each time: no truncate-and-rewrite flush
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("fuzz: cannot write the scratch file " + path);
  const bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("fuzz: cannot write the scratch file " + path);
}

}  // namespace kdopcd::fuzz
