// Verilator (--cc) testbench of the triangle units; one source, built once per unit:
//   rtl_tri_tb          rtl/common/kdopcd_tri_unit.sv, fully pipelined: a test every clock
//                       (V = M = 24, LAT = 16);
//   rtl_tri_seq_tb_iiN  rtl/common/kdopcd_tri_seq.sv, time-multiplexed: a test at most every
//                       II = N clocks, the contract checked by the unit's SVA assertion
//                       (V = M = 24, verilated with --assert).
// testbenches/tri/CMakeLists.txt names the unit: TRI_TB_MODEL and TRI_TB_HEADER (the verilated
// class and its header), TRI_TB_II (1 for the pipelined unit), TRI_TB_LAT, and
// TRI_TB_TIME_MULTIPLEXED (0: kdopcd_tri_unit, 1: kdopcd_tri_seq). The two units have the same
// ports; what differs (the idle clocks between starts, --violate) hangs on kTimeMultiplexed.
//
// For every test: hit_o against the reference fixed_triangles_intersect(lift(qa), place(M', T', qb)),
// id_o, and valid_o exactly LAT clocks after the start, in order, and at no other clock.
//
//   <tb> --random N [--seed S] [--bubble P]
//       N pairs from the stimulus categories below (random, constructed contacts, coplanar and
//       degenerate pairs). Idle clocks, with random data on all inputs (tri_a_i, tri_b_i, rot_i,
//       trans_i, id_i) and valid_i = 0:
//         kdopcd_tri_unit: back to back, before each start idle clocks while a coin of
//           probability P comes up (geometric number);
//         kdopcd_tri_seq: one start every II clocks (the II - 1 idle clocks the contract needs),
//           with probability P a gap of 1..II more clocks before a start.
//   <tb> --scene MESH_DIR [--seed S] [--bubble P]
//       cow.off vs cow.off at the four pose classes of the reference mesh test: every triangle
//       pair whose double bounding boxes are within 2 delta, through the RTL, same comparison.
//   rtl_tri_seq_tb_iiN --violate   (kdopcd_tri_seq only)
//       starts two tests one clock apart (II > 1): the unit's assertion must stop the
//       simulation (the ctest expects this run to fail).
// Exit status 0 only if every result matched (and every test gave one); 2 on a usage error.
#include <verilated.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include TRI_TB_HEADER
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose_classes.hpp"
#include "kdopcd/triangle_boxes.hpp"
#include "kdopcd/tri_fixed.hpp"

using namespace kdopcd;

