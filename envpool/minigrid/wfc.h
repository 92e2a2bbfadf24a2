// The WFC levels (MiniGrid-WFC-*): minigrid 3.2.0's WFCEnv, a layout made by
// Wave Function Collapse from a small pattern image, then reduced to its
// largest connected open area with a start and a goal.
//
// minigrid's steps, reproduced draw for draw:
//  - the pattern catalogue (wfclogic/tiles.py, patterns.py, adjacency.py):
//    every pixel a tile, named by its hash (hash_downto: the inner product
//    with RandomState(0).randint(1 - 2**63, 2**63, n, int64), wrapping);
//    every pattern_width square of the image (wrapped at the edges) in each
//    of the 8 reflections and rotations a pattern, named by its hash;
//    patterns are numbered in increasing hash, weighted by the number of the
//    8 transformed images they occur in; two patterns may sit side by side
//    where their overlap agrees;
//  - the solver (wfclogic/solver.py): a preference per cell
//    (np_random.random(shape) * 0.1, drawn once per layout), then, until
//    every cell holds one pattern: propagate; collapse the undecided cell of
//    least preference + number of patterns left (the first such cell in row
//    order; cell (0, 0) when none is left undecided) to a pattern drawn by
//    np_random.choice(p=weights of the patterns left, normalised);
//    propagate. A contradiction (a cell with no pattern left) starts the
//    layout over, up to 1000 times. Propagation keeps a pattern in a cell
//    while every neighbour (wrapped where the preset's output is periodic,
//    any pattern beyond the edge otherwise) holds a pattern it may sit
//    beside: the greatest such sub-wave, which is unique, so computing it
//    cell by cell gives numpy's fixed point;
//  - wfcenv.py: a cell is a wall where its pattern's first tile has a red
//    value of 0 (`pattern == (0, 0, 0)` compares channels one by one, and
//    only channel 0 is kept); with ensure_connected only the largest
//    connected open area stays open (the first found in row order among
//    equals; networkx's connected_components); start and goal are the first
//    two of np_random.permutation(n) over its cells in networkx's order;
//    the agent's direction is _rand_int(0, 4); the grid is bordered by walls.
//
// networkx orders the cells of the kept area as the subgraph view iterates
// them: in row order when the area holds at least half of the open cells,
// otherwise in the order of a Python set of (row, column) tuples, which
// PySetOrder reproduces (CPython's tuple hash and set table).
#ifndef ENVPOOL_MINIGRID_WFC_H_
#define ENVPOOL_MINIGRID_WFC_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/random.h"
#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/wfc_pattern_pixels.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// The six presets minigrid registers (WFC_PRESETS), by name.
inline const WfcPatternImage* FindWfcPreset(const std::string& name) {
  for (const WfcPatternImage& image : kWfcPatternImages) {
    if (name == image.preset) {
      return &image;
    }
  }
  return nullptr;
}

inline std::string WfcPresetNames() {
  std::string names;
  for (const WfcPatternImage& image : kWfcPatternImages) {
    names += (names.empty() ? "" : ", ") + std::string(image.preset);
  }
  return names;
}

// One preset's patterns: at most 64, so a cell's possible patterns are the
// bits of one word (the six presets have 5 to 42).
struct WfcCatalog {
  static constexpr int kMaxPatterns = 64;
  // minigrid's direction_offsets (dx, dy): dx moves along the wave's rows,
  // dy along its columns.
  static constexpr std::array<std::array<int, 2>, 4> kOffsets = {
      {{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};

  int num_patterns = 0;
  bool periodic = false;
  std::vector<double> weights;
  // compatible[d][j]: the patterns i that may have pattern j at offset d.
  std::array<std::vector<uint64_t>, 4> compatible;
  // The patterns with any neighbour at offset d (the support a cell gets
  // from beyond the edge of a non-periodic output).
  std::array<uint64_t, 4> any_neighbour{};
  // Whether the pattern's first tile is a wall (red value 0).
  std::vector<bool> wall;
  uint64_t all = 0;
};

namespace wfc_internal {

// hash_downto's vector: RandomState(0).randint(1 - 2**63, 2**63, n,
// dtype=int64), masked rejection over a range of 2**64 - 2.
inline std::vector<uint64_t> HashVector(size_t n) {
  random::RandomState state(uint32_t{0});
  constexpr uint64_t kRange = ~uint64_t{0} - 1;
  constexpr uint64_t kLow = uint64_t{1} + (uint64_t{1} << 63);  // 1 - 2**63
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) {
    uint64_t draw = 0;
    do {
      draw = state.bit_generator().NextUint64();
    } while (draw > kRange);
    x = kLow + draw;
  }
  return v;
}

struct TileGrid {
  int rows = 0;
  int cols = 0;
  std::vector<int64_t> codes;
  int64_t At(int r, int c) const {
    return codes[static_cast<size_t>(r) * cols + c];
  }
};

inline TileGrid FlipLeftRight(const TileGrid& g) {
  TileGrid out = g;
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      out.codes[static_cast<size_t>(r) * g.cols + c] = g.At(r, g.cols - 1 - c);
    }
  }
  return out;
}

