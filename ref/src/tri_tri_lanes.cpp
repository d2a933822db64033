// The triangle-pair test in SIMD lanes (tri_tri_lanes.hpp), compiled once per instruction set by
// Highway's foreach_target and chosen at run time. Built with -ffp-contract=off: the placement
// must give place_vertex's doubles, and the filters' error bounds are proven for separately
// rounded products and sums.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tri_tri_lanes.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <bit>
#include <cstdint>

#include "kdopcd/filtered_predicates.hpp"
#include "kdopcd/tri_tri_lanes.hpp"

HWY_BEFORE_NAMESPACE();
namespace kdopcd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
struct Point3 {
  hn::Vec<D> x, y, z;
};

template <class D>
HWY_INLINE Point3<D> load_point(D d, const double (*rows)[kTriangleLanes], int vertex, size_t l0) {
  return {hn::Load(d, rows[3 * vertex] + l0), hn::Load(d, rows[3 * vertex + 1] + l0),
          hn::Load(d, rows[3 * vertex + 2] + l0)};
}

template <class D>
HWY_INLINE Point3<D> sub(const Point3<D>& a, const Point3<D>& b) {
  return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)};
}

template <class D>
HWY_INLINE Point3<D> select(hn::Mask<D> m, const Point3<D>& yes, const Point3<D>& no) {
  return {hn::IfThenElse(m, yes.x, no.x), hn::IfThenElse(m, yes.y, no.y), hn::IfThenElse(m, yes.z, no.z)};
}