namespace {

// ------------------------------------------------------------------------------ the unit
using Model = TRI_TB_MODEL;
constexpr int kV = 24, kM = 24, kLat = TRI_TB_LAT, kII = TRI_TB_II;
// true: kdopcd_tri_seq (starts at most every II clocks, --violate); false: kdopcd_tri_unit
constexpr bool kTimeMultiplexed = TRI_TB_TIME_MULTIPLEXED;
static_assert(kTimeMultiplexed || kII == 1, "the pipelined unit accepts a test every clock");
constexpr const char* kProgram = kTimeMultiplexed ? "rtl_tri_seq_tb_iiN" : "rtl_tri_tb";

constexpr int kW = kV + kM;
constexpr std::int64_t kQmax = std::int64_t(1) << kV;
constexpr std::int64_t kOne = std::int64_t(1) << kM;  // M' entry of 1.0

using I64 = std::int64_t;

// One test: stored vertices of both triangles and the quantized pose.
struct Vector {
  FixedVertex qa[3], qb[3];
  I64 M[3][3];
  I64 T[3];
  int cat;
};

bool in_range(const Vector& v) {
  for (int c = 0; c < 3; ++c)
    for (int d = 0; d < 3; ++d)
      if (std::llabs(v.qa[c][d]) > kQmax || std::llabs(v.qb[c][d]) > kQmax) return false;
  for (int i = 0; i < 3; ++i) {
    if (std::llabs(v.T[i]) > (I64(1) << (kW + 2))) return false;
    for (int j = 0; j < 3; ++j)
      if (std::llabs(v.M[i][j]) > kOne) return false;
  }
  return true;
}

bool reference(const Vector& v) {
  QuantizedPose qp;
  qp.params = {kV, kM};
  qp.scale = 1;
  qp.in_range = true;
  for (int i = 0; i < 3; ++i) {
    qp.T[i] = v.T[i];
    for (int j = 0; j < 3; ++j) qp.M[i][j] = v.M[i][j];
  }
  FixedTriangle a, b;
  for (int c = 0; c < 3; ++c) {
    a.v[c] = lift_first_vertex(v.qa[c], kM);
    b.v[c] = place_fixed_vertex(qp, v.qb[c]);
  }
  return fixed_triangles_intersect(a, b);
}

// ------------------------------------------------------------------------------ bus packing
template <class Wide>
void put(Wide& w, int lsb, int width, I64 value) {
  for (int b = 0; b < width; ++b) {
    const int bit = lsb + b;
    const std::uint32_t mask = std::uint32_t(1) << (bit % 32);
    const bool one = b < 63 ? ((value >> b) & 1) : (value < 0);
    if (one) w[bit / 32] |= mask;
    else w[bit / 32] &= ~mask;
  }
}

void drive(Model& m, const Vector& v) {
  for (int c = 0; c < 3; ++c)
    for (int d = 0; d < 3; ++d) {
      put(m.tri_a_i, (3 * c + d) * (kV + 2), kV + 2, v.qa[c][d]);
      put(m.tri_b_i, (3 * c + d) * (kV + 2), kV + 2, v.qb[c][d]);
    }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) put(m.rot_i, (3 * i + j) * (kM + 2), kM + 2, v.M[i][j]);
    put(m.trans_i, i * (kW + 4), kW + 4, v.T[i]);
  }
}

// ------------------------------------------------------------------------------ stimulus
enum Cat {
  kRandomLarge,   // q in [-2^v, 2^v], random rotation, |T/s| <= 4 (and the extremes)
  kRandomNear,    // q in [-2^v, 2^v], random rotation, |T/s| <= 0.5: frequent crossings
  kSmall,         // q in [-4, 4], random rotation, T' a few 2^m: dense intersections
  kLattice,       // M' = 2^m x signed permutation, T' on the 2^m lattice (+ sub-lattice offsets)
  kSharedVertex,  // random rotation, T' puts a vertex of B exactly on a vertex of A
  kSharedEdge,    // lattice pose, two vertices of B on two of A
  kOnPlane,       // random rotation, a vertex of B exactly on A's plane (+-1: just off)
  kCoplanar,      // lattice pose, both triangles in one plane
  kDegenerate,    // collinear / repeated / single-point triangles against anything
  kCount
};
const char* kCatName[kCount] = {"random_large", "random_near", "small",     "lattice",   "shared_vertex",
                                "shared_edge",  "on_plane",    "coplanar", "degenerate"};

class Gen {
 public:
  explicit Gen(std::uint64_t seed) : rng_(seed) {}
  std::mt19937_64& rng() { return rng_; }

