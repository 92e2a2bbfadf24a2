// Quadruped escape's terrain (dm_control suite/quadruped.py, Escape): a
// sinusoidal bowl times smooth random bumps, the bumps being
// scipy.ndimage.zoom of a coarse grid of uniform draws. The zoom is
// scipy's cubic B-spline interpolation (order 3, mode 'constant',
// prefilter on, grid_mode off) computed in the order scipy computes it
// (scipy/ndimage/src/ni_splines.c, ni_interpolation.c), so that the heights
// agree to the last bit.
#ifndef ENVPOOL_DM_CONTROL_TERRAIN_H_
#define ENVPOOL_DM_CONTROL_TERRAIN_H_

#include <cmath>
#include <cstdint>
#include <vector>

namespace envpool::dm_control {

namespace terrain_detail {

// The pole of the cubic B-spline's recursive prefilter: sqrt(3) - 2.
constexpr double kCubicPole = -0.267949192431122706472553658494127633;

// One line of the cubic spline prefilter in place (mirror boundary, which
// scipy uses for mode 'constant'): the gain, then a causal and an
// anticausal first-order recursion, each started from its mirror sum.
inline void FilterLine(double* c, int n) {
  if (n <= 1) {
    return;
  }
  const double z = kCubicPole;
  double gain = 1.0;
  gain *= (1.0 - z) * (1.0 - 1.0 / z);
  for (int i = 0; i < n; ++i) {
    c[i] *= gain;
  }
  const double z_n_1 = std::pow(z, n - 1);
  double z_i = z;
  c[0] = c[0] + z_n_1 * c[n - 1];
  for (int i = 1; i < n - 1; ++i) {
    c[0] += z_i * (c[i] + z_n_1 * c[n - 1 - i]);
    z_i *= z;
  }
  c[0] /= 1 - z_n_1 * z_n_1;
  for (int i = 1; i < n; ++i) {
    c[i] += z * c[i - 1];
  }
  c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1);
  for (int i = n - 2; i >= 0; --i) {
    c[i] = z * (c[i + 1] - c[i]);
  }
}

// Where output sample k of an axis reads the coefficients: four indices
// (mirrored at the edges) and their cubic B-spline weights; `inside` is
// false where scipy's 'constant' mode gives cval (0).
struct Tap {
  bool inside = false;
  int index[4] = {0, 0, 0, 0};
  double weight[4] = {0.0, 0.0, 0.0, 0.0};
};

inline Tap MakeTap(double cc, int len) {
  Tap tap;
  if (cc < 0 || cc > len - 1) {
    return tap;
  }
  tap.inside = true;
  const auto start = static_cast<int64_t>(std::floor(cc)) - 1;
  for (int h = 0; h < 4; ++h) {
    int64_t idx = start + h;
    if (len <= 1) {
      idx = 0;
    } else {
      const int64_t s2 = 2 * static_cast<int64_t>(len) - 2;
      if (idx < 0) {
        idx = s2 * (-idx / s2) + idx;
        idx = idx <= 1 - len ? idx + s2 : -idx;
      } else if (idx >= len) {
        idx -= s2 * (idx / s2);
        if (idx >= len) {
          idx = s2 - idx;
        }
      }
    }
    tap.index[h] = static_cast<int>(idx);
  }
  const double x = cc - std::floor(cc);
  const double y = x;
  const double z = 1.0 - x;
  tap.weight[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
  tap.weight[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0;
  tap.weight[0] = z * z * z / 6.0;
  tap.weight[3] = 1.0;
  for (int i = 0; i < 3; ++i) {
    tap.weight[3] -= tap.weight[i];
  }
  return tap;
}

}  // namespace terrain_detail

// scipy.ndimage.zoom(input, zoom) of a rows x cols float64 array (row
// major), with scipy's defaults: order 3, mode 'constant' (cval 0),
// prefilter, grid_mode off. The output is round(rows * zoom) x
// round(cols * zoom).
inline std::vector<double> NdimageZoom(const std::vector<double>& input,
                                       int rows, int cols, double zoom,
                                       int* out_rows, int* out_cols) {
  using terrain_detail::FilterLine;
  using terrain_detail::MakeTap;
  using terrain_detail::Tap;
  // Python's round: half to even (the default rounding mode).
  const int orows = static_cast<int>(std::nearbyint(rows * zoom));
  const int ocols = static_cast<int>(std::nearbyint(cols * zoom));
  *out_rows = orows;
  *out_cols = ocols;
  // The spline coefficients: the prefilter along axis 0, then axis 1.
  std::vector<double> c(input);
  std::vector<double> line(rows);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      line[i] = c[static_cast<std::size_t>(i) * cols + j];
    }
    FilterLine(line.data(), rows);
    for (int i = 0; i < rows; ++i) {
      c[static_cast<std::size_t>(i) * cols + j] = line[i];
    }
  }
  for (int i = 0; i < rows; ++i) {
    FilterLine(c.data() + static_cast<std::size_t>(i) * cols, cols);
  }
  // Output sample k of an axis sits at input coordinate k * (in - 1) /
  // (out - 1).
  auto taps = [](int in, int out) {
    const double ratio = out - 1 != 0 ? static_cast<double>(in - 1) /
                                            static_cast<double>(out - 1)
                                      : 1.0;
    std::vector<Tap> result(out);
    for (int k = 0; k < out; ++k) {
      result[k] = MakeTap(static_cast<double>(k) * ratio, in);
    }
    return result;
  };
  const std::vector<Tap> row_taps = taps(rows, orows);
  const std::vector<Tap> col_taps = taps(cols, ocols);
  std::vector<double> out(static_cast<std::size_t>(orows) * ocols, 0.0);
  for (int r = 0; r < orows; ++r) {
    const Tap& tr = row_taps[r];
    for (int k = 0; k < ocols; ++k) {
      const Tap& tc = col_taps[k];
      if (!tr.inside || !tc.inside) {
        continue;
      }
      double t = 0.0;
      for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) {
          double coeff =
              c[static_cast<std::size_t>(tr.index[a]) * cols + tc.index[b]];
          coeff *= tr.weight[a];
          coeff *= tc.weight[b];
          t += coeff;
        }
      }
      out[static_cast<std::size_t>(r) * ocols + k] = t;
    }
  }
  return out;
}

