// Mesh import/export. The numbering rules are documented in mesh_io.hpp; the comments here say why
// the code takes the path it does.
//
// OFF and PLY have readers of their own, OBJ and STL go through Assimp 5.2.5:
//   * Assimp's OFF loader silently drops faces with more than 9 vertices and clamps out-of-range
//     vertex indices to the last vertex, so triangle numbers and geometry would change unnoticed.
//   * Assimp's PLY loader loops forever or segfaults on malformed input (found by mutating small
//     valid files: a misspelt "end_header", "element 9999999vertex 5", a list count of 44294967295
//     in an ascii body, ...). A PLY reader that checks everything is short.
//   * Both formats are simple enough that our readers are stricter (line numbers in errors, no
//     trailing content after the announced elements) and keep double precision.
//   * Assimp's OBJ and STL loaders survived thousands of mutated and random files without a crash
//     or hang, keep face order, and report bad indices as errors; they are used as they are.
#include "kdopcd/mesh_io.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/scale_limits.hpp"

// Assimp 5.2.5 leaks its partial scene on some import errors (bad ascii STL, bad OBJ). Under
// AddressSanitizer (the asan-ubsan preset) LeakSanitizer would fail every test that feeds it
// garbage, for a leak we cannot fix; allocations made inside ReadFile are exempted instead.
#if defined(__SANITIZE_ADDRESS__)  // gcc
#define KDOPCD_ASAN 1
#elif defined(__has_feature)  // clang (the fuzz targets, docs/fuzzing.md)
#if __has_feature(address_sanitizer)
#define KDOPCD_ASAN 1
#endif
#endif
#if defined(KDOPCD_ASAN)
#include <sanitizer/lsan_interface.h>
#define KDOPCD_ASSIMP_LEAKS_IGNORED __lsan::ScopedDisabler assimp_leaks_ignored
#else
#define KDOPCD_ASSIMP_LEAKS_IGNORED
#endif

namespace kdopcd {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxVertices = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InputError(path + ": " + what);
}

[[noreturn]] void fail_line(const std::string& path, std::size_t line, const std::string& what) {
  throw InputError(fmt::format("{}: line {}: {}", path, line, what));
}

// Appends the fan (v0, vk, vk+1), k = 1..m-1 of one polygon: the convention of mesh.hpp.
void append_fan(const std::vector<std::uint32_t>& poly, std::vector<TriangleIndices>& out) {
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) out.push_back({poly[0], poly[k], poly[k + 1]});
}

std::string lower_extension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// Garbage files can hold enormous or unprintable "tokens"; keep messages readable.
std::string clip(std::string_view s) {
  std::string out(s.substr(0, 40));
  for (char& c : out) {
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  }
  return s.size() > 40 ? out + "..." : out;
}

void split_tokens(std::string_view line, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) tokens.push_back(line.substr(i, j - i));
    i = j;
  }
}