  I64 uni(I64 lo, I64 hi) { return std::uniform_int_distribution<I64>(lo, hi)(rng_); }
  double unid(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool coin(double p = 0.5) { return unid(0, 1) < p; }

  FixedVertex vtx(I64 r) { return {uni(-r, r), uni(-r, r), uni(-r, r)}; }
  // large vertex with the extreme values mixed in
  I64 big() {
    const int k = int(uni(0, 15));
    if (k == 0) return kQmax;
    if (k == 1) return -kQmax;
    return uni(-kQmax, kQmax);
  }

  Pose random_pose(double tmax) {
    Eigen::Quaterniond q(unid(-1, 1), unid(-1, 1), unid(-1, 1), unid(-1, 1));
    if (q.norm() < 1e-3) q = Eigen::Quaterniond::Identity();
    q.normalize();
    Pose p;
    p.rotation = q;
    for (int i = 0; i < 3; ++i) {
      const int k = int(uni(0, 19));
      p.translation[i] = k == 0 ? tmax : k == 1 ? -tmax : unid(-tmax, tmax);
    }
    return p;
  }
  void set_pose(Vector& v, const Pose& p) {
    const QuantizedPose q = quantize_pose(p, 1.0, {kV, kM});
    for (int i = 0; i < 3; ++i) {
      v.T[i] = q.T[i];
      for (int j = 0; j < 3; ++j) v.M[i][j] = q.M[i][j];
    }
  }
  // M' = 2^m P (signed permutation); returns the permutation and signs for inversion.
  void lattice_rotation(Vector& v, int perm[3], int sign[3]) {
    int p[3] = {0, 1, 2};
    std::shuffle(p, p + 3, rng_);
    for (int i = 0; i < 3; ++i) {
      perm[i] = p[i];
      sign[i] = coin() ? 1 : -1;
      for (int j = 0; j < 3; ++j) v.M[i][j] = j == p[i] ? sign[i] * kOne : 0;
    }
  }
  // x = P q  <=>  q[perm[i]] = sign[i] x[i]
  static FixedVertex unpermute(const FixedVertex& x, const int perm[3], const int sign[3]) {
    FixedVertex q{};
    for (int i = 0; i < 3; ++i) q[perm[i]] = sign[i] * x[i];
    return q;
  }
  static FixedVertex placed(const Vector& v, const FixedVertex& q) {
    FixedVertex x;
    for (int i = 0; i < 3; ++i) x[i] = v.M[i][0] * q[0] + v.M[i][1] * q[1] + v.M[i][2] * q[2] + v.T[i];
    return x;
  }

  // Makes triangle t degenerate in one of several ways.
  void degenerate(FixedVertex t[3]) {
    const int k = int(uni(0, 5));
    const int a = int(uni(0, 2)), b = (a + 1) % 3, c = (a + 2) % 3;
    switch (k) {
      case 0: t[b] = t[a]; break;                       // two equal vertices
      case 1: t[b] = t[a]; t[c] = t[a]; break;           // a point
      case 2: {                                          // c on the line through a, b
        const I64 f = uni(-2, 2);
        for (int d = 0; d < 3; ++d) t[c][d] = t[a][d] + f * (t[b][d] - t[a][d]);
        break;
      }
      case 3: {                                          // c the midpoint of a, b (made even)
        for (int d = 0; d < 3; ++d) {
          if ((t[b][d] - t[a][d]) % 2) t[b][d] += (t[b][d] > 0 ? -1 : 1);
          t[c][d] = (t[a][d] + t[b][d]) / 2;
        }
        break;
      }
      case 4: {                                          // axis-parallel segment
        const int ax = int(uni(0, 2));
        for (int d = 0; d < 3; ++d)
          if (d != ax) t[b][d] = t[c][d] = t[a][d];
        break;
      }
      default: {                                         // c = a + (b - a) * 3 (outside the pair)
        for (int d = 0; d < 3; ++d) t[c][d] = t[a][d] + 3 * (t[b][d] - t[a][d]);
        break;
      }
    }
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 3; ++d) t[i][d] = std::max(-kQmax, std::min(kQmax, t[i][d]));
  }

  Vector make(int cat) {
    for (;;) {
      Vector v{};
      v.cat = cat;
      make_into(v, cat);
      if (in_range(v)) return v;
    }
  }

