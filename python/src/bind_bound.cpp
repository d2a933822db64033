// verify_bound (bound_check.hpp): the fixed-point SAT against the exact one on random samples and
// on recorded axis tests, as kdop verify-bound.
#include <optional>

#include "bindings.hpp"
#include "kdopcd/bound_check.hpp"
#include "kdopcd/error.hpp"

namespace kdopcd::python {
namespace {

py::dict stats_dict(const BoundStats& s) {
  py::dict d;
  d["samples"] = s.samples;
  d["unclamped"] = s.unclamped;
  d["clamped"] = s.clamped;
  d["false_negatives"] = s.false_negatives;
  d["clamp_verdict_failures"] = s.clamp_verdict_failures;
  d["clamped_bound_violations"] = s.clamped_bound_violations;
  d["negative_errors"] = s.negative_errors;
  d["paper_bound_violations"] = s.paper_bound_violations;
  d["tight_bound_violations"] = s.tight_bound_violations;
  d["exact_separated"] = s.exact_separated;
  d["fixed_separated"] = s.fixed_separated;
  d["max_ratio_paper"] = s.max_ratio_paper;
  d["max_ratio_tight"] = s.max_ratio_tight;
  d["histogram_paper"] = std::vector<std::uint64_t>(s.histogram_paper.begin(), s.histogram_paper.end());
  d["histogram_tight"] = std::vector<std::uint64_t>(s.histogram_tight.begin(), s.histogram_tight.end());
  d["passed"] = s.passed();
  return d;
}

}  // namespace

void bind_bound(py::module_& m) {
  m.def(
      "verify_bound",
      [](const std::vector<int>& bits, int k, std::uint64_t seed, std::uint64_t samples,
         const std::optional<py::object>& vectors) {
        BoundConfig config;
        config.bits = fixed_params_from(bits);
        config.k = k;
        config.seed = seed;
        const double r_max = orientation_set(k).r_max();  // InputError for a k without a set
        std::vector<RealOperands> recorded;
        if (vectors) {
          for (const TestVector& v : vectors_from_rows(*vectors, py::cast(bits))) {
            if (v.kind != TestVector::Kind::Real)
              throw InputError("vectors: the bound is checked on R vectors (the scaled doubles), not on integers");
            recorded.push_back(v.real);
          }
        }
        if (samples == 0 && recorded.empty()) throw InputError("nothing to check: samples=0 and no vectors");
        BoundStats random, checked;
        {
          py::gil_scoped_release release;
          if (samples > 0) random = check_random_samples(config, samples);
          if (!recorded.empty()) checked = check_recorded_samples(config, recorded);
        }
        py::dict d;
        d["bits"] = py::make_tuple(config.bits.b, config.bits.c, config.bits.z);
        d["k"] = k;
        d["r_max"] = r_max;
        d["paper_bound"] = paper_error_bound(config.bits);
        d["tight_bound"] = fixed_error_bound(config.bits, r_max);
        d["random"] = stats_dict(random);
        d["recorded"] = stats_dict(checked);
        d["passed"] = random.passed() && checked.passed();
        return d;
      },
      py::arg("bits") = std::vector<int>{18, 18, 18}, py::kw_only(), py::arg("k") = 24, py::arg("seed") = 1,
      py::arg("samples") = 0, py::arg("vectors") = py::none(),
      "The fixed SAT's error bound and verdicts against the exact SAT (kdop verify-bound): `samples` random samples "
      "of `seed` and/or recorded R operands `vectors` (n, 19) (record_axis_tests' 'real'); a dict of counts, "
      "'passed' when no false negative and no bound violation was found");
}

}  // namespace kdopcd::python
