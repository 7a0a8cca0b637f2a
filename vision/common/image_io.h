// Reading an image file safely: every failure is an ImageFileError with a message that names
// the file and the problem (missing, empty, not an image, corrupt, too large). No crash.
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace arbitre::vision {

inline constexpr std::uint64_t kMaxImagePixels = 50'000'000;

// Width and height from a PNG or JPEG header, without decoding; {0, 0} for other formats or
// a header too damaged to say.
cv::Size peek_size(const std::vector<unsigned char>& bytes);

// Decodes image bytes (PNG, JPEG, and what else OpenCV reads) to 8-bit BGR. `name` is used in
// messages.
cv::Mat decode_image(const std::vector<unsigned char>& bytes, const std::string& name);

// Reads and decodes a file.
cv::Mat load_image(const std::string& path);

}  // namespace arbitre::vision