 private:
  void make_into(Vector& v, int cat) {
    switch (cat) {
      case kRandomLarge:
      case kRandomNear: {
        for (int c = 0; c < 3; ++c) {
          v.qa[c] = {big(), big(), big()};
          v.qb[c] = {big(), big(), big()};
        }
        set_pose(v, random_pose(cat == kRandomLarge ? 4.0 : 0.5));
        break;
      }
      case kSmall: {
        for (int c = 0; c < 3; ++c) {
          v.qa[c] = vtx(4);
          v.qb[c] = vtx(4);
        }
        Pose p = random_pose(1.0);
        p.translation *= std::ldexp(3.0, -kV);  // |T'| up to 3 2^m: overlapping ranges
        set_pose(v, p);
        break;
      }
      case kLattice: {
        int perm[3], sign[3];
        lattice_rotation(v, perm, sign);
        const I64 r = coin() ? 2 : 4;
        for (int c = 0; c < 3; ++c) {
          v.qa[c] = vtx(r);
          v.qb[c] = vtx(r);
        }
        for (int i = 0; i < 3; ++i) v.T[i] = uni(-2, 2) * kOne + (coin(0.2) ? uni(-3, 3) : 0);
        if (coin(0.2)) degenerate(coin() ? v.qa : v.qb);
        break;
      }
      case kSharedVertex: {
        const I64 r = coin() ? kQmax : 6;
        for (int c = 0; c < 3; ++c) {
          v.qa[c] = r == 6 ? vtx(6) : FixedVertex{big(), big(), big()};
          v.qb[c] = r == 6 ? vtx(6) : FixedVertex{big(), big(), big()};
        }
        set_pose(v, random_pose(1.0));
        const int i = int(uni(0, 2)), j = int(uni(0, 2));
        FixedVertex mq{};
        for (int d = 0; d < 3; ++d) mq[d] = v.M[d][0] * v.qb[j][0] + v.M[d][1] * v.qb[j][1] + v.M[d][2] * v.qb[j][2];
        for (int d = 0; d < 3; ++d) v.T[d] = v.qa[i][d] * kOne - mq[d] + (coin(0.15) ? uni(-1, 1) : 0);
        if (coin(0.1)) degenerate(coin() ? v.qa : v.qb);
        break;
      }
      case kSharedEdge: {
        int perm[3], sign[3];
        lattice_rotation(v, perm, sign);
        const I64 r = coin() ? 4 : (I64(1) << 20);
        for (int c = 0; c < 3; ++c) v.qa[c] = vtx(r);
        FixedVertex t = vtx(r);
        for (int d = 0; d < 3; ++d) v.T[d] = t[d] * kOne + (coin(0.1) ? uni(-1, 1) : 0);
        // B's vertices i0, i1 land on A's vertices j0, j1: P qb = qa - t
        const int j0 = int(uni(0, 2)), j1 = (j0 + 1 + int(uni(0, 1))) % 3;
        const int i0 = int(uni(0, 2)), i1 = (i0 + 1 + int(uni(0, 1))) % 3, i2 = 3 - i0 - i1;
        FixedVertex x0, x1;
        for (int d = 0; d < 3; ++d) {
          x0[d] = v.qa[j0][d] - t[d];
          x1[d] = v.qa[j1][d] - t[d];
        }
        v.qb[i0] = unpermute(x0, perm, sign);
        v.qb[i1] = unpermute(x1, perm, sign);
        v.qb[i2] = vtx(r);
        if (coin(0.3)) {  // third vertex of B in A's plane on the far side: coplanar shared edge
          const int j2 = 3 - j0 - j1;
          FixedVertex x2;
          for (int d = 0; d < 3; ++d) x2[d] = v.qa[j0][d] + v.qa[j1][d] - v.qa[j2][d] - t[d];
          if (coin(0.3))
            for (int d = 0; d < 3; ++d) x2[d] = v.qa[j2][d] - t[d] + (v.qa[j0][d] - v.qa[j2][d]) / 2;
          v.qb[i2] = unpermute(x2, perm, sign);
        }
        break;
      }
      case kOnPlane: {
        // A in the plane n . q = c (n = (n0, n1, 1)); a placed vertex of B exactly on it
        const I64 n0 = uni(-3, 3), n1 = uni(-3, 3);
        const bool small = coin(0.3);
        const I64 r = small ? 4 : (I64(1) << 20);
        const I64 c0 = uni(-r, r);
        for (int c = 0; c < 3; ++c) {
          const I64 x = uni(-r, r), y = uni(-r, r);
          v.qa[c] = {x, y, c0 - n0 * x - n1 * y};
        }
        for (int c = 0; c < 3; ++c) v.qb[c] = small ? vtx(4) : FixedVertex{big(), big(), big()};
        set_pose(v, random_pose(1.0));
        // target point: a random affine combination of A's vertices (mostly inside), lifted
        const double w0 = unid(-0.2, 1), w1 = unid(-0.2, 1), w2 = unid(-0.2, 1), sw = w0 + w1 + w2;
        FixedVertex X;
        for (int d = 0; d < 2; ++d)
          X[d] = I64(std::llround((w0 * v.qa[0][d] + w1 * v.qa[1][d] + w2 * v.qa[2][d]) / sw * double(kOne)));
        X[2] = c0 * kOne - n0 * X[0] - n1 * X[1];
        const int j = int(uni(0, 2));
        FixedVertex mq{};
        for (int d = 0; d < 3; ++d) mq[d] = v.M[d][0] * v.qb[j][0] + v.M[d][1] * v.qb[j][1] + v.M[d][2] * v.qb[j][2];
        for (int d = 0; d < 3; ++d) v.T[d] = X[d] - mq[d];
        if (coin(0.25)) v.T[int(uni(0, 2))] += coin() ? 1 : -1;  // just off the plane
        break;
      }
      case kCoplanar: {
        int perm[3], sign[3];
        lattice_rotation(v, perm, sign);
        // both in the plane n . x = c after placement: A: n . qa = c; B: n . (P qb + t) = c
        const I64 n0 = uni(-2, 2), n1 = uni(-2, 2);
        const I64 r = coin(0.7) ? 4 : (I64(1) << 18);
        const I64 c0 = uni(-r, r);
        for (int c = 0; c < 3; ++c) {
          const I64 x = uni(-r, r), y = uni(-r, r);
          v.qa[c] = {x, y, c0 - n0 * x - n1 * y};
        }
        FixedVertex t = vtx(r / 2 + 1);
        t[2] = 0;  // the plane through the origin shifted by t: choose t with n . t = 0
        t[2] = -(n0 * t[0] + n1 * t[1]);
        for (int c = 0; c < 3; ++c) {
          const I64 x = uni(-r, r), y = uni(-r, r);
          const FixedVertex pt{x, y, c0 - n0 * x - n1 * y};  // a point of the plane
          FixedVertex rel;
          for (int d = 0; d < 3; ++d) rel[d] = pt[d] - t[d];
          v.qb[c] = unpermute(rel, perm, sign);
        }
        // sub-lattice offset inside the plane: n . o = 0
        FixedVertex o{0, 0, 0};
        if (coin(0.3)) {
          o[0] = uni(-5, 5);
          o[1] = uni(-5, 5);
          o[2] = -(n0 * o[0] + n1 * o[1]);
        }
        for (int d = 0; d < 3; ++d) v.T[d] = t[d] * kOne + o[d];
        if (coin(0.1)) v.T[int(uni(0, 2))] += coin() ? 1 : -1;  // just off coplanar
        if (coin(0.15)) degenerate(coin() ? v.qa : v.qb);
        break;
      }
      default: {  // kDegenerate
        const int base = int(uni(0, 3));
        if (base == 0) {
          int perm[3], sign[3];
          lattice_rotation(v, perm, sign);
          for (int c = 0; c < 3; ++c) {
            v.qa[c] = vtx(3);
            v.qb[c] = vtx(3);
          }
          for (int i = 0; i < 3; ++i) v.T[i] = uni(-1, 1) * kOne;
          // planar slabs: everything in z = 0 sometimes (coplanar segments)
          if (coin(0.3))
            for (int c = 0; c < 3; ++c) {
              v.qa[c][2] = 0;
              v.qb[c][perm[2]] = 0;
              v.T[2] = 0;
            }
        } else if (base == 1) {
          for (int c = 0; c < 3; ++c) {
            v.qa[c] = vtx(4);
            v.qb[c] = vtx(4);
          }
          Pose p = random_pose(1.0);
          p.translation *= std::ldexp(3.0, -kV);
          set_pose(v, p);
        } else {
          for (int c = 0; c < 3; ++c) {
            v.qa[c] = {big(), big(), big()};
            v.qb[c] = {big(), big(), big()};
          }
          set_pose(v, random_pose(0.5));
        }
        const int which = int(uni(0, 2));
        if (which != 1) degenerate(v.qa);
        if (which != 0) degenerate(v.qb);
        break;
      }
    }
  }

