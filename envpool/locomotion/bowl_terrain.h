// dm_control 1.0.50's bowl arena (locomotion/arenas/bowl.py): the terrain of
// an episode, a sinusoidal bowl times smooth random bumps, the bumps drawn
// with random_state.uniform on a coarse grid and upsampled with
// scipy.ndimage.zoom. The zoom is scipy 1.17's cubic B-spline (prefilter,
// mode 'constant', grid_mode False), computed here in scipy's order of
// operations so that the heightfield is the reference's bit for bit.
#ifndef ENVPOOL_LOCOMOTION_BOWL_TERRAIN_H_
#define ENVPOOL_LOCOMOTION_BOWL_TERRAIN_H_

#include <vector>

#include "envpool/core/random.h"

namespace envpool::locomotion {

// scipy.ndimage.zoom(input, zoom, order=3) of a rows x cols float64 array
// (row-major) to out_rows x out_cols, the output shape scipy derives from
// `zoom` (round(rows * zoom)).
std::vector<double> SplineZoom(const std::vector<double>& input, int rows,
                               int cols, int out_rows, int out_cols);

// Bowl.initialize_episode's terrain for a res x res heightfield whose half
// size is `half_size` (the hfield's size[0]): res * res values, row-major,
// drawing (size / 0.2)^2 bumps from `random`.
std::vector<double> BowlTerrain(int res, double half_size,
                                random::RandomState* random);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_BOWL_TERRAIN_H_
