// The fixed-point path for test benches: a query's set-up (the integers the hardware is programmed
// with), axis-test vectors (docs/test-vectors.md) recorded from a traversal, read, written and
// evaluated with the bit-accurate SAT (Eq. 22), as kdop vectors and kdop sat-eval do.
#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <sstream>

#include "bindings.hpp"
#include "kdopcd/error.hpp"
#include "kdopcd/query_setup.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/test_vectors.hpp"

namespace kdopcd::python {
namespace {

static_assert(sizeof(RealOperands) == 19 * sizeof(double), "RealOperands is the 19 fields of a vector line, in order");
static_assert(sizeof(FixedOperands) == 19 * sizeof(std::int64_t), "FixedOperands is the 19 fields, in order");

// A 128-bit diff as NumPy holds it: int64 where every diff of these widths fits (b + c + 5 <= 64
// bits, sat_widths), else Python integers (an object array), which hold any width.
py::array diffs_array(const std::vector<__int128>& values, bool fits_int64) {
  if (fits_int64) {
    py::array_t<std::int64_t> a(py::ssize_t(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) a.mutable_at(py::ssize_t(i)) = std::int64_t(values[i]);
    return a;
  }
  py::list items;
  for (__int128 v : values)
    items.append(py::reinterpret_steal<py::object>(PyLong_FromString(to_decimal(v).c_str(), nullptr, 10)));
  return py::module_::import("numpy").attr("array")(items, py::arg("dtype") = "object").cast<py::array>();
}

py::dict vectors_to_dict(const std::vector<TestVector>& vectors) {
  const auto n = py::ssize_t(vectors.size());
  py::array_t<std::int32_t> bits({n, py::ssize_t(3)});
  py::array_t<double> real({n, py::ssize_t(19)});
  py::array_t<std::int64_t> fixed({n, py::ssize_t(19)});
  py::array_t<std::int64_t> line(n);
  py::list kind;
  for (py::ssize_t i = 0; i < n; ++i) {
    const TestVector& v = vectors[std::size_t(i)];
    const bool is_real = v.kind == TestVector::Kind::Real;
    kind.append(is_real ? "R" : "Q");
    bits.mutable_at(i, 0) = v.bits.b, bits.mutable_at(i, 1) = v.bits.c, bits.mutable_at(i, 2) = v.bits.z;
    const double* r = reinterpret_cast<const double*>(&v.real);
    for (int f = 0; f < 19; ++f) real.mutable_at(i, f) = is_real ? r[f] : std::numeric_limits<double>::quiet_NaN();
    const FixedOperands q = quantized_operands(v);
    std::copy(reinterpret_cast<const std::int64_t*>(&q), reinterpret_cast<const std::int64_t*>(&q) + 19, fixed.mutable_data(i, 0));
    line.mutable_at(i) = std::int64_t(v.line);
  }
  py::dict d;
  d["kind"] = py::array(kind);
  d["bits"] = bits;
  d["real"] = real;
  d["fixed"] = fixed;
  d["line"] = line;
  return d;
}

py::dict setup_to_dict(const QuerySetup& s) {
  const auto k = py::ssize_t(s.float_axes.size());
  py::array_t<double> L({k, py::ssize_t(3)}), fPA({k, py::ssize_t(3)}), fPB({k, py::ssize_t(3)}), fp(k);
  py::array_t<std::int32_t> fjA({k, py::ssize_t(3)}), fjB({k, py::ssize_t(3)}), qjA({k, py::ssize_t(3)}),
      qjB({k, py::ssize_t(3)});
  py::array_t<std::int64_t> qPA({k, py::ssize_t(3)}), qPB({k, py::ssize_t(3)}), qp(k);
  for (py::ssize_t i = 0; i < k; ++i) {
    const DoubleAxis& f = s.float_axes[std::size_t(i)];
    const QuantizedAxis& q = s.fixed_axes[std::size_t(i)];
    for (int c = 0; c < 3; ++c) {
      L.mutable_at(i, c) = f.L[c];
      fjA.mutable_at(i, c) = f.jA[c], fPA.mutable_at(i, c) = f.PA[c];
      fjB.mutable_at(i, c) = f.jB[c], fPB.mutable_at(i, c) = f.PB[c];
      qjA.mutable_at(i, c) = q.jA[c], qPA.mutable_at(i, c) = q.PA[c];
      qjB.mutable_at(i, c) = q.jB[c], qPB.mutable_at(i, c) = q.PB[c];
    }
    fp.mutable_at(i) = f.p;
    qp.mutable_at(i) = q.p;
  }
  py::dict float_axes, fixed_axes, tri;
  float_axes["L"] = L, float_axes["jA"] = fjA, float_axes["PA"] = fPA, float_axes["jB"] = fjB, float_axes["PB"] = fPB;
  float_axes["p"] = fp;
  fixed_axes["jA"] = qjA, fixed_axes["PA"] = qPA, fixed_axes["jB"] = qjB, fixed_axes["PB"] = qPB, fixed_axes["p"] = qp;
  py::array_t<std::int64_t> M({py::ssize_t(3), py::ssize_t(3)}), T(3);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) M.mutable_at(i, j) = s.triangle_pose.M[std::size_t(i)][std::size_t(j)];
    T.mutable_at(i) = s.triangle_pose.T[std::size_t(i)];
  }
  tri["M"] = M, tri["T"] = T, tri["in_range"] = s.triangle_pose.in_range;
  py::dict d;
  d["scale"] = s.scale;
  d["centred"] = pose_to_array(s.centred);
  d["float_axes"] = float_axes;
  d["fixed_axes"] = fixed_axes;
  d["triangle_pose"] = tri;
  return d;
}

}  // namespace