  std::mt19937_64 rng_;
};

// ------------------------------------------------------------------------------ driver
struct Expect {
  std::uint64_t id;
  bool hit;
  std::uint64_t due;
  int cat;
};

class Bench {
 public:
  Bench(std::uint64_t seed, double bubble) : gen_(seed ^ 0x5eed), bubble_(bubble) {
    ctx_ = std::make_unique<VerilatedContext>();
    m_ = std::make_unique<Model>(ctx_.get());
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->valid_i = 0;
    m_->eval();
    for (int i = 0; i < 3; ++i) tick();
    m_->rst_ni = 1;
    m_->eval();
    if constexpr (kTimeMultiplexed)  // idle-clock data: a pool (II - 1 idle clocks per start)
      for (int i = 0; i < 64; ++i) junk_.push_back(gen_.make(int(gen_.uni(0, kCount - 1))));
  }

  // Pushes one test after its idle clocks (random data on every input while idle), checking
  // results as they come out. kdopcd_tri_seq: first the II - 1 idle clocks the unit needs after
  // the previous start, then (with probability bubble_) a gap of 1..II more. kdopcd_tri_unit:
  // idle clocks while a coin of probability bubble_ comes up, each with a fresh random vector.
  void push(const Vector& v, bool expected) {
    if constexpr (kTimeMultiplexed) {
      int idle = started_ ? kII - 1 : 0;
      if (gen_.coin(bubble_)) idle += int(gen_.uni(1, kII));
      for (int i = 0; i < idle; ++i) idle_clock(junk_[junk_next_++ % junk_.size()]);
    } else {
      while (gen_.coin(bubble_)) idle_clock(gen_.make(int(gen_.uni(0, kCount - 1))));
    }
    drive(*m_, v);
    m_->valid_i = 1;
    m_->id_i = next_id_;
    queue_.push_back({next_id_, expected, cycle_ + kLat, v.cat});
    ++next_id_;
    started_ = true;
    tick();
    m_->valid_i = 0;
  }

