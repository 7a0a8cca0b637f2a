#include "vision/common/image_io.h"

#include <opencv2/imgcodecs.hpp>

#include <cstdlib>
#include <fstream>

namespace arbitre::vision {
namespace {

std::uint32_t big_endian(const std::vector<unsigned char>& b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int k = 0; k < bytes; ++k) v = (v << 8) | b[at + static_cast<std::size_t>(k)];
  return v;
}

// OpenCV refuses to decode more pixels than this environment setting; set it once, before the
// first decode, to our own limit so that no format can make it allocate more.
void limit_decoder() {
  static const bool done = [] {
    setenv("OPENCV_IO_MAX_IMAGE_PIXELS", std::to_string(kMaxImagePixels).c_str(), 0);
    return true;
  }();
  (void)done;
}

}  // namespace

cv::Size peek_size(const std::vector<unsigned char>& b) {
  static const unsigned char kPng[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (b.size() >= 24 && std::equal(std::begin(kPng), std::end(kPng), b.begin())) {
    return {static_cast<int>(std::min<std::uint32_t>(big_endian(b, 16, 4), 1u << 30)),
            static_cast<int>(std::min<std::uint32_t>(big_endian(b, 20, 4), 1u << 30))};
  }
  if (b.size() >= 4 && b[0] == 0xFF && b[1] == 0xD8) {
    std::size_t at = 2;
    while (at + 9 < b.size()) {
      if (b[at] != 0xFF) return {0, 0};
      const unsigned char marker = b[at + 1];
      if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
        at += 2;
        continue;
      }
      const std::uint32_t length = big_endian(b, at + 2, 2);
      const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (frame) {
        return {static_cast<int>(big_endian(b, at + 7, 2)), static_cast<int>(big_endian(b, at + 5, 2))};
      }
      if (length < 2) return {0, 0};
      at += 2 + length;
    }
  }
  return {0, 0};
}

cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name) {
  limit_decoder();
  if (bytes.empty()) throw ImageFileError(name + ": the file is empty");
  const cv::Size size = peek_size(bytes);
  if (static_cast<std::uint64_t>(size.width) * static_cast<std::uint64_t>(size.height) > kMaxImagePixels) {
    throw ImageFileError(name + ": the image is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                         ", more than the 50 megapixels Arbitre reads");
  }
  cv::Mat image;
  try {
    image = cv::imdecode(bytes, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    throw ImageFileError(name + ": not a readable image (" + e.msg + ")");
  }
  if (image.empty()) {
    throw ImageFileError(name + ": not a readable image (unknown format, corrupt, or over 50 megapixels)");
  }
  if (image.cols < 16 || image.rows < 16) {
    throw ImageFileError(name + ": the image is " + std::to_string(image.cols) + "x" + std::to_string(image.rows) +
                         ", too small to show a table");
  }
  return image;
}

cv::Mat load_image(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageFileError(path + ": cannot open the file");
  in.seekg(0, std::ios::end);
  const std::streamoff length = in.tellg();
  if (length < 0) throw ImageFileError(path + ": cannot read the file");
  if (static_cast<std::uint64_t>(length) > 4 * kMaxImagePixels) {
    throw ImageFileError(path + ": the file is " + std::to_string(length / 1'000'000) +
                         " MB, too large for an image Arbitre reads");
  }
  in.seekg(0, std::ios::beg);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(length));
  if (length > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), length)) {
    throw ImageFileError(path + ": cannot read the file");
  }
  return decode_image(bytes, path);
}

}  // namespace arbitre::vision