// Rows of operands as vectors: float rows are R vectors (scaled doubles), integer rows Q vectors.
// Each row goes through the vector format and the library's parser, so a row outside the
// format's ranges is refused with the parser's message ("operands:<row + 1>: ...").
std::vector<TestVector> vectors_from_rows(const py::object& operands_object, const py::object& bits_array) {
  const py::array operands = py::array::ensure(operands_object);
  if (!operands) throw InputError("operands: expected an (n, 19) array");
  const char kind = operands.dtype().kind();
  const bool real = kind == 'f';
  if (!real && kind != 'i' && kind != 'u')
    throw InputError("operands: expected an (n, 19) array of floats (R vectors) or integers (Q vectors)");
  if (operands.ndim() != 2 || operands.shape(1) != 19)
    throw InputError("operands: expected an (n, 19) array (docs/test-vectors.md field order)");
  const auto bits = Int64Array::ensure(bits_array);
  if (!bits || !((bits.ndim() == 1 && bits.shape(0) == 3) ||
                 (bits.ndim() == 2 && bits.shape(1) == 3 && bits.shape(0) == operands.shape(0))))
    throw InputError("bits: expected (b, c, z) or one (b, c, z) row per vector");
  const py::ssize_t n = operands.shape(0);
  std::ostringstream text;
  if (real) {
    const auto a = DoubleArray::ensure(operands);
    for (py::ssize_t i = 0; i < n; ++i) {
      TestVector v;
      const std::int64_t* b = bits.ndim() == 1 ? bits.data(0) : bits.data(i, 0);
      v.bits = {int(b[0]), int(b[1]), int(b[2])};
      std::copy(a.data(i, 0), a.data(i, 0) + 19, reinterpret_cast<double*>(&v.real));
      text << format_test_vector(v) << "\n";
    }
  } else {
    const auto a = Int64Array::ensure(operands);
    for (py::ssize_t i = 0; i < n; ++i) {
      TestVector v;
      v.kind = TestVector::Kind::Quantized;
      const std::int64_t* b = bits.ndim() == 1 ? bits.data(0) : bits.data(i, 0);
      v.bits = {int(b[0]), int(b[1]), int(b[2])};
      std::copy(a.data(i, 0), a.data(i, 0) + 19, reinterpret_cast<std::int64_t*>(&v.fixed));
      text << format_test_vector(v) << "\n";
    }
  }
  std::istringstream in(text.str());
  return parse_test_vectors(in, "operands");
}

