#pragma once
// The second object's placed vertices of a query, kept per thread across queries: Vec3 for the
// float and exact triangle tests, FixedVertex for the fixed-point triangle unit.
//
// A query places a vertex of the second object only when a triangle test first needs it. Before,
// each query (each thread of one) zero-filled a placed-vertex array and a flag array as long as the
// mesh (70 kB for the cow, 1.8 MB for bunny00, in doubles), written again by every query that
// reached a triangle test, however few vertices it placed. Here each thread keeps one array of slots that
// only grows, and a slot is stamped with the query that placed it (a process-wide number, never
// reused), so a query clears nothing: a slot of another query, or of another mesh, never matches.
// Queries that take turns on one thread (a TBB thread running tasks of two queries) overwrite
// each other's slots, which are then placed again; each place_vertex gives the same doubles.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace kdopcd::detail {

template <class Vertex>
class PlacedVertexCache {
 public:
  struct Slot {
    Vertex point;
    std::uint64_t query = 0;  // 0: never placed
  };

  // A fresh query number (never 0).
  static std::uint64_t new_query() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }

  // This thread's slots, at least `vertices` of them. Growing moves the slots: a caller fetches
  // them on every use and keeps a reference only until its next call of local() (a triangle test
  // asks for its three vertices after the first call of its query has grown the array).
  static Slot* local(std::size_t vertices) {
    thread_local PlacedVertexCache* cache = nullptr;
    if (cache == nullptr) [[unlikely]] {
      thread_local std::unique_ptr<PlacedVertexCache> owner = std::make_unique<PlacedVertexCache>();
      cache = owner.get();
    }
    if (cache->slots_.size() < vertices) [[unlikely]]
      cache->slots_.resize(vertices);
    return cache->slots_.data();
  }

 private:
  std::vector<Slot> slots_;
};

}  // namespace kdopcd::detail
