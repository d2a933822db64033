#pragma once
// The v2 accelerator's command queue in host memory (docs/accelerator-v2.md, "Command queue"):
// the layout of a query descriptor, which the host writes into a ring and the accelerator fetches
// by DMA, and of the completion record the accelerator writes back after a query's contacts.
// Every word is 64 bits, little endian, word i at byte 8 i. The sizes (DESC_WORDS, CPL_WORDS,
// DMA_W, SLOT_BYTES, RING_SLOTS) are the generated v2 contract's (accelerator_v2.hpp, from
// contract/accelerator_v2.json) and the axis-entry layout is formats.hpp's; this header adds the
// word positions inside a descriptor and a completion record, and their pack/unpack.
//
// Descriptor (descriptor_bytes(K) bytes, in a ring slot of kSlotBytes, the DESC_WORDS of the contract):
//   word 0        TAG: the host's cookie, copied into the completion record
//   word 1        [31:0] the QUERY word, [55:32] PENDING_LIMIT (0 = PENDING_DEPTH)
//   word 2        CONTACT_BASE: byte address of the contact buffer (kBeatBytes-aligned)
//   word 3        [31:0] CONTACT_CAPACITY: contacts the buffer holds
//   word 4        COMPLETION_BASE: byte address of the completion record (kBeatBytes-aligned)
//   words 5..9    M'(i, j), entry e = 3 i + j in word 5 + e / 2, bits [32 (e % 2) +: 32],
//                 sign-extended from ROT_W bits
//   words 10..12  T'(i), sign-extended from TRANS_W bits
//   words 13..15  zero
//   words 16..    axis entry a in words 16 + 3 a .. 16 + 3 a + 2 (formats.json AXIS_ENTRY, LSB first)
// Completion record (kCompletionBytes):
//   word 0        TAG
//   word 1        [31:0] contacts found, [32] DONE, [33] OVERFLOW (pending set: incomplete),
//                 [34] CONTACT_OVERFLOW (more contacts than CONTACT_CAPACITY: the first
//                 CONTACT_CAPACITY are in the buffer), [35] BUS_ERROR (a read of the descriptor
//                 answered SLVERR or DECERR: the query ran on what came, its result is void)
//   words 2..15   the counters in register order (accelerator_v2.hpp, Counter)
// Contact i is the 64-bit word {second, first} at CONTACT_BASE + 8 i, as on the AXI4-Stream.
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "kdopcd_contract/accelerator_v2.hpp"
#include "kdopcd_contract/formats.hpp"

