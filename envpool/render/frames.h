// Image kernels of the pixel observations (Atari's preprocessing, ViZDoom's
// screens): resize, max-pool, frame stack.
//
// `Resizer` reproduces OpenCV's cv::resize on 8-bit images bit for bit (as
// measured against opencv-python 5.0 on x86-64), one channel plane at a time:
// each output element of OpenCV's interleaved multi-channel resize depends
// only on the same channel of the input, computed in the same order, so a
// planar resize gives the same bytes.
//   - INTER_AREA, downscaling in both axes by non-integer factors: every
//     output pixel is the area-weighted mean of the source pixels it covers.
//     Weights are float32 (computed in double), rows are accumulated
//     horizontally then vertically in float32, and the result is rounded to
//     nearest, ties to even.
//   - INTER_AREA, integer factors in both axes: block means; 2x2 blocks round
//     ties up ((a + b + c + d + 2) >> 2), other blocks multiply the integer
//     sum by the float32 1 / (block area) and round ties to even.
//   - INTER_LINEAR, and INTER_AREA when any axis is upscaled (OpenCV then
//     interpolates linearly with area-style coefficients): 11-bit fixed-point
//     coefficients; the horizontal pass is exact in int32, the vertical pass
//     drops 4 bits from each row, keeps the high 16 bits of each product and
//     rounds the sum of the two with (s + 2) >> 2.
//   - the same size: a copy.
#ifndef ENVPOOL_RENDER_FRAMES_H_
#define ENVPOOL_RENDER_FRAMES_H_

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace envpool::render {

class Resizer {
 public:
  Resizer() = default;
  Resizer(int src_height, int src_width, int dst_height, int dst_width,
          bool area)
      : src_h_(src_height),
        src_w_(src_width),
        dst_h_(dst_height),
        dst_w_(dst_width) {
    if (src_h_ < 1 || src_w_ < 1 || dst_h_ < 1 || dst_w_ < 1) {
      throw std::invalid_argument("image sizes must be positive");
    }
    if (src_h_ == dst_h_ && src_w_ == dst_w_) {
      kind_ = Kind::kCopy;
      return;
    }
    // OpenCV derives the scale from the inverse ratio, in double.
    double inv_scale_x = static_cast<double>(dst_w_) / src_w_;
    double inv_scale_y = static_cast<double>(dst_h_) / src_h_;
    double scale_x = 1.0 / inv_scale_x;
    double scale_y = 1.0 / inv_scale_y;
    int iscale_x = static_cast<int>(std::lrint(scale_x));
    int iscale_y = static_cast<int>(std::lrint(scale_y));
    bool integer_scale = std::abs(scale_x - iscale_x) < DBL_EPSILON &&
                         std::abs(scale_y - iscale_y) < DBL_EPSILON;
    if (!area && integer_scale && iscale_x == 2 && iscale_y == 2) {
      area = true;  // OpenCV takes the same path for a linear 2x2 decimation
    }
    if (area && scale_x >= 1 && scale_y >= 1) {
      if (integer_scale) {
        kind_ = (iscale_x == 2 && iscale_y == 2) ? Kind::kAreaHalf
                                                 : Kind::kAreaBlock;
        block_x_ = iscale_x;
        block_y_ = iscale_y;
        block_scale_ = 1.f / static_cast<float>(iscale_x * iscale_y);
      } else {
        kind_ = Kind::kArea;
        xtaps_ = DenseTaps(AreaTable(src_w_, dst_w_, scale_x), dst_w_, &xsrc_,
                           &xweight_);
        ytaps_ = DenseTaps(AreaTable(src_h_, dst_h_, scale_y), dst_h_, &ysrc_,
                           &yweight_);
        hbuf_.assign(static_cast<std::size_t>(src_h_) * dst_w_, 0.f);
        vsum_.assign(dst_w_, 0.f);
      }
      return;
    }
    kind_ = Kind::kLinear;
    LinearTables(area, scale_x, inv_scale_x, scale_y, inv_scale_y);
    hrows_[0].assign(dst_w_, 0);
    hrows_[1].assign(dst_w_, 0);
  }

  int src_height() const { return src_h_; }
  int src_width() const { return src_w_; }
  int dst_height() const { return dst_h_; }
  int dst_width() const { return dst_w_; }

  // Resizes one src_height x src_width plane into dst_height x dst_width.
  void Apply(const uint8_t* src, uint8_t* dst) {
    switch (kind_) {
      case Kind::kCopy:
        std::memcpy(dst, src, static_cast<std::size_t>(src_h_) * src_w_);
        return;
      case Kind::kAreaHalf:
        AreaHalf(src, dst);
        return;
      case Kind::kAreaBlock:
        AreaBlock(src, dst);
        return;
      case Kind::kArea:
        Area(src, dst);
        return;
      case Kind::kLinear:
        Linear(src, dst);
        return;
    }
  }

 private:
  enum class Kind { kCopy, kAreaHalf, kAreaBlock, kArea, kLinear };

  // One source pixel's weight in one output pixel.
  struct Tap {
    int dst;
    int src;
    float weight;
  };

  // cvRound: to nearest, ties to even (the default FP rounding mode).
  static int Round(float v) {
#if defined(__SSE__)
    return _mm_cvtss_si32(_mm_set_ss(v));
#else
    return static_cast<int>(std::nearbyint(v));
#endif
  }

  static uint8_t RoundToUInt8(float v) {
    return static_cast<uint8_t>(std::clamp(Round(v), 0, 255));
  }

  static std::vector<Tap> AreaTable(int src_size, int dst_size, double scale) {
    std::vector<Tap> taps;
    for (int d = 0; d < dst_size; ++d) {
      double f1 = d * scale;
      double f2 = f1 + scale;
      double cell = std::min(scale, src_size - f1);
      int s1 = static_cast<int>(std::ceil(f1));
      int s2 = static_cast<int>(std::floor(f2));
      s2 = std::min(s2, src_size - 1);
      s1 = std::min(s1, s2);
      if (s1 - f1 > 1e-3) {
        taps.push_back({d, s1 - 1, static_cast<float>((s1 - f1) / cell)});
      }
      for (int s = s1; s < s2; ++s) {
        taps.push_back({d, s, static_cast<float>(1.0 / cell)});
      }
      if (f2 - s2 > 1e-3) {
        taps.push_back({d, s2,
                        static_cast<float>(
                            std::min(std::min(f2 - s2, 1.0), cell) / cell)});
      }
    }
    return taps;
  }

  // Taps as a dense (outputs x taps_per_output) table.  Outputs with fewer
  // taps get zero-weight taps after their own: adding +0 to a non-negative
  // float sum leaves it unchanged, so the sums stay OpenCV's exactly.
  static int DenseTaps(const std::vector<Tap>& taps, int dst_size,
                       std::vector<int>* src, std::vector<float>* weight) {
    std::vector<int> count(dst_size, 0);
    for (const Tap& t : taps) {
      ++count[t.dst];
    }
    int width = *std::max_element(count.begin(), count.end());
    src->assign(static_cast<std::size_t>(dst_size) * width, 0);
    weight->assign(static_cast<std::size_t>(dst_size) * width, 0.f);
    std::fill(count.begin(), count.end(), 0);
    for (const Tap& t : taps) {
      std::size_t k = static_cast<std::size_t>(t.dst) * width + count[t.dst]++;
      (*src)[k] = t.src;
      (*weight)[k] = t.weight;
    }
    for (int d = 0; d < dst_size; ++d) {
      for (int j = count[d]; j < width; ++j) {
        std::size_t k = static_cast<std::size_t>(d) * width + j;
        (*src)[k] = (*src)[k - 1];
      }
    }
    return width;
  }

  // As OpenCV: each source row is first reduced horizontally (taps summed in
  // order from 0), then each output row sums its source rows times their
  // weights, in order, in float32.
  // One source row reduced horizontally: each output sums its taps in
  // order from 0, as OpenCV does.
  template <int kTaps>
  void HorizontalArea(const uint8_t* row, float* out) const {
    const int taps = kTaps > 0 ? kTaps : xtaps_;
    const int* tap_src = xsrc_.data();
    const float* tap_weight = xweight_.data();
    for (int dx = 0; dx < dst_w_; ++dx) {
      float sum = 0.f;
      if constexpr (kTaps == 3) {
        sum += static_cast<float>(row[tap_src[0]]) * tap_weight[0];
        sum += static_cast<float>(row[tap_src[1]]) * tap_weight[1];
        sum += static_cast<float>(row[tap_src[2]]) * tap_weight[2];
      } else {
        for (int j = 0; j < taps; ++j) {
          sum += static_cast<float>(row[tap_src[j]]) * tap_weight[j];
        }
      }
      out[dx] = sum;
      tap_src += taps;
      tap_weight += taps;
    }
  }

  void Area(const uint8_t* src, uint8_t* dst) {
    float* hbuf = hbuf_.data();
    for (int sy = 0; sy < src_h_; ++sy) {
      const uint8_t* row = src + static_cast<std::size_t>(sy) * src_w_;
      float* out = hbuf + static_cast<std::size_t>(sy) * dst_w_;
      // Screens repeat rows a lot; an equal row reduces to equal sums.
      if (sy > 0 && std::memcmp(row, row - src_w_, src_w_) == 0) {
        std::memcpy(out, out - dst_w_, sizeof(float) * dst_w_);
      } else if (xtaps_ == 3) {
        HorizontalArea<3>(row, out);
      } else {
        HorizontalArea<0>(row, out);
      }
    }
    float* vsum = vsum_.data();
    for (int dy = 0; dy < dst_h_; ++dy) {
      const int* rows = ysrc_.data() + static_cast<std::size_t>(dy) * ytaps_;
      const float* weights =
          yweight_.data() + static_cast<std::size_t>(dy) * ytaps_;
      const float* h0 = hbuf + static_cast<std::size_t>(rows[0]) * dst_w_;
      float w0 = weights[0];
      for (int dx = 0; dx < dst_w_; ++dx) {
        vsum[dx] = w0 * h0[dx];
      }
      for (int j = 1; j < ytaps_; ++j) {
        const float* h = hbuf + static_cast<std::size_t>(rows[j]) * dst_w_;
        float w = weights[j];
        for (int dx = 0; dx < dst_w_; ++dx) {
          vsum[dx] += w * h[dx];
        }
      }
      uint8_t* out = dst + static_cast<std::size_t>(dy) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        out[dx] = RoundToUInt8(vsum[dx]);
      }
    }
  }

  void AreaHalf(const uint8_t* src, uint8_t* dst) const {
    for (int dy = 0; dy < dst_h_; ++dy) {
      const uint8_t* r0 = src + static_cast<std::size_t>(2 * dy) * src_w_;
      const uint8_t* r1 = r0 + src_w_;
      uint8_t* out = dst + static_cast<std::size_t>(dy) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        int s = r0[2 * dx] + r0[2 * dx + 1] + r1[2 * dx] + r1[2 * dx + 1];
        out[dx] = static_cast<uint8_t>((s + 2) >> 2);
      }
    }
  }

  void AreaBlock(const uint8_t* src, uint8_t* dst) const {
    for (int dy = 0; dy < dst_h_; ++dy) {
      uint8_t* out = dst + static_cast<std::size_t>(dy) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        int s = 0;
        for (int by = 0; by < block_y_; ++by) {
          const uint8_t* row =
              src + static_cast<std::size_t>(dy * block_y_ + by) * src_w_ +
              static_cast<std::size_t>(dx) * block_x_;
          for (int bx = 0; bx < block_x_; ++bx) {
            s += row[bx];
          }
        }
        out[dx] = RoundToUInt8(static_cast<float>(s) * block_scale_);
      }
    }
  }

  static int16_t Coefficient(float c) {
    return static_cast<int16_t>(std::clamp(Round(c * 2048.f), -32768, 32767));
  }

  // Source position and fraction of output index d along one axis.
  static void LinearPosition(int d, bool area, double scale, double inv_scale,
                             int* s, float* f) {
    if (!area) {
      float pos = static_cast<float>((d + 0.5) * scale - 0.5);
      *s = static_cast<int>(std::floor(pos));
      *f = pos - static_cast<float>(*s);
    } else {
      *s = static_cast<int>(std::floor(d * scale));
      float frac = static_cast<float>((d + 1) - (*s + 1) * inv_scale);
      *f = frac <= 0 ? 0.f : frac - std::floor(frac);
    }
  }

  void LinearTables(bool area, double scale_x, double inv_scale_x,
                    double scale_y, double inv_scale_y) {
    xofs_.resize(dst_w_);
    xalpha_.resize(2 * static_cast<std::size_t>(dst_w_));
    xmax_ = dst_w_;
    for (int dx = 0; dx < dst_w_; ++dx) {
      int sx;
      float fx;
      LinearPosition(dx, area, scale_x, inv_scale_x, &sx, &fx);
      if (sx < 0) {
        fx = 0, sx = 0;
      }
      if (sx + 1 >= src_w_) {
        xmax_ = std::min(xmax_, dx);
        if (sx >= src_w_ - 1) {
          fx = 0, sx = src_w_ - 1;
        }
      }
      xofs_[dx] = sx;
      xalpha_[2 * dx] = Coefficient(1.f - fx);
      xalpha_[2 * dx + 1] = Coefficient(fx);
    }
    yrows_.resize(2 * static_cast<std::size_t>(dst_h_));
    ybeta_.resize(2 * static_cast<std::size_t>(dst_h_));
    for (int dy = 0; dy < dst_h_; ++dy) {
      int sy;
      float fy;
      LinearPosition(dy, area, scale_y, inv_scale_y, &sy, &fy);
      // Rows outside the image repeat the border row; the fraction is kept.
      yrows_[2 * dy] = std::clamp(sy, 0, src_h_ - 1);
      yrows_[2 * dy + 1] = std::clamp(sy + 1, 0, src_h_ - 1);
      ybeta_[2 * dy] = Coefficient(1.f - fy);
      ybeta_[2 * dy + 1] = Coefficient(fy);
    }
  }

  void HorizontalLinear(const uint8_t* row, int32_t* out) const {
    int dx = 0;
    for (; dx < xmax_; ++dx) {
      const uint8_t* p = row + xofs_[dx];
      out[dx] = p[0] * xalpha_[2 * dx] + p[1] * xalpha_[2 * dx + 1];
    }
    for (; dx < dst_w_; ++dx) {
      out[dx] = row[xofs_[dx]] * 2048;
    }
  }

  // The high 16 bits of (s >> 4) * b, as OpenCV's vector path computes them
  // (s <= 255 * 2049, so s >> 4 fits the int16 it packs into).
  static int32_t MulHigh(int32_t s, int16_t b) { return ((s >> 4) * b) >> 16; }

  // The slot of the cached horizontal pass of source row `row`, computed
  // if needed into the slot that does not hold `keep`.
  int CachedRow(const uint8_t* src, int row, int keep) {
    for (int slot = 0; slot < 2; ++slot) {
      if (cached_rows_[slot] == row) {
        return slot;
      }
    }
    int slot = cached_rows_[0] == keep ? 1 : 0;
    const uint8_t* pixels = src + static_cast<std::size_t>(row) * src_w_;
    int other = cached_rows_[1 - slot];
    // Screens repeat rows a lot; an equal row gives equal sums.
    if (other >= 0 &&
        std::memcmp(pixels, src + static_cast<std::size_t>(other) * src_w_,
                    src_w_) == 0) {
      hrows_[slot] = hrows_[1 - slot];
    } else {
      HorizontalLinear(pixels, hrows_[slot].data());
    }
    cached_rows_[slot] = row;
    return slot;
  }

  void Linear(const uint8_t* src, uint8_t* dst) {
    cached_rows_[0] = cached_rows_[1] = -1;
    for (int dy = 0; dy < dst_h_; ++dy) {
      int r0 = yrows_[2 * dy];
      int r1 = yrows_[2 * dy + 1];
      const int32_t* row0 = hrows_[CachedRow(src, r0, r1)].data();
      const int32_t* row1 = hrows_[CachedRow(src, r1, r0)].data();
      int16_t b0 = ybeta_[2 * dy];
      int16_t b1 = ybeta_[2 * dy + 1];
      uint8_t* out = dst + static_cast<std::size_t>(dy) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        int32_t v = (MulHigh(row0[dx], b0) + MulHigh(row1[dx], b1) + 2) >> 2;
        out[dx] = static_cast<uint8_t>(std::clamp(v, 0, 255));
      }
    }
  }

  int src_h_ = 0, src_w_ = 0, dst_h_ = 0, dst_w_ = 0;
  Kind kind_ = Kind::kCopy;
  // kAreaHalf / kAreaBlock
  int block_x_ = 0, block_y_ = 0;
  float block_scale_ = 0.f;
  // kArea
  int xtaps_ = 0, ytaps_ = 0;
  std::vector<int> xsrc_, ysrc_;
  std::vector<float> xweight_, yweight_;
  std::vector<float> hbuf_, vsum_;
  // kLinear
  std::vector<int> xofs_, yrows_;
  std::vector<int16_t> xalpha_, ybeta_;
  int xmax_ = 0;
  std::vector<int32_t> hrows_[2];
  int cached_rows_[2] = {-1, -1};
};

