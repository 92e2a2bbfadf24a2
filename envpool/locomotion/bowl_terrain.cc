#include "envpool/locomotion/bowl_terrain.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "envpool/core/numpy_kernels.h"

namespace envpool::locomotion {
namespace {

// The pole of the cubic B-spline's inverse filter, sqrt(3) - 2.
constexpr double kCubicPole = -0.267949192431122706472553658494127633;
// bowl.py's _TERRAIN_SMOOTHNESS and _TERRAIN_BUMP_SCALE.
constexpr double kTerrainSmoothness = 0.5;
constexpr double kTerrainBumpScale = 0.2;

// The cubic spline coefficients of one line of n samples (stride apart),
// in place: the filter's gain, then a causal and an anticausal recursion,
// both started from the line's mirror extension (scipy applies these
// boundary conditions for mode 'constant').
void FilterLine(double* line, std::ptrdiff_t stride, int n) {
  if (n < 2) {
    return;
  }
  auto at = [line, stride](int i) -> double& { return line[i * stride]; };
  const double z = kCubicPole;
  const double gain = 1.0 * ((1.0 - z) * (1.0 - 1.0 / z));
  for (int i = 0; i < n; ++i) {
    at(i) *= gain;
  }
  // Causal start: the sum over the mirrored line, in scipy's order.
  const double z_n_1 = std::pow(z, n - 1);
  double z_i = z;
  at(0) = at(0) + z_n_1 * at(n - 1);
  for (int i = 1; i < n - 1; ++i) {
    at(0) += z_i * (at(i) + z_n_1 * at(n - 1 - i));
    z_i *= z;
  }
  at(0) /= 1 - z_n_1 * z_n_1;
  for (int i = 1; i < n; ++i) {
    at(i) += z * at(i - 1);
  }
  at(n - 1) = (z * at(n - 2) + at(n - 1)) * z / (z * z - 1);
  for (int i = n - 2; i >= 0; --i) {
    at(i) = z * (at(i + 1) - at(i));
  }
}

// Where output sample k of an axis of n_in samples reads the coefficients:
// the 4 indices (mirrored at the borders) and the 4 weights, or none when
// it falls outside the input (mode 'constant': the value is 0).
struct Tap {
  bool outside = false;
  int index[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
};

int Mirror(int index, int n) {
  if (n <= 1) {
    return 0;
  }
  const int period = 2 * n - 2;
  if (index < 0) {
    index = period * (-index / period) + index;
    return index <= 1 - n ? index + period : -index;
  }
  if (index > n - 1) {
    index -= period * (index / period);
    return index >= n ? period - index : index;
  }
  return index;
}

std::vector<Tap> Taps(int n_in, int n_out) {
  // grid_mode False: the first and last samples of both grids coincide.
  const double zoom =
      n_out > 1 ? static_cast<double>(n_in - 1) / static_cast<double>(n_out - 1)
                : 1.0;
  std::vector<Tap> taps(n_out);
  for (int k = 0; k < n_out; ++k) {
    Tap& tap = taps[k];
    const double cc = static_cast<double>(k) * zoom;
    if (cc < 0 || cc > n_in - 1) {
      tap.outside = true;
      continue;
    }
    const int start = static_cast<int>(std::floor(cc)) - 1;
    for (int h = 0; h < 4; ++h) {
      tap.index[h] = Mirror(start + h, n_in);
    }
    // The cubic B-spline's weights at the offset from the knot below.
    const double x = cc - std::floor(cc);
    const double y = x;
    const double z = 1.0 - x;
    tap.weight[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
    tap.weight[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
    tap.weight[0] = z * z * z / 6.0;
    tap.weight[3] = 1.0;
    for (int h = 0; h < 3; ++h) {
      tap.weight[3] -= tap.weight[h];
    }
  }
  return taps;
}

}  // namespace

std::vector<double> SplineZoom(const std::vector<double>& input, int rows,
                               int cols, int out_rows, int out_cols) {
  if (rows < 1 || cols < 1 || out_rows < 1 || out_cols < 1 ||
      input.size() != static_cast<std::size_t>(rows) * cols) {
    throw std::invalid_argument("SplineZoom: the input is not rows x cols");
  }
  // spline_filter: along axis 0 (each column), then along axis 1.
  std::vector<double> coefficients = input;
  for (int c = 0; c < cols; ++c) {
    FilterLine(coefficients.data() + c, cols, rows);
  }
  for (int r = 0; r < rows; ++r) {
    FilterLine(coefficients.data() + static_cast<std::size_t>(r) * cols, 1,
               cols);
  }
  const std::vector<Tap> row_taps = Taps(rows, out_rows);
  const std::vector<Tap> col_taps = Taps(cols, out_cols);
  std::vector<double> output(static_cast<std::size_t>(out_rows) * out_cols);
  for (int i = 0; i < out_rows; ++i) {
    const Tap& row = row_taps[i];
    for (int j = 0; j < out_cols; ++j) {
      const Tap& col = col_taps[j];
      double t = 0.0;
      if (!row.outside && !col.outside) {
        // The 4 x 4 footprint, the last axis fastest, each term the
        // coefficient times the row weight, then the column weight.
        for (int a = 0; a < 4; ++a) {
          const double* line = coefficients.data() +
                               static_cast<std::size_t>(row.index[a]) * cols;
          for (int b = 0; b < 4; ++b) {
            double term = line[col.index[b]];
            term *= row.weight[a];
            term *= col.weight[b];
            t += term;
          }
        }
      }
      output[static_cast<std::size_t>(i) * out_cols + j] = t;
    }
  }
  return output;
}

std::vector<double> BowlTerrain(int res, double half_size,
                                random::RandomState* random) {
  // The bowl: np.ogrid[-1:1:res*1j] (index * step + start), the radius
  // clipped to [0.1, 1], 0.5 - cos(2 pi radius) / 2 with numpy's cos.
  const double step = (1.0 - -1.0) / static_cast<double>(res - 1);
  std::vector<double> grid(res);
  for (int k = 0; k < res; ++k) {
    grid[k] = static_cast<double>(k) * step + -1.0;
  }
  // The bumps: uniform(smoothness, 1, (bump_res, bump_res)), zoomed by
  // res / bump_res (the output shape round(bump_res * zoom)).
  const double terrain_size = 2 * half_size;
  const int bump_res = static_cast<int>(terrain_size / kTerrainBumpScale);
  std::vector<double> bumps(static_cast<std::size_t>(bump_res) * bump_res);
  for (double& bump : bumps) {
    bump = random->Uniform(kTerrainSmoothness, 1);
  }
  const double zoom = res / static_cast<double>(bump_res);
  const int out = static_cast<int>(std::nearbyint(bump_res * zoom));
  if (out != res) {
    throw std::runtime_error("the bowl's bumps do not zoom to its grid");
  }
  const std::vector<double> smooth =
      SplineZoom(bumps, bump_res, bump_res, out, out);
  std::vector<double> terrain(static_cast<std::size_t>(res) * res);
  const double two_pi = 2 * M_PI;
  for (int i = 0; i < res; ++i) {
    for (int j = 0; j < res; ++j) {
      const double squared = grid[j] * grid[j] + grid[i] * grid[i];
      const double radius = std::min(std::max(std::sqrt(squared), 0.1), 1.0);
      const double bowl = 0.5 - numpy_kernels::Cos(two_pi * radius) / 2;
      const std::size_t k = static_cast<std::size_t>(i) * res + j;
      terrain[k] = bowl * smooth[k];
    }
  }
  return terrain;
}

}  // namespace envpool::locomotion
