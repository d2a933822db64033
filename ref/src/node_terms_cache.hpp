#pragma once
// Each node's half of the pair test (FloatNodeTerms, FixedNodeTerms), kept for the rest of a query.
//
// The tandem traversal tests a node against several nodes of the other tree: the node the
// descent rule does not split is the same in both children's pairs, and again further down. Its
// half of the test (the products of its coefficients with the pose's mapping, or its own-face
// terms) depends only on the node and the query, so the pair test computes it once and looks it
// up afterwards; a pair test then mostly costs one node's products instead of two.
//
// A small direct-mapped cache per tree and thread, kept across queries: an entry is tagged with
// the query's number (a process-wide counter, never reused) and the node, so no query clears or
// allocates anything, and an entry of another query or another tree never matches. A depth-first
// traversal meets a node again soon after the first time, which is what a few hundred slots hold.
// One cache per thread, so the tasks of a parallel traversal share nothing; a task that runs
// another query's task in between (TBB work stealing) only evicts entries, which are made again.
#include <atomic>
#include <cstdint>
#include <memory>

namespace kdopcd::detail {

template <class Terms>
class NodeTermsCache {
 public:
  static constexpr std::uint32_t kSlots = 256;  // per tree; a power of two

  // A fresh query number (never 0, the tag of an empty slot).
  static std::uint64_t new_query() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }

  // This thread's cache. The plain pointer is what a pair test reads (a thread_local without a
  // dynamic initializer needs no guard); the unique_ptr owns the cache until the thread ends.
  static NodeTermsCache& local() {
    thread_local NodeTermsCache* cache = nullptr;
    if (cache == nullptr) [[unlikely]] {
      thread_local std::unique_ptr<NodeTermsCache> owner = std::make_unique<NodeTermsCache>();
      cache = owner.get();
    }
    return *cache;
  }

  // The slot of `node` of tree `tree` (0: the first object's, 1: the second's) in query `query`,
  // and the mask of the blocks of lanes of it already made (bit b: block b of both parities, of
  // the SIMD test's vector width; the pair test makes a block when it first reaches it and sets
  // its bit). A slot that
  // held something else is claimed with an empty mask.
  Terms& find(int tree, std::uint64_t query, std::int32_t node, std::uint32_t*& made_blocks) {
    const std::uint32_t slot = std::uint32_t(node) & (kSlots - 1);
    Tag& tag = tags_[tree][slot];
    if (!(tag.query == query && tag.node == node)) tag = Tag{query, node, 0};
    made_blocks = &tag.blocks;
    return terms_[tree][slot];
  }

 private:
  struct Tag {
    std::uint64_t query = 0;
    std::int32_t node = -1;
    std::uint32_t blocks = 0;
  };
  Tag tags_[2][kSlots];
  Terms terms_[2][kSlots];
};

}  // namespace kdopcd::detail