// The screen seen by the agent: the emulator's palette-index screens turned
// into gray or RGB planes through the palette, max-pooled over the last two
// frames of a step.  The second-to-last screen is kept as palette indices
// and converted while pooling, so each pixel is looked up once per frame.
class FramePool {
 public:
  FramePool(int channels, std::size_t pixels)
      : channels_(channels),
        pixels_(pixels),
        frame_(static_cast<std::size_t>(channels) * pixels, 0),
        previous_(pixels, 0) {}

  // One lookup table per channel: palette index -> value.
  void SetPalette(int channel, const uint8_t (&table)[256]) {
    std::memcpy(palette_[channel], table, 256);
  }

  // Starts over from `screen`, with a blank (all zero) frame before it.
  void Reset(const uint8_t* screen) {
    Convert(screen);
    previous_blank_ = true;
  }

  // Keeps the second-to-last frame of a step.
  void KeepPrevious(const uint8_t* screen) {
    std::memcpy(previous_.data(), screen, pixels_);
    previous_blank_ = false;
  }

  // The last frame of a step, max-pooled with the kept one when `pool`.
  void PoolLast(const uint8_t* screen, bool pool) {
    if (!pool || previous_blank_) {
      Convert(screen);
      return;
    }
    for (int c = 0; c < channels_; ++c) {
      const uint8_t* table = palette_[c];
      uint8_t* out = frame_.data() + c * pixels_;
      for (std::size_t i = 0; i < pixels_; ++i) {
        out[i] = std::max(table[screen[i]], table[previous_[i]]);
      }
    }
  }