  // Breaks kdopcd_tri_seq's contract: two starts one clock apart.
  void violate(const Vector& v) {
    drive(*m_, v);
    m_->valid_i = 1;
    tick();
    tick();
    m_->valid_i = 0;
    for (int i = 0; i < kLat + 2; ++i) tick();
  }

  void drain() {
    for (int i = 0; i < kLat + 2; ++i) tick();
    if (!queue_.empty()) fail("results missing at the end", queue_.front().id);
  }

  std::uint64_t errors() const { return errors_; }
  std::uint64_t checked() const { return checked_; }

 private:
  void idle_clock(const Vector& junk) {
    drive(*m_, junk);
    m_->valid_i = 0;
    m_->id_i = gen_.rng()();
    tick();
  }

  void tick() {
    m_->clk_i = 1;
    m_->eval();
    ctx_->timeInc(1);
    ++cycle_;
    check();
    m_->clk_i = 0;
    m_->eval();
    ctx_->timeInc(1);
  }

  void check() {
    if (m_->valid_o) {
      if (queue_.empty()) {
        fail("valid_o without a test in flight", 0);
        return;
      }
      const Expect e = queue_.front();
      queue_.pop_front();
      ++checked_;
      if (e.due != cycle_) fail("latency", e.id);
      if (m_->id_o != e.id) fail("id", e.id);
      if (bool(m_->hit_o) != e.hit) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "hit_o = %d, reference %d (category %s)", int(m_->hit_o), int(e.hit),
                      kCatName[e.cat]);
        fail(buf, e.id);
      }
    } else if (!queue_.empty() && queue_.front().due <= cycle_) {
      fail("valid_o missing", queue_.front().id);
      queue_.pop_front();
    }
  }

  void fail(const std::string& what, std::uint64_t id) {
    if (errors_ < 20) std::fprintf(stderr, "MISMATCH test %" PRIu64 " at cycle %" PRIu64 ": %s\n", id, cycle_, what.c_str());
    ++errors_;
  }

  Gen gen_;
  double bubble_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  std::deque<Expect> queue_;
  std::vector<Vector> junk_;  // kdopcd_tri_seq only
  std::size_t junk_next_ = 0;
  bool started_ = false;
  std::uint64_t cycle_ = 0, next_id_ = 0x1234'5678'0000'0000ull, errors_ = 0, checked_ = 0;
};

