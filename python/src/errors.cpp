// The library's exceptions as Python's: bad input (InputError, and the std::invalid_argument some
// parameter checks throw) is ValueError with the library's message; a fixed capacity that a
// valid query overflowed (OverflowError, StackOverflowError) is kdopcd.CapacityError, a
// RuntimeError, since the input was valid and the answer is incomplete (kdop's exit status 4).
#include "bindings.hpp"
#include "kdopcd/error.hpp"

namespace kdopcd::python {

void register_exceptions(py::module_& m) {
  static py::exception<OverflowError> capacity(m, "CapacityError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(capacity.ptr(), e.what());
    } catch (const StackOverflowError& e) {
      PyErr_SetString(capacity.ptr(), e.what());
    }
  });
}

}  // namespace kdopcd::python