  // A step cut short before its last frame: pools what is held, the last
  // frame (itself pooled) and the kept frame, as gymnasium's buffers do.
  void PoolStale() {
    if (previous_blank_) {
      return;
    }
    for (int c = 0; c < channels_; ++c) {
      const uint8_t* table = palette_[c];
      uint8_t* out = frame_.data() + c * pixels_;
      for (std::size_t i = 0; i < pixels_; ++i) {
        out[i] = std::max(out[i], table[previous_[i]]);
      }
    }
  }

  // Channel planes of the frame.
  const uint8_t* frame() const { return frame_.data(); }

  // What the pool holds between steps (snapshots): the frame, the kept
  // screen and whether one is kept. Restore takes what these returned.
  const std::vector<uint8_t>& frame_planes() const { return frame_; }
  const std::vector<uint8_t>& kept_screen() const { return previous_; }
  bool kept_blank() const { return previous_blank_; }
  void Restore(const std::vector<uint8_t>& frame,
               const std::vector<uint8_t>& kept_screen, bool kept_blank) {
    if (frame.size() != frame_.size() || kept_screen.size() != pixels_) {
      throw std::invalid_argument("frames of another size");
    }
    frame_ = frame;
    previous_ = kept_screen;
    previous_blank_ = kept_blank;
  }