void print_vector(const Vector& v) {
  std::fprintf(stderr, "  qa:");
  for (auto& x : v.qa) std::fprintf(stderr, " (%" PRId64 " %" PRId64 " %" PRId64 ")", x[0], x[1], x[2]);
  std::fprintf(stderr, "\n  qb:");
  for (auto& x : v.qb) std::fprintf(stderr, " (%" PRId64 " %" PRId64 " %" PRId64 ")", x[0], x[1], x[2]);
  std::fprintf(stderr, "\n  M':");
  for (auto& r : v.M) std::fprintf(stderr, " [%" PRId64 " %" PRId64 " %" PRId64 "]", r[0], r[1], r[2]);
  std::fprintf(stderr, "\n  T': %" PRId64 " %" PRId64 " %" PRId64 "\n", v.T[0], v.T[1], v.T[2]);
}

int run_random(std::uint64_t n, std::uint64_t seed, double bubble) {
  Gen gen(seed);
  Bench bench(seed, bubble);
  std::uint64_t hits[kCount] = {}, total[kCount] = {};
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < n; ++i) {
    const Vector v = gen.make(int(i % kCount));
    const bool ref = reference(v);
    ++total[v.cat];
    hits[v.cat] += ref;
    const std::uint64_t before = bench.errors();
    bench.push(v, ref);
    if (bench.errors() != before && before < 5) print_vector(v);  // (reported a few tests late)
  }
  bench.drain();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t th = 0;
  for (int c = 0; c < kCount; ++c) {
    std::printf("  %-14s %8" PRIu64 " tests  %8" PRIu64 " hits  %8" PRIu64 " misses\n", kCatName[c], total[c], hits[c],
                total[c] - hits[c]);
    th += hits[c];
  }
  std::printf("random: %" PRIu64 " tests, %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " checked, %" PRIu64
              " mismatches, %.1f s\n",
              n, th, n - th, bench.checked(), bench.errors(), secs);
  return bench.errors() == 0 && bench.checked() == n ? 0 : 1;
}

