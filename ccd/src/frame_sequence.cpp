// Frame sequences: the .kframes reader and writer, frame lists and single meshes
// (docs/formats.md, "Frame sequences").
#include "kdopcd/ccd/frame_sequence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/scale_limits.hpp"

namespace kdopcd::ccd {
namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 8> kMagic{'K', 'F', 'R', 'A', 'M', 'E', 'S', '\0'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kTriangleBytes = 12;  // three uint32 indices
constexpr std::size_t kVertexBytes = 24;    // three float64 coordinates
// A frame list is a short text file: one path per line. Larger is not a list.
constexpr std::uint64_t kMaxListBytes = std::uint64_t(64) << 20;
constexpr std::size_t kMaxListLine = 4096;

static_assert(sizeof(Vec3) == kVertexBytes, "Vec3 is three packed doubles");
static_assert(sizeof(TriangleIndices) == kTriangleBytes, "TriangleIndices is three packed uint32");

// Little-endian encoding, whatever the host's byte order.
template <typename T>
T from_little(T value) {
  if constexpr (std::endian::native == std::endian::little) {
    return value;
  } else {
    auto bytes = std::bit_cast<std::array<unsigned char, sizeof(T)>>(value);
    std::reverse(bytes.begin(), bytes.end());
    return std::bit_cast<T>(bytes);
  }
}
template <typename T>
void put(std::string& out, T value) {
  const auto bytes = std::bit_cast<std::array<char, sizeof(T)>>(from_little(value));
  out.append(bytes.data(), bytes.size());
}
template <typename T>
T get(const char* at) {
  std::array<char, sizeof(T)> bytes;
  std::memcpy(bytes.data(), at, sizeof(T));
  return from_little(std::bit_cast<T>(bytes));
}

const char* axis_name(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

// The first coordinate of `positions` that a sequence may not hold, as a message; empty if none.
std::string bad_coordinate(std::span<const Vec3> positions) {
  for (std::size_t v = 0; v < positions.size(); ++v)
    for (int axis = 0; axis < 3; ++axis)
      if (!within_scale(positions[v][axis]))
        return fmt::format("vertex {}: {} coordinate {} is {}", v, axis_name(axis), positions[v][axis],
                           std::isfinite(positions[v][axis]) ? fmt::format("beyond the scale limit {}", kMaxCoordinateText)
                                                             : std::string("not finite"));
  return {};
}

// The counts a .kframes header may announce; empty if they fit the limits.
std::string bad_counts(std::uint64_t vertices, std::uint64_t triangles, std::uint64_t frames, double fps) {
  if (frames == 0) return "zero frames (a sequence has at least one frame)";
  if (triangles == 0) return "zero triangles";
  if (vertices == 0) return "zero vertices";
  if (vertices > kMaxSequenceVertices)
    return fmt::format("{} vertices is past the limit of {}", vertices, kMaxSequenceVertices);
  if (triangles > kMaxSequenceTriangles)
    return fmt::format("{} triangles is past the limit of {}", triangles, kMaxSequenceTriangles);
  if (frames > kMaxSequenceFrames) return fmt::format("{} frames is past the limit of {}", frames, kMaxSequenceFrames);
  if (!std::isfinite(fps) || !(fps > 0) || fps > kMaxFramesPerSecond)
    return fmt::format("frames per second {} is not a finite number in (0, {:g}]", fps, kMaxFramesPerSecond);
  return {};
}

// The first triangle with an index >= vertex_count, as a message; empty if none.
std::string bad_index(std::span<const TriangleIndices> triangles, std::size_t vertex_count) {
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int c = 0; c < 3; ++c)
      if (triangles[t][c] >= vertex_count)
        return fmt::format("triangle {}: vertex index {} is out of range (the sequence has {} vertices)", t,
                           triangles[t][c], vertex_count);
  return {};
}

// A file descriptor opened for reading, without blocking, checked to be a regular file.
class InputFd {
 public:
  explicit InputFd(const std::string& path) : path_(path) {
    require_regular_file(path, "frame sequence");
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(fmt::format("{}: cannot open the frame sequence: {}", path, std::strerror(errno)));
    struct stat st{};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))
      throw InputError(fmt::format("{}: the frame sequence must be a regular file", path));
    size_ = std::uint64_t(st.st_size);
  }
  ~InputFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;