 private:
  void Convert(const uint8_t* screen) {
    for (int c = 0; c < channels_; ++c) {
      const uint8_t* table = palette_[c];
      uint8_t* out = frame_.data() + c * pixels_;
      for (std::size_t i = 0; i < pixels_; ++i) {
        out[i] = table[screen[i]];
      }
    }
  }

  int channels_;
  std::size_t pixels_;
  uint8_t palette_[3][256] = {};
  std::vector<uint8_t> frame_;
  std::vector<uint8_t> previous_;
  bool previous_blank_ = true;
};

// The last `depth` processed frames, each `frame_size` bytes, kept as a ring
// so a new frame is written once, in place.
class FrameStack {
 public:
  FrameStack(int depth, std::size_t frame_size)
      : depth_(depth),
        frame_size_(frame_size),
        data_(static_cast<std::size_t>(depth) * frame_size) {}

  // Where the next frame goes; Push() makes it the newest.
  uint8_t* Next() { return data_.data() + Offset(oldest_); }
  void Push() { oldest_ = (oldest_ + 1) % depth_; }

  // Makes every frame a copy of the newest one (a reset).
  void FillWithNewest() {
    const uint8_t* newest = Newest();
    for (int i = 0; i < depth_; ++i) {
      uint8_t* frame = data_.data() + Offset(i);
      if (frame != newest) {
        std::memcpy(frame, newest, frame_size_);
      }
    }
  }

  const uint8_t* Newest() const {
    return data_.data() + Offset((oldest_ + depth_ - 1) % depth_);
  }

  std::size_t size() const { return data_.size(); }
  // Puts back what CopyTo wrote (size() bytes, oldest first).
  void Restore(const uint8_t* frames) {
    for (int i = 0; i < depth_; ++i) {
      std::memcpy(Next(), frames + Offset(i), frame_size_);
      Push();
    }
  }

  // Writes the frames oldest first.
  void CopyTo(uint8_t* out) const {
    std::size_t first =
        static_cast<std::size_t>(depth_ - oldest_) * frame_size_;
    std::memcpy(out, data_.data() + Offset(oldest_), first);
    std::memcpy(out + first, data_.data(), data_.size() - first);
  }

 private:
  std::size_t Offset(int i) const {
    return static_cast<std::size_t>(i) * frame_size_;
  }

  int depth_;
  std::size_t frame_size_;
  std::vector<uint8_t> data_;
  int oldest_ = 0;
};

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_FRAMES_H_