int run_scene(const std::string& mesh_dir, std::uint64_t seed, double bubble) {
  const Mesh first = load_mesh(mesh_dir + "/cow.off");
  const Mesh& second = first;
  const DopTree first_tree(first, 24, kHardwareTreeBuild), second_tree(second, 24, kHardwareTreeBuild);
  const double s = std::max(first_tree.largest_coefficient(), second_tree.largest_coefficient());
  const TriangleFixedParams fp{kV, kM};
  const std::vector<FixedVertex> qa = quantize_vertices(first, s, kV);
  const std::vector<FixedVertex> qb = quantize_vertices(second, s, kV);
  const std::vector<TriangleBox> first_boxes = triangle_boxes(first, first.vertices);
  // 2 delta covers every pair whose fixed verdict can be a contact; the extra 0.2% of s adds
  // near misses (closest pairs of the proximity poses).
  const double margin = std::max(2 * triangle_delta(s, fp), 0.002 * s);
  struct Config {
    double angle;
    Vec3 axis, direction;
  };
  const Config configs[] = {{0.9, Vec3(1, 2, 0.5), Vec3(1, 0.3, 0.2)},   // the reference mesh test's
                            {2.1, Vec3(0.2, 1, -0.4), Vec3(0.2, 1, -0.4)},
                            {0.0, Vec3(0, 0, 1), Vec3(0, 0, 1)}};        // identity rotation
  std::vector<ClassifiedPose> poses;
  for (const Config& c : configs) {
    const auto p = make_pose_classes(first_tree, second_tree,
                                     Eigen::Quaterniond(Eigen::AngleAxisd(c.angle, c.axis.normalized())), c.direction);
    poses.insert(poses.end(), p.begin(), p.end());
  }
  Bench bench(seed, bubble);
  std::uint64_t total = 0, hits = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const ClassifiedPose& cp : poses) {
    const QuantizedPose q = quantize_pose(cp.pose, s, fp);
    if (!q.in_range) {
      std::printf("  %-16s pose out of range, skipped\n", to_string(cp.kind));
      continue;
    }
    const std::vector<Vec3> placed = place_vertices(second, cp.pose);
    const std::vector<TriangleBox> second_boxes = triangle_boxes(second, placed);
    const std::vector<FixedTriangle> ff = first_fixed_triangles(first, s, fp);
    const std::vector<FixedTriangle> sf = placed_fixed_triangles(second, q);
    std::uint64_t n = 0, h = 0;
    for (std::size_t f = 0; f < first.triangle_count(); ++f)
      for (std::size_t g = 0; g < second.triangle_count(); ++g) {
        if ((first_boxes[f].lo.array() - margin > second_boxes[g].hi.array()).any() ||
            (second_boxes[g].lo.array() - margin > first_boxes[f].hi.array()).any())
          continue;
        Vector v{};
        for (int c = 0; c < 3; ++c) {
          v.qa[c] = qa[first.triangles[f][c]];
          v.qb[c] = qb[second.triangles[g][c]];
        }
        for (int i = 0; i < 3; ++i) {
          v.T[i] = q.T[i];
          for (int j = 0; j < 3; ++j) v.M[i][j] = q.M[i][j];
        }
        const bool ref = fixed_triangles_intersect(ff[f], sf[g]);
        if (ref != reference(v)) {
          std::fprintf(stderr, "testbench error: vector does not rebuild the reference triangles\n");
          return 1;
        }
        bench.push(v, ref);
        ++n;
        h += ref;
      }
    std::printf("  %-16s %8" PRIu64 " pairs  %6" PRIu64 " hits  %8" PRIu64 " misses\n", to_string(cp.kind), n, h, n - h);
    total += n;
    hits += h;
  }
  bench.drain();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("scene cow vs cow (s = %.9g): %" PRIu64 " pairs, %" PRIu64 " hits, %" PRIu64 " checked, %" PRIu64
              " mismatches, %.1f s\n",
              s, total, hits, bench.checked(), bench.errors(), secs);
  return bench.errors() == 0 && bench.checked() == total && total > 0 && hits > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t random = 0, seed = 1;
  double bubble = 0.1;
  std::string scene;
  bool violate = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--random") random = std::stoull(next());
    else if (a == "--scene") scene = next();
    else if (a == "--seed") seed = std::stoull(next());
    else if (a == "--bubble") bubble = std::stod(next());
    else if (a == "--violate" && kTimeMultiplexed) violate = true;
    else {
      std::fprintf(stderr, "usage: %s (--random N | --scene MESH_DIR%s) [--seed S] [--bubble P]\n", kProgram,
                   kTimeMultiplexed ? " | --violate" : "");
      return 2;
    }
  }
  if (violate) {
    Gen gen(seed);
    Bench bench(seed, 0);
    bench.violate(gen.make(0));
    std::printf("no assertion fired (II = %d)\n", kII);
    return 0;
  }
  int rc = 0;
  if (random) rc |= run_random(random, seed, bubble);
  if (!scene.empty()) rc |= run_scene(scene, seed, bubble);
  if (!random && scene.empty()) {  // (--violate returned above)
    std::fprintf(stderr, "nothing to do: give --random N or --scene MESH_DIR\n");
    return 2;
  }
  std::printf(rc ? "FAILED\n" : "PASSED\n");
  return rc;
}
