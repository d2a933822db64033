#include "kdopcd/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

const char* kind_of_mode(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string prefix(std::string_view option, const std::string& path) {
  return option.empty() ? path : fmt::format("{} {}", option, path);
}

std::string not_an_output(const std::string& label, const char* kind) {
  return fmt::format("{}: is {}; an output must be a regular file (a new one, or one to overwrite): kdop never "
                     "writes into or replaces a directory, FIFO, device or socket",
                     label, kind);
}

// The standard output, when it is a regular file: an output that is the same file would be
// written twice at once.
bool is_standard_output_file(const fs::path& target) {
  struct stat out{}, file{};
  return ::fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && ::stat(target.c_str(), &file) == 0 &&
         out.st_dev == file.st_dev && out.st_ino == file.st_ino;
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
  // Non-blocking, and the type checked on what was opened: a FIFO put in the file's place after
  // the check above is refused too instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open the {} for reading: {}", path, what, std::strerror(errno)));
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(fmt::format("{}: is {}; the {} must be a regular file", path, kind_of_mode(st.st_mode), what));
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, std::size_t(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int error = errno;
      ::close(fd);
      throw InputError(fmt::format("{}: read error in the {}: {}", path, what, std::strerror(error)));
    }
  }
  ::close(fd);
  return text;
}

fs::path resolved_output_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot resolve the path: {}", path, ec.message()));
  // A chain of links at most as long as the system's own limit (SYMLOOP_MAX is 40 on Linux).
  for (int hops = 0;; ++hops) {
    // The folder through its links (where it exists), then the last name: a link that points to
    // a file not yet created is followed too, so that the file it would create is compared.
    const fs::path folder = fs::weakly_canonical(p.parent_path(), ec);
    p = (ec ? p.parent_path() : folder) / p.filename();
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p.lexically_normal();
    if (hops == 40) throw InputError(fmt::format("{}: too many levels of symbolic links", path));
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) throw InputError(fmt::format("{}: cannot read the symbolic link {}: {}", path, p.string(), ec.message()));
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
}

void check_output_path(const std::string& path, std::string_view option) {
  if (path.empty()) throw InputError(fmt::format("{}: empty output path", option.empty() ? "output" : option));
  const std::string label = prefix(option, path);
  const fs::path target = resolved_output_path(path);
  std::error_code ec;
  const fs::file_status st = fs::status(target, ec);
  if (fs::exists(st)) {
    if (!fs::is_regular_file(st)) throw InputError(not_an_output(label, kind_of(st)));
    return;
  }
  const fs::path folder = target.parent_path();
  const fs::file_status fst = fs::status(folder, ec);
  if (!fs::exists(fst)) throw InputError(fmt::format("{}: folder '{}' does not exist", label, folder.string()));
  if (!fs::is_directory(fst)) throw InputError(fmt::format("{}: '{}' is not a folder", label, folder.string()));
}

void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::string>& inputs) {
  struct Resolved {
    std::string label;
    fs::path target;
    bool exists;
  };
  std::vector<Resolved> seen;
  std::error_code ec;
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    check_output_path(path, option);
    Resolved r{prefix(option, path), resolved_output_path(path), false};
    r.exists = fs::exists(r.target, ec);
    if (r.exists) {
      for (const std::string& input : inputs)
        if (!input.empty() && fs::equivalent(r.target, input, ec))
          throw InputError(
              fmt::format("{}: is the input {}; refusing to overwrite an input (choose another path)", r.label, input));
      if (is_standard_output_file(r.target))
        throw InputError(fmt::format("{}: is the file that standard output goes to; choose another path", r.label));
    }
    for (const Resolved& other : seen) {
      const bool same = r.exists && other.exists ? fs::equivalent(r.target, other.target, ec)
                                                 : !r.exists && !other.exists && r.target == other.target;
      if (same) throw InputError(fmt::format("{} and {} name the same file", r.label, other.label));
    }
    seen.push_back(std::move(r));
  }
}

OutputFile::OutputFile(std::string path, std::string_view option)
    : path_(std::move(path)), label_(prefix(option, path_)) {
  check_output_path(path_, option);
  // Opened without truncation and without blocking, then checked: only a regular file is
  // truncated and written, whatever was put at the path since the check.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) fail("cannot open for writing", errno);
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(not_an_output(label_, kind_of_mode(st.st_mode)));
  }
  if (::ftruncate(fd, 0) != 0) {
    const int error = errno;
    ::close(fd);
    fail("cannot truncate", error);
  }
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    fail("cannot open for writing", error);
  }
}

OutputFile::~OutputFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void OutputFile::fail(const char* what, int error) {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  throw InputError(fmt::format("{}: {}: {}", label_, what, error != 0 ? std::strerror(error) : "unknown error"));
}

void OutputFile::write(std::string_view bytes) {
  if (file_ == nullptr) throw InputError(fmt::format("{}: write after close", label_));
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
  if (std::fclose(f) != 0) throw InputError(fmt::format("{}: write failed on close: {}", label_, std::strerror(errno)));
}

void write_whole_file(const std::string& path, std::string_view bytes) {
  OutputFile out(path);
  out.write(bytes);
  out.close();
}

}  // namespace kdopcd
