#include "kdopcd/library_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"

namespace kdopcd {

namespace fs = std::filesystem;

namespace {

std::string label(std::string_view option, const std::string& path) {
  return option.empty() ? path : fmt::format("{} {}", option, path);
}

// The file's bytes [offset, offset + size) into `out`; false when the file is shorter.
bool read_at(int fd, std::uint64_t offset, void* out, std::size_t size) {
  auto* p = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t n = ::pread(fd, p, size, off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= std::size_t(n);
    offset += std::uint64_t(n);
  }
  return true;
}

// Opens a written file for the read-back; its size in `size`.
int open_written(const std::string& path, std::string_view option, std::uint64_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw InputError(fmt::format("{}: the file written is missing or not a regular file after the writer closed it ({})",
                                 label(option, path), std::strerror(error)));
  }
  size = std::uint64_t(st.st_size);
  return fd;
}

}  // namespace

void require_extension(const std::string& path, std::string_view extension, std::string_view option,
                       std::string_view writer) {
  if (path.size() <= extension.size() || !path.ends_with(extension))
    throw InputError(fmt::format("{}: {} writes NAME{} when given NAME: the name must end in {}, so that the file "
                                 "written is the file named (got '{}')",
                                 option.empty() ? std::string("output") : std::string(option), writer, extension,
                                 extension, path));
}

std::string claim_library_output(const std::string& path, std::string_view option,
                                 const std::vector<std::string>& scratch_suffixes) {
  check_output_path(path, option);
  const std::string target = resolved_output_path(path).string();
  std::error_code ec;
  for (const std::string& suffix : scratch_suffixes)
    if (fs::exists(fs::symlink_status(target + suffix, ec)))
      throw InputError(fmt::format("{}: the writer uses {}{} as scratch space while it runs and deletes it at the end, "
                                   "and that file exists: move it away or choose another name",
                                   label(option, path), target, suffix));
  // Created and truncated by the checks of every output; the library then writes into it.
  OutputFile claim(target, option);
  claim.close();
  return target;
}

void check_vcd_file(const std::string& path, std::string_view end_comment, std::string_view option) {
  std::uint64_t size = 0;
  const int fd = open_written(path, option, size);
  // The end: the comment block, then at most one time block (its value lines are short, one per
  // traced signal that changed; 16 MiB leaves room for any design traced here).
  const std::uint64_t window = std::min<std::uint64_t>(size, std::uint64_t(16) << 20);
  std::string last(window, '\0');
  const bool read = read_at(fd, size - window, last.data(), last.size());
  ::close(fd);
  const std::string marker = fmt::format("$comment\n{}\n$end\n\n", end_comment);
  const std::size_t at = read ? last.rfind(marker) : std::string::npos;
  bool complete = at != std::string::npos;
  if (complete) {
    // After the comment: nothing, or what SystemC writes at the close: the values still pending
    // and the final "#<time>" line. Whole lines, the last one that time stamp.
    const std::string_view rest = std::string_view(last).substr(at + marker.size());
    if (!rest.empty()) {
      const std::size_t line = rest.rfind('\n', rest.size() - 2);
      const std::string_view stamp = rest.substr(line == std::string_view::npos ? 0 : line + 1);
      complete = rest.back() == '\n' && rest.find('$') == std::string_view::npos && stamp.size() >= 3 &&
                 stamp[0] == '#' && stamp.find_first_not_of("0123456789", 1) == stamp.size() - 1;
    }
  }
  if (!complete)
    throw InputError(fmt::format("{}: the VCD trace is incomplete ({} bytes, without the end marker written last, or "
                                 "cut off after it): a write failed, is the disk full?",
                                 label(option, path), size));
}

void check_fst_file(const std::string& path, std::string_view option) {
  constexpr std::uint8_t kHeader = 0, kUnfinished = 255;  // FST_BL_HDR, FST_BL_SKIP (fstapi.h)
  std::uint64_t size = 0;
  const int fd = open_written(path, option, size);
  std::uint64_t at = 0;
  std::string problem;
  for (int block = 0; problem.empty() && at < size; ++block) {
    std::array<std::uint8_t, 9> head{};
    if (!read_at(fd, at, head.data(), head.size())) {
      problem = fmt::format("block {} at byte {} is cut off", block, at);
      break;
    }
    std::uint64_t length = 0;
    for (int i = 1; i < 9; ++i) length = length << 8 | head[std::size_t(i)];
    if (block == 0 && head[0] != kHeader) problem = "it does not start with an FST header";
    else if (head[0] == kUnfinished) problem = fmt::format("block {} at byte {} was never finished", block, at);
    else if (length < 8 || length > size - at - 1)
      problem = fmt::format("block {} at byte {} runs past the end of the file", block, at);
    else at += 1 + length;
  }
  ::close(fd);
  if (problem.empty() && size == 0) problem = "it is empty";
  if (!problem.empty())
    throw InputError(fmt::format("{}: the FST trace is incomplete ({} bytes: {}): a write failed, is the disk full?",
                                 label(option, path), size, problem));
}

}  // namespace kdopcd