// np.rot90(g, axes=(1, 0)): a quarter turn clockwise.
inline TileGrid RotateClockwise(const TileGrid& g) {
  TileGrid out;
  out.rows = g.cols;
  out.cols = g.rows;
  out.codes.resize(g.codes.size());
  for (int i = 0; i < out.rows; ++i) {
    for (int j = 0; j < out.cols; ++j) {
      out.codes[static_cast<size_t>(i) * out.cols + j] =
          g.At(g.rows - 1 - j, i);
    }
  }
  return out;
}

inline WfcCatalog BuildCatalog(const WfcPatternImage& image) {
  const int k = image.pattern_width;
  const std::vector<uint64_t> v = HashVector(static_cast<size_t>(k) * k);
  // Tiles: one pixel each, named by the hash of its (r, g, b).
  TileGrid grid;
  grid.rows = image.height;
  grid.cols = image.width;
  std::map<int64_t, bool> tile_is_wall;
  for (int p = 0; p < image.height * image.width; ++p) {
    const uint8_t* rgb = image.rgb + 3 * p;
    const uint64_t code = rgb[0] * v[0] + rgb[1] * v[1] + rgb[2] * v[2];
    grid.codes.push_back(static_cast<int64_t>(code));
    tile_is_wall[static_cast<int64_t>(code)] = rgb[0] == 0;
  }
  // Patterns of the 8 transformed images: identity, then reflect and rotate
  // in turn, each applied to the previous image.
  std::map<int64_t, int> frequency;
  std::map<int64_t, std::vector<int64_t>> contents;
  for (int t = 0; t < 8; ++t) {
    if (t > 0) {
      grid = t % 2 == 1 ? FlipLeftRight(grid) : RotateClockwise(grid);
    }
    std::map<int64_t, bool> seen;
    for (int i = 0; i < grid.rows; ++i) {
      for (int j = 0; j < grid.cols; ++j) {
        std::vector<int64_t> patch(static_cast<size_t>(k) * k);
        uint64_t code = 0;
        for (int a = 0; a < k; ++a) {
          for (int b = 0; b < k; ++b) {
            const int64_t tile =
                grid.At((i + a) % grid.rows, (j + b) % grid.cols);
            patch[a * k + b] = tile;
            code += static_cast<uint64_t>(tile) * v[a * k + b];
          }
        }
        const auto key = static_cast<int64_t>(code);
        if (!seen[key]) {
          seen[key] = true;
          ++frequency[key];
          contents[key] = std::move(patch);
        }
      }
    }
  }
  WfcCatalog catalog;
  catalog.periodic = image.periodic;
  catalog.num_patterns = static_cast<int>(frequency.size());
  if (catalog.num_patterns > WfcCatalog::kMaxPatterns) {
    throw std::logic_error(std::string("WFC preset ") + image.preset + " has " +
                           std::to_string(catalog.num_patterns) +
                           " patterns; at most 64 are supported");
  }
  std::vector<const std::vector<int64_t>*> patterns;
  for (const auto& [code, count] : frequency) {  // increasing hash
    catalog.weights.push_back(count);
    patterns.push_back(&contents[code]);
    catalog.wall.push_back(tile_is_wall[contents[code][0]]);
  }
  const int n = catalog.num_patterns;
  catalog.all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  for (int d = 0; d < 4; ++d) {
    const int dx = WfcCatalog::kOffsets[d][0];
    const int dy = WfcCatalog::kOffsets[d][1];
    catalog.compatible[d].assign(n, 0);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        // adjacency_extraction's overlap test: pattern i at the origin,
        // pattern j shifted by (dx columns, dy rows).
        bool legal = true;
        for (int r = std::max(0, dy); legal && r < std::min(k, k + dy); ++r) {
          for (int c = std::max(0, dx); c < std::min(k, k + dx); ++c) {
            if ((*patterns[i])[r * k + c] !=
                (*patterns[j])[(r - dy) * k + (c - dx)]) {
              legal = false;
              break;
            }
          }
        }
        if (legal) {
          catalog.compatible[d][j] |= uint64_t{1} << i;
          catalog.any_neighbour[d] |= uint64_t{1} << i;
        }
      }
    }
  }
  return catalog;
}

