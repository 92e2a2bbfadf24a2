// A small software rasterizer that reproduces the frames gymnasium's
// pygame-drawn envs (classic_control, box2d) make: SDL_gfx's gfxdraw
// primitives and pygame.draw's own (draw.c of pygame 2.6.1) on a 32-bit
// XRGB surface, then a vertical flip: the same integer rules for which pixel
// gets which colour, so the frames are equal byte for byte.
#ifndef ENVPOOL_RENDER_PYGAME_DRAW_H_
#define ENVPOOL_RENDER_PYGAME_DRAW_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace envpool::render {

struct Rgb {
  uint8_t r, g, b;
};

// pygame.math.Vector2(x, y).rotate_rad(angle): the angle is reduced to
// [0, 2*pi) and quarter turns are exact. Made once for an angle that turns
// many points (the reduction, cos and sin are then paid once).
class Rotation {
 public:
  explicit Rotation(double angle) {
    constexpr double kTwoPi = 2 * M_PI;
    constexpr double kEps = 1e-12;
    double a = std::fmod(angle, kTwoPi);
    if (a < 0) {
      a += kTwoPi;
    }
    if (std::fabs(a) < kEps || std::fabs(a - kTwoPi) < kEps) {
      quarter_ = 0;
    } else if (std::fabs(a - M_PI / 2) < kEps) {
      quarter_ = 1;
    } else if (std::fabs(a - M_PI) < kEps) {
      quarter_ = 2;
    } else if (std::fabs(a - 3 * M_PI / 2) < kEps) {
      quarter_ = 3;
    } else {
      c_ = std::cos(a);
      s_ = std::sin(a);
    }
  }

  void Apply(double x, double y, double* ox, double* oy) const {
    switch (quarter_) {
      case 0:
        *ox = x;
        *oy = y;
        return;
      case 1:
        *ox = -y;
        *oy = x;
        return;
      case 2:
        *ox = -x;
        *oy = -y;
        return;
      case 3:
        *ox = y;
        *oy = -x;
        return;
      default:
        *ox = x * c_ - y * s_;
        *oy = x * s_ + y * c_;
    }
  }

 private:
  int quarter_ = -1;  // an exact quarter turn, or -1 for cos and sin
  double c_ = 0;
  double s_ = 0;
};

inline void RotateRad(double x, double y, double angle, double* ox,
                      double* oy) {
  Rotation(angle).Apply(x, y, ox, oy);
}

// Python's int(float) as a C int, as pygame.draw parses its points.
inline int ToInt(double v) { return static_cast<int>(v); }

// Python's int(float) stored in a C short, as gfxdraw parses its points.
inline int16_t ToShort(double v) {
  return static_cast<int16_t>(static_cast<int64_t>(v));
}

// pygame.transform.smoothscale shrinking one 8-bit plane (sw x sh to dw x
// dh, both smaller): its SSE backend's area average, X then Y, in 2.14
// fixed point with 16-bit accumulators and high-half products.
inline std::vector<uint8_t> SmoothShrink(const std::vector<uint8_t>& src,
                                         int sw, int sh, int dw, int dh) {
  auto mulhi = [](uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(((a & 0xffff) * (b & 0xffff)) >> 16);
  };
  auto sat = [](uint32_t v) {
    return static_cast<uint8_t>(std::min<uint32_t>(v, 255));
  };
  std::vector<uint8_t> tmp(static_cast<size_t>(dw) * sh);
  const uint32_t xspace = 0x4000 * sw / dw;
  const uint32_t xrecip = 0x40000000 / xspace;
  for (int y = 0; y < sh; ++y) {
    uint16_t acc = 0;
    uint32_t counter = xspace;
    const uint8_t* s = &src[static_cast<size_t>(y) * sw];
    uint8_t* d = &tmp[static_cast<size_t>(y) * dw];
    for (int x = 0; x < sw; ++x) {
      if (counter > 0x4000) {
        acc = static_cast<uint16_t>(acc + s[x]);
        counter -= 0x4000;
      } else {
        uint32_t frac = (0x4000 - counter) & 0xffff;
        uint32_t s4 = static_cast<uint32_t>(s[x]) << 2;
        auto sum = static_cast<uint16_t>(acc + mulhi(s4, counter));
        *d++ = sat(mulhi(sum, xrecip));
        acc = mulhi(s4, frac);
        counter = counter + xspace - 0x4000;
      }
    }
  }
  std::vector<uint8_t> out(static_cast<size_t>(dw) * dh);
  const uint32_t yspace = 0x4000 * sh / dh;
  const uint32_t yrecip = 0x40000000 / yspace;
  std::vector<uint16_t> line(dw, 0);
  uint32_t counter = yspace;
  uint8_t* d = out.data();
  for (int y = 0; y < sh; ++y) {
    const uint8_t* s = &tmp[static_cast<size_t>(y) * dw];
    if (counter > 0x4000) {
      for (int x = 0; x < dw; ++x) {
        line[x] = static_cast<uint16_t>(line[x] + s[x]);
      }
      counter -= 0x4000;
    } else {
      uint32_t frac = (0x4000 - counter) & 0xffff;
      for (int x = 0; x < dw; ++x) {
        uint32_t s4 = static_cast<uint32_t>(s[x]) << 2;
        auto sum = static_cast<uint16_t>(line[x] + mulhi(s4, counter));
        *d++ = sat(mulhi(sum, yrecip));
        line[x] = mulhi(s4, frac);
      }
      counter = counter + yspace - 0x4000;
    }
  }
  return out;
}

// SmoothShrink for the three channels of 0x00RRGGBB pixels in one pass,
// written as packed RGB bytes; the source rows are given by pointer (a
// flipped surface needs no copy). Byte for byte SmoothShrink per channel:
// its X pass splits a row into the same runs at every y (whole pixels,
// then one boundary pixel shared with the next column), so the runs are
// tabled per output column and per output row once. The X pass takes two
// rows at once, their channels in the 16-bit lanes of one SSE2 register
// (the same wrap-around adds and high-half products as SmoothShrink's).
// Source pixels after the last boundary, which only feed an accumulator
// never written out, are skipped.
class SmoothShrinker {
 public:
  // The rows per X pass: 0 picks by the CPU (4 with AVX2, else 2); tests
  // set 2 or 4 (4 only where HasAvx2()) to compare the two.
  void SetRowsPerPass(int n) { rows_per_pass_ = n; }
  static bool CpuHasAvx2() { return HasAvx2(); }
  void Shrink(const uint32_t* const* rows, int sw, int sh, int dw, int dh,
              uint8_t* rgb) {
    if (sw != sw_ || sh != sh_ || dw != dw_ || dh != dh_) {
      Plan(sw, sh, dw, dh);
    }
    const size_t row_bytes = static_cast<size_t>(dw) * 3;
    std::fill(line_.begin(), line_.end(), 0);
    std::fill(rgb, rgb + row_bytes * dh, 0);
    const size_t lanes = static_cast<size_t>(dw) * 4;
    // Source rows through the X pass four at a time where the CPU has AVX2,
    // else two.
    const int step = rows_per_pass_ != 0 ? rows_per_pass_ : HasAvx2() ? 4 : 2;
    for (size_t i = 0; i < yruns_.size(); ++i) {
      const Run& r = yruns_[i];
      uint8_t* d = rgb + i * row_bytes;
      // Rows r.begin .. r.end; r.end is the boundary row.
      for (int y = r.begin; y <= r.end; y += step) {
        const int m = std::min(step, r.end - y + 1);
        auto src = [&](int k) { return rows[y + std::min(k, m - 1)]; };
#if defined(__x86_64__) || defined(__i386__)
        if (step == 4) {
          XPass4(src(0), src(1), src(2), src(3));
        } else {
          XPass(src(0), src(1));
        }
#else
        XPass(src(0), src(1));
#endif
        for (int k = 0; k < m; ++k) {
          const uint8_t* t = tmp_.data() + k * lanes;
          if (y + k < r.end) {
            AddRow(t, lanes);
          } else {
            BoundaryRow(t, lanes, r);
            // Lanes B, G, R, 0 per column; the output is R, G, B.
            for (int x = 0; x < dw; ++x) {
              d[3 * x] = yout_[4 * x + 2];
              d[3 * x + 1] = yout_[4 * x + 1];
              d[3 * x + 2] = yout_[4 * x];
            }
          }
        }
      }
    }
  }

