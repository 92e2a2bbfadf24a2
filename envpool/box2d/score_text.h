// CarRacing's score: pygame.font.Font(get_default_font(), 42).render(text,
// True, white, black), the SDL_ttf 2.20.1 shaded render pygame 2.6.1 makes,
// rasterized with FreeType (the system's 2.12.1, the version pygame's wheel
// bundles) on freesansbold.ttf taken from that wheel.
//
// What SDL_ttf does, and so this: the size is set with FT_Set_Char_Size(42pt,
// 72 dpi); HarfBuzz lays the line out with hinted advances (FT_Get_Advance
// with FT_LOAD_DEFAULT, 16.16 rounded to 26.6) and the font's `kern` table
// (the font has no GPOS), each pair's kerning scaled to 26.6 with rounding and
// split between the two glyphs (the first's advance gets kern >> 1, the
// second's advance and offset the rest). A glyph is drawn at
// floor(pen / 64) + bitmap_left, without subpixel translation, and the glyph
// bitmaps are OR-ed into a surface of 8-bit shades whose palette maps shade i
// to (i, i, i). The surface is as wide as the glyphs' union with the pen's
// end and as high as the font's ascent minus descent (42 here).
#ifndef ENVPOOL_BOX2D_SCORE_TEXT_H_
#define ENVPOOL_BOX2D_SCORE_TEXT_H_

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::box2d {

// freesansbold.ttf of the pinned pygame wheel, compiled in by BUILD.
extern const unsigned char kFreeSansBold[];
extern const size_t kFreeSansBoldSize;

class ScoreText {
 public:
  struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> shade;  // width x height, row major
  };

  ScoreText() {
    if (FT_Init_FreeType(&library_) != 0) {
      throw std::runtime_error("FreeType could not be initialized");
    }
    if (FT_New_Memory_Face(library_, kFreeSansBold,
                           static_cast<FT_Long>(kFreeSansBoldSize), 0,
                           &face_) != 0) {
      FT_Done_FreeType(library_);
      throw std::runtime_error("FreeType could not open freesansbold.ttf");
    }
    FT_Set_Char_Size(face_, 0, kPointSize * 64, 0, 0);
    const FT_Fixed y_scale = face_->size->metrics.y_scale;
    ascent_ = Ceil(FT_MulFix(face_->ascender, y_scale));
    height_ = Ceil(FT_MulFix(face_->ascender - face_->descender, y_scale));
    // HarfBuzz's hb_ft font: x_scale in 26.6 and its 16.16 multiplier.
    const int64_t x_scale = static_cast<int64_t>(
        (static_cast<uint64_t>(face_->size->metrics.x_scale) *
             face_->units_per_EM +
         (1U << 15)) >>
        16);
    x_mult_ = (x_scale << 16) / face_->units_per_EM;
  }
  ScoreText(const ScoreText&) = delete;
  ScoreText& operator=(const ScoreText&) = delete;
  ~ScoreText() {
    FT_Done_Face(face_);
    FT_Done_FreeType(library_);
  }

  Image Render(const std::string& text) {
    const size_t n = text.size();
    std::vector<const Glyph*> glyphs(n);
    std::vector<int64_t> advance(n);
    std::vector<int64_t> offset(n, 0);
    for (size_t i = 0; i < n; ++i) {
      glyphs[i] = &GlyphOf(static_cast<unsigned char>(text[i]));
      advance[i] = glyphs[i]->advance;
    }
    for (size_t i = 0; i + 1 < n; ++i) {
      FT_Vector delta;
      FT_Get_Kerning(face_, glyphs[i]->index, glyphs[i + 1]->index,
                     FT_KERNING_UNSCALED, &delta);
      if (delta.x != 0) {
        const int64_t kern = (delta.x * x_mult_ + 32768) >> 16;
        const int64_t first = kern >> 1;
        const int64_t second = kern - first;
        advance[i] += first;
        advance[i + 1] += second;
        offset[i + 1] += second;
      }
    }
    std::vector<int64_t> pen_x(n);
    int64_t x = 0;
    int min_x = 0;
    int max_x = 0;
    int min_y = 0;
    int max_y = height_;
    for (size_t i = 0; i < n; ++i) {
      pen_x[i] = x + offset[i];
      x += advance[i];
      const Glyph& g = *glyphs[i];
      const int gx = Floor(pen_x[i]) + g.box_left;
      const int gy = ascent_ - g.box_top;
      min_x = std::min(min_x, gx);
      max_x = std::max(max_x, gx + g.box_width);
      min_y = std::min(min_y, gy);
      max_y = std::max(max_y, gy + g.box_rows);
    }
    max_x = std::max(max_x, Floor(x));
    const int x_start = min_x < 0 ? -min_x : 0;
    const int y_start = min_y < 0 ? -min_y : 0;
    Image image;
    image.width = max_x - min_x;
    image.height = max_y - min_y;
    image.shade.assign(static_cast<size_t>(image.width) * image.height, 0);
    for (size_t i = 0; i < n; ++i) {
      const Glyph& g = *glyphs[i];
      const int gx = x_start + Floor(pen_x[i]) + g.left;
      const int gy = y_start + ascent_ - g.top;
      for (int r = 0; r < g.rows; ++r) {
        const int y = gy + r;
        if (y < 0 || y >= image.height) {
          continue;
        }
        for (int c = 0; c < g.width; ++c) {
          const int px = gx + c;
          if (px < 0 || px >= image.width) {
            continue;
          }
          image.shade[static_cast<size_t>(y) * image.width + px] |=
              g.bitmap[static_cast<size_t>(r) * g.width + c];
        }
      }
    }
    return image;
  }

 private:
  static constexpr int kPointSize = 42;

  struct Glyph {
    bool loaded = false;
    FT_UInt index = 0;
    int64_t advance = 0;  // 26.6, as HarfBuzz's hb_ft gives it
    // SDL_ttf's box from the glyph's metrics (before rendering).
    int box_left = 0;
    int box_top = 0;
    int box_width = 0;
    int box_rows = 0;
    // The rendered bitmap.
    int left = 0;
    int top = 0;
    int width = 0;
    int rows = 0;
    std::vector<uint8_t> bitmap;
  };

  static int Floor(int64_t v) { return static_cast<int>((v & -64) / 64); }
  static int Ceil(int64_t v) { return Floor(v + 63); }

  const Glyph& GlyphOf(unsigned char ch) {
    Glyph& g = cache_[ch];
    if (g.loaded) {
      return g;
    }
    g.index = FT_Get_Char_Index(face_, ch);
    FT_Fixed adv = 0;
    FT_Get_Advance(face_, g.index, FT_LOAD_DEFAULT, &adv);
    g.advance = (static_cast<int64_t>(adv) + (1 << 9)) >> 10;
    if (FT_Load_Glyph(face_, g.index, FT_LOAD_DEFAULT) != 0) {
      throw std::runtime_error("FreeType could not load a glyph");
    }
    FT_GlyphSlot slot = face_->glyph;
    g.box_left = slot->bitmap_left;
    g.box_top = slot->bitmap_top;
    g.box_rows = static_cast<int>(slot->bitmap.rows);
    g.box_width = static_cast<int>(slot->bitmap.width);
    if (g.box_left == 0 && g.box_top == 0 && g.box_rows == 0 &&
        g.box_width == 0) {
      const FT_Glyph_Metrics& m = slot->metrics;
      const int min_x = Floor(m.horiBearingX);
      const int max_x = Ceil(m.horiBearingX + m.width);
      const int max_y = Floor(m.horiBearingY);
      const int min_y = max_y - Ceil(m.height);
      g.box_left = min_x;
      g.box_top = max_y;
      g.box_rows = max_y - min_y;
      g.box_width = max_x - min_x;
    }
    if (FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) != 0) {
      throw std::runtime_error("FreeType could not render a glyph");
    }
    g.left = slot->bitmap_left;
    g.top = slot->bitmap_top;
    g.width = static_cast<int>(slot->bitmap.width);
    g.rows = static_cast<int>(slot->bitmap.rows);
    g.bitmap.resize(static_cast<size_t>(g.width) * g.rows);
    for (int r = 0; r < g.rows; ++r) {
      for (int c = 0; c < g.width; ++c) {
        g.bitmap[static_cast<size_t>(r) * g.width + c] =
            slot->bitmap.buffer[r * slot->bitmap.pitch + c];
      }
    }
    g.loaded = true;
    return g;
  }

  FT_Library library_ = nullptr;
  FT_Face face_ = nullptr;
  int ascent_ = 0;
  int height_ = 0;
  int64_t x_mult_ = 0;
  std::array<Glyph, 256> cache_{};
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_SCORE_TEXT_H_
