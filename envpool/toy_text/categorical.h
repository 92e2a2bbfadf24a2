// gymnasium's toy_text `categorical_sample(prob_n, np_random)`, which
// FrozenLake, CliffWalking and Taxi draw every reset and every step through:
//
//   np.argmax(np.cumsum(prob_n) > np_random.random())
//
// One `random()` per call, even for a single outcome of probability 1.  The
// cumulative sum is numpy's, one addition after the other in float64, and the
// outcome is the first index whose sum exceeds the draw; when none does (a
// sum that rounds below 1 and a draw above it) numpy's argmax of an all-false
// array is 0, and so is ours.
#ifndef ENVPOOL_TOY_TEXT_CATEGORICAL_H_
#define ENVPOOL_TOY_TEXT_CATEGORICAL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "envpool/core/random.h"

namespace envpool::toy_text {

class Categorical {
 public:
  // The outcomes' probabilities, in the reference's order.
  explicit Categorical(std::vector<double> probabilities)
      : probabilities_(std::move(probabilities)),
        cumsum_(probabilities_.size()) {
    double sum = 0.0;
    for (std::size_t i = 0; i < probabilities_.size(); ++i) {
      sum += probabilities_[i];
      cumsum_[i] = sum;
    }
  }

  // The index of the outcome drawn, consuming one double of `np_random`.
  int64_t Sample(random::Generator& np_random) const {
    return Index(np_random.Random());
  }
  // The first index whose cumulative probability exceeds `draw`, else 0.
  // The sums never decrease (probabilities are not negative), so that index
  // is found by bisection.
  int64_t Index(double draw) const {
    const auto above = std::upper_bound(cumsum_.begin(), cumsum_.end(), draw);
    return above == cumsum_.end() ? 0 : above - cumsum_.begin();
  }

  double probability(int64_t index) const {
    return probabilities_[static_cast<std::size_t>(index)];
  }
  const std::vector<double>& cumsum() const { return cumsum_; }

 private:
  std::vector<double> probabilities_;
  std::vector<double> cumsum_;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_CATEGORICAL_H_