// CPython's hash of a tuple of two small ints (the xxHash-based tuple hash
// of CPython 3.8 and later, 64-bit).
inline uint64_t PyTupleHash(int64_t a, int64_t b) {
  constexpr uint64_t kPrime1 = 11400714785074694791ULL;
  constexpr uint64_t kPrime2 = 14029467366897019727ULL;
  constexpr uint64_t kPrime5 = 2870177450012600261ULL;
  uint64_t acc = kPrime5;
  for (int64_t item : {a, b}) {
    const uint64_t lane = static_cast<uint64_t>(item == -1 ? -2 : item);
    acc += lane * kPrime2;
    acc = (acc << 31) | (acc >> 33);
    acc *= kPrime1;
  }
  acc += 2 ^ (kPrime5 ^ 3527539ULL);
  if (acc == ~uint64_t{0}) {
    return 1546275796;
  }
  return acc;
}

// The iteration order of a CPython set built by adding `keys` in order
// (setobject.c: linear probing over 9 slots, then perturbation; a table of
// 8 slots growing to the next power of two above 4 * used when 5 * fill
// reaches 3 * mask; a resize re-inserts the entries in table order).
inline std::vector<int> PySetOrder(const std::vector<uint64_t>& hashes) {
  constexpr size_t kLinearProbes = 9;
  constexpr int kPerturbShift = 5;
  size_t mask = 7;
  std::vector<int> table(mask + 1, -1);
  size_t fill = 0;
  auto insert = [&](std::vector<int>* slots, size_t table_mask, int key) {
    const uint64_t hash = hashes[key];
    uint64_t perturb = hash;
    size_t i = hash & table_mask;
    for (;;) {
      size_t probes = i + kLinearProbes <= table_mask ? kLinearProbes : 0;
      size_t j = i;
      for (;;) {
        if ((*slots)[j] == -1) {
          (*slots)[j] = key;
          return;
        }
        if (probes-- == 0) {
          break;
        }
        ++j;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & table_mask;
    }
  };
  for (int key = 0; key < static_cast<int>(hashes.size()); ++key) {
    insert(&table, mask, key);
    ++fill;
    if (fill * 5 >= mask * 3) {
      size_t size = 8;
      while (size <= fill * 4) {
        size <<= 1;
      }
      std::vector<int> grown(size, -1);
      for (int entry : table) {
        if (entry != -1) {
          insert(&grown, size - 1, entry);
        }
      }
      table = std::move(grown);
      mask = size - 1;
    }
  }
  std::vector<int> order;
  for (int entry : table) {
    if (entry != -1) {
      order.push_back(entry);
    }
  }
  return order;
}

}  // namespace wfc_internal

inline const WfcCatalog& CatalogFor(const WfcPatternImage& image) {
  static const std::vector<WfcCatalog> kCatalogs = [] {
    std::vector<WfcCatalog> catalogs;
    for (const WfcPatternImage& preset : kWfcPatternImages) {
      catalogs.push_back(wfc_internal::BuildCatalog(preset));
    }
    return catalogs;
  }();
  return kCatalogs[&image - kWfcPatternImages];
}

class WfcLevel : public Level {
 public:
  static constexpr int kMaxAttempts = 1000;

  explicit WfcLevel(const LevelConfig& c)
      : c_(c), image_(FindWfcPreset(c.wfc_preset)) {
    if (image_ == nullptr) {
      throw std::invalid_argument(
          "MiniGrid option 'wfc_preset' must be one of " + WfcPresetNames() +
          ", got '" + c.wfc_preset + "'");
    }
    max_steps_ = 20 * c.size;
  }