void bind_fixed(py::module_& m) {
  m.def(
      "query_setup",
      [](const Tree& first, const Tree& second, const DoubleArray& pose, const std::vector<int>& bits,
         const std::vector<int>& tri_bits) {
        const FixedParams f = fixed_params_from(bits);
        const TriangleFixedParams t = triangle_params_from(tri_bits);
        return setup_to_dict(make_query_setup(first.tree, second.tree, pose_from_array(pose, "pose"), f, t));
      },
      py::arg("first"), py::arg("second"), py::arg("pose"), py::arg("bits") = std::vector<int>{18, 18, 18},
      py::arg("tri_bits") = std::vector<int>{24, 24},
      "What a query programs into the hardware (query_setup.hpp): scale, the centred pose, the float axes, the "
      "fixed axis table (jA, PA', jB, PB', p' per axis) and the triangle unit's M', T'");

  m.def(
      "record_axis_tests",
      [](const Tree& first, const Tree& second, const DoubleArray& pose_array, const std::string& backend,
         const std::vector<int>& bits, int axes, const std::string& rule, std::uint64_t limit) {
        const Pose pose = pose_from_array(pose_array, "pose");
        const FixedParams f = fixed_params_from(bits);
        TraversalOptions options;
        if (axes < 0 || axes > 26) throw InputError(fmt::format("axes = {} outside 0 .. 26 (0 = all k)", axes));
        options.axes = axes;
        options.rule = parse_descent_rule(rule);
        const SatBackend sat = parse_sat_backend(backend);
        std::vector<RealOperands> reals;
        std::vector<std::uint8_t> separated;
        TraversalStats stats;
        {
          py::gil_scoped_release release;
          stats = record_axis_tests(first.tree, second.tree, pose, options, sat, f, [&](const TestVector& v, bool sep) {
            if (limit != 0 && reals.size() >= limit) return false;
            reals.push_back(v.real);
            separated.push_back(sep);
            return true;
          });
        }
        py::array_t<double> real({py::ssize_t(reals.size()), py::ssize_t(19)});
        if (!reals.empty()) std::memcpy(real.mutable_data(), reals.data(), reals.size() * sizeof(RealOperands));
        py::array_t<bool> sep(py::ssize_t(separated.size()));
        for (std::size_t i = 0; i < separated.size(); ++i) sep.mutable_at(py::ssize_t(i)) = separated[i] != 0;
        py::dict d;
        d["real"] = real;
        d["separated"] = sep;
        d["bits"] = py::make_tuple(f.b, f.c, f.z);
        d["stats"] = stats_to_dict(stats);
        return d;
      },
      py::arg("first"), py::arg("second"), py::arg("pose"), py::kw_only(), py::arg("backend") = "fixed",
      py::arg("bits") = std::vector<int>{18, 18, 18}, py::arg("axes") = 0, py::arg("rule") = "shallower",
      py::arg("limit") = 0,
      "Every axis test a traversal performs (kdop vectors): real (n, 19) scaled operands in the vector-line order, "
      "separated (n,) the traversal's own verdicts, stats; limit stops after that many (0 = all)");

  m.def(
      "parse_test_vectors",
      [](const std::string& text, const std::string& name) {
        std::istringstream in(text);
        return vectors_to_dict(parse_test_vectors(in, name));
      },
      py::arg("text"), py::arg("name") = "vectors",
      "A vector file's text: dict kind (n,) 'R'/'Q', bits (n, 3), real (n, 19) (NaN for Q lines), fixed (n, 19) "
      "int64 (the integers Eq. 22 runs on), line (n,)");
  m.def(
      "load_test_vectors", [](const std::string& path) { return vectors_to_dict(load_test_vectors(path)); },
      py::arg("path"), "parse_test_vectors of a file");
  m.def(
      "format_test_vectors",
      [](const py::object& operands, const py::object& bits) {
        std::string text;
        for (const TestVector& v : vectors_from_rows(operands, bits)) text += format_test_vector(v) + "\n";
        return text;
      },
      py::arg("operands"), py::arg("bits"),
      "Vector lines of (n, 19) operands: floats give R lines (hex floats, exact), integers Q lines; bits (b, c, z) "
      "or one row per vector");
  m.def(
      "quantize_operands",
      [](const py::object& operands, const py::object& bits) {
        const std::vector<TestVector> vectors = vectors_from_rows(operands, bits);
        py::array_t<std::int64_t> out({py::ssize_t(vectors.size()), py::ssize_t(19)});
        for (std::size_t i = 0; i < vectors.size(); ++i) {
          const FixedOperands q = quantized_operands(vectors[i]);
          std::memcpy(out.mutable_data(py::ssize_t(i), 0), &q, sizeof q);
        }
        return out;
      },
      py::arg("operands"), py::arg("bits"), "The 19 integers of each R vector (quantize_operands)");
  m.def(
      "sat_eval",
      [](const py::object& operands, const py::object& bits) {
        const std::vector<TestVector> vectors = vectors_from_rows(operands, bits);
        std::vector<__int128> d1(vectors.size()), d2(vectors.size());
        py::array_t<bool> separated(py::ssize_t(vectors.size()));
        bool fits = true;
        {
          py::gil_scoped_release release;
          for (std::size_t i = 0; i < vectors.size(); ++i) {
            const FixedDiffs d = evaluate_test_vector(vectors[i]);
            d1[i] = d.diff1, d2[i] = d.diff2;
            fits &= sat_widths(vectors[i].bits).sum <= 64;
          }
        }
        for (std::size_t i = 0; i < vectors.size(); ++i) separated.mutable_at(py::ssize_t(i)) = d1[i] > 0 || d2[i] > 0;
        py::dict out;
        out["diff1"] = diffs_array(d1, fits);
        out["diff2"] = diffs_array(d2, fits);
        out["separated"] = separated;
        return out;
      },
      py::arg("operands"), py::arg("bits"),
      "The bit-accurate fixed-point SAT (Eq. 22) of each vector, as kdop sat-eval: diff1, diff2 at scale 2^-(b+c) "
      "(int64, or Python ints where b + c + 5 > 64 bits) and separated (either > 0)");
}

}  // namespace kdopcd::python