 private:
  // Whole pixels [begin, end), then the boundary pixel `end`.
  struct Run {
    int begin;
    int end;
    uint32_t counter;
    uint32_t frac;
  };

  // line_ += t.
  void AddRow(const uint8_t* t, size_t lanes) {
    size_t j = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; j + 16 <= lanes; j += 16) {
      const __m128i v =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + j));
      auto* l = reinterpret_cast<__m128i*>(line_.data() + j);
      _mm_storeu_si128(
          l, _mm_add_epi16(_mm_loadu_si128(l), _mm_unpacklo_epi8(v, zero)));
      _mm_storeu_si128(l + 1, _mm_add_epi16(_mm_loadu_si128(l + 1),
                                            _mm_unpackhi_epi8(v, zero)));
    }
#endif
    for (; j < lanes; ++j) {
      line_[j] = static_cast<uint16_t>(line_[j] + t[j]);
    }
  }

  // The Y pass's boundary row t: yout_ written, line_ restarted.
  void BoundaryRow(const uint8_t* t, size_t lanes, const Run& r) {
    size_t j = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i recip = _mm_set1_epi16(static_cast<int16_t>(yrecip_));
    const __m128i counter = _mm_set1_epi16(static_cast<int16_t>(r.counter));
    const __m128i frac = _mm_set1_epi16(static_cast<int16_t>(r.frac));
    const __m128i c255 = _mm_set1_epi16(255);
    for (; j + 8 <= lanes; j += 8) {
      const __m128i v = _mm_unpacklo_epi8(
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(t + j)), zero);
      const __m128i s4 = _mm_slli_epi16(v, 2);
      auto* l = reinterpret_cast<__m128i*>(line_.data() + j);
      const __m128i sum =
          _mm_add_epi16(_mm_loadu_si128(l), _mm_mulhi_epu16(s4, counter));
      __m128i out = _mm_mulhi_epu16(sum, recip);
      out = _mm_sub_epi16(out, _mm_subs_epu16(out, c255));  // min(out, 255)
      _mm_storel_epi64(reinterpret_cast<__m128i*>(yout_.data() + j),
                       _mm_packus_epi16(out, out));
      _mm_storeu_si128(l, _mm_mulhi_epu16(s4, frac));
    }
#endif
    for (; j < lanes; ++j) {
      const uint32_t s4 = static_cast<uint32_t>(t[j]) << 2;
      const auto sum = static_cast<uint16_t>(line_[j] + MulHi(s4, r.counter));
      yout_[j] = Sat(MulHi(sum, yrecip_));
      line_[j] = MulHi(s4, r.frac);
    }
  }

  static uint16_t MulHi(uint32_t a, uint32_t b) {
    return static_cast<uint16_t>(((a & 0xffff) * (b & 0xffff)) >> 16);
  }
  static uint8_t Sat(uint32_t v) {
    return static_cast<uint8_t>(std::min<uint32_t>(v, 255));
  }

  // SmoothShrink's counter walk along n source pixels, at most `cap` runs.
  static std::vector<Run> Runs(int n, uint32_t space, int cap) {
    std::vector<Run> runs;
    uint32_t counter = space;
    int begin = 0;
    for (int x = 0; x < n && static_cast<int>(runs.size()) < cap; ++x) {
      if (counter > 0x4000) {
        counter -= 0x4000;
      } else {
        runs.push_back({begin, x, counter, (0x4000 - counter) & 0xffff});
        begin = x + 1;
        counter = counter + space - 0x4000;
      }
    }
    return runs;
  }

  void Plan(int sw, int sh, int dw, int dh) {
    sw_ = sw;
    sh_ = sh;
    dw_ = dw;
    dh_ = dh;
    const uint32_t xspace = 0x4000 * sw / dw;
    const uint32_t yspace = 0x4000 * sh / dh;
    xrecip_ = (0x40000000 / xspace) & 0xffff;
    yrecip_ = (0x40000000 / yspace) & 0xffff;
    xruns_ = Runs(sw, xspace, dw);
    yruns_ = Runs(sh, yspace, dh);
    tmp_.assign(static_cast<size_t>(dw) * 16, 0);
    line_.assign(static_cast<size_t>(dw) * 4, 0);
    yout_.assign(static_cast<size_t>(dw) * 4, 0);
  }

  // Source rows a and b through the X pass into tmp_: per column the bytes
  // B, G, R, 0 of a, then those of b (dw * 4 bytes further).
  void XPass(const uint32_t* a, const uint32_t* b) {
    uint8_t* da = tmp_.data();
    uint8_t* db = da + static_cast<size_t>(dw_) * 4;
#if defined(__SSE2__)
    // Both rows in one register, 16-bit lanes B, G, R, 0 of a then of b:
    // paddw wraps as the 16-bit accumulators, pmulhuw is the high-half
    // product.
    const __m128i zero = _mm_setzero_si128();
    const __m128i recip = _mm_set1_epi16(static_cast<int16_t>(xrecip_));
    const __m128i c255 = _mm_set1_epi16(255);
    auto load = [&](int x) {
      const __m128i p =
          _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(a[x])),
                             _mm_cvtsi32_si128(static_cast<int>(b[x])));
      return _mm_unpacklo_epi8(p, zero);
    };
    __m128i acc = zero;
    for (const Run& r : xruns_) {
      __m128i sum = acc;
      int x = r.begin;
      for (; x + 2 <= r.end; x += 2) {
        // Pixels x and x + 1 of both rows: a0 b0 a1 b1.
        const __m128i p = _mm_unpacklo_epi32(
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + x)),
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + x)));
        sum = _mm_add_epi16(sum, _mm_add_epi16(_mm_unpacklo_epi8(p, zero),
                                               _mm_unpackhi_epi8(p, zero)));
      }
      if (x < r.end) {
        sum = _mm_add_epi16(sum, load(x));
      }
      const __m128i s4 = _mm_slli_epi16(load(r.end), 2);
      sum = _mm_add_epi16(
          sum,
          _mm_mulhi_epu16(s4, _mm_set1_epi16(static_cast<int16_t>(r.counter))));
      __m128i out = _mm_mulhi_epu16(sum, recip);
      out = _mm_sub_epi16(out, _mm_subs_epu16(out, c255));  // min(out, 255)
      out = _mm_packus_epi16(out, out);
      const auto va = static_cast<uint32_t>(_mm_cvtsi128_si32(out));
      const auto vb =
          static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(out, 4)));
      std::memcpy(da, &va, 4);
      std::memcpy(db, &vb, 4);
      da += 4;
      db += 4;
      acc = _mm_mulhi_epu16(s4, _mm_set1_epi16(static_cast<int16_t>(r.frac)));
    }
#else
    for (int k = 0; k < 2; ++k) {
      const uint32_t* s = k == 0 ? a : b;
      uint8_t* d = k == 0 ? da : db;
      uint32_t acc[3] = {0, 0, 0};
      for (const Run& r : xruns_) {
        uint32_t sums[3] = {0, 0, 0};
        for (int x = r.begin; x < r.end; ++x) {
          for (int c = 0; c < 3; ++c) {
            sums[c] += (s[x] >> (8 * c)) & 0xff;
          }
        }
        for (int c = 0; c < 3; ++c) {
          const uint32_t s4 = ((s[r.end] >> (8 * c)) & 0xff) << 2;
          const auto sum =
              static_cast<uint16_t>(acc[c] + sums[c] + MulHi(s4, r.counter));
          d[c] = Sat(MulHi(sum, xrecip_));
          acc[c] = MulHi(s4, r.frac);
        }
        d[3] = 0;
        d += 4;
      }
    }