  std::uint64_t size() const { return size_; }
  // Reads exactly `count` bytes; `where` names the part being read in the error message.
  void read(char* into, std::size_t count, std::string_view where) {
    while (count > 0) {
      const ssize_t n = ::read(fd_, into, count);
      if (n > 0) {
        into += n;
        count -= std::size_t(n);
      } else if (n == 0) {
        throw InputError(fmt::format("{}: {}: the file ended early (it shrank while being read)", path_, where));
      } else if (errno != EINTR) {
        throw InputError(fmt::format("{}: {}: read error: {}", path_, where, std::strerror(errno)));
      }
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

FrameSequence read_kframes(const std::string& path, InputFd& in) {
  const auto fail = [&](const std::string& what) { return InputError(fmt::format("{}: {}", path, what)); };
  if (in.size() < kHeaderBytes)
    throw fail(fmt::format("truncated header: {} bytes, a .kframes header has {} (before frame 0)", in.size(), kHeaderBytes));
  std::array<char, kHeaderBytes> header;
  in.read(header.data(), header.size(), "header");
  if (!std::equal(kMagic.begin(), kMagic.end(), header.begin())) throw fail("not a .kframes file (no KFRAMES magic)");
  const auto version = get<std::uint32_t>(&header[8]), header_bytes = get<std::uint32_t>(&header[12]);
  if (version != kVersion) throw fail(fmt::format("version {} is not supported (this reader reads version {})", version, kVersion));
  if (header_bytes != kHeaderBytes) throw fail(fmt::format("header size {} (version 1 has {})", header_bytes, kHeaderBytes));
  const auto vertices = get<std::uint64_t>(&header[16]), triangles = get<std::uint64_t>(&header[24]),
             frames = get<std::uint64_t>(&header[32]);
  const auto fps = get<double>(&header[40]);
  if (get<std::uint64_t>(&header[48]) != 0 || get<std::uint64_t>(&header[56]) != 0)
    throw fail("header bytes 48..63 are reserved and must be zero");
  if (const std::string bad = bad_counts(vertices, triangles, frames, fps); !bad.empty()) throw fail(bad);

  // The file's size must be exactly what the header announces, checked before any allocation
  // (the counts are below 2^28 and 2^20, so no product overflows 64 bits).
  const std::uint64_t frame_bytes = vertices * kVertexBytes, topology_end = kHeaderBytes + triangles * kTriangleBytes;
  const std::uint64_t expected = topology_end + frames * frame_bytes;
  const auto counts = fmt::format("{} vertices, {} triangles, {} frames", vertices, triangles, frames);
  if (in.size() < topology_end)
    throw fail(fmt::format("truncated in the triangles (before frame 0): {} bytes, the header ({}) needs {}", in.size(),
                           counts, expected));
  if (in.size() < expected)
    throw fail(fmt::format("truncated in frame {}: {} bytes, the header ({}) needs {}", (in.size() - topology_end) / frame_bytes,
                           in.size(), counts, expected));
  if (in.size() > expected)
    throw fail(fmt::format("{} trailing bytes after frame {}, the last one the header ({}) announces", in.size() - expected,
                           frames - 1, counts));

  FrameSequence sequence;
  sequence.name = path;
  sequence.frames_per_second = fps;
  sequence.triangles.resize(triangles);
  in.read(reinterpret_cast<char*>(sequence.triangles.data()), triangles * kTriangleBytes, "triangles");
  for (auto& triangle : sequence.triangles)
    for (auto& index : triangle) index = from_little(index);
  if (const std::string bad = bad_index(sequence.triangles, vertices); !bad.empty())
    throw fail(bad + " (in the topology every frame shares)");
  sequence.frames.resize(frames);
  for (std::uint64_t f = 0; f < frames; ++f) {
    auto& positions = sequence.frames[f];
    positions.resize(vertices);
    in.read(reinterpret_cast<char*>(positions.data()), frame_bytes, fmt::format("frame {}", f));
    if constexpr (std::endian::native != std::endian::little)
      for (Vec3& p : positions)
        for (int axis = 0; axis < 3; ++axis) p[axis] = from_little(p[axis]);
    if (const std::string bad = bad_coordinate(positions); !bad.empty()) throw fail(fmt::format("frame {}: {}", f, bad));
  }
  return sequence;
}

bool has_mesh_extension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".off" || ext == ".obj" || ext == ".stl" || ext == ".ply";
}

FrameSequence read_single_mesh(const std::string& path) {
  Mesh mesh = load_mesh(path);  // its InputError names the file
  if (mesh.triangles.empty()) throw InputError(fmt::format("{}: frame 0: the mesh has no triangles", path));
  FrameSequence sequence;
  sequence.name = path;
  sequence.triangles = std::move(mesh.triangles);
  sequence.frames.push_back(std::move(mesh.vertices));
  return sequence;
}

// What frame f's mesh differs in from frame 0's topology; empty if nothing.
std::string topology_change(const FrameSequence& sequence, const Mesh& mesh) {
  if (mesh.vertices.size() != sequence.vertex_count())
    return fmt::format("{} vertices, frame 0 has {}", mesh.vertices.size(), sequence.vertex_count());
  if (mesh.triangles.size() != sequence.triangles.size())
    return fmt::format("{} triangles, frame 0 has {}", mesh.triangles.size(), sequence.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    if (mesh.triangles[t] != sequence.triangles[t])
      return fmt::format("triangle {} is ({} {} {}), in frame 0 it is ({} {} {})", t, mesh.triangles[t][0],
                         mesh.triangles[t][1], mesh.triangles[t][2], sequence.triangles[t][0], sequence.triangles[t][1],
                         sequence.triangles[t][2]);
  return {};
}

FrameSequence read_frame_list(const std::string& path, std::uint64_t size) {
  if (size > kMaxListBytes)
    throw InputError(fmt::format("{}: not a .kframes file (no KFRAMES magic), and at {} bytes too large for a frame list "
                                 "(at most {})",
                                 path, size, kMaxListBytes));
  const std::string text = read_whole_file(path, "frame list");
  if (text.find('\0') != std::string::npos)
    throw InputError(fmt::format("{}: neither a .kframes file (no KFRAMES magic) nor a frame list (it holds a NUL byte)", path));
  struct Entry {
    std::size_t line;
    std::string file;
  };
  std::vector<Entry> entries;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_number;
    if (line.size() > kMaxListLine)
      throw InputError(fmt::format("{}: line {}: {} bytes, a frame list line has at most {}", path, line_number, line.size(),
                                   kMaxListLine));
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto first = line.find_first_not_of(" \t\r\f\v");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r\f\v") - first + 1);
    if (entries.size() == kMaxSequenceFrames)
      throw InputError(fmt::format("{}: line {}: more than {} frames, the limit", path, line_number, kMaxSequenceFrames));
    entries.push_back({line_number, std::string(line)});
  }
  if (entries.empty())
    throw InputError(fmt::format("{}: zero frames (a frame list names one mesh file per line; '#' starts a comment)", path));

  const fs::path folder = fs::path(path).parent_path();
  FrameSequence sequence;
  sequence.name = path;
  sequence.frames.reserve(entries.size());
  for (std::size_t f = 0; f < entries.size(); ++f) {
    const fs::path named(entries[f].file);
    const std::string file = named.is_absolute() ? named.string() : (folder / named).string();
    const auto where = fmt::format("{}: line {}: frame {}", path, entries[f].line, f);
    Mesh mesh;
    try {
      mesh = load_mesh(file);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", where, e.what()));
    }
    if (f == 0) {
      if (mesh.triangles.empty()) throw InputError(fmt::format("{}: {}: the mesh has no triangles", where, file));
      sequence.triangles = std::move(mesh.triangles);
    } else if (const std::string change = topology_change(sequence, mesh); !change.empty()) {
      throw InputError(fmt::format("{}: {}: topology differs from frame 0's: {}", where, file, change));
    }
    if (const std::string bad = bad_coordinate(mesh.vertices); !bad.empty())
      throw InputError(fmt::format("{}: {}: {}", where, file, bad));
    sequence.frames.push_back(std::move(mesh.vertices));
  }
  return sequence;
}

}  // namespace

Mesh FrameSequence::mesh_at(std::size_t frame) const {
  if (frame >= frames.size())
    throw std::out_of_range(fmt::format("{}: frame {} requested, the sequence has {}", name, frame, frames.size()));
  return Mesh{fmt::format("{} frame {}", name, frame), frames[frame], triangles};
}

FrameSequence read_frame_sequence(const std::string& path) {
  InputFd in(path);
  std::array<char, kMagic.size()> prefix{};
  const std::size_t prefix_size = std::size_t(std::min<std::uint64_t>(in.size(), prefix.size()));
  in.read(prefix.data(), prefix_size, "magic");
  if (prefix_size == prefix.size() && prefix == kMagic) {
    // read_kframes reads the header from the start: open again rather than seek back.
    InputFd again(path);
    return read_kframes(path, again);
  }
  std::string ext = fs::path(path).extension().string();
  if (ext == ".kframes" || ext == ".KFRAMES") {
    // A file shorter than the magic that begins like it is a truncated .kframes file.
    if (in.size() < kMagic.size() && std::equal(prefix.begin(), prefix.begin() + prefix_size, kMagic.begin()))
      throw InputError(fmt::format("{}: truncated header: {} bytes, a .kframes header has {} (before frame 0)", path,
                                   in.size(), kHeaderBytes));
    throw InputError(fmt::format("{}: not a .kframes file (no KFRAMES magic)", path));
  }
  if (has_mesh_extension(path)) return read_single_mesh(path);
  return read_frame_list(path, in.size());
}

FrameSequenceWriter::FrameSequenceWriter(const std::string& path, std::span<const TriangleIndices> triangles,
                                         std::size_t vertex_count, std::size_t frame_count, double frames_per_second)
    : vertex_count_(vertex_count), frame_count_(frame_count) {
  if (const std::string bad = bad_counts(vertex_count, triangles.size(), frame_count, frames_per_second); !bad.empty())
    throw InputError(fmt::format("{}: cannot write the frame sequence: {}", path, bad));
  if (const std::string bad = bad_index(triangles, vertex_count); !bad.empty())
    throw InputError(fmt::format("{}: cannot write the frame sequence: {}", path, bad));
  file_ = std::make_unique<OutputFile>(path);
  std::string header(kMagic.data(), kMagic.size());
  put(header, kVersion);
  put(header, std::uint32_t(kHeaderBytes));
  put(header, std::uint64_t(vertex_count));
  put(header, std::uint64_t(triangles.size()));
  put(header, std::uint64_t(frame_count));
  put(header, frames_per_second);
  put(header, std::uint64_t(0));
  put(header, std::uint64_t(0));
  file_->write(header);
  // The topology in chunks of a megabyte or so: a few hundred thousand triangles never need a
  // second copy of the whole list.
  std::string chunk;
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (const std::uint32_t index : triangles[t]) put(chunk, index);
    if (chunk.size() >= (1u << 20) || t + 1 == triangles.size()) {
      file_->write(chunk);
      chunk.clear();
    }
  }
}

