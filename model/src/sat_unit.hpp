#pragma once
// v2 SAT unit: L axis lanes. A pair's n axes are tested in G = ceil(n / L) groups of L lanes,
// one group per clock; every lane is one axis, which is a face normal of one object, so only the
// other object's interval needs a product triple (6 products per lane).
//  * G = 1 ("wide", L = n): the unit is a plain pipeline; a pair enters in the cycle its records
//    arrive and its verdict leaves `latency` clocks later. One pair per clock.
//  * G > 1: a pair waits in one of C context registers (its two records) and issues its groups
//    from the next cycle, round robin with the other contexts; the result of the group that holds
//    the first separating axis retires the pair (early exit); groups of it issued before that
//    result was back are wasted.
// The verdict itself is computed once, when the pair enters (first separating axis among n, as
// the reference does); the unit only decides when it is known.
#include <cstdint>
#include <deque>
#include <vector>

#include "kdopcd_contract/accelerator_v2.hpp"

namespace kdopcd::model {

struct SatUnitConfig {
  // Defaults: the v2 top's (the accelerator contract); the paper core sets its own.
  int n = contract::v2::kK;           // axes per pair
  int lanes = contract::v2::kK;       // L
  int latency = contract::v2::kSatLat;  // group issue -> result
  int contexts = 0;  // C (G > 1 only)
};

class SatUnit {
 public:
  struct Done {  // a verdict leaving the unit
    std::uint64_t slot;
    bool separated;
    int effective_axes;  // up to and including the first separating axis, or n
  };

  SatUnit() = default;
  explicit SatUnit(const SatUnitConfig& c) : cfg_(c), groups_((c.n + c.lanes - 1) / c.lanes) {}

  int groups() const { return groups_; }
  bool wide() const { return groups_ == 1; }
  // Whether a pair can enter this cycle.
  bool can_accept() const { return wide() ? !accepted_this_cycle_ : int(ctx_.size()) < cfg_.contexts; }
  bool idle() const { return ctx_.empty() && pipe_.empty(); }

  // A pair enters (records present); sep_axis = first separating axis (-1: none among n).
  void accept(std::uint64_t now, std::uint64_t slot, int sep_axis) {
    if (wide()) {
      accepted_this_cycle_ = true;
      ++groups_issued;
      pipe_.push_back({now + std::uint64_t(cfg_.latency), slot, sep_axis, true});
      return;
    }
    ctx_.push_back({slot, sep_axis, 0, now + 1, 0});
  }

  // One clock, after the accepts of the cycle: results due now -> `done`, then one group issues.
  void tick(std::uint64_t now, std::vector<Done>& done) {
    accepted_this_cycle_ = false;
    while (!pipe_.empty() && pipe_.front().ready == now) {
      const Flight f = pipe_.front();
      pipe_.pop_front();
      if (f.deciding) done.push_back({f.slot, f.sep_axis >= 0, f.sep_axis >= 0 ? f.sep_axis + 1 : cfg_.n});
    }
    if (wide()) return;
    // A context is free once its pair is decided (its deciding result is back) or fully issued.
    std::erase_if(ctx_, [&](const Context& c) {
      return c.next_group >= groups_ || (c.decided_at != 0 && now >= c.decided_at);
    });
    // Round robin over the contexts: one group of one pair per clock.
    for (std::size_t i = 0; i < ctx_.size(); ++i) {
      Context& c = ctx_[(rr_ + i) % ctx_.size()];
      if (c.first_issue > now) continue;
      const int g = c.next_group++;
      const int deciding = c.sep_axis >= 0 ? c.sep_axis / cfg_.lanes : groups_ - 1;
      ++groups_issued;
      if (g > deciding) ++groups_wasted;  // issued before the separating result was back
      if (g == deciding) c.decided_at = now + std::uint64_t(cfg_.latency);
      pipe_.push_back({now + std::uint64_t(cfg_.latency), c.slot, c.sep_axis, g == deciding});
      rr_ = (rr_ + i + 1) % ctx_.size();
      break;
    }
  }

  std::uint64_t groups_issued = 0;
  std::uint64_t groups_wasted = 0;

 private:
  struct Flight {
    std::uint64_t ready;
    std::uint64_t slot;
    int sep_axis;
    bool deciding;  // the group whose result decides the pair
  };
  struct Context {
    std::uint64_t slot;
    int sep_axis;
    int next_group;
    std::uint64_t first_issue;
    std::uint64_t decided_at;  // when the deciding group's result is back (0: not issued yet)
  };
  SatUnitConfig cfg_{};
  int groups_ = 1;
  bool accepted_this_cycle_ = false;
  std::vector<Context> ctx_;
  std::size_t rr_ = 0;
  std::deque<Flight> pipe_;
};

}  // namespace kdopcd::model
