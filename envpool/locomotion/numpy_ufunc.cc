#include "envpool/locomotion/numpy_ufunc.h"

#include <cmath>

namespace envpool::locomotion {
namespace {

// Set once, at the module's import, before any env exists.
UfuncLoop arctan2_loop;
UfuncLoop sin_loop;
UfuncLoop cos_loop;

double Unary(const UfuncLoop& loop, double x) {
  double out = 0.0;
  char* args[2] = {reinterpret_cast<char*>(&x), reinterpret_cast<char*>(&out)};
  const intptr_t n = 1;
  const intptr_t steps[2] = {sizeof(double), sizeof(double)};
  loop.function(args, &n, steps, loop.data);
  return out;
}

}  // namespace

void SetNumpyArctan2(UfuncLoop loop) { arctan2_loop = loop; }
void SetNumpySin(UfuncLoop loop) { sin_loop = loop; }
void SetNumpyCos(UfuncLoop loop) { cos_loop = loop; }

double NumpyArctan2(double y, double x) {
  if (arctan2_loop.function == nullptr) {
    return std::atan2(y, x);
  }
  double out = 0.0;
  char* args[3] = {reinterpret_cast<char*>(&y), reinterpret_cast<char*>(&x),
                   reinterpret_cast<char*>(&out)};
  const intptr_t n = 1;
  const intptr_t steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
  arctan2_loop.function(args, &n, steps, arctan2_loop.data);
  return out;
}

double NumpySin(double x) {
  return sin_loop.function == nullptr ? std::sin(x) : Unary(sin_loop, x);
}

double NumpyCos(double x) {
  return cos_loop.function == nullptr ? std::cos(x) : Unary(cos_loop, x);
}

}  // namespace envpool::locomotion
