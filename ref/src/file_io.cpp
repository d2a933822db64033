#include "kdopcd/file_io.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kdopcd/error.hpp"

namespace kdopcd {

namespace fs = std::filesystem;

namespace {

const char* kind_of(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::fifo: return "a FIFO (named pipe)";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

std::string prefix(std::string_view option, const std::string& path) {
  return option.empty() ? path : fmt::format("{} {}", option, path);
}

}  // namespace

void require_regular_file(const std::string& path, std::string_view what) {
  if (path.empty()) throw InputError(fmt::format("empty path given for the {}", what));
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError(fmt::format("{}: {} not found", path, what));
  if (ec) throw InputError(fmt::format("{}: cannot inspect the {}: {}", path, what, ec.message()));
  if (!fs::is_regular_file(st))
    throw InputError(fmt::format("{}: is {}; the {} must be a regular file", path, kind_of(st), what));
}

std::string read_whole_file(const std::string& path, std::string_view what) {
  require_regular_file(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open the {} for reading: {}", path, what, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: read error in the {}", path, what));
  return std::move(text).str();
}

void check_output_path(const std::string& path, std::string_view option) {
  if (path.empty()) throw InputError(fmt::format("{}: empty output path", option.empty() ? "output" : option));
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st)) {
    const auto t = st.type();
    if (t != fs::file_type::regular && t != fs::file_type::character && t != fs::file_type::fifo)
      throw InputError(fmt::format("{}: is {}; an output must be a file (or a character device such as /dev/null)",
                                   prefix(option, path), kind_of(st)));
    return;
  }
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  const fs::file_status fst = fs::status(folder, ec);
  if (!fs::exists(fst))
    throw InputError(fmt::format("{}: folder '{}' does not exist", prefix(option, path), folder.string()));
  if (!fs::is_directory(fst))
    throw InputError(fmt::format("{}: '{}' is not a folder", prefix(option, path), folder.string()));
}

void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [option, path] = outputs[i];
    if (path.empty()) continue;
    check_output_path(path, option);
    if (!fs::exists(path, ec)) continue;  // a new file is no input and no other output
    for (const std::string& input : inputs)
      if (!input.empty() && fs::equivalent(path, input, ec))
        throw InputError(fmt::format("{}: is the input {}; refusing to overwrite an input (choose another path)",
                                     prefix(option, path), input));
    if (fs::is_character_file(path, ec)) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].second.empty() && fs::equivalent(path, outputs[j].second, ec))
        throw InputError(fmt::format("{} and {} name the same file", prefix(option, path),
                                     prefix(outputs[j].first, outputs[j].second)));
  }
  // Two outputs that do not exist yet can still be one path.
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const std::string& a = outputs[i].second;
      const std::string& b = outputs[j].second;
      if (a.empty() || b.empty() || fs::exists(a, ec)) continue;
      std::error_code ea, eb;
      const fs::path ca = fs::weakly_canonical(fs::absolute(a), ea), cb = fs::weakly_canonical(fs::absolute(b), eb);
      if (!ea && !eb && ca == cb)
        throw InputError(fmt::format("{} and {} name the same file", prefix(outputs[i].first, a),
                                     prefix(outputs[j].first, b)));
    }
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  check_output_path(path_);
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) fail("cannot open for writing", errno);
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void OutputFile::fail(const char* what, int error) {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  throw InputError(fmt::format("{}: {}: {}", path_, what, error != 0 ? std::strerror(error) : "unknown error"));
}

void OutputFile::write(std::string_view bytes) {
  if (file_ == nullptr) throw InputError(fmt::format("{}: write after close", path_));
  if (bytes.empty()) return;
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write failed", errno);
}

void OutputFile::close() {
  if (file_ == nullptr) return;
  errno = 0;
  if (std::fflush(file_) != 0 || std::ferror(file_) != 0) fail("write failed", errno);
  std::FILE* f = file_;
  file_ = nullptr;
  errno = 0;
  if (std::fclose(f) != 0) throw InputError(fmt::format("{}: write failed on close: {}", path_, std::strerror(errno)));
}

void write_whole_file(const std::string& path, std::string_view bytes) {
  OutputFile out(path);
  out.write(bytes);
  out.close();
}

}  // namespace kdopcd
