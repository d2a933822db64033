// The extension module `kdopcd`: each area of the library is bound in its own file (bind_*.cpp,
// declared in bindings.hpp); this file only puts them together.
#include "bindings.hpp"

PYBIND11_MODULE(kdopcd, m) {
  m.doc() = "k-DOP collision detection: the bit-accurate reference, the SystemC model and the multibody engine "
            "(docs/python.md)";
  using namespace kdopcd::python;
  register_exceptions(m);
  bind_mesh(m);
  bind_query(m);
  bind_fixed(m);
  bind_image(m);
  bind_bound(m);
  bind_model(m);
  bind_multibody(m);
}