  void GenGrid() override {
    const WfcCatalog& catalog = CatalogFor(*image_);
    rows_ = c_.size - 2;
    cols_ = c_.size - 2;
    const int cells = rows_ * cols_;
    preference_.resize(cells);
    for (double& p : preference_) {
      p = rng_->Random() * 0.1;
    }
    bool solved = false;
    for (int attempt = 0; attempt < kMaxAttempts && !solved; ++attempt) {
      solved = Solve(catalog);
    }
    if (!solved) {
      throw std::runtime_error(
          "WFC found no layout in " + std::to_string(kMaxAttempts) +
          " attempts (minigrid raises 'Could not generate a valid pattern')");
    }
    std::vector<bool> open(cells);
    for (int cell = 0; cell < cells; ++cell) {
      const int pattern = __builtin_ctzll(wave_[cell]);
      open[cell] = !catalog.wall[pattern];
    }
    std::vector<int> order =
        c_.ensure_connected ? LargestArea(&open) : OpenCells(open);
    if (order.size() < 2) {
      throw std::runtime_error(
          "the WFC layout has fewer than two connected open cells");
    }
    const std::vector<int64_t> perm =
        rng_->Permutation(static_cast<int64_t>(order.size()));
    const int start = order[perm[0]];
    const int goal = order[perm[1]];
    NewGrid(c_.size, c_.size);
    for (int x = 0; x < c_.size; ++x) {
      for (int y = 0; y < c_.size; ++y) {
        const bool border =
            x == 0 || y == 0 || x == c_.size - 1 || y == c_.size - 1;
        if (border || !open[(x - 1) * cols_ + (y - 1)]) {
          Set(x, y, NewWall());
        }
      }
    }
    Set(goal / cols_ + 1, goal % cols_ + 1, NewGoal());
    agent_dir_ = static_cast<int>(RandInt(0, 4));
    agent_pos_ = {start / cols_ + 1, start % cols_ + 1};
    mission_ = "traverse the maze to get to the goal";
  }

 private:
  // One attempt of minigrid's run(): true with wave_ solved, false on a
  // contradiction.
  bool Solve(const WfcCatalog& catalog) {
    const int cells = rows_ * cols_;
    wave_.assign(cells, catalog.all);
    queued_.assign(cells, 1);
    queue_.clear();
    for (int cell = 0; cell < cells; ++cell) {
      queue_.push_back(cell);
    }
    if (!catalog.periodic) {
      // Beyond the edge every pattern is possible: a border cell keeps the
      // patterns with any neighbour that way.
      for (int cell = 0; cell < cells; ++cell) {
        const int x = cell / cols_;
        const int y = cell % cols_;
        for (int d = 0; d < 4; ++d) {
          const int nx = x + WfcCatalog::kOffsets[d][0];
          const int ny = y + WfcCatalog::kOffsets[d][1];
          if (nx < 0 || ny < 0 || nx >= rows_ || ny >= cols_) {
            wave_[cell] &= catalog.any_neighbour[d];
          }
        }
        if (wave_[cell] == 0) {
          return false;
        }
      }
    }
    for (;;) {
      bool all_decided = true;
      for (uint64_t w : wave_) {
        if ((w & (w - 1)) != 0) {
          all_decided = false;
          break;
        }
      }
      if (all_decided) {
        return true;
      }
      if (!Propagate(catalog)) {
        return false;
      }
      int chosen = 0;
      double least = 0.0;
      bool found = false;
      for (int cell = 0; cell < cells; ++cell) {
        const int count = __builtin_popcountll(wave_[cell]);
        if (count > 1) {
          const double weight = preference_[cell] + count;
          if (!found || weight < least) {
            least = weight;
            chosen = cell;
            found = true;
          }
        }
      }
      const int pattern = ChoosePattern(catalog, wave_[chosen]);
      wave_[chosen] = uint64_t{1} << pattern;
      if (!queued_[chosen]) {
        queued_[chosen] = 1;
        queue_.push_back(chosen);
      }
      if (!Propagate(catalog)) {
        return false;
      }
    }
  }