#endif
  }

  static bool HasAvx2() {
#if defined(__x86_64__) || defined(__i386__)
    static const bool has = __builtin_cpu_supports("avx2") != 0;
    return has;
#else
    return false;
#endif
  }

#if defined(__x86_64__) || defined(__i386__)
  // Pixels x and x + 1 of rows p and q: p0 q0 p1 q1.
  __attribute__((target("avx2"))) static __m128i Pair(const uint32_t* p,
                                                      const uint32_t* q,
                                                      int x) {
    return _mm_unpacklo_epi32(
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + x)),
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + x)));
  }
  // Pixel x of rows p and q: p0 q0.
  __attribute__((target("avx2"))) static __m128i One(const uint32_t* p,
                                                     const uint32_t* q, int x) {
    return _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(p[x])),
                              _mm_cvtsi32_si128(static_cast<int>(q[x])));
  }
  __attribute__((target("avx2"))) static __m256i Join(__m128i lo, __m128i hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  }

  // XPass of four rows: rows a, b in the low 128-bit lane and c, d in the
  // high one, each lane computing what XPass's register does for two rows.
  __attribute__((target("avx2"))) void XPass4(const uint32_t* a,
                                              const uint32_t* b,
                                              const uint32_t* c,
                                              const uint32_t* d) {
    const size_t stride = static_cast<size_t>(dw_) * 4;
    uint8_t* da = tmp_.data();
    const __m256i zero = _mm256_setzero_si256();
    const __m256i recip = _mm256_set1_epi16(static_cast<int16_t>(xrecip_));
    const __m256i c255 = _mm256_set1_epi16(255);
    __m256i acc = zero;
    for (const Run& r : xruns_) {
      __m256i sum = acc;
      int x = r.begin;
      for (; x + 2 <= r.end; x += 2) {
        const __m256i p = Join(Pair(a, b, x), Pair(c, d, x));
        sum = _mm256_add_epi16(sum,
                               _mm256_add_epi16(_mm256_unpacklo_epi8(p, zero),
                                                _mm256_unpackhi_epi8(p, zero)));
      }
      if (x < r.end) {
        sum = _mm256_add_epi16(
            sum, _mm256_unpacklo_epi8(Join(One(a, b, x), One(c, d, x)), zero));
      }
      const __m256i s4 = _mm256_slli_epi16(
          _mm256_unpacklo_epi8(Join(One(a, b, r.end), One(c, d, r.end)), zero),
          2);
      sum = _mm256_add_epi16(
          sum, _mm256_mulhi_epu16(
                   s4, _mm256_set1_epi16(static_cast<int16_t>(r.counter))));
      __m256i out = _mm256_mulhi_epu16(sum, recip);
      out = _mm256_sub_epi16(out, _mm256_subs_epu16(out, c255));
      out = _mm256_packus_epi16(out, out);
      const __m128i lo = _mm256_castsi256_si128(out);
      const __m128i hi = _mm256_extracti128_si256(out, 1);
      const auto va = static_cast<uint32_t>(_mm_cvtsi128_si32(lo));
      const auto vb =
          static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(lo, 4)));
      const auto vc = static_cast<uint32_t>(_mm_cvtsi128_si32(hi));
      const auto vd =
          static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(hi, 4)));
      std::memcpy(da, &va, 4);
      std::memcpy(da + stride, &vb, 4);
      std::memcpy(da + 2 * stride, &vc, 4);
      std::memcpy(da + 3 * stride, &vd, 4);
      da += 4;
      acc = _mm256_mulhi_epu16(s4,
                               _mm256_set1_epi16(static_cast<int16_t>(r.frac)));
    }
  }
#endif

  int sw_ = 0;
  int sh_ = 0;
  int dw_ = 0;
  int dh_ = 0;
  int rows_per_pass_ = 0;
  uint32_t xrecip_ = 0;
  uint32_t yrecip_ = 0;
  std::vector<Run> xruns_;
  std::vector<Run> yruns_;
  std::vector<uint8_t> tmp_;
  std::vector<uint16_t> line_;
  std::vector<uint8_t> yout_;
};

// A pygame-like surface: 0x00RRGGBB pixels, y down, clipped to its size.
class Canvas {
 public:
  Canvas(int width, int height)
      : w_(width), h_(height), px_(static_cast<size_t>(width) * height) {}

  void Fill(Rgb c) { FillSpan(px_.data(), px_.size(), Pack(c)); }

  // n pixels of one colour (std::fill's loop is not vectorized at -O2).
  static void FillSpan(uint32_t* p, size_t n, uint32_t color) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i v = _mm_set1_epi32(static_cast<int>(color));
    for (; i + 4 <= n; i += 4) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), v);
    }
