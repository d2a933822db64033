// libFuzzer target: tree images (kdopcd::decode). Random bytes almost never carry a valid
// checksum, so the target stores the right one first (the checksum test itself is one comparison)
// and the fuzzer explores the header, the records and the tree structure. An image that decodes
// must encode to the same bytes.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kdopcd/error.hpp"
#include "kdopcd/tree_image.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  constexpr std::size_t kChecksumOffset = 24;
  if (bytes.size() >= kdopcd::kTreeImageHeaderBytes) {
    const std::uint64_t sum = kdopcd::tree_image_checksum(bytes);
    for (int i = 0; i < 8; ++i) bytes[kChecksumOffset + i] = std::uint8_t(sum >> (8 * i));
  }
  try {
    const kdopcd::TreeImage image = kdopcd::decode(bytes, "fuzz.img");
    if (kdopcd::encode(image) != bytes) std::abort();
  } catch (const kdopcd::InputError&) {
  }
  return 0;
}
