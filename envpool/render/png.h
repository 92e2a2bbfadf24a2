// The alpha plane of an 8-bit RGBA, non-interlaced PNG (what gymnasium's
// Pendulum arrow, assets/clockwise.png, is): the IDAT stream inflated with
// zlib and its scanline filters undone. Errors are std::runtime_error
// naming the file.
#ifndef ENVPOOL_RENDER_PNG_H_
#define ENVPOOL_RENDER_PNG_H_

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::render {

struct AlphaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> alpha;  // row-major, height x width
};

inline AlphaImage LoadPngAlpha(const std::string& path) {
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
  AlphaImage image;
  std::vector<uint8_t> idat;
  size_t at = 8;
  while (at + 12 <= data.size()) {
    uint32_t length = be32(at);
    std::string type(data.begin() + at + 4, data.begin() + at + 8);
    if (at + 12 + length > data.size()) {
      throw fail("truncated chunk " + type);
    }
    const uint8_t* body = data.data() + at + 8;
    if (type == "IHDR") {
      image.width = static_cast<int>(be32(at + 8));
      image.height = static_cast<int>(be32(at + 12));
      // bit depth 8, colour type 6 (RGBA), no interlace
      if (length < 13 || body[8] != 8 || body[9] != 6 || body[12] != 0) {
        throw fail("not an 8-bit RGBA non-interlaced PNG");
      }
    } else if (type == "IDAT") {
      idat.insert(idat.end(), body, body + length);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + length;
  }
  if (image.width <= 0 || image.height <= 0 || image.width > 8192 ||
      image.height > 8192) {
    throw fail("bad image size");
  }
  const size_t stride = static_cast<size_t>(image.width) * 4;
  std::vector<uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, idat.data(), idat.size()) != Z_OK ||
      raw_size != raw.size()) {
    throw fail("corrupt image data");
  }
  // Undo the filters (none, sub, up, average, Paeth), bytes of 4 per pixel.
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  image.alpha.resize(static_cast<size_t>(image.width) * image.height);
  for (int y = 0; y < image.height; ++y) {
    const uint8_t* row = raw.data() + y * (stride + 1);
    uint8_t filter = row[0];
    for (size_t i = 0; i < stride; ++i) {
      int a = i >= 4 ? cur[i - 4] : 0;
      int b = prev[i];
      int c = i >= 4 ? prev[i - 4] : 0;
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
          int p = a + b - c;
          int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          throw fail("bad scanline filter");
      }
      cur[i] = static_cast<uint8_t>(row[1 + i] + predictor);
    }
    for (int x = 0; x < image.width; ++x) {
      image.alpha[static_cast<size_t>(y) * image.width + x] = cur[x * 4 + 3];
    }
    std::swap(prev, cur);
  }
  return image;
}

}  // namespace envpool::render

#endif  // ENVPOOL_RENDER_PNG_H_