namespace kdopcd::contract::v2::queue {

inline constexpr int kBeatBytes = kDmaW / 8;  // the DMA port's beat
inline constexpr int kHeaderWords = 16;
inline constexpr int kWordsPerAxisEntry = 3;  // AXIS_ENTRY fits 192 bits (static_assert below)
inline constexpr int kCompletionWords = kCplWords;
inline constexpr int kCompletionBytes = 8 * kCompletionWords;
inline constexpr int kContactBytes = 8;
static_assert(kContactsPerBeat * kContactBytes == kBeatBytes, "contacts fill a beat");
static_assert(2 + kNumCounters <= kCompletionWords, "the completion record holds every counter");
static_assert(format::axis_entry_bits(kK, kC, kZ) <= 64 * kWordsPerAxisEntry, "an axis entry fits its words");
static_assert(desc_words(1) == kHeaderWords + kWordsPerAxisEntry, "the contract's DESC_WORDS is this layout's");

constexpr int descriptor_words(int K) { return desc_words(K); }
constexpr int descriptor_bytes(int K) { return 8 * descriptor_words(K); }
constexpr int descriptor_beats(int K) { return desc_beats(K, kDmaW); }
static_assert(descriptor_bytes(kK) <= kSlotBytes, "a descriptor fits its ring slot");
static_assert(kRotW <= 32 && kTransW <= 64, "M' entries fit half a word, T' entries a word");

enum Word : int {
  kTag = 0,
  kQueryWord = 1,
  kContactBase = 2,
  kContactCapacity = 3,
  kCompletionBase = 4,
  kRot = 5,
  kTrans = 10,
  kAxes = kHeaderWords,
};
enum CompletionWord : int { kCompletionTag = 0, kCompletionStatus = 1, kCompletionCounters = 2 };
inline constexpr int kStatusDoneBit = 32, kStatusOverflowBit = 33, kStatusContactOverflowBit = 34,
                     kStatusBusErrorBit = 35;

struct Descriptor {
  std::uint64_t tag = 0;
  Query query{};
  std::uint32_t pending_limit = 0;
  std::uint64_t contact_base = 0;
  std::uint32_t contact_capacity = 0;
  std::uint64_t completion_base = 0;
  std::array<std::int64_t, 9> rot{};    // M', row-major
  std::array<std::int64_t, 3> trans{};  // T'
  std::vector<format::AxisEntry> axes;  // K entries
};

struct Completion {
  std::uint64_t tag = 0;
  std::uint32_t contacts = 0;
  bool done = false, overflow = false, contact_overflow = false, bus_error = false;
  std::array<std::uint64_t, kNumCounters> counters{};
};

namespace detail {
// Writes the low `width` bits of v at bit `lsb` of the 64-bit words w (which start zero).
inline void deposit(std::uint64_t* w, std::uint64_t v, int lsb, int width) {
  if (width < 64) v &= (std::uint64_t(1) << width) - 1;
  const int i = lsb / 64, shift = lsb % 64;
  w[i] |= v << shift;
  if (shift + width > 64) w[i + 1] |= v >> (64 - shift);
}
inline std::int64_t sign_extend(std::uint64_t v, int bits) {
  if (bits < 64 && ((v >> (bits - 1)) & 1)) v |= ~std::uint64_t(0) << bits;
  return std::int64_t(v);
}
inline std::uint64_t low_bits(std::int64_t v, int bits) {
  return bits >= 64 ? std::uint64_t(v) : std::uint64_t(v) & ((std::uint64_t(1) << bits) - 1);
}
}  // namespace detail

// The AXIS_ENTRY field positions of formats.json for one (K, C, Z), computed once per descriptor
// rather than once per field: the host's hot path writes K entries per query.
struct AxisEntryLayout {
  int pa_lsb[3], pb_lsb[3], ja_lsb[3], jb_lsb[3], p_lsb;
  int pa_bits, pb_bits, j_bits, p_bits;
  AxisEntryLayout(int K, int C, int Z) {
    using namespace format;
    for (int i = 0; i < 3; ++i) {
      pa_lsb[i] = axis_entry_pa_lsb(C, i);
      pb_lsb[i] = axis_entry_pb_lsb(C, i);
      ja_lsb[i] = axis_entry_ja_lsb(K, C, Z, i);
      jb_lsb[i] = axis_entry_jb_lsb(K, C, Z, i);
    }
    p_lsb = axis_entry_p_lsb(C);
    pa_bits = axis_entry_pa_bits(C);
    pb_bits = axis_entry_pb_bits(C);
    j_bits = axis_entry_ja_bits(K);
    p_bits = axis_entry_p_bits(Z);
  }
};

// Axis entry e into the kWordsPerAxisEntry words at w (which start zero), a shift per field.
inline void deposit_axis_entry(std::uint64_t* w, const format::AxisEntry& e, const AxisEntryLayout& l) {
  for (std::size_t i = 0; i < 3; ++i) {
    detail::deposit(w, std::uint64_t(e.pa[i]), l.pa_lsb[i], l.pa_bits);
    detail::deposit(w, std::uint64_t(e.pb[i]), l.pb_lsb[i], l.pb_bits);
    detail::deposit(w, e.ja[i], l.ja_lsb[i], l.j_bits);
    detail::deposit(w, e.jb[i], l.jb_lsb[i], l.j_bits);
  }
  detail::deposit(w, std::uint64_t(e.p), l.p_lsb, l.p_bits);
}

// The descriptor's header words (0 .. kHeaderWords - 1 of w, which start zero); d.axes is not read.
inline void write_header(std::span<std::uint64_t> w, const Descriptor& d, int rot_w, int trans_w) {
  w[kTag] = d.tag;
  w[kQueryWord] = std::uint64_t(pack(d.query)) | (std::uint64_t(d.pending_limit & 0xFFFFFFu) << 32);
  w[kContactBase] = d.contact_base;
  w[kContactCapacity] = d.contact_capacity;
  w[kCompletionBase] = d.completion_base;
  for (std::size_t e = 0; e < 9; ++e)
    w[kRot + e / 2] |= (detail::low_bits(d.rot[e], rot_w) & 0xFFFFFFFFu) << (32 * (e % 2));
  for (std::size_t i = 0; i < 3; ++i) w[std::size_t(kTrans) + i] = detail::low_bits(d.trans[i], trans_w);
}

// What the accelerator decodes from the words it fetched.
inline Descriptor unpack_descriptor(std::span<const std::uint64_t> w, int K, int C, int Z, int rot_w, int trans_w) {
  if (w.size() < std::size_t(descriptor_words(K))) throw std::invalid_argument("descriptor: too few words");
  Descriptor d;
  d.tag = w[kTag];
  d.query = unpack_query(std::uint32_t(w[kQueryWord]));
  d.pending_limit = std::uint32_t(w[kQueryWord] >> 32) & 0xFFFFFFu;
  d.contact_base = w[kContactBase];
  d.contact_capacity = std::uint32_t(w[kContactCapacity]);
  d.completion_base = w[kCompletionBase];
  for (std::size_t e = 0; e < 9; ++e)
    d.rot[e] = detail::sign_extend((w[kRot + e / 2] >> (32 * (e % 2))) & 0xFFFFFFFFu & ((std::uint64_t(1) << rot_w) - 1), rot_w);
  for (std::size_t i = 0; i < 3; ++i) d.trans[i] = detail::sign_extend(w[std::size_t(kTrans) + i], trans_w);
  const int entry_words32 = (format::axis_entry_bits(K, C, Z) + 31) / 32;
  for (int a = 0; a < K; ++a) {
    std::vector<std::uint32_t> words(std::size_t(entry_words32), 0);
    for (int i = 0; i < entry_words32; ++i)
      words[std::size_t(i)] =
          std::uint32_t(w[std::size_t(kAxes + kWordsPerAxisEntry * a + i / 2)] >> (32 * (i % 2)));
    d.axes.push_back(format::unpack_axis_entry(words, K, C, Z));
  }
  return d;
}

inline std::array<std::uint64_t, kCompletionWords> pack(const Completion& c) {
  std::array<std::uint64_t, kCompletionWords> w{};
  w[kCompletionTag] = c.tag;
  w[kCompletionStatus] = std::uint64_t(c.contacts) | (std::uint64_t(c.done) << kStatusDoneBit) |
                         (std::uint64_t(c.overflow) << kStatusOverflowBit) |
                         (std::uint64_t(c.contact_overflow) << kStatusContactOverflowBit) |
                         (std::uint64_t(c.bus_error) << kStatusBusErrorBit);
  for (int i = 0; i < kNumCounters; ++i) w[std::size_t(kCompletionCounters + i)] = c.counters[std::size_t(i)];
  return w;
}

inline Completion unpack_completion(std::span<const std::uint64_t> w) {
  if (w.size() < std::size_t(kCompletionWords)) throw std::invalid_argument("completion: too few words");
  Completion c;
  c.tag = w[kCompletionTag];
  const std::uint64_t s = w[kCompletionStatus];
  c.contacts = std::uint32_t(s);
  c.done = (s >> kStatusDoneBit) & 1;
  c.overflow = (s >> kStatusOverflowBit) & 1;
  c.contact_overflow = (s >> kStatusContactOverflowBit) & 1;
  c.bus_error = (s >> kStatusBusErrorBit) & 1;
  for (int i = 0; i < kNumCounters; ++i) c.counters[std::size_t(i)] = w[std::size_t(kCompletionCounters + i)];
  return c;
}

}  // namespace kdopcd::contract::v2::queue
