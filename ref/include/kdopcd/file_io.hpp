#pragma once
// Checked file input and output, shared by every reader and writer of the library and by the
// kdop command line (docs/cli.md, "Files"):
//   * an input must be an existing regular file (after symbolic links): a directory, a FIFO, a
//     device or a socket is refused with a message that says what it is;
//   * an output must be a new file or an existing regular file (after symbolic links, also a link
//     whose target does not exist yet): a directory, a FIFO, a device or a socket is refused and
//     never opened, so it is neither written nor replaced; so is a path whose folder does not
//     exist;
//   * every write is checked, then the file is flushed and closed with the close checked too, so
//     a full disk (ENOSPC) is an error even for a few bytes that sat in a buffer;
//   * an output that is the same file as one of the inputs (the same inode, through any path,
//     symbolic or hard link) is refused before anything is written, and so are two outputs that
//     resolve to one file, existing or not.
// Outputs that a library writes itself by name (waveform traces) are claimed here first and
// checked after the library closed them (library_output.hpp).
// Every problem throws kdopcd::InputError "<path>: <what>" (with strerror's text where the system
// gave one).
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kdopcd {

// Throws InputError unless `path` names an existing regular file. `what` names the file's role in
// the message ("mesh", "pose file", ...).
void require_regular_file(const std::string& path, std::string_view what = "input file");

// The whole file as bytes (after require_regular_file); read errors throw InputError.
std::string read_whole_file(const std::string& path, std::string_view what = "input file");

// The file that writing `path` creates or overwrites: symbolic links followed, also the last one
// when its target does not exist yet, then made absolute and normal. Throws InputError for a loop
// of links.
std::filesystem::path resolved_output_path(const std::string& path);

// Checks an output path without creating it: a new file or an existing regular file (after
// symbolic links), and its folder exists. `option` names the option that gave the path ("--out");
// empty when there is none.
void check_output_path(const std::string& path, std::string_view option = {});

// Refuses an output that is one of the inputs, and two outputs that resolve to the same file
// (existing or not). Runs check_output_path on every output. Pairs are (option, path); empty paths
// (an output not asked for) are skipped.
void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::string>& inputs);

// A file being written. Opening checks what it opened (a regular file: a FIFO or a device found
// at the path is refused without a write, and opening never blocks) and only then truncates it;
// write() checks every call; close() flushes, closes and checks both. The destructor closes
// without reporting (an error path is unwinding already): call close() to learn whether the data
// reached the file. `option` names the option that gave the path in messages.
class OutputFile {
 public:
  explicit OutputFile(std::string path, std::string_view option = {});
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void write(std::string_view bytes);
  OutputFile& operator<<(std::string_view bytes) {
    write(bytes);
    return *this;
  }
  void close();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what, int error);
  std::string path_, label_;
  std::FILE* file_ = nullptr;
};

// Opens, writes `bytes`, closes, all checked.
void write_whole_file(const std::string& path, std::string_view bytes);

}  // namespace kdopcd
