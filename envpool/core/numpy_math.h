// numpy's arithmetic where the order of floating-point operations decides
// the last bits, for families whose reference computes with numpy.
#ifndef ENVPOOL_CORE_NUMPY_MATH_H_
#define ENVPOOL_CORE_NUMPY_MATH_H_

namespace envpool::numpy {

// numpy's pairwise summation of float64 (its add.reduce kernel, what
// `np.sum` of a contiguous array does): fewer than 8 numbers are added in
// order; blocks of up to 128 are summed in eight interleaved partial sums,
// combined as a tree, then the remainder in order; longer arrays are split
// at half (rounded down to a multiple of 8) and the halves summed so.
inline double PairwiseSum(const double* x, int n) {
  if (n < 8) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
      sum += x[i];
    }
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) {
      r[j] = x[j];
    }
    int i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) {
        r[j] += x[i + j];
      }
    }
    double sum =
        ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) {
      sum += x[i];
    }
    return sum;
  }
  int half = n / 2;
  half -= half % 8;
  return PairwiseSum(x, half) + PairwiseSum(x + half, n - half);
}

}  // namespace envpool::numpy

#endif  // ENVPOOL_CORE_NUMPY_MATH_H_
