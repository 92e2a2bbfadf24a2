// PNG decoding of reference assets (gymnasium's sprites, Pendulum's arrow):
// non-interlaced PNGs of 8 bits per sample in every colour type (grey, RGB,
// palette, grey + alpha, RGBA; palettes of 1, 2 and 4 bits too), chunk
// CRCs checked, the IDAT stream inflated with zlib and its scanline filters
// undone, decoded to RGBA as libpng gives it to pygame's image.load (no
// gamma applied; a palette's tRNS gives its alphas). Errors are
// std::runtime_error naming the file and what is wrong with it.
#ifndef ENVPOOL_RENDER_PNG_H_
#define ENVPOOL_RENDER_PNG_H_

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::render {

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // row-major, height x width x 4

  const uint8_t* At(int x, int y) const {
    return rgba.data() + (static_cast<size_t>(y) * width + x) * 4;
  }
};

struct AlphaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> alpha;  // row-major, height x width
};

inline RgbaImage LoadPngRgba(const std::string& path) {
  auto fail = [&](const std::string& why) {
    return std::runtime_error("cannot read " + path + ": " + why);
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw fail("no such file");
  }
  std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
  static const uint8_t kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (data.size() < 8 ||
      !std::equal(kSignature, kSignature + 8, data.begin())) {
    throw fail("not a PNG file");
  }
  auto be32 = [&](size_t at) {
    return (static_cast<uint32_t>(data[at]) << 24) |
           (static_cast<uint32_t>(data[at + 1]) << 16) |
           (static_cast<uint32_t>(data[at + 2]) << 8) | data[at + 3];
  };
  RgbaImage image;
  int depth = 0;
  int colour = -1;
  std::vector<uint8_t> idat;
  std::vector<uint8_t> palette;           // r, g, b per entry
  std::vector<uint8_t> palette_alpha;     // tRNS of a palette
  int transparent_grey = -1;              // tRNS of grey
  int transparent_rgb[3] = {-1, -1, -1};  // tRNS of RGB
  bool ended = false;
  size_t at = 8;
  while (at + 12 <= data.size()) {
    const uint32_t length = be32(at);
    const std::string type(data.begin() + at + 4, data.begin() + at + 8);
    if (length > data.size() || at + 12 + length > data.size()) {
      throw fail("truncated chunk " + type);
    }
    const uint8_t* body = data.data() + at + 8;
    const uint32_t crc = be32(at + 8 + length);
    if (crc32(0L, data.data() + at + 4, length + 4) != crc) {
      throw fail("bad CRC in chunk " + type + " (corrupt file)");
    }
    if (type == "IHDR") {
      if (length < 13) {
        throw fail("short IHDR");
      }
      image.width = static_cast<int>(be32(at + 8));
      image.height = static_cast<int>(be32(at + 12));
      depth = body[8];
      colour = body[9];
      if (body[12] != 0) {
        throw fail("interlaced PNGs are not supported");
      }
      const bool ok = depth == 8 ? (colour == 0 || colour == 2 || colour == 3 ||
                                    colour == 4 || colour == 6)
                                 : (colour == 3 &&
                                    (depth == 1 || depth == 2 || depth == 4));
      if (!ok) {
        throw fail("unsupported bit depth " + std::to_string(depth) +
                   " of colour type " + std::to_string(colour) +
                   " (8 bits per sample, or a palette, are supported)");
      }
    } else if (type == "PLTE") {
      if (length % 3 != 0 || length == 0 || length > 768) {
        throw fail("bad palette");
      }
      palette.assign(body, body + length);
    } else if (type == "tRNS") {
      if (colour == 3) {
        palette_alpha.assign(body, body + length);
      } else if (colour == 0 && length >= 2) {
        transparent_grey = (body[0] << 8) | body[1];
      } else if (colour == 2 && length >= 6) {
        for (int c = 0; c < 3; ++c) {
          transparent_rgb[c] = (body[2 * c] << 8) | body[2 * c + 1];
        }
      }
    } else if (type == "IDAT") {
      idat.insert(idat.end(), body, body + length);
    } else if (type == "IEND") {
      ended = true;
      break;
    }
    at += 12 + length;
  }
  if (colour < 0) {
    throw fail("no IHDR chunk");
  }
  if (!ended) {
    throw fail("truncated file (no IEND chunk)");
  }
  if (image.width <= 0 || image.height <= 0 || image.width > 8192 ||
      image.height > 8192) {
    throw fail("bad image size");
  }
  if (colour == 3 && palette.empty()) {
    throw fail("palette image without a PLTE chunk");
  }
  const int channels = colour == 0   ? 1
                       : colour == 2 ? 3
                       : colour == 3 ? 1
                       : colour == 4 ? 2
                                     : 4;
  const size_t bits_per_pixel = static_cast<size_t>(channels) * depth;
  const size_t stride = (bits_per_pixel * image.width + 7) / 8;
  const size_t bpp = std::max<size_t>(1, bits_per_pixel / 8);
  std::vector<uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (idat.empty() ||
      uncompress(raw.data(), &raw_size, idat.data(), idat.size()) != Z_OK ||
      raw_size != raw.size()) {
    throw fail("corrupt image data");
  }
  // Undo the filters (none, sub, up, average, Paeth) row by row, then
  // expand the row to RGBA.
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  image.rgba.resize(static_cast<size_t>(image.width) * image.height * 4);
  for (int y = 0; y < image.height; ++y) {
    const uint8_t* row = raw.data() + y * (stride + 1);
    const uint8_t filter = row[0];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? cur[i - bpp] : 0;
      const int b = prev[i];
      const int c = i >= bpp ? prev[i - bpp] : 0;
      int predictor = 0;
      switch (filter) {
        case 0:
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c;
          const int pa = std::abs(p - a), pb = std::abs(p - b),
                    pc = std::abs(p - c);
          predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          throw fail("bad scanline filter (corrupt image data)");
      }
      cur[i] = static_cast<uint8_t>(row[1 + i] + predictor);
    }
    uint8_t* out = image.rgba.data() + static_cast<size_t>(y) * image.width * 4;
    for (int x = 0; x < image.width; ++x, out += 4) {
      switch (colour) {
        case 0: {
          const uint8_t g = cur[x];
          out[0] = out[1] = out[2] = g;
          out[3] = g == transparent_grey ? 0 : 255;
          break;
        }
        case 2: {
          const uint8_t* p = cur.data() + static_cast<size_t>(x) * 3;
          out[0] = p[0];
          out[1] = p[1];
          out[2] = p[2];
          out[3] = (p[0] == transparent_rgb[0] && p[1] == transparent_rgb[1] &&
                    p[2] == transparent_rgb[2])
                       ? 0
                       : 255;
          break;
        }
        case 3: {
          const size_t bit = static_cast<size_t>(x) * depth;
          const int shift = 8 - depth - static_cast<int>(bit % 8);
          const int index = (cur[bit / 8] >> shift) & ((1 << depth) - 1);
          if (static_cast<size_t>(index) * 3 >= palette.size()) {
            throw fail("palette index out of range");
          }
          out[0] = palette[index * 3];
          out[1] = palette[index * 3 + 1];
          out[2] = palette[index * 3 + 2];
          out[3] = static_cast<size_t>(index) < palette_alpha.size()
                       ? palette_alpha[index]
                       : 255;
          break;
        }
        case 4: {
          const uint8_t* p = cur.data() + static_cast<size_t>(x) * 2;
          out[0] = out[1] = out[2] = p[0];
          out[3] = p[1];
          break;
        }
        default:
          std::copy(cur.data() + static_cast<size_t>(x) * 4,
                    cur.data() + static_cast<size_t>(x) * 4 + 4, out);
      }
    }
    std::swap(prev, cur);
  }
  return image;
}

// The alpha plane of a PNG (what gymnasium's Pendulum arrow,
// assets/clockwise.png, is drawn with).
inline AlphaImage LoadPngAlpha(const std::string& path) {
  RgbaImage rgba = LoadPngRgba(path);
  AlphaImage image;
  image.width = rgba.width;
  image.height = rgba.height;
  image.alpha.resize(static_cast<size_t>(rgba.width) * rgba.height);
  for (size_t i = 0; i < image.alpha.size(); ++i) {
    image.alpha[i] = rgba.rgba[i * 4 + 3];
  }
  return image;
}

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_PNG_H_