// A whole token as a double; nullopt if it is not a number. nan/inf parse (callers reject them).
std::optional<double> parse_double(std::string_view tok) {
  if (!tok.empty() && tok[0] == '+') tok.remove_prefix(1);
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
  if (tok.empty() || ptr != tok.data() + tok.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow as out of range too; strtod tells 1e-400 (~0, fine) from
    // 1e400 (inf, rejected by the caller).
    return std::strtod(std::string(tok).c_str(), nullptr);
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// A whole token as a non-negative integer; nullopt otherwise.
std::optional<std::uint64_t> parse_unsigned(std::string_view tok) {
  if (!tok.empty() && tok[0] == '+') tok.remove_prefix(1);
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
  if (tok.empty() || ec != std::errc() || ptr != tok.data() + tok.size()) return std::nullopt;
  return value;
}

// Walks a text buffer line by line, tokenised, skipping lines without tokens.
class LineCursor {
 public:
  LineCursor(std::string_view text, char comment) : text_(text), comment_(comment) {}
  // Moves to the next line that has tokens; false at the end of the text.
  bool next() {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_no_;
      if (comment_ != '\0') line = line.substr(0, line.find(comment_));
      split_tokens(line, tokens_);
      if (!tokens_.empty()) return true;
    }
    return false;
  }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::size_t line_no() const { return line_no_; }

 private:
  std::string_view text_;
  char comment_;
  std::size_t pos_ = 0;
  std::size_t line_no_ = 0;
  std::vector<std::string_view> tokens_;
};

// Checks shared by every format, after the format's own parsing.
void check_mesh(const Mesh& mesh, const std::string& path) {
  if (mesh.triangles.empty()) fail(path, "empty mesh (no triangles)");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& v = mesh.vertices[i];
    if (!v.allFinite()) {
      fail(path, fmt::format("vertex {} has a non-finite coordinate ({}, {}, {})", i, v.x(), v.y(), v.z()));
    }
    if (!within_scale(v.x()) || !within_scale(v.y()) || !within_scale(v.z())) {
      fail(path, fmt::format("vertex {} ({:g}, {:g}, {:g}) lies beyond the scale limit: every coordinate must have a "
                             "magnitude of at most {}",
                             i, v.x(), v.y(), v.z(), kMaxCoordinateText));
    }
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (std::uint32_t idx : mesh.triangles[t]) {
      if (idx >= mesh.vertices.size()) {
        fail(path, fmt::format("triangle {}: vertex index {} out of range ({} vertices)", t, idx,
                               mesh.vertices.size()));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// OFF. Accepted: the header keyword [ST][C][N]OFF (extra per-vertex / per-face fields such as
// normals, colours and texture coordinates are ignored), counts on the header line or the next
// one, '#' comments and blank lines anywhere. Rejected: 4OFF / nOFF (not 3-D), binary OFF, and
// any content after the announced faces (a wrong face count must not drop faces silently).

Mesh read_off(const std::string& path, const std::string& text) {
  Mesh mesh;
  LineCursor in(text, '#');
  auto fail_here = [&](const std::string& what) { fail_line(path, in.line_no(), what); };

  if (!in.next()) fail(path, "no OFF header (file has only comments or blank lines)");
  const std::string_view kw = in.tokens()[0];
  static constexpr std::array<std::string_view, 8> kKeywords = {"OFF",   "COFF",   "NOFF",   "CNOFF",
                                                                "STOFF", "STCOFF", "STNOFF", "STCNOFF"};
  if (kw.ends_with("OFF") && (kw.find('4') != std::string_view::npos || kw.find('n') != std::string_view::npos)) {
    fail_here(fmt::format("'{}': only 3-D OFF is supported", clip(kw)));
  }
  if (std::find(kKeywords.begin(), kKeywords.end(), kw) == kKeywords.end()) {
    fail_here(fmt::format("expected the OFF header keyword, found '{}'", clip(kw)));
  }
  std::vector<std::string_view> counts(in.tokens().begin() + 1, in.tokens().end());
  if (!counts.empty() && counts[0] == "BINARY") fail_here("binary OFF is not supported");
  if (counts.empty()) {
    if (!in.next()) fail(path, "file ends before the vertex and face counts");
    counts = in.tokens();
  }
  const auto nv = counts.size() >= 2 ? parse_unsigned(counts[0]) : std::nullopt;
  const auto nf = counts.size() >= 2 ? parse_unsigned(counts[1]) : std::nullopt;
  if (!nv || !nf) fail_here("expected the counts 'vertices faces [edges]'");
  if (*nv > kMaxVertices) fail_here(fmt::format("vertex count {} too large", *nv));

  // Counts come from the file: reserve no more than the text could possibly hold.
  const std::uint64_t cap = text.size() / 4 + 1;
  mesh.vertices.reserve(std::min(*nv, cap));
  for (std::uint64_t i = 0; i < *nv; ++i) {
    if (!in.next()) fail(path, fmt::format("file ends after {} of the {} vertices announced in the header", i, *nv));
    const auto& tok = in.tokens();
    if (tok.size() < 3) fail_here(fmt::format("vertex {} needs 3 coordinates, found {}", i, tok.size()));
    Vec3 v;
    for (int c = 0; c < 3; ++c) {
      const auto x = parse_double(tok[c]);
      if (!x || !std::isfinite(*x)) {
        fail_here(fmt::format("vertex {}: coordinate '{}' is not a finite number", i, clip(tok[c])));
      }
      v[c] = *x;
    }
    mesh.vertices.push_back(v);
  }

  mesh.triangles.reserve(std::min(*nf, cap));
  std::vector<std::uint32_t> poly;
  for (std::uint64_t f = 0; f < *nf; ++f) {
    if (!in.next()) fail(path, fmt::format("file ends after {} of the {} faces announced in the header", f, *nf));
    const auto& tok = in.tokens();
    const auto n = parse_unsigned(tok[0]);
    if (!n) fail_here(fmt::format("face {}: vertex count '{}' is not a non-negative integer", f, clip(tok[0])));
    if (*n < 3) fail_here(fmt::format("face {} has {} vertices (need at least 3)", f, *n));
    if (tok.size() - 1 < *n) fail_here(fmt::format("face {} announces {} vertices but lists {}", f, *n, tok.size() - 1));
    poly.clear();
    for (std::uint64_t k = 1; k <= *n; ++k) {  // tokens after the n indices (colours) are ignored
      const auto idx = parse_unsigned(tok[k]);
      if (!idx) fail_here(fmt::format("face {}: vertex index '{}' is not a non-negative integer", f, clip(tok[k])));
      if (*idx >= *nv) {
        fail_here(fmt::format("face {}: vertex index {} out of range (file has {} vertices)", f, *idx, *nv));
      }
      poly.push_back(static_cast<std::uint32_t>(*idx));
    }
    append_fan(poly, mesh.triangles);
  }
  if (in.next()) {
    fail_here(fmt::format("unexpected content after the {} faces announced in the header (wrong face count?)", *nf));
  }
  return mesh;
}

// ---------------------------------------------------------------------------------------------
// PLY (ascii, binary_little_endian, binary_big_endian). Vertices come from element "vertex"
// (properties x, y, z of any numeric type), faces from element "face" (list property
// "vertex_indices" or "vertex_index"); every other element and property is read and ignored.
// Ascii bodies must have one element record per line (every writer we know does this), which
// lets errors carry line numbers. Triangle strips ("tristrips") are not supported.

enum class PlyType : std::uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

std::optional<PlyType> ply_type(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, PlyType>, 16> kTypes = {{
      {"char", PlyType::Int8},     {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
      {"uint8", PlyType::UInt8},   {"short", PlyType::Int16},     {"int16", PlyType::Int16},
      {"ushort", PlyType::UInt16}, {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
      {"int32", PlyType::Int32},   {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
      {"float", PlyType::Float32}, {"float32", PlyType::Float32}, {"double", PlyType::Float64},
      {"float64", PlyType::Float64},
  }};
  for (const auto& [n, t] : kTypes) {
    if (n == name) return t;
  }
  return std::nullopt;
}

std::size_t ply_size(PlyType t) {
  switch (t) {
    case PlyType::Int8:
    case PlyType::UInt8: return 1;
    case PlyType::Int16:
    case PlyType::UInt16: return 2;
    case PlyType::Int32:
    case PlyType::UInt32:
    case PlyType::Float32: return 4;
    case PlyType::Float64: return 8;
  }
  return 1;
}

bool ply_is_integer(PlyType t) { return t != PlyType::Float32 && t != PlyType::Float64; }

// The range of an integer type, for checking ascii values.
std::pair<double, double> ply_range(PlyType t) {
  switch (t) {
    case PlyType::Int8: return {-128.0, 127.0};
    case PlyType::UInt8: return {0.0, 255.0};
    case PlyType::Int16: return {-32768.0, 32767.0};
    case PlyType::UInt16: return {0.0, 65535.0};
    case PlyType::Int32: return {-2147483648.0, 2147483647.0};
    case PlyType::UInt32: return {0.0, 4294967295.0};
    default: return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  }
}

struct PlyProperty {
  std::string name;
  PlyType type;
  bool is_list = false;
  PlyType count_type = PlyType::UInt8;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

class PlyReader {
 public:
  PlyReader(const std::string& path, std::string text) : path_(path), text_(std::move(text)) {}

  Mesh read() {
    read_header();
    if (std::none_of(elements_.begin(), elements_.end(), [](const PlyElement& e) { return e.name == "vertex"; })) {
      fail(path_, "PLY header declares no element 'vertex'");
    }
    Mesh mesh;
    std::vector<std::uint32_t> poly;
    for (const PlyElement& el : elements_) {
      const bool is_vertex = el.name == "vertex";
      const bool is_face = el.name == "face";
      int xyz[3] = {-1, -1, -1};
      int indices = -1;
      for (std::size_t p = 0; p < el.properties.size(); ++p) {
        const PlyProperty& prop = el.properties[p];
        if (is_vertex && !prop.is_list && prop.name.size() == 1 && prop.name[0] >= 'x' && prop.name[0] <= 'z') {
          xyz[prop.name[0] - 'x'] = static_cast<int>(p);
        }
        if (is_face && prop.is_list && (prop.name == "vertex_indices" || prop.name == "vertex_index")) {
          indices = static_cast<int>(p);
        }
      }
      if (is_vertex && (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0)) {
        fail(path_, "PLY element 'vertex' lacks one of the properties x, y, z");
      }
      if (is_face && indices < 0) fail(path_, "PLY element 'face' has no list property 'vertex_indices'");
      if (is_face && !have_vertices_) fail(path_, "PLY element 'face' comes before element 'vertex'");
      if (is_vertex && have_vertices_) fail(path_, "PLY header declares element 'vertex' twice");
      if (is_vertex) {
        mesh.vertices.reserve(std::min<std::uint64_t>(el.count, text_.size() / 3 + 1));
        have_vertices_ = true;
        vertex_count_ = el.count;
      }
      if (is_face) mesh.triangles.reserve(std::min<std::uint64_t>(el.count, text_.size() / 4 + 1));

      for (std::uint64_t i = 0; i < el.count; ++i) {
        begin_record(el, i);
        Vec3 v = Vec3::Zero();
        for (std::size_t p = 0; p < el.properties.size(); ++p) {
          const PlyProperty& prop = el.properties[p];
          if (!prop.is_list) {
            const double value = next_value(prop.type);
            for (int c = 0; c < 3; ++c) {
              if (xyz[c] == static_cast<int>(p)) v[c] = value;
            }
            continue;
          }
          const double n = next_value(prop.count_type);
          if (!ply_is_integer(prop.count_type) || n < 0 || n != std::floor(n)) {
            fail_record(fmt::format("list length {} is not a non-negative integer", n));
          }
          const bool want = indices == static_cast<int>(p);
          if (want && n < 3) fail_record(fmt::format("{} vertices (need at least 3)", n));
          if (want) poly.clear();
          for (double k = 0; k < n; ++k) {
            const double idx = next_value(prop.type);
            if (!want) continue;
            if (!ply_is_integer(prop.type) || idx != std::floor(idx) || idx < 0 ||
                idx >= static_cast<double>(vertex_count_)) {
              fail_record(fmt::format("vertex index {} out of range (file has {} vertices)", idx, vertex_count_));
            }
            poly.push_back(static_cast<std::uint32_t>(idx));
          }
          if (want) append_fan(poly, mesh.triangles);
        }
        end_record();
        if (is_vertex) {
          if (!v.allFinite()) fail_record(fmt::format("non-finite coordinate ({}, {}, {})", v.x(), v.y(), v.z()));
          mesh.vertices.push_back(v);
        }
      }
    }
    check_end();
    return mesh;
  }

 private:
  void read_header() {
    if (!text_.starts_with("ply\n") && !text_.starts_with("ply\r\n")) {
      fail_line(path_, 1, "not a PLY file (first line must be 'ply')");
    }
    std::size_t pos = 0;
    std::size_t line_no = 0;
    std::vector<std::string_view> tok;
    bool have_format = false;
    while (true) {
      const std::size_t end = text_.find('\n', pos);
      if (end == std::string::npos) fail(path_, "PLY header has no end_header line");
      std::string_view line(text_.data() + pos, end - pos);
      pos = end + 1;
      ++line_no;
      if (line.ends_with('\r')) line.remove_suffix(1);
      split_tokens(line, tok);
      if (line_no == 1) continue;  // "ply", checked above
      auto bad = [&](const std::string& what) { fail_line(path_, line_no, what); };
      if (std::any_of(line.begin(), line.end(), [](char c) { return c != '\t' && !std::isprint(static_cast<unsigned char>(c)); })) {
        bad("PLY header line contains a control or non-ASCII character");
      }
      if (tok.empty()) bad("blank line in the PLY header");
      const std::string_view kw = tok[0];
      if (kw == "comment" || kw == "obj_info") continue;
      if (kw == "end_header") {
        if (!have_format) fail(path_, "PLY header has no format line");
        body_ = pos;
        line_no_ = line_no;
        return;
      }
      if (kw == "format") {
        if (have_format || tok.size() != 3 || tok[2] != "1.0") bad("malformed or repeated PLY format line");
        if (tok[1] == "ascii") {
          binary_ = false;
        } else if (tok[1] == "binary_little_endian" || tok[1] == "binary_big_endian") {
          binary_ = true;
          swap_ = (tok[1] == "binary_big_endian") != (std::endian::native == std::endian::big);
        } else {
          bad(fmt::format("unknown PLY format '{}'", clip(tok[1])));
        }
        have_format = true;
      } else if (kw == "element") {
        const auto count = tok.size() == 3 ? parse_unsigned(tok[2]) : std::nullopt;
        if (!count) bad("malformed PLY element line (expected 'element <name> <count>')");
        elements_.push_back({std::string(tok[1]), *count, {}});
        if (tok[1] == "vertex" && *count > kMaxVertices) bad(fmt::format("vertex count {} too large", *count));
      } else if (kw == "property") {
        if (elements_.empty()) bad("PLY property before any element");
        PlyProperty prop;
        if (tok.size() == 3 && ply_type(tok[1])) {
          prop = {std::string(tok[2]), *ply_type(tok[1])};
        } else if (tok.size() == 5 && tok[1] == "list" && ply_type(tok[2]) && ply_type(tok[3])) {
          prop = {std::string(tok[4]), *ply_type(tok[3]), true, *ply_type(tok[2])};
        } else {
          bad("malformed PLY property line");
        }
        elements_.back().properties.push_back(prop);
      } else {
        bad(fmt::format("unexpected PLY header line starting with '{}'", clip(kw)));
      }
    }
  }

  void begin_record(const PlyElement& el, std::uint64_t i) {
    record_ = fmt::format("{} {}", el.name, i);
    if (binary_) return;
    // Ascii: one record per line; blank lines are tolerated.
    do {
      if (body_ >= text_.size()) {
        fail(path_, fmt::format("file ends before {} (of {} announced in the header)", record_, el.count));
      }
      std::size_t end = text_.find('\n', body_);
      if (end == std::string::npos) end = text_.size();
      ++line_no_;
      split_tokens(std::string_view(text_).substr(body_, end - body_), tokens_);
      body_ = end + 1;
    } while (tokens_.empty());
    next_token_ = 0;
  }

  void end_record() {
    if (!binary_ && next_token_ != tokens_.size()) {
      fail_record(fmt::format("{} values where the header announces {}", tokens_.size(), next_token_));
    }
  }

  double next_value(PlyType t) {
    if (!binary_) {
      if (next_token_ >= tokens_.size()) fail_record("fewer values than the header announces");
      const std::string_view tok = tokens_[next_token_++];
      const auto v = parse_double(tok);
      const auto [lo, hi] = ply_range(t);
      if (!v || (ply_is_integer(t) && (*v != std::floor(*v) || *v < lo || *v > hi))) {
        fail_record(fmt::format("'{}' is not a valid value of the declared type", clip(tok)));
      }
      return *v;
    }
    const std::size_t n = ply_size(t);
    if (text_.size() - body_ < n) fail_record("file ends inside the record (truncated?)");
    unsigned char b[8];
    std::memcpy(b, text_.data() + body_, n);
    body_ += n;
    if (swap_) std::reverse(b, b + n);
    switch (t) {
      case PlyType::Int8: return static_cast<double>(static_cast<std::int8_t>(b[0]));
      case PlyType::UInt8: return static_cast<double>(b[0]);
      case PlyType::Int16: return load<std::int16_t>(b);
      case PlyType::UInt16: return load<std::uint16_t>(b);
      case PlyType::Int32: return load<std::int32_t>(b);
      case PlyType::UInt32: return load<std::uint32_t>(b);
      case PlyType::Float32: return load<float>(b);
      case PlyType::Float64: return load<double>(b);
    }
    return 0.0;
  }

  template <typename T>
  static double load(const unsigned char* b) {
    T value;
    std::memcpy(&value, b, sizeof(T));
    return static_cast<double>(value);
  }

  void check_end() {
    if (binary_) {
      if (body_ != text_.size()) {
        fail(path_, fmt::format("{} bytes after the last element announced in the header", text_.size() - body_));
      }
      return;
    }
    LineCursor rest(std::string_view(text_).substr(std::min(body_, text_.size())), '\0');
    if (rest.next()) {
      fail_line(path_, line_no_ + rest.line_no(), "unexpected content after the elements announced in the header");
    }
  }

  [[noreturn]] void fail_record(const std::string& what) const {
    if (binary_) fail(path_, fmt::format("{}: {}", record_, what));
    fail_line(path_, line_no_, fmt::format("{}: {}", record_, what));
  }

  const std::string& path_;
  const std::string text_;
  std::vector<PlyElement> elements_;
  bool binary_ = false;
  bool swap_ = false;
  std::size_t body_ = 0;     // read position in text_
  std::size_t line_no_ = 0;  // ascii: line of the current record
  std::string record_;       // "vertex 12", for messages
  std::vector<std::string_view> tokens_;
  std::size_t next_token_ = 0;
  bool have_vertices_ = false;
  std::uint64_t vertex_count_ = 0;
};

// ---------------------------------------------------------------------------------------------
// OBJ, STL: Assimp, with no post-processing step except validation. aiProcess_Triangulate
// ear-clips (other triangles than our fan, possibly in another order), and JoinIdenticalVertices,
// SortByPType, OptimizeMeshes, FindDegenerates, FindInvalidData etc. merge, split, reorder or
// drop faces; the fan is done below instead.

// Hash of a position's bit pattern, for merging OBJ/STL corners back into shared vertices.
struct PositionKey {
  std::array<std::uint64_t, 3> bits;
  bool operator==(const PositionKey&) const = default;
};
struct PositionKeyHash {
  std::size_t operator()(const PositionKey& k) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint64_t b : k.bits) h = (h ^ b ^ (b >> 29)) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};

Mesh read_with_assimp(const std::string& path, const std::string& ext) {
  const bool is_obj = ext == ".obj";
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
  try {
    KDOPCD_ASSIMP_LEAKS_IGNORED;
    scene = importer.ReadFile(path, aiProcess_ValidateDataStructure);
  } catch (const std::exception& e) {  // Assimp catches its own, but do not rely on it
    fail(path, std::string("cannot import: ") + e.what());
  }
  if (scene == nullptr) {
    // Assimp says "contains no vertices", "file is empty", ... for files that parse but hold no
    // surface; name that case the way the other formats do.
    const std::string err = importer.GetErrorString();
    const bool empty = err.find("contains no") != std::string::npos || err.find("is empty") != std::string::npos ||
                       err.find("too small") != std::string::npos;
    fail(path, std::string(empty ? "empty mesh: " : "") + "cannot import: " + err);
  }

  // Assimp's OBJ and STL importers emit one vertex per face corner; merge bit-identical positions
  // (first appearance first) so that neighbouring triangles share vertices again.
  Mesh mesh;
  std::unordered_map<PositionKey, std::uint32_t, PositionKeyHash> merged;
  std::vector<std::uint32_t> remap;
  std::vector<std::uint32_t> poly;
  std::size_t face_no = 0;  // face number in the file (points/lines included), for messages

  // scene->mMeshes is in file order for these importers (OBJ: one mesh per object/group/material
  // run, in the order they appear, a reopened group giving a new mesh); neither uses node
  // transforms, so the node tree is ignored.
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* am = scene->mMeshes[m];
    remap.resize(am->mNumVertices);
    for (unsigned i = 0; i < am->mNumVertices; ++i) {
      const aiVector3D& p = am->mVertices[i];
      const Vec3 v(p.x, p.y, p.z);
      if (!v.allFinite()) {
        fail(path, fmt::format("non-finite vertex coordinate ({}, {}, {})", v.x(), v.y(), v.z()));
      }
      // +0.0 and -0.0 differ in bits but are the same point: adding 0.0 normalises -0.0.
      const PositionKey key{{std::bit_cast<std::uint64_t>(v.x() + 0.0), std::bit_cast<std::uint64_t>(v.y() + 0.0),
                             std::bit_cast<std::uint64_t>(v.z() + 0.0)}};
      const auto [it, inserted] = merged.try_emplace(key, static_cast<std::uint32_t>(mesh.vertices.size()));
      if (inserted) {
        if (mesh.vertices.size() >= kMaxVertices) fail(path, "too many vertices");
        mesh.vertices.push_back(v);
      }
      remap[i] = it->second;
    }

    for (unsigned f = 0; f < am->mNumFaces; ++f, ++face_no) {
      const aiFace& face = am->mFaces[f];
      if (face.mNumIndices < 3) {
        if (is_obj) continue;  // OBJ point/line element: not a surface, takes no triangle number
        fail(path, fmt::format("face {} has {} vertices (need at least 3)", face_no, face.mNumIndices));
      }
      poly.clear();
      for (unsigned k = 0; k < face.mNumIndices; ++k) {
        const unsigned idx = face.mIndices[k];
        if (idx >= am->mNumVertices) {  // ValidateDataStructure catches this; stay safe regardless
          fail(path, fmt::format("face {}: vertex index {} out of range", face_no, idx));
        }
        poly.push_back(remap[idx]);
      }
      append_fan(poly, mesh.triangles);
    }
  }
  return mesh;
}


}  // namespace

Mesh load_mesh(const std::string& path) {
  require_regular_file(path, "mesh");  // a directory, FIFO or device is refused by name
  std::error_code ec;

  const std::string ext = lower_extension(path);
  if (ext != ".off" && ext != ".obj" && ext != ".stl" && ext != ".ply") {
    fail(path, fmt::format("unknown extension '{}' (expected .off, .obj, .stl or .ply)", ext));
  }
  const auto size = fs::file_size(path, ec);
  if (ec) fail(path, "cannot read file size: " + ec.message());
  if (size == 0) fail(path, "empty file");

  Mesh mesh;
  if (ext == ".off") {
    mesh = read_off(path, read_whole_file(path, "mesh"));
  } else if (ext == ".ply") {
    mesh = PlyReader(path, read_whole_file(path, "mesh")).read();
  } else {
    // Assimp reports an unreadable file only as "Unable to open file"; check first so the
    // message says so plainly.
    if (!std::ifstream(path, std::ios::binary)) fail(path, "cannot open file for reading");
    mesh = read_with_assimp(path, ext);
  }
  mesh.name = fs::path(path).filename().string();
  check_mesh(mesh, path);
  return mesh;
}

void save_off(const Mesh& mesh, const std::string& path) {
  OutputFile out(path);
  // %.17g: enough digits that parsing gives back the identical double.
  out << fmt::format("OFF\n{} {} 0\n", mesh.vertices.size(), mesh.triangles.size());
  for (const Vec3& v : mesh.vertices) out << fmt::format("{:.17g} {:.17g} {:.17g}\n", v.x(), v.y(), v.z());
  for (const TriangleIndices& t : mesh.triangles) out << fmt::format("3 {} {} {}\n", t[0], t[1], t[2]);
  out.close();
}

}  // namespace kdopcd
