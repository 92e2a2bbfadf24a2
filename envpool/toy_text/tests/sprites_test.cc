// The PNG decoder and pygame blits the toy_text frames are drawn with:
// PNGs of every supported colour type and filter, written here, decode to
// the pixels they hold; broken files are errors naming the file and the
// fault; the blit's blend is pygame's (values measured with pygame 2.6.1).
#include "envpool/toy_text/sprites.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/render/png.h"
#include "envpool/render/pygame_blit.h"

namespace envpool::render {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return (std::filesystem::path(
              dir != nullptr ? dir : std::filesystem::temp_directory_path()) /
          name)
      .string();
}

void Put32(std::vector<uint8_t>* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->push_back(static_cast<uint8_t>(v >> shift));
  }
}

void Chunk(std::vector<uint8_t>* out, const std::string& type,
           const std::vector<uint8_t>& body) {
  Put32(out, static_cast<uint32_t>(body.size()));
  std::vector<uint8_t> typed(type.begin(), type.end());
  typed.insert(typed.end(), body.begin(), body.end());
  out->insert(out->end(), typed.begin(), typed.end());
  Put32(out, crc32(0L, typed.data(), typed.size()));
}

// A PNG of `rows` (each `stride` bytes of samples), row y filtered with
// filter y % 5.
std::vector<uint8_t> MakePng(int width, int height, int depth, int colour,
                             const std::vector<std::vector<uint8_t>>& rows,
                             const std::vector<std::vector<uint8_t>>& extra,
                             const std::vector<std::string>& extra_types,
                             int bpp) {
  std::vector<uint8_t> png = {137, 80, 78, 71, 13, 10, 26, 10};
  std::vector<uint8_t> ihdr;
  Put32(&ihdr, width);
  Put32(&ihdr, height);
  ihdr.insert(ihdr.end(), {static_cast<uint8_t>(depth),
                           static_cast<uint8_t>(colour), 0, 0, 0});
  Chunk(&png, "IHDR", ihdr);
  for (size_t i = 0; i < extra.size(); ++i) {
    Chunk(&png, extra_types[i], extra[i]);
  }
  std::vector<uint8_t> raw;
  std::vector<uint8_t> prev(rows[0].size(), 0);
  for (size_t y = 0; y < rows.size(); ++y) {
    const int filter = static_cast<int>(y % 5);
    raw.push_back(static_cast<uint8_t>(filter));
    const std::vector<uint8_t>& cur = rows[y];
    for (size_t i = 0; i < cur.size(); ++i) {
      const int a = i >= static_cast<size_t>(bpp) ? cur[i - bpp] : 0;
      const int b = prev[i];
      const int c = i >= static_cast<size_t>(bpp) ? prev[i - bpp] : 0;
      int predictor = 0;
      if (filter == 1) {
        predictor = a;
      } else if (filter == 2) {
        predictor = b;
      } else if (filter == 3) {
        predictor = (a + b) / 2;
      } else if (filter == 4) {
        const int p = a + b - c;
        const int pa = std::abs(p - a), pb = std::abs(p - b),
                  pc = std::abs(p - c);
        predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
      }
      raw.push_back(static_cast<uint8_t>(cur[i] - predictor));
    }
    prev = cur;
  }
  uLongf size = compressBound(raw.size());
  std::vector<uint8_t> z(size);
  compress(z.data(), &size, raw.data(), raw.size());
  z.resize(size);
  Chunk(&png, "IDAT", z);
  Chunk(&png, "IEND", {});
  return png;
}

std::string Write(const std::string& name, const std::vector<uint8_t>& data) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data.data()),
             static_cast<std::streamsize>(data.size()));
  return path;
}