// Where every coordinate of the six vertices is 0 or of a magnitude in [2^-240, 2^298]. Then every
// difference of two coordinates is 0 or within [2^-292, 2^299] (both operands are multiples of
// 2^-292, the unit in the last place of the smallest normal magnitude allowed, and the
// difference of two magnitudes up to 2^298 is at most 2^299), which is filtered::in_range for
// every difference that PlaneFilter and orient3d form: the filters' error bounds hold, with one
// check per coordinate instead of one per difference.
//
// On the magnitudes' bit patterns (which order non-negative doubles as their values do, with NaN
// above infinity above 2^298), as two reductions: the largest pattern at most 2^298's, and the
// smallest pattern less one (0 wraps around to the largest integer) at least 2^-240's less one.
template <class D>
HWY_INLINE hn::Mask<D> coordinates_in_range(D d, const Point3<D>* points, int count) {
  const hn::RebindToUnsigned<D> du;
  const auto magnitude = hn::Set(du, 0x7FFF'FFFF'FFFF'FFFFull);
  const auto one = hn::Set(du, 1);
  auto largest = hn::Zero(du);
  auto smallest = hn::Set(du, ~0ull);
  for (int i = 0; i < count; ++i)
    for (const auto& x : {points[i].x, points[i].y, points[i].z}) {
      const auto bits = hn::And(hn::BitCast(du, x), magnitude);
      largest = hn::Max(largest, bits);
      smallest = hn::Min(smallest, hn::Sub(bits, one));
    }
  const auto hi = hn::Set(du, std::bit_cast<std::uint64_t>(0x1p298));
  const auto lo_less_one = hn::Set(du, std::bit_cast<std::uint64_t>(0x1p-240) - 1);
  return hn::RebindMask(d, hn::Not(hn::Or(hn::Gt(largest, hi), hn::Lt(smallest, lo_less_one))));
}

// A certified sign: positive and negative lanes (neither where the filter does not certify one
// strictly).
template <class D>
struct Sign {
  hn::Mask<D> positive, negative;
};

// filtered::PlaneFilter of the triangle (a, b, c), lane by lane with its operations; the lanes'
// range is checked once (coordinates_in_range).
template <class D>
struct PlaneLanes {
  Point3<D> a, n, m;

  HWY_INLINE PlaneLanes(const Point3<D>& a_, const Point3<D>& b, const Point3<D>& c) : a(a_) {
    const Point3<D> u = sub(b, a), v = sub(c, a);
    const auto uyvz = hn::Mul(u.y, v.z), uzvy = hn::Mul(u.z, v.y);
    const auto uzvx = hn::Mul(u.z, v.x), uxvz = hn::Mul(u.x, v.z);
    const auto uxvy = hn::Mul(u.x, v.y), uyvx = hn::Mul(u.y, v.x);
    n = {hn::Sub(uyvz, uzvy), hn::Sub(uzvx, uxvz), hn::Sub(uxvy, uyvx)};
    m = {hn::Add(hn::Abs(uyvz), hn::Abs(uzvy)), hn::Add(hn::Abs(uzvx), hn::Abs(uxvz)),
         hn::Add(hn::Abs(uxvy), hn::Abs(uyvx))};
  }

  HWY_INLINE Sign<D> sign(D d, const Point3<D>& p) const {
    const Point3<D> w = sub(p, a);
    const auto det = hn::Add(hn::Add(hn::Mul(w.x, n.x), hn::Mul(w.y, n.y)), hn::Mul(w.z, n.z));
    const auto permanent =
        hn::Add(hn::Add(hn::Mul(m.x, hn::Abs(w.x)), hn::Mul(m.y, hn::Abs(w.y))), hn::Mul(m.z, hn::Abs(w.z)));
    const auto errbound = hn::Mul(hn::Set(d, filtered::kO3dErrBoundA), permanent);
    return {hn::Gt(det, errbound), hn::Gt(hn::Neg(det), errbound)};
  }
};

// filtered::orient3d(a, b, c, p), lane by lane with the operations of orient3d_of_differences;
// the lanes' range is checked once (coordinates_in_range).
template <class D>
HWY_INLINE Sign<D> orient3d(D d, const Point3<D>& a, const Point3<D>& b, const Point3<D>& c, const Point3<D>& p) {
  const Point3<D> u = sub(b, a), v = sub(c, a), w = sub(p, a);
  const auto vywz = hn::Mul(v.y, w.z), vzwy = hn::Mul(v.z, w.y);
  const auto vzwx = hn::Mul(v.z, w.x), vxwz = hn::Mul(v.x, w.z);
  const auto vxwy = hn::Mul(v.x, w.y), vywx = hn::Mul(v.y, w.x);
  const auto det = hn::Add(hn::Add(hn::Mul(u.x, hn::Sub(vywz, vzwy)), hn::Mul(u.y, hn::Sub(vzwx, vxwz))),
                           hn::Mul(u.z, hn::Sub(vxwy, vywx)));
  const auto permanent = hn::Add(hn::Add(hn::Mul(hn::Add(hn::Abs(vywz), hn::Abs(vzwy)), hn::Abs(u.x)),
                                         hn::Mul(hn::Add(hn::Abs(vzwx), hn::Abs(vxwz)), hn::Abs(u.y))),
                                 hn::Mul(hn::Add(hn::Abs(vxwy), hn::Abs(vywx)), hn::Abs(u.z)));
  const auto errbound = hn::Mul(hn::Set(d, filtered::kO3dErrBoundA), permanent);
  return {hn::Gt(det, errbound), hn::Gt(hn::Neg(det), errbound)};
}

// The canonical form of guigue_devillers.hpp for a triangle (p, q, r) whose three signs against
// the other plane are all certified nonzero and not all equal: the lone vertex (the one whose
// sign differs from the other two) first, the cyclic order kept. `negative` says where the lone
// vertex lies on the negative side, where Guigue-Devillers swaps the other triangle's last two
// vertices.
template <class D>
struct Canonical {
  Point3<D> a, b, c;
  hn::Mask<D> negative;
};

template <class D>
HWY_INLINE Canonical<D> canonical(const Point3<D>& p, const Point3<D>& q, const Point3<D>& r, const Sign<D>& sp,
                                  const Sign<D>& sq, const Sign<D>& sr) {
  // With nonzero signs, two signs are equal iff their positive masks are.
  const auto lone_p = hn::Not(hn::Xor(sq.positive, sr.positive));
  const auto lone_q = hn::AndNot(lone_p, hn::Not(hn::Xor(sp.positive, sr.positive)));
  Canonical<D> out;
  out.a = select(lone_p, p, select(lone_q, q, r));
  out.b = select(lone_p, q, select(lone_q, r, p));
  out.c = select(lone_p, r, select(lone_q, p, q));
  out.negative = hn::Or(hn::And(lone_p, sp.negative),
                        hn::Or(hn::And(lone_q, sq.negative), hn::AndNot(hn::Or(lone_p, lone_q), sr.negative)));
  return out;
}

// Both triangles' vertices against the other's plane, then the interval test where no plane
// separates (tri_tri_lanes.hpp).
template <class D>
HWY_INLINE void test_block(D d, TriangleLanes& pairs, size_t l0, const double* R, const double* t,
                           std::uint64_t& decided_bits, std::uint64_t& intersecting_bits) {
  const Point3<D> p1 = load_point(d, pairs.first, 0, l0), q1 = load_point(d, pairs.first, 1, l0),
                  r1 = load_point(d, pairs.first, 2, l0);
  // place_vertex: ((R(i,0) x + R(i,1) y) + R(i,2) z) + t_i.
  const auto place = [&](int vertex) {
    const Point3<D> x = load_point(d, pairs.second, vertex, l0);
    auto row = [&](int i) {
      return hn::Add(hn::Add(hn::Add(hn::Mul(hn::Set(d, R[3 * i]), x.x), hn::Mul(hn::Set(d, R[3 * i + 1]), x.y)),
                             hn::Mul(hn::Set(d, R[3 * i + 2]), x.z)),
                     hn::Set(d, t[i]));
    };
    const Point3<D> placed{row(0), row(1), row(2)};
    hn::Store(placed.x, d, pairs.placed[3 * vertex] + l0);
    hn::Store(placed.y, d, pairs.placed[3 * vertex + 1] + l0);
    hn::Store(placed.z, d, pairs.placed[3 * vertex + 2] + l0);
    return placed;
  };
  const Point3<D> p2 = place(0), q2 = place(1), r2 = place(2);

  // The first triangle's vertices against the second's plane, and the second's against the first's.
  const Point3<D> vertices[6] = {p1, q1, r1, p2, q2, r2};
  const auto in_range = coordinates_in_range(d, vertices, 6);
  const PlaneLanes<D> plane2(p2, q2, r2), plane1(p1, q1, r1);
  const Sign<D> sp1 = plane2.sign(d, p1), sq1 = plane2.sign(d, q1), sr1 = plane2.sign(d, r1);
  const Sign<D> sp2 = plane1.sign(d, p2), sq2 = plane1.sign(d, q2), sr2 = plane1.sign(d, r2);
  auto one_side = [](const Sign<D>& a, const Sign<D>& b, const Sign<D>& c) {
    return hn::Or(hn::And(hn::And(a.positive, b.positive), c.positive),
                  hn::And(hn::And(a.negative, b.negative), c.negative));
  };
  auto all_nonzero = [](const Sign<D>& a, const Sign<D>& b, const Sign<D>& c) {
    return hn::And(hn::And(hn::Or(a.positive, a.negative), hn::Or(b.positive, b.negative)),
                   hn::Or(c.positive, c.negative));
  };
  const auto separated = hn::And(in_range, hn::Or(one_side(sp1, sq1, sr1), one_side(sp2, sq2, sr2)));
  const auto six_nonzero = hn::And(all_nonzero(sp1, sq1, sr1), all_nonzero(sp2, sq2, sr2));
  const auto general = hn::AndNot(separated, hn::And(in_range, six_nonzero));
  auto decided = separated;
  auto intersecting = hn::FirstN(d, 0);
  if (!hn::AllFalse(d, general)) {
    // Canonical form of the first triangle; where its lone vertex is negative, the second
    // triangle's q and r (and their signs) swap. Then the second's canonical form, which swaps
    // the first's b and c where its lone vertex is negative.
    const Canonical<D> c1 = canonical(p1, q1, r1, sp1, sq1, sr1);
    const Point3<D> q2s = select(c1.negative, r2, q2), r2s = select(c1.negative, q2, r2);
    const auto swap = c1.negative;
    auto pick = [&](hn::Mask<D> yes, hn::Mask<D> no) { return hn::Or(hn::And(swap, yes), hn::AndNot(swap, no)); };
    const Sign<D> sq2s{pick(sr2.positive, sq2.positive), pick(sr2.negative, sq2.negative)};
    const Sign<D> sr2s{pick(sq2.positive, sr2.positive), pick(sq2.negative, sr2.negative)};
    const Canonical<D> c2 = canonical(p2, q2s, r2s, sp2, sq2s, sr2s);
    const Point3<D> b1 = select(c2.negative, c1.c, c1.b), cc1 = select(c2.negative, c1.b, c1.c);
    // check_min_max: disjoint if orient3d(a1, b1, a2, b2) > 0 or orient3d(a1, c1, c2, a2) > 0.
    const Sign<D> first = orient3d(d, c1.a, b1, c2.a, c2.b);
    const Sign<D> second = orient3d(d, c1.a, cc1, c2.c, c2.a);
    const auto apart = hn::Or(first.positive, hn::And(first.negative, second.positive));
    const auto meet = hn::And(first.negative, second.negative);
    decided = hn::Or(decided, hn::And(general, hn::Or(apart, meet)));
    intersecting = hn::And(general, meet);
  }
  std::uint8_t bits[8] = {};
  hn::StoreMaskBits(d, decided, bits);
  decided_bits |= std::uint64_t(bits[0]) << l0;
  hn::StoreMaskBits(d, intersecting, bits);
  intersecting_bits |= std::uint64_t(bits[0]) << l0;
}

TriangleLaneVerdicts TriangleLanesTestImpl(TriangleLanes& pairs, int count, const double* R, const double* t) {
  const hn::CappedTag<double, kTriangleLanes> d;
  const size_t N = hn::Lanes(d);
  std::uint64_t decided = 0, intersecting = 0;
  for (size_t l0 = 0; l0 < size_t(count); l0 += N) test_block(d, pairs, l0, R, t, decided, intersecting);
  const std::uint64_t real = (std::uint64_t(1) << count) - 1;
  return {std::uint32_t(decided & real), std::uint32_t(intersecting & real)};
}

}  // namespace HWY_NAMESPACE
}  // namespace kdopcd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace kdopcd {

HWY_EXPORT(TriangleLanesTestImpl);

TriangleLanesTest triangle_lanes_test() {
  // Until a target is chosen the table's entry is a trampoline that would choose again on every
  // call through a kept pointer.
  if (!hwy::GetChosenTarget().IsInitialized()) hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return &HWY_DYNAMIC_DISPATCH(TriangleLanesTestImpl);
}

}  // namespace kdopcd
#endif  // HWY_ONCE