  // np_random.choice(n, p=weights * wave / sum): cumulative sum, normalised
  // by its last value, searched (right) for one random().
  int ChoosePattern(const WfcCatalog& catalog, uint64_t possible) {
    const int n = catalog.num_patterns;
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
      if ((possible >> i) & 1) {
        total += catalog.weights[i];  // whole numbers: exact in any order
      }
    }
    std::array<double, WfcCatalog::kMaxPatterns> cdf{};
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
      const double p = ((possible >> i) & 1) ? catalog.weights[i] / total : 0.0;
      sum += p;
      cdf[i] = sum;
    }
    const double last = cdf[n - 1];
    for (int i = 0; i < n; ++i) {
      cdf[i] /= last;
    }
    const double u = rng_->Random();
    return static_cast<int>(std::upper_bound(cdf.begin(), cdf.begin() + n, u) -
                            cdf.begin());
  }

  // Removes the patterns that lost their support from the cells next to the
  // queued ones, until nothing changes; false on an emptied cell.
  bool Propagate(const WfcCatalog& catalog) {
    while (!queue_.empty()) {
      const int cell = queue_.back();
      queue_.pop_back();
      queued_[cell] = 0;
      const int x = cell / cols_;
      const int y = cell % cols_;
      const uint64_t here = wave_[cell];
      for (int d = 0; d < 4; ++d) {
        // The cell whose neighbour at offset d is this one.
        int ox = x - WfcCatalog::kOffsets[d][0];
        int oy = y - WfcCatalog::kOffsets[d][1];
        if (catalog.periodic) {
          ox = (ox + rows_) % rows_;
          oy = (oy + cols_) % cols_;
        } else if (ox < 0 || oy < 0 || ox >= rows_ || oy >= cols_) {
          continue;
        }
        uint64_t supported = 0;
        for (uint64_t bits = here; bits != 0; bits &= bits - 1) {
          supported |= catalog.compatible[d][__builtin_ctzll(bits)];
        }
        const int other = ox * cols_ + oy;
        const uint64_t kept = wave_[other] & supported;
        if (kept != wave_[other]) {
          if (kept == 0) {
            return false;
          }
          wave_[other] = kept;
          if (!queued_[other]) {
            queued_[other] = 1;
            queue_.push_back(other);
          }
        }
      }
    }
    return true;
  }

  // The open cells in row order (ensure_connected=False).
  static std::vector<int> OpenCells(const std::vector<bool>& open) {
    std::vector<int> cells;
    for (int cell = 0; cell < static_cast<int>(open.size()); ++cell) {
      if (open[cell]) {
        cells.push_back(cell);
      }
    }
    return cells;
  }

  // Closes every open cell outside the largest connected open area (the
  // first found, in row order, among equals; areas of one cell do not
  // count) and returns its cells in networkx's order.
  std::vector<int> LargestArea(std::vector<bool>* open) const {
    const int cells = rows_ * cols_;
    std::vector<int> area_of(cells, -1);
    std::vector<int> best;
    int num_open = 0;
    for (int first = 0; first < cells; ++first) {
      if (!(*open)[first]) {
        continue;
      }
      ++num_open;
      if (area_of[first] != -1) {
        continue;
      }
      std::vector<int> area = {first};
      area_of[first] = first;
      for (size_t k = 0; k < area.size(); ++k) {
        const int x = area[k] / cols_;
        const int y = area[k] % cols_;
        // networkx's adjacency order of grid cells here: up, left, down,
        // right (the order the grid's edges were added).
        const int next[4][2] = {{x - 1, y}, {x, y - 1}, {x + 1, y}, {x, y + 1}};
        for (const auto& [nx, ny] : next) {
          if (nx < 0 || ny < 0 || nx >= rows_ || ny >= cols_) {
            continue;
          }
          const int neighbour = nx * cols_ + ny;
          if ((*open)[neighbour] && area_of[neighbour] == -1) {
            area_of[neighbour] = first;
            area.push_back(neighbour);
          }
        }
      }
      // `area` is in breadth-first order: the order networkx's
      // _plain_bfs adds the cells to its set.
      if (area.size() > 1 && area.size() > best.size()) {
        best = std::move(area);
      }
    }
    if (best.empty()) {
      throw std::runtime_error(
          "the WFC layout has no two connected open cells (minigrid fails "
          "here too)");
    }
    const int keep = area_of[best[0]];
    for (int cell = 0; cell < cells; ++cell) {
      if ((*open)[cell] && area_of[cell] != keep) {
        (*open)[cell] = false;
      }
    }
    if (2 * static_cast<int>(best.size()) >= num_open) {
      return OpenCells(*open);
    }
    // The area is the smaller part of the open cells: networkx's subgraph
    // views iterate their node sets. The component's set (filled in BFS
    // order) is copied into the view's set, whose order fills the
    // component graph, whose order fills the final view's set.
    return SetOrder(SetOrder(SetOrder(best)));
  }

  // The cells in the iteration order of a Python set of (row, column)
  // tuples filled in the order given.
  std::vector<int> SetOrder(const std::vector<int>& cells) const {
    std::vector<uint64_t> hashes;
    for (int cell : cells) {
      hashes.push_back(wfc_internal::PyTupleHash(cell / cols_, cell % cols_));
    }
    std::vector<int> order;
    for (int index : wfc_internal::PySetOrder(hashes)) {
      order.push_back(cells[index]);
    }
    return order;
  }

  LevelConfig c_;
  const WfcPatternImage* image_;
  int rows_ = 0;
  int cols_ = 0;
  std::vector<double> preference_;
  std::vector<uint64_t> wave_;
  std::vector<int> queue_;
  std::vector<uint8_t> queued_;
};

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_WFC_H_