std::string ErrorOf(const std::string& path) {
  try {
    LoadPngRgba(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(PngTest, RgbaWithEveryFilterDecodes) {
  const int w = 4, h = 7;
  std::vector<std::vector<uint8_t>> rows;
  for (int y = 0; y < h; ++y) {
    std::vector<uint8_t> row;
    for (int x = 0; x < w * 4; ++x) {
      row.push_back(static_cast<uint8_t>((x * 37 + y * 91 + x * y * 13) % 256));
    }
    rows.push_back(row);
  }
  RgbaImage image =
      LoadPngRgba(Write("rgba.png", MakePng(w, h, 8, 6, rows, {}, {}, 4)));
  ASSERT_EQ(image.width, w);
  ASSERT_EQ(image.height, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(image.At(x, y)[c], rows[y][x * 4 + c]) << x << "," << y;
      }
    }
  }
  AlphaImage alpha =
      LoadPngAlpha(Write("rgba.png", MakePng(w, h, 8, 6, rows, {}, {}, 4)));
  EXPECT_EQ(alpha.alpha[w + 2], rows[1][2 * 4 + 3]);
}

TEST(PngTest, GreyRgbAndGreyAlphaDecodeToRgba) {
  // grey with a tRNS grey level
  RgbaImage grey = LoadPngRgba(
      Write("grey.png",
            MakePng(3, 5, 8, 0,
                    {{0, 9, 200}, {1, 2, 3}, {9, 9, 9}, {4, 5, 6}, {7, 8, 255}},
                    {{0, 9}}, {"tRNS"}, 1)));
  EXPECT_EQ(grey.At(2, 0)[0], 200);
  EXPECT_EQ(grey.At(2, 0)[2], 200);
  EXPECT_EQ(grey.At(2, 0)[3], 255);
  EXPECT_EQ(grey.At(1, 0)[3], 0);
  EXPECT_EQ(grey.At(2, 4)[1], 255);
  RgbaImage rgb = LoadPngRgba(Write(
      "rgb.png",
      MakePng(
          2, 3, 8, 2,
          {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}, {0, 0, 0, 250, 251, 252}},
          {}, {}, 3)));
  EXPECT_EQ(rgb.At(1, 2)[0], 250);
  EXPECT_EQ(rgb.At(1, 2)[2], 252);
  EXPECT_EQ(rgb.At(1, 2)[3], 255);
  EXPECT_EQ(rgb.At(0, 1)[1], 8);
  RgbaImage ga = LoadPngRgba(Write(
      "ga.png",
      MakePng(2, 2, 8, 4, {{10, 20, 30, 40}, {50, 60, 70, 80}}, {}, {}, 2)));
  EXPECT_EQ(ga.At(1, 1)[0], 70);
  EXPECT_EQ(ga.At(1, 1)[3], 80);
}

TEST(PngTest, PalettesOfTwoAndEightBitsWithTransparency) {
  const std::vector<uint8_t> plte = {255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9};
  // 2 bits: 5 pixels a row, indices packed from the high bits
  // row 0: 0 1 2 3 1 -> 00011011 01000000
  RgbaImage two = LoadPngRgba(
      Write("p2.png", MakePng(5, 2, 2, 3, {{0x1b, 0x40}, {0xe4, 0x00}},
                              {plte, {128}}, {"PLTE", "tRNS"}, 1)));
  EXPECT_EQ(two.At(1, 0)[1], 255);
  EXPECT_EQ(two.At(3, 0)[0], 9);
  EXPECT_EQ(two.At(0, 0)[3], 128);
  EXPECT_EQ(two.At(4, 0)[1], 255);
  EXPECT_EQ(two.At(0, 1)[0], 9);  // row 1: 3 2 1 0 0
  EXPECT_EQ(two.At(1, 1)[2], 255);
  EXPECT_EQ(two.At(3, 1)[3], 128);
  EXPECT_EQ(two.At(2, 1)[3], 255);
  RgbaImage eight = LoadPngRgba(
      Write("p8.png", MakePng(3, 1, 8, 3, {{2, 0, 3}}, {plte}, {"PLTE"}, 1)));
  EXPECT_EQ(eight.At(0, 0)[2], 255);
  EXPECT_EQ(eight.At(1, 0)[0], 255);
  EXPECT_EQ(eight.At(2, 0)[3], 255);
  EXPECT_NE(
      ErrorOf(Write("p9.png", MakePng(1, 1, 8, 3, {{7}}, {plte}, {"PLTE"}, 1)))
          .find("palette index"),
      std::string::npos);
}

TEST(PngTest, BrokenFilesAreErrorsNamingTheFileAndTheFault) {
  const std::vector<uint8_t> good = MakePng(
      2, 2, 8, 6, {std::vector<uint8_t>(8, 7), std::vector<uint8_t>(8, 9)}, {},
      {}, 4);
  auto expect = [](const std::string& path, const std::string& fault) {
    const std::string what = ErrorOf(path);
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(fault), std::string::npos) << what;
  };
  expect(TempPath("missing.png"), "no such file");
  expect(Write("text.png", {'h', 'e', 'l', 'l', 'o'}), "not a PNG");
  std::vector<uint8_t> flipped = good;
  flipped[good.size() - 20] ^= 0x55;  // inside IDAT
  expect(Write("crc.png", flipped), "CRC");
  std::vector<uint8_t> cut(good.begin(), good.end() - 30);
  expect(Write("cut.png", cut), "truncated");
  std::vector<uint8_t> no_end(good.begin(), good.end() - 12);
  expect(Write("noend.png", no_end), "IEND");
  expect(Write("d16.png",
               MakePng(1, 1, 16, 6, {std::vector<uint8_t>(8, 1)}, {}, {}, 8)),
         "bit depth 16");
}