FrameSequenceWriter::~FrameSequenceWriter() = default;

void FrameSequenceWriter::append(std::span<const Vec3> positions) {
  const std::string& path = file_->path();
  if (frames_written_ == frame_count_)
    throw InputError(fmt::format("{}: frame {}: the header announced {} frames", path, frames_written_, frame_count_));
  if (positions.size() != vertex_count_)
    throw InputError(fmt::format("{}: frame {}: {} positions, the sequence has {} vertices", path, frames_written_,
                                 positions.size(), vertex_count_));
  if (const std::string bad = bad_coordinate(positions); !bad.empty())
    throw InputError(fmt::format("{}: frame {}: cannot write {}", path, frames_written_, bad));
  if constexpr (std::endian::native == std::endian::little) {
    file_->write(std::string_view(reinterpret_cast<const char*>(positions.data()), positions.size() * kVertexBytes));
  } else {
    buffer_.clear();
    for (const Vec3& p : positions)
      for (int axis = 0; axis < 3; ++axis) put(buffer_, p[axis]);
    file_->write(buffer_);
  }
  ++frames_written_;
}

void FrameSequenceWriter::close() {
  if (frames_written_ != frame_count_)
    throw InputError(fmt::format("{}: {} frames written, the header announced {}", file_->path(), frames_written_,
                                 frame_count_));
  file_->close();
}

void write_frame_sequence(const std::string& path, const FrameSequence& sequence) {
  const std::size_t vertices = sequence.vertex_count();
  for (std::size_t f = 0; f < sequence.frames.size(); ++f)
    if (sequence.frames[f].size() != vertices)
      throw InputError(fmt::format("{}: frame {}: {} positions, frame 0 has {}", path, f, sequence.frames[f].size(), vertices));
  // Every frame checked before the file is opened, so a sequence the format cannot hold leaves no
  // partial file behind.
  for (std::size_t f = 0; f < sequence.frames.size(); ++f)
    if (const std::string bad = bad_coordinate(sequence.frames[f]); !bad.empty())
      throw InputError(fmt::format("{}: frame {}: cannot write {}", path, f, bad));
  FrameSequenceWriter writer(path, sequence.triangles, vertices, sequence.frames.size(), sequence.frames_per_second);
  for (const auto& frame : sequence.frames) writer.append(frame);
  writer.close();
}

}  // namespace kdopcd::ccd