#endif
    for (; i < n; ++i) {
      p[i] = color;
    }
  }

  // SDL_gfx pixel writes: opaque stores, or a blend by alpha (0..254) done
  // in the surface's 32-bit arithmetic (unsigned wrap-around included).
  void Put(int x, int y, uint32_t color) {
    if (x >= 0 && x < w_ && y >= 0 && y < h_) {
      px_[static_cast<size_t>(y) * w_ + x] = color;
    }
  }
  void Blend(int x, int y, uint32_t color, uint32_t alpha) {
    if (x < 0 || x >= w_ || y < 0 || y >= h_) {
      return;
    }
    uint32_t& p = px_[static_cast<size_t>(y) * w_ + x];
    if (alpha == 255) {
      p = color;
      return;
    }
    uint32_t dc = p;
    uint32_t out = 0;
    for (uint32_t shift : {16u, 8u, 0u}) {
      uint32_t mask = 0xffu << shift;
      uint32_t diff = (color & mask) - (dc & mask);
      uint32_t v =
          ((dc & mask) + ((((diff >> shift) * alpha) >> 8) << shift)) & mask;
      out |= v;
    }
    p = out;
  }
  // pixelColorWeight: the colour's alpha (255) scaled by weight / 256.
  void Weighted(int x, int y, uint32_t color, uint32_t weight) {
    Blend(x, y, color, (255u * weight) >> 8);
  }

  void HLine(int x1, int x2, int y, uint32_t color) {
    if (x1 > x2) {
      std::swap(x1, x2);
    }
    if (x2 < 0 || x1 > w_ - 1 || y < 0 || y > h_ - 1) {
      return;
    }
    x1 = std::max(x1, 0);
    x2 = std::min(x2, w_ - 1);
    FillSpan(px_.data() + static_cast<size_t>(y) * w_ + x1,
             static_cast<size_t>(x2 - x1 + 1), color);
  }
  void VLine(int x, int y1, int y2, uint32_t color) {
    if (y1 > y2) {
      std::swap(y1, y2);
    }
    if (x < 0 || x > w_ - 1 || y2 < 0 || y1 > h_ - 1) {
      return;
    }
    y1 = std::max(y1, 0);
    y2 = std::min(y2, h_ - 1);
    for (int y = y1; y <= y2; ++y) {
      px_[static_cast<size_t>(y) * w_ + x] = color;
    }
  }

  // SDL_gfx's integer line (lineColor), opaque colour.
  void Line(int16_t x1, int16_t y1, int16_t x2, int16_t y2, uint32_t color) {
    if (!ClipLine(&x1, &y1, &x2, &y2)) {
      return;
    }
    if (x1 == x2) {
      if (y1 != y2) {
        VLine(x1, std::min(y1, y2), std::max(y1, y2), color);
      } else {
        Put(x1, y1, color);
      }
      return;
    }
    if (y1 == y2) {
      HLine(std::min(x1, x2), std::max(x1, x2), y1, color);
      return;
    }
    int dx = x2 - x1;
    int dy = y2 - y1;
    int sx = dx >= 0 ? 1 : -1;
    int sy = dy >= 0 ? 1 : -1;
    dx = sx * dx + 1;
    dy = sy * dy + 1;
    // Step along the major axis, the minor one when the error overflows.
    int px = x1;
    int py = y1;
    int step_major_x = sx, step_major_y = 0, step_minor_x = 0,
        step_minor_y = sy;
    if (dx < dy) {
      std::swap(dx, dy);
      step_major_x = 0;
      step_major_y = sy;
      step_minor_x = sx;
      step_minor_y = 0;
    }
    for (int i = 0, err = 0; i < dx; ++i) {
      Put(px, py, color);
      err += dy;
      if (err >= dx) {
        err -= dx;
        px += step_minor_x;
        py += step_minor_y;
      }
      px += step_major_x;
      py += step_major_y;
    }
  }

  // SDL_gfx's Wu line (_aalineColor) with its endpoint control.
  void AALine(int16_t x1, int16_t y1, int16_t x2, int16_t y2, uint32_t color,
              bool draw_endpoint) {
    AALine(x1, y1, x2, y2, color, draw_endpoint,
           [](int /*x*/, int /*y*/) { return false; });
  }
  // The same, but the blended pixels where hidden(x, y) are left alone (a
  // later opaque write paints them).
  template <typename Hidden>
  void AALine(int16_t x1, int16_t y1, int16_t x2, int16_t y2, uint32_t color,
              bool draw_endpoint, Hidden&& hidden) {
    if (!ClipLine(&x1, &y1, &x2, &y2)) {
      return;
    }
    int xx0 = x1, yy0 = y1, xx1 = x2, yy1 = y2;
    if (yy0 > yy1) {
      std::swap(yy0, yy1);
      std::swap(xx0, xx1);
    }
    int dx = xx1 - xx0;
    int dy = yy1 - yy0;
    if (dx == 0) {
      if (draw_endpoint) {
        VLine(x1, y1, y2, color);
      } else if (dy > 0) {
        VLine(x1, yy0, yy0 + dy, color);
      } else {
        Put(x1, y1, color);
      }
      return;
    }
    if (dy == 0) {
      if (draw_endpoint) {
        HLine(x1, x2, y1, color);
      } else if (dx > 0) {
        HLine(xx0, xx0 + dx, y1, color);
      } else {
        Put(x1, y1, color);
      }
      return;
    }
    if (dx == dy && draw_endpoint) {
      Line(x1, y1, x2, y2, color);
      return;
    }
    int xdir = 1;
    if (dx < 0) {
      xdir = -1;
      dx = -dx;
    }
    uint32_t erracc = 0;
    Put(x1, y1, color);
    if (dy > dx) {
      uint32_t erradj = static_cast<uint32_t>((dx << 16) / dy) << 16;
      int x0pxdir = xx0 + xdir;
      while (--dy) {
        uint32_t prev = erracc;
        erracc += erradj;
        if (erracc <= prev) {
          xx0 = x0pxdir;
          x0pxdir += xdir;
        }
        ++yy0;
        uint32_t wgt = (erracc >> 24) & 255;
        if (!hidden(xx0, yy0)) {
          Weighted(static_cast<int16_t>(xx0), static_cast<int16_t>(yy0), color,
                   255 - wgt);
        }
        if (!hidden(x0pxdir, yy0)) {
          Weighted(static_cast<int16_t>(x0pxdir), static_cast<int16_t>(yy0),
                   color, wgt);
        }
      }
    } else {
      uint32_t erradj = static_cast<uint32_t>((dy << 16) / dx) << 16;
      int y0p1 = yy0 + 1;
      while (--dx) {
        uint32_t prev = erracc;
        erracc += erradj;
        if (erracc <= prev) {
          yy0 = y0p1;
          ++y0p1;
        }
        xx0 += xdir;
        uint32_t wgt = (erracc >> 24) & 255;
        if (!hidden(xx0, yy0)) {
          Weighted(static_cast<int16_t>(xx0), static_cast<int16_t>(yy0), color,
                   255 - wgt);
        }
        if (!hidden(xx0, y0p1)) {
          Weighted(static_cast<int16_t>(xx0), static_cast<int16_t>(y0p1), color,
                   wgt);
        }
      }
    }
    if (draw_endpoint) {
      Put(x2, y2, color);
    }
  }

  // gfxdraw.aapolygon: closed Wu outline, no endpoints.
  void AAPolygon(const std::vector<int16_t>& vx, const std::vector<int16_t>& vy,
                 uint32_t color) {
    AAPolygon(vx.data(), vy.data(), static_cast<int>(vx.size()), color);
  }
  void AAPolygon(const int16_t* vx, const int16_t* vy, int n, uint32_t color) {
    AAPolygon(vx, vy, n, color, [](int /*x*/, int /*y*/) { return false; });
  }
  // The same, leaving alone the blends on pixels where hidden(x, y).
  template <typename Hidden>
  void AAPolygon(const int16_t* vx, const int16_t* vy, int n, uint32_t color,
                 const Hidden& hidden) {
    for (int i = 1; i < n; ++i) {
      AALine(vx[i - 1], vy[i - 1], vx[i], vy[i], color, false, hidden);
    }
    AALine(vx[n - 1], vy[n - 1], vx[0], vy[0], color, false, hidden);
  }

  // gfxdraw.filled_polygon: SDL_gfx's 16.16 fixed-point scanline fill.
  void FilledPolygon(const std::vector<int16_t>& vx,
                     const std::vector<int16_t>& vy, uint32_t color) {
    FilledPolygon(vx.data(), vy.data(), static_cast<int>(vx.size()), color);
  }
  void FilledPolygon(const int16_t* vx, const int16_t* vy, int n,
                     uint32_t color) {
    PlanFill(vx, vy, n);
    FillPlanned(color);
  }
  // gfxdraw.aapolygon, then gfxdraw.filled_polygon of the same points and
  // colour (as gymnasium draws a polygon). The outline's blends on pixels
  // the fill then paints are skipped: the fill's opaque writes hide them.
  void AAFilledPolygon(const std::vector<int16_t>& vx,
                       const std::vector<int16_t>& vy, uint32_t color) {
    AAFilledPolygon(vx.data(), vy.data(), static_cast<int>(vx.size()), color);
  }
  void AAFilledPolygon(const int16_t* vx, const int16_t* vy, int n,
                       uint32_t color) {
    PlanFill(vx, vy, n);
    AAPolygon(vx, vy, n, color, [this](int x, int y) { return Filled(x, y); });
    FillPlanned(color);
  }
  // The same as a colour fill of the whole surface followed by
  // AAFilledPolygon, done as the fill of the polygon alone when it paints
  // every pixel.
  void AAFilledPolygonOver(Rgb background, const int16_t* vx, const int16_t* vy,
                           int n, uint32_t color) {
    PlanFill(vx, vy, n);
    if (!FillCovers()) {
      Fill(background);
      AAPolygon(vx, vy, n, color,
                [this](int x, int y) { return Filled(x, y); });
    }
    FillPlanned(color);
  }

 private:
  // One span of a planned fill: HLine(lo, hi, y).
  struct Span {
    int lo;
    int hi;
  };
  // A polygon edge in the scanline walk: its 16.16 x at the current row is
  // q * dx + 65536 * x1 with q = (65536 * (y - y1)) / (y2 - y1), kept as
  // quotient and remainder stepped row by row (the same q as the division).
  struct ScanEdge {
    int y1, y2, x1, dx;
    int start;  // the first row q is kept for
    int q, r, qstep, rstep;
  };

  // FilledPolygon's spans on the surface's rows, as SDL_gfx's
  // filledPolygonColor finds them (the sorted edge crossings paired,
  // rounded as it rounds them), into fill_rows_/fill_spans_.
  void PlanFill(const int16_t* vx, const int16_t* vy, int n) {
    fill_spans_.clear();
    fill_rows_.clear();
    int miny = vy[0];
    int maxy = vy[0];
    for (int i = 1; i < n; ++i) {
      if (vy[i] < miny) {
        miny = vy[i];
      } else if (vy[i] > maxy) {
        maxy = vy[i];
      }
    }
    fill_y0_ = std::max(miny, 0);
    const int last = std::min(maxy, h_ - 1);
    std::vector<ScanEdge>& edges = scan_edges_;
    edges.clear();
    for (int i = 0; i < n; ++i) {
      int a = i == 0 ? n - 1 : i - 1;
      int b = i;
      ScanEdge e{};
      if (vy[a] < vy[b]) {
        e.y1 = vy[a];
        e.y2 = vy[b];
        e.x1 = vx[a];
        e.dx = vx[b] - vx[a];
      } else if (vy[a] > vy[b]) {
        e.y1 = vy[b];
        e.y2 = vy[a];
        e.x1 = vx[b];
        e.dx = vx[a] - vx[b];
      } else {
        continue;
      }
      const int d = e.y2 - e.y1;
      e.start = std::max(e.y1, fill_y0_);
      e.q = (65536 * (e.start - e.y1)) / d;
      e.r = (65536 * (e.start - e.y1)) % d;
      e.qstep = 65536 / d;
      e.rstep = 65536 % d;
      edges.push_back(e);
    }
    std::vector<int>& xs = scanline_xs_;
    for (int y = fill_y0_; y <= last; ++y) {
      fill_rows_.push_back(static_cast<int>(fill_spans_.size()));
      xs.clear();
      for (ScanEdge& e : edges) {
        if ((y >= e.y1 && y < e.y2) || (y == maxy && y > e.y1 && y <= e.y2)) {
          xs.push_back(e.q * e.dx + 65536 * e.x1);
        }
        if (y >= e.start) {
          e.q += e.qstep;
          e.r += e.rstep;
          if (e.r >= e.y2 - e.y1) {
            ++e.q;
            e.r -= e.y2 - e.y1;
          }
        }
      }
      // Insertion sort: a handful of crossings.
      for (size_t i = 1; i < xs.size(); ++i) {
        for (size_t j = i; j > 0 && xs[j - 1] > xs[j]; --j) {
          std::swap(xs[j - 1], xs[j]);
        }
      }
      for (size_t i = 0; i + 1 < xs.size(); i += 2) {
        int xa = xs[i] + 1;
        xa = (xa >> 16) + ((xa & 32768) >> 15);
        int xb = xs[i + 1] - 1;
        xb = (xb >> 16) + ((xb & 32768) >> 15);
        // SDL_gfx keeps them as Sint16; HLine orders them.
        const auto sa = static_cast<int16_t>(xa);
        const auto sb = static_cast<int16_t>(xb);
        fill_spans_.push_back({std::min<int>(sa, sb), std::max<int>(sa, sb)});
      }
    }
    fill_rows_.push_back(static_cast<int>(fill_spans_.size()));
  }

  // Whether the planned fill paints pixel (x, y) of the surface.
  bool Filled(int x, int y) const {
    const int row = y - fill_y0_;
    if (row < 0 || row + 1 >= static_cast<int>(fill_rows_.size())) {
      return false;
    }
    for (int k = fill_rows_[row]; k < fill_rows_[row + 1]; ++k) {
      if (fill_spans_[k].lo <= x && x <= fill_spans_[k].hi) {
        return true;
      }
    }
    return false;
  }

  // Whether the planned fill paints every pixel of the surface.
  bool FillCovers() const {
    if (fill_y0_ != 0 || static_cast<int>(fill_rows_.size()) != h_ + 1) {
      return false;
    }
    for (int row = 0; row < h_; ++row) {
      bool full = false;
      for (int k = fill_rows_[row]; k < fill_rows_[row + 1]; ++k) {
        full = full || (fill_spans_[k].lo <= 0 && fill_spans_[k].hi >= w_ - 1);
      }
      if (!full) {
        return false;
      }
    }
    return true;
  }

  // The planned fill, in colour.
  void FillPlanned(uint32_t color) {
    for (size_t row = 0; row + 1 < fill_rows_.size(); ++row) {
      const int y = fill_y0_ + static_cast<int>(row);
      for (int k = fill_rows_[row]; k < fill_rows_[row + 1]; ++k) {
        HLine(fill_spans_[k].lo, fill_spans_[k].hi, y, color);
      }
    }
  }

 public:
  // gfxdraw.aacircle (SDL_gfx's aaellipse with equal radii).
  void AACircle(int16_t x, int16_t y, int16_t rad, uint32_t color) {
    AAEllipse(x, y, rad, rad, color);
  }
  void AAEllipse(int16_t x, int16_t y, int16_t rx, int16_t ry, uint32_t color) {
    if (rx < 0 || ry < 0) {
      return;
    }
    if (rx == 0) {
      VLine(x, y - ry, y + ry, color);
      return;
    }
    if (ry == 0) {
      HLine(x - rx, x + rx, y, color);
      return;
    }
    if (x + rx < 0 || x - rx > w_ - 1 || y + ry < 0 || y - ry > h_ - 1) {
      return;
    }
    int a2 = rx * rx;
    int b2 = ry * ry;
    int ds = 2 * a2;
    int dt = 2 * b2;
    int16_t xc2 = static_cast<int16_t>(2 * x);
    int16_t yc2 = static_cast<int16_t>(2 * y);
    double sab = std::sqrt(static_cast<double>(a2 + b2));
    int dxt = static_cast<int16_t>(std::lrint(static_cast<double>(a2) / sab));
    int t = 0;
    int s = -2 * a2 * ry;
    int d = 0;
    int16_t xp = x;
    int16_t yp = static_cast<int16_t>(y - ry);
    int16_t xs, ys;
    Put(xp, yp, color);
    Put(static_cast<int16_t>(xc2 - xp), yp, color);
    Put(xp, static_cast<int16_t>(yc2 - yp), color);
    Put(static_cast<int16_t>(xc2 - xp), static_cast<int16_t>(yc2 - yp), color);
    for (int i = 1; i <= dxt; ++i) {
      --xp;
      d += t - b2;
      if (d >= 0) {
        ys = static_cast<int16_t>(yp - 1);
      } else if ((d - s - a2) > 0) {
        if ((2 * d - s - a2) >= 0) {
          ys = static_cast<int16_t>(yp + 1);
        } else {
          ys = yp;
          ++yp;
          d -= s + a2;
          s += ds;
        }
      } else {
        ++yp;
        ys = static_cast<int16_t>(yp + 1);
        d -= s + a2;
        s += ds;
      }
      t -= dt;
      float cp = 1.0f;
      if (s != 0) {
        cp = static_cast<float>(std::abs(d)) / static_cast<float>(std::abs(s));
        if (cp > 1.0f) {
          cp = 1.0f;
        }
      }
      auto weight = static_cast<uint8_t>(cp * 255);
      uint8_t iweight = 255 - weight;
      int16_t xx = static_cast<int16_t>(xc2 - xp);
      Weighted(xp, yp, color, iweight);
      Weighted(xx, yp, color, iweight);
      Weighted(xp, ys, color, weight);
      Weighted(xx, ys, color, weight);
      int16_t yy = static_cast<int16_t>(yc2 - yp);
      Weighted(xp, yy, color, iweight);
      Weighted(xx, yy, color, iweight);
      yy = static_cast<int16_t>(yc2 - ys);
      Weighted(xp, yy, color, weight);
      Weighted(xx, yy, color, weight);
    }
    int dyt = static_cast<int16_t>(std::lrint(static_cast<double>(b2) / sab));
    for (int i = 1; i <= dyt; ++i) {
      ++yp;
      d -= s + a2;
      if (d <= 0) {
        xs = static_cast<int16_t>(xp + 1);
      } else if ((d + t - b2) < 0) {
        if ((2 * d + t - b2) <= 0) {
          xs = static_cast<int16_t>(xp - 1);
        } else {
          xs = xp;
          --xp;
          d += t - b2;
          t -= dt;
        }
      } else {
        --xp;
        xs = static_cast<int16_t>(xp - 1);
        d += t - b2;
        t -= dt;
      }
      s += ds;
      float cp = 1.0f;
      if (t != 0) {
        cp = static_cast<float>(std::abs(d)) / static_cast<float>(std::abs(t));
        if (cp > 1.0f) {
          cp = 1.0f;
        }
      }
      auto weight = static_cast<uint8_t>(cp * 255);
      uint8_t iweight = 255 - weight;
      int16_t xx = static_cast<int16_t>(xc2 - xp);
      int16_t yy = static_cast<int16_t>(yc2 - yp);
      Weighted(xp, yp, color, iweight);
      Weighted(xx, yp, color, iweight);
      Weighted(xp, yy, color, iweight);
      Weighted(xx, yy, color, iweight);
      xx = static_cast<int16_t>(xc2 - xs);
      Weighted(xs, yp, color, weight);
      Weighted(xx, yp, color, weight);
      Weighted(xs, yy, color, weight);
      Weighted(xx, yy, color, weight);
    }
  }

  // gfxdraw.filled_circle: SDL_gfx's midpoint circle of hlines.
  void FilledCircle(int16_t x, int16_t y, int16_t rad, uint32_t color) {
    if (rad < 0) {
      return;
    }
    if (rad == 0) {
      Put(x, y, color);
      return;
    }
    if (x + rad < 0 || x - rad > w_ - 1 || y + rad < 0 || y - rad > h_ - 1) {
      return;
    }
    int cx = 0;
    int cy = rad;
    int ocx = -1;  // (Sint16)0xffff
    int ocy = -1;
    int df = 1 - rad;
    int d_e = 3;
    int d_se = -2 * rad + 5;
    do {
      int xpcx = x + cx, xmcx = x - cx, xpcy = x + cy, xmcy = x - cy;
      if (ocy != cy) {
        if (cy > 0) {
          HLine(xmcx, xpcx, y + cy, color);
          HLine(xmcx, xpcx, y - cy, color);
        } else {
          HLine(xmcx, xpcx, y, color);
        }
        ocy = cy;
      }
      if (ocx != cx) {
        if (cx != cy) {
          if (cx > 0) {
            HLine(xmcy, xpcy, y - cx, color);
            HLine(xmcy, xpcy, y + cx, color);
          } else {
            HLine(xmcy, xpcy, y, color);
          }
        }
        ocx = cx;
      }
      if (df < 0) {
        df += d_e;
        d_e += 2;
        d_se += 2;
      } else {
        df += d_se;
        d_e += 2;
        d_se += 4;
        --cy;
      }
      ++cx;
    } while (cx <= cy);
  }

  // pygame.draw.aaline (blend on): pygame's float Wu line, its endpoints
  // weighted by their pixel overlap, colours mixed in float and truncated.
  void PgAALine(float from_x, float from_y, float to_x, float to_y, Rgb c) {
    float dx = to_x - from_x;
    float dy = to_y - from_y;
    if (std::fabs(static_cast<double>(dx)) < 0.0001 &&
        std::fabs(static_cast<double>(dy)) < 0.0001) {
      int px = static_cast<int>(std::floor(static_cast<double>(from_x) + 0.5));
      int py = static_cast<int>(std::floor(static_cast<double>(from_y) + 0.5));
      Mix(px, py, c, 1.0f);
      return;
    }
    float clip_left = -1.0f;
    float clip_right = clip_left + static_cast<float>(w_) + 1.0f;
    float clip_top = -1.0f;
    float clip_bottom = clip_top + static_cast<float>(h_) + 1.0f;
    bool steep = std::fabs(dx) < std::fabs(dy);
    if (steep) {
      std::swap(from_x, from_y);
      std::swap(to_x, to_y);
      std::swap(dx, dy);
      std::swap(clip_left, clip_top);
      std::swap(clip_right, clip_bottom);
    }
    if (dx < 0) {
      std::swap(from_x, to_x);
      std::swap(from_y, to_y);
      dx = -dx;
      dy = -dy;
    }
    if (to_x <= clip_left || from_x >= clip_right) {
      return;
    }
    float gradient = dy / dx;
    if (from_x < clip_left) {
      from_y += gradient * (clip_left - from_x);
      from_x = clip_left;
    }
    if (to_x > clip_right) {
      to_y += gradient * (clip_right - to_x);
      to_x = clip_right;
    }
    if (gradient > 0.0f) {
      if (to_y <= clip_top || from_y >= clip_bottom) {
        return;
      }
      if (from_y < clip_top) {
        from_x += (clip_top - from_y) / gradient;
        from_y = clip_top;
      }
      if (to_y > clip_bottom) {
        to_x += (clip_bottom - to_y) / gradient;
        to_y = clip_bottom;
      }
    } else {
      if (from_y <= clip_top || to_y >= clip_bottom) {
        return;
      }
      if (to_y < clip_top) {
        to_x += (clip_top - to_y) / gradient;
        to_y = clip_top;
      }
      if (from_y > clip_bottom) {
        from_x += (clip_bottom - from_y) / gradient;
        from_y = clip_bottom;
      }
    }
    from_y += 1.0f;
    to_y += 1.0f;
    auto plot = [&](int major, int minor, float brightness) {
      if (steep) {
        Mix(minor, major, c, brightness);
      } else {
        Mix(major, minor, c, brightness);
      }
    };
    int x_pixel_start = static_cast<int>(from_x);
    float y_endpoint =
        from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
    float intersect_y = y_endpoint;
    if (to_x > clip_left + 1.0f) {
      float x_gap = static_cast<float>(1 + x_pixel_start) - from_x;
      float brightness =
          y_endpoint - static_cast<float>(static_cast<int>(y_endpoint));
      int minor = static_cast<int>(y_endpoint);
      if (static_cast<float>(static_cast<int>(y_endpoint)) < y_endpoint) {
        plot(x_pixel_start, minor, brightness * x_gap);
      }
      brightness = 1 - brightness;
      plot(x_pixel_start, minor - 1, brightness * x_gap);
      intersect_y += gradient;
      ++x_pixel_start;
    }
    int x_pixel_end = static_cast<int>(std::ceil(static_cast<double>(to_x)));
    if (from_x < clip_right - 1.0f) {
      y_endpoint = to_y + gradient * (static_cast<float>(x_pixel_end) - to_x);
      float x_gap = static_cast<float>(1 - x_pixel_end) + to_x;
      float brightness =
          y_endpoint - static_cast<float>(static_cast<int>(y_endpoint));
      int minor = static_cast<int>(y_endpoint);
      if (static_cast<float>(static_cast<int>(y_endpoint)) < y_endpoint) {
        plot(x_pixel_end, minor, brightness * x_gap);
      }
      brightness = 1 - brightness;
      plot(x_pixel_end, minor - 1, brightness * x_gap);
    }
    for (int x = x_pixel_start; x < x_pixel_end; ++x) {
      int y = static_cast<int>(intersect_y);
      float brightness = 1 - intersect_y + static_cast<float>(y);
      plot(x, y - 1, brightness);
      if (static_cast<float>(y) < intersect_y) {
        plot(x, y, 1 - brightness);
      }
      intersect_y += gradient;
    }
  }

  // pygame.draw.aalines(closed=False): one aaline per segment, float points.
  void PgAALines(const std::vector<float>& xs, const std::vector<float>& ys,
                 Rgb c) {
    for (size_t i = 1; i < xs.size(); ++i) {
      PgAALine(xs[i - 1], ys[i - 1], xs[i], ys[i], c);
    }
  }

  // Surface.blit of a black image with per-pixel alpha (pygame's blitter:
  // d + ((s - d) * a >> 8) per channel, s = 0 here) at (x0, y0).
  void BlitBlackAlpha(const std::vector<uint8_t>& alpha, int w, int h, int x0,
                      int y0) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        int px = x0 + x, py = y0 + y;
        if (px < 0 || px >= w_ || py < 0 || py >= h_) {
          continue;
        }
        int a = alpha[static_cast<size_t>(y) * w + x];
        uint32_t& p = px_[static_cast<size_t>(py) * w_ + px];
        uint32_t out = 0;
        for (uint32_t shift : {16u, 8u, 0u}) {
          int d = static_cast<int>((p >> shift) & 0xff);
          d += (-d * a) >> 8;  // arithmetic shift: floor
          out |= static_cast<uint32_t>(d) << shift;
        }
        p = out;
      }
    }
  }

  // pygame.draw's own primitives (its draw.c, not SDL_gfx): integer points
  // (Python floats truncated toward zero, as pygame parses them), opaque
  // pixels clipped to the surface one by one.
  void PgSet(int x, int y, uint32_t color) { Put(x, y, color); }

  // drawhorzlineclip: the span x1..x2 (either order) on row y.
  void PgHLine(int x1, int y, int x2, uint32_t color) {
    if (y < 0 || y >= h_) {
      return;
    }
    if (x2 < x1) {
      std::swap(x1, x2);
    }
    x1 = std::max(x1, 0);
    x2 = std::min(x2, w_ - 1);
    if (x2 < 0 || x1 >= w_) {
      return;
    }
    FillSpan(px_.data() + static_cast<size_t>(y) * w_ + x1,
             static_cast<size_t>(x2 - x1 + 1), color);
  }

  // draw_line: Bresenham from (x1, y1) to (x2, y2), both ends drawn.
  void PgLine(int x1, int y1, int x2, int y2, uint32_t color) {
    if (x1 == x2 && y1 == y2) {
      PgSet(x1, y1, color);
      return;
    }
    if (y1 == y2) {
      HLine(x1, x2, y1, color);  // the same clipped span
      return;
    }
    if (x1 == x2) {
      int d = y1 < y2 ? 1 : -1;
      for (int i = 0; i <= std::abs(y1 - y2); ++i) {
        PgSet(x1, y1 + d * i, color);
      }
      return;
    }
    int dx = std::abs(x2 - x1);
    int sx = x1 < x2 ? 1 : -1;
    int dy = std::abs(y2 - y1);
    int sy = y1 < y2 ? 1 : -1;
    int err = (dx > dy ? dx : -dy) / 2;
    while (x1 != x2 || y1 != y2) {
      PgSet(x1, y1, color);
      int e2 = err;
      if (e2 > -dx) {
        err -= dy;
        x1 += sx;
      }
      if (e2 < dy) {
        err += dx;
        y1 += sy;
      }
    }
    PgSet(x2, y2, color);
  }

  // pygame.draw.line(width=1): the segment clipped to the surface (its
  // Liang-Barsky clip, ends rounded half away from zero), then draw_line.
  void PgLine1(int x1, int y1, int x2, int y2, uint32_t color) {
    if (PgClipLine(&x1, &y1, &x2, &y2)) {
      PgLine(x1, y1, x2, y2, color);
    }
  }

  // pygame.draw.line(width=w), draw_line_width: Bresenham steps from the
  // unclipped ends, each drawing a span w pixels wide across the line's
  // minor axis ((w - 1) / 2 before the point, w / 2 after), from the clipped
  // start to the clipped end, then on toward the unclipped end while a span
  // end is still on the surface.
  void PgLineWidth(int x1, int y1, int x2, int y2, int width, uint32_t color) {
    const int end_x = x2;
    const int end_y = y2;
    const bool xinc = std::abs(x1 - x2) <= std::abs(y1 - y2);
    const int dx = std::abs(x2 - x1);
    const int sx = x1 < x2 ? 1 : -1;
    const int dy = std::abs(y2 - y1);
    const int sy = y1 < y2 ? 1 : -1;
    int err = (dx > dy ? dx : -dy) / 2;
    if (!PgClipLine(&x1, &y1, &x2, &y2)) {
      return;
    }
    if (width == 1) {
      PgLine(x1, y1, x2, y2, color);
      return;
    }
    auto sign = [](int v, int fallback) {
      return v > 0 ? 1 : (v < 0 ? -1 : fallback);
    };
    auto inside = [&](int x, int y) {
      return x >= 0 && x < w_ && y >= 0 && y < h_;
    };
    int left_top = (xinc ? x1 : y1) - (width - 1) / 2;
    int right_bottom = (xinc ? x1 : y1) + width / 2;
    auto span = [&]() {
      if (xinc) {
        PgHLine(left_top, y1, right_bottom, color);
      } else {
        for (int y = left_top; y <= right_bottom; ++y) {
          PgSet(x1, y, color);
        }
      }
    };
    auto advance = [&]() {
      const int e2 = err;
      if (e2 > -dx) {
        err -= dy;
        x1 += sx;
        if (xinc) {
          left_top += sx;
          right_bottom += sx;
        }
      }
      if (e2 < dy) {
        err += dx;
        y1 += sy;
        if (!xinc) {
          left_top += sy;
          right_bottom += sy;
        }
      }
    };
    while (sign(x1 - x2, sx) != sx || sign(y1 - y2, sy) != sy) {
      span();
      advance();
    }
    if (xinc) {
      while (y1 != end_y &&
             (inside(left_top, y1) || inside(right_bottom, y1))) {
        span();
        advance();
      }
    } else {
      while (x1 != end_x &&
             (inside(x1, left_top) || inside(x1, right_bottom))) {
        span();
        advance();
      }
    }
    span();
  }

  // pygame.draw.lines(width=w > 1), open.
  void PgLinesWidth(const std::vector<int>& xs, const std::vector<int>& ys,
                    int width, uint32_t color) {
    for (size_t i = 1; i < xs.size(); ++i) {
      PgLineWidth(xs[i - 1], ys[i - 1], xs[i], ys[i], width, color);
    }
  }

  // pygame.draw.lines(width=1), closed or not.
  void PgLines1(const std::vector<int>& xs, const std::vector<int>& ys,
                bool closed, uint32_t color) {
    size_t n = xs.size();
    for (size_t i = 1; i < n; ++i) {
      PgLine1(xs[i - 1], ys[i - 1], xs[i], ys[i], color);
    }
    if (closed && n > 2) {
      PgLine1(xs[n - 1], ys[n - 1], xs[0], ys[0], color);
    }
  }

  // pygame.draw.polygon(width=0): draw_fillpoly's scanline fill (each
  // edge's crossing of a row computed in double from its upper end and
  // truncated toward zero, as pygame 2.6.1 gives; older draw.c truncated
  // only the quotient), then the horizontal edges strictly inside.
  void PgPolygon(const std::vector<int>& xs, const std::vector<int>& ys,
                 uint32_t color) {
    int n = static_cast<int>(xs.size());
    int miny = ys[0];
    int maxy = ys[0];
    for (int i = 1; i < n; ++i) {
      miny = std::min(miny, ys[i]);
      maxy = std::max(maxy, ys[i]);
    }
    if (miny == maxy) {
      int minx = xs[0];
      int maxx = xs[0];
      for (int i = 1; i < n; ++i) {
        minx = std::min(minx, xs[i]);
        maxx = std::max(maxx, xs[i]);
      }
      PgLine(minx, miny, maxx, miny, color);
      return;
    }
    std::vector<int> cross;
    for (int y = miny; y <= maxy; ++y) {
      cross.clear();
      for (int i = 0; i < n; ++i) {
        int prev = i == 0 ? n - 1 : i - 1;
        int y1 = ys[prev], y2 = ys[i], x1, x2;
        if (y1 < y2) {
          x1 = xs[prev];
          x2 = xs[i];
        } else if (y1 > y2) {
          y2 = ys[prev];
          y1 = ys[i];
          x2 = xs[prev];
          x1 = xs[i];
        } else {
          continue;
        }
        if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
          cross.push_back(static_cast<int>(
              x1 + static_cast<double>((y - y1) * (x2 - x1)) / (y2 - y1)));
        }
      }
      std::sort(cross.begin(), cross.end());
      for (size_t i = 0; i + 1 < cross.size(); i += 2) {
        PgLine(cross[i], y, cross[i + 1], y, color);
      }
    }
    for (int i = 0; i < n; ++i) {
      int prev = i == 0 ? n - 1 : i - 1;
      int y = ys[i];
      if (miny < y && ys[prev] == y && y < maxy) {
        PgLine(xs[i], y, xs[prev], y, color);
      }
    }
  }

  // pygame.draw.circle(width=0): draw_circle_filled's midpoint spans.
  void PgFilledCircle(int x0, int y0, int radius, uint32_t color) {
    if (radius < 1) {
      return;
    }
    int f = 1 - radius;
    int ddf_x = 0;
    int ddf_y = -2 * radius;
    int x = 0;
    int y = radius;
    while (x < y) {
      if (f >= 0) {
        --y;
        ddf_y += 2;
        f += ddf_y;
      }
      ++x;
      ddf_x += 2;
      f += ddf_x + 1;
      if (f >= 0) {
        PgHLine(x0 - x, y0 + y - 1, x0 + x - 1, color);
        PgHLine(x0 - x, y0 - y, x0 + x - 1, color);
      }
      PgHLine(x0 - y, y0 + x - 1, x0 + y - 1, color);
      PgHLine(x0 - y, y0 - x, x0 + y - 1, color);
    }
  }

  // pygame.draw.aalines(closed=True).
  void PgAALinesClosed(const std::vector<float>& xs,
                       const std::vector<float>& ys, Rgb c) {
    PgAALines(xs, ys, c);
    size_t n = xs.size();
    if (n > 2) {
      PgAALine(xs[n - 1], ys[n - 1], xs[0], ys[0], c);
    }
  }

  // pygame.transform.flip(surface, False, True), then the RGB bytes of the
  // (height, width, 3) frame gymnasium returns.
  // Columns x0..x0+width-1 only, when given (negative ones are black).
  void WriteFlipped(uint8_t* rgb) const { WriteFlipped(rgb, 0, w_); }
  void WriteFlipped(uint8_t* rgb, int x0, int width) const {
    for (int y = 0; y < h_; ++y) {
      const uint32_t* row = &px_[static_cast<size_t>(h_ - 1 - y) * w_];
      for (int x = x0; x < x0 + width; ++x) {
        if (x < 0 || x >= w_) {
          *rgb++ = 0;
          *rgb++ = 0;
          *rgb++ = 0;
          continue;
        }
        uint32_t p = row[x];
        *rgb++ = static_cast<uint8_t>(p >> 16);
        *rgb++ = static_cast<uint8_t>(p >> 8);
        *rgb++ = static_cast<uint8_t>(p);
      }
    }
  }

  static uint32_t Pack(Rgb c) {
    return (static_cast<uint32_t>(c.r) << 16) |
           (static_cast<uint32_t>(c.g) << 8) | c.b;
  }
  int width() const { return w_; }
  int height() const { return h_; }
  std::vector<uint32_t>& pixels() { return px_; }

 private:
  // SDL_gfx's Cohen-Sutherland clip (float slope, truncated to short).
  bool ClipLine(int16_t* x1, int16_t* y1, int16_t* x2, int16_t* y2) const {
    const int left = 0, right = w_ - 1, top = 0, bottom = h_ - 1;
    auto encode = [&](int x, int y) {
      int code = 0;
      if (x < left) {
        code |= 1;
      } else if (x > right) {
        code |= 2;
      }
      if (y < top) {
        code |= 8;
      } else if (y > bottom) {
        code |= 4;
      }
      return code;
    };
    while (true) {
      int c1 = encode(*x1, *y1);
      int c2 = encode(*x2, *y2);
      if ((c1 | c2) == 0) {
        return true;
      }
      if ((c1 & c2) != 0) {
        return false;
      }
      if (c1 == 0) {
        std::swap(*x1, *x2);
        std::swap(*y1, *y2);
        std::swap(c1, c2);
      }
      float m = 1.0f;
      if (*x2 != *x1) {
        m = static_cast<float>(*y2 - *y1) / static_cast<float>(*x2 - *x1);
      }
      if (c1 & 1) {
        *y1 = static_cast<int16_t>(
            *y1 + static_cast<int16_t>(static_cast<float>(left - *x1) * m));
        *x1 = static_cast<int16_t>(left);
      } else if (c1 & 2) {
        *y1 = static_cast<int16_t>(
            *y1 + static_cast<int16_t>(static_cast<float>(right - *x1) * m));
        *x1 = static_cast<int16_t>(right);
      } else if (c1 & 4) {
        if (*x2 != *x1) {
          *x1 = static_cast<int16_t>(
              *x1 + static_cast<int16_t>(static_cast<float>(bottom - *y1) / m));
        }
        *y1 = static_cast<int16_t>(bottom);
      } else if (c1 & 8) {
        if (*x2 != *x1) {
          *x1 = static_cast<int16_t>(
              *x1 + static_cast<int16_t>(static_cast<float>(top - *y1) / m));
        }
        *y1 = static_cast<int16_t>(top);
      }
    }
  }

  // pygame's clip_line (Liang-Barsky on the surface rectangle).
  bool PgClipLine(int* x1, int* y1, int* x2, int* y2) const {
    int p1 = *x1 - *x2;
    int p2 = -p1;
    int p3 = *y1 - *y2;
    int p4 = -p3;
    int q1 = *x1;
    int q2 = w_ - *x1;
    int q3 = *y1;
    int q4 = h_ - *y1;
    int old_x1 = *x1;
    int old_y1 = *y1;
    double nmax = 0;
    double pmin = 1;
    if ((p1 == 0 && q1 < 0) || (p2 == 0 && q2 < 0) || (p3 == 0 && q3 < 0) ||
        (p4 == 0 && q4 < 0)) {
      return false;
    }
    auto bound = [&](int p, int qa, int pb, int qb) {
      double r1 = static_cast<double>(qa) / p;
      double r2 = static_cast<double>(qb) / pb;
      if (p < 0) {
        nmax = std::max(nmax, r1);
        pmin = std::min(pmin, r2);
      } else {
        nmax = std::max(nmax, r2);
        pmin = std::min(pmin, r1);
      }
    };
    if (p1 != 0) {
      bound(p1, q1, p2, q2);
    }
    if (p3 != 0) {
      bound(p3, q3, p4, q4);
    }
    if (nmax > pmin) {
      return false;
    }
    auto round_away = [](double v) {
      return static_cast<int>(v < 0 ? v - 0.5 : v + 0.5);
    };
    *x1 = old_x1 + round_away(p2 * nmax);
    *y1 = old_y1 + round_away(p4 * nmax);
    *x2 = old_x1 + round_away(p2 * pmin);
    *y2 = old_y1 + round_away(p4 * pmin);
    return true;
  }

  // pygame's get_antialiased_color + set_at: brightness * colour +
  // (1 - brightness) * background per channel, in float, truncated.
  void Mix(int x, int y, Rgb c, float brightness) {
    if (x < 0 || x >= w_ || y < 0 || y >= h_) {
      return;
    }
    uint32_t& p = px_[static_cast<size_t>(y) * w_ + x];
    const uint8_t fg[3] = {c.r, c.g, c.b};
    uint32_t out = 0;
    for (int k = 0; k < 3; ++k) {
      uint32_t shift = 16 - 8 * k;
      auto bg = static_cast<float>((p >> shift) & 0xff);
      float v = brightness * static_cast<float>(fg[k]) + (1 - brightness) * bg;
      out |= static_cast<uint32_t>(static_cast<uint8_t>(v)) << shift;
    }
    p = out;
  }

  int w_, h_;
  std::vector<uint32_t> px_;
  std::vector<int> scanline_xs_;
  std::vector<ScanEdge> scan_edges_;
  std::vector<Span> fill_spans_;
  std::vector<int> fill_rows_;  // per row from fill_y0_: its first span
  int fill_y0_ = 0;
};

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_PYGAME_DRAW_H_