// Escape's terrain heights (res x res, row major) from the bump draws
// (bump_res x bump_res, uniform(smoothness, 1)): the bowl
// .5 - cos(2 pi clip(radius, .04, 1)) / 2 over np.ogrid[-1:1:res*1j] times
// ndimage.zoom(bumps, res / bump_res).
inline std::vector<double> EscapeTerrain(const std::vector<double>& bumps,
                                         int bump_res, int res) {
  int rows = 0;
  int cols = 0;
  const std::vector<double> smooth = NdimageZoom(
      bumps, bump_res, bump_res,
      static_cast<double>(res) / static_cast<double>(bump_res), &rows, &cols);
  std::vector<double> terrain(static_cast<std::size_t>(res) * res);
  const double step = 2.0 / static_cast<double>(res - 1);
  for (int r = 0; r < res; ++r) {
    const double row = static_cast<double>(r) * step + -1.0;
    for (int k = 0; k < res; ++k) {
      const double col = static_cast<double>(k) * step + -1.0;
      double radius = std::sqrt(col * col + row * row);
      radius = std::fmin(std::fmax(radius, 0.04), 1.0);
      const double bowl = .5 - std::cos(2 * M_PI * radius) / 2;
      const std::size_t i = static_cast<std::size_t>(r) * res + k;
      terrain[i] = bowl * smooth[i];
    }
  }
  return terrain;
}

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_TERRAIN_H_