// pygame 2.6.1's blit of a per-pixel-alpha image onto a surface without
// alpha: {alpha, source, destination, result}, measured with pygame.
TEST(BlitTest, BlendIsPygames) {
  const int kMeasured[][4] = {
      {1, 0, 1, 0},         {1, 1, 2, 2},       {254, 255, 0, 254},
      {128, 200, 0, 100},   {77, 13, 240, 171}, {217, 163, 130, 158},
      {69, 78, 10, 28},     {19, 4, 44, 41},    {208, 166, 233, 179},
      {128, 155, 248, 202}, {0, 255, 17, 17},   {255, 3, 250, 3}};
  for (const auto& m : kMeasured) {
    Surface surface(2, 1);
    surface.Fill({static_cast<uint8_t>(m[2]), 0, static_cast<uint8_t>(m[2])});
    RgbaImage image;
    image.width = 1;
    image.height = 1;
    image.rgba = {static_cast<uint8_t>(m[1]), 0, static_cast<uint8_t>(m[1]),
                  static_cast<uint8_t>(m[0])};
    surface.Blit(image, 1, 0);
    EXPECT_EQ(surface.rgb()[3], m[3]) << m[0] << " " << m[1] << " " << m[2];
    EXPECT_EQ(surface.rgb()[5], m[3]);
    EXPECT_EQ(surface.rgb()[0], m[2]);  // outside the image: untouched
  }
}

TEST(BlitTest, ClipsFlipsAndOutlines) {
  RgbaImage image;
  image.width = 2;
  image.height = 2;
  image.rgba = {1, 1, 1, 255, 2, 2, 2, 255, 3, 3, 3, 255, 4, 4, 4, 255};
  Surface surface(3, 3);
  surface.Blit(image, -1, 2);  // only pixel (1, 0) lands, at (0, 2)
  EXPECT_EQ(surface.rgb()[(2 * 3 + 0) * 3], 2);
  EXPECT_EQ(surface.rgb()[(2 * 3 + 1) * 3], 0);
  RgbaImage mirrored = Flip(image, true, false);
  EXPECT_EQ(mirrored.At(0, 0)[0], 2);
  EXPECT_EQ(mirrored.At(1, 1)[0], 3);
  RgbaImage upside_down = Flip(image, false, true);
  EXPECT_EQ(upside_down.At(0, 0)[0], 3);
  Surface box(5, 5);
  box.Rect(1, 1, 3, 3, {9, 9, 9});
  EXPECT_EQ(box.rgb()[(1 * 5 + 1) * 3], 9);
  EXPECT_EQ(box.rgb()[(3 * 5 + 3) * 3], 9);
  EXPECT_EQ(box.rgb()[(2 * 5 + 2) * 3], 0);  // inside: not filled
  EXPECT_EQ(box.rgb()[(4 * 5 + 4) * 3], 0);
}

// The source column of each destination column of pygame 2.6.1's
// transform.scale, measured with pygame (rows are picked alike).
TEST(BlitTest, ScaleIsPygamesNearestNeighbour) {
  const struct {
    int from, to;
    std::vector<int> columns;
  } kMeasured[] = {
      {5, 3, {0, 1, 3}},
      {3, 7, {0, 0, 0, 1, 1, 2, 2}},
      {7, 16, {0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6}},
      {10, 4, {0, 2, 5, 7}},
      {4, 10, {0, 0, 0, 1, 1, 2, 2, 2, 3, 3}},
      {64, 40, {0,  1,  3,  4,  6,  8,  9,  11, 12, 14, 16, 17, 19, 20,
                22, 24, 25, 27, 28, 30, 32, 33, 35, 36, 38, 40, 41, 43,
                44, 46, 48, 49, 51, 52, 54, 56, 57, 59, 60, 62}},
  };
  for (const auto& m : kMeasured) {
    RgbaImage image;
    image.width = m.from;
    image.height = m.from;
    for (int y = 0; y < m.from; ++y) {
      for (int x = 0; x < m.from; ++x) {
        image.rgba.insert(image.rgba.end(), {static_cast<uint8_t>(x),
                                             static_cast<uint8_t>(y), 0, 255});
      }
    }
    RgbaImage scaled = Scale(image, m.to, m.to);
    ASSERT_EQ(scaled.width, m.to);
    for (int i = 0; i < m.to; ++i) {
      EXPECT_EQ(scaled.At(i, 0)[0], m.columns[i]) << m.from << "->" << m.to;
      EXPECT_EQ(scaled.At(0, i)[1], m.columns[i]) << m.from << "->" << m.to;
    }
  }
}

TEST(SpriteTest, MissingSpriteIsAnErrorNamingTheFile) {
  const std::string saved = envpool::FamilyAssetDir("toy_text");
  envpool::SetFamilyAssetDir("toy_text", "/nonexistent/img");
  try {
    toy_text::Sprite("taxi/house_that_is_not_there");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "/nonexistent/img/taxi/house_that_is_not_there.png"),
              std::string::npos)
        << e.what();
  }
  envpool::SetFamilyAssetDir("toy_text", "");
  EXPECT_THROW(toy_text::Sprite("agent_not_loaded"), std::runtime_error);
  envpool::SetFamilyAssetDir("toy_text", saved);
}

}  // namespace
}  // namespace envpool::render
