// ALE's PhosphorBlend (colour averaging) with its tables built on first use.
//
// ALE builds two tables in PhosphorBlend's constructor, at every ROM load:
// the blended RGB of each pair of palette colours, and the nearest palette
// colour of every RGB value (64^3 points, each against 128 colours), about
// 0.1 s per env. envpool runs ALE with color_averaging off, so the tables
// are never read; building them on the first process() keeps colour
// averaging exactly as ALE computes it (blend ratio 77, nearest even palette
// entry by L1 distance, the first on ties) and makes env construction cheap.
// Replaces src/ale/environment/phosphor_blend.cpp of the ale-py sdist; the
// header is ALE's.
#include "ale/environment/phosphor_blend.hpp"

#include <cstdlib>

namespace ale {
namespace {

// m_phosphor_blend_ratio doubles as the "tables built" mark: 0 until then.
constexpr uint8_t kBlendRatio = 77;

}  // namespace

PhosphorBlend::PhosphorBlend(stella::OSystem* osystem)
    : m_osystem(osystem), m_phosphor_blend_ratio(0) {}

void PhosphorBlend::process(ALEScreen& screen) {
  if (m_phosphor_blend_ratio == 0) {
    m_phosphor_blend_ratio = kBlendRatio;
    makeAveragePalette();
  }
  auto& console = m_osystem->console();
  const uint8_t* current = console.mediaSource().currentFrameBuffer();
  const uint8_t* previous = console.mediaSource().previousFrameBuffer();
  pixel_t* out = screen.getArray();
  for (size_t i = 0; i < screen.arraySize(); ++i) {
    out[i] = rgbToNTSC(m_avg_palette[current[i]][previous[i]]);
  }
}

void PhosphorBlend::makeAveragePalette() {
  auto& palette = m_osystem->colourPalette();
  // The colour entries of the palette (even indices; odd ones are grey).
  int rgb[128][3];
  for (int c = 0; c < 256; c += 2) {
    palette.getRGB(c, rgb[c / 2][0], rgb[c / 2][1], rgb[c / 2][2]);
  }
  for (int c1 = 0; c1 < 256; c1 += 2) {
    const int* a = rgb[c1 / 2];
    for (int c2 = 0; c2 < 256; c2 += 2) {
      const int* b = rgb[c2 / 2];
      m_avg_palette[c1][c2] =
          makeRGB(getPhosphor(a[0], b[0]), getPhosphor(a[1], b[1]),
                  getPhosphor(a[2], b[2]));
    }
  }
  // Nearest colour entry of each RGB point, on a grid of step 4.
  for (int r = 0; r < 256; r += 4) {
    for (int g = 0; g < 256; g += 4) {
      for (int b = 0; b < 256; b += 4) {
        int best = 256 * 3 + 1;
        int best_index = -1;
        for (int k = 0; k < 128; ++k) {
          int distance = std::abs(rgb[k][0] - r) + std::abs(rgb[k][1] - g) +
                         std::abs(rgb[k][2] - b);
          if (distance < best) {
            best = distance;
            best_index = 2 * k;
          }
        }
        m_rgb_ntsc[r >> 2][g >> 2][b >> 2] = static_cast<uint8_t>(best_index);
      }
    }
  }
}

uint8_t PhosphorBlend::getPhosphor(uint8_t v1, uint8_t v2) {
  if (v1 < v2) {
    uint8_t swap = v1;
    v1 = v2;
    v2 = swap;
  }
  uint32_t blended = ((v1 - v2) * m_phosphor_blend_ratio) / 100 + v2;
  return blended > 255 ? 255 : static_cast<uint8_t>(blended);
}

uint32_t PhosphorBlend::makeRGB(uint8_t r, uint8_t g, uint8_t b) {
  return (static_cast<uint32_t>(r) << 16) | (static_cast<uint32_t>(g) << 8) | b;
}

uint8_t PhosphorBlend::rgbToNTSC(uint32_t rgb) {
  return m_rgb_ntsc[(rgb >> 18) & 0x3F][(rgb >> 10) & 0x3F][(rgb >> 2) & 0x3F];
}

}  // namespace ale
