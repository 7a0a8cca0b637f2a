// Image files: every bad input is an ImageFileError naming the file and the problem.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "vision/common/image_io.h"

namespace v = arbitre::vision;
using ::testing::HasSubstr;

namespace {

std::string error_of(const std::vector<unsigned char>& bytes) {
  try {
    v::decode_image(bytes, "frame.png");
  } catch (const v::ImageFileError& e) {
    return e.what();
  }
  return "";
}

std::vector<unsigned char> png_header(std::uint32_t width, std::uint32_t height) {
  std::vector<unsigned char> b = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
  for (const std::uint32_t v : {width, height}) {
    for (int k = 3; k >= 0; --k) b.push_back(static_cast<unsigned char>(v >> (8 * k)));
  }
  b.insert(b.end(), {8, 2, 0, 0, 0, 0, 0, 0, 0});
  return b;
}

}  // namespace

TEST(ImageIo, EmptyFileIsRefused) { EXPECT_THAT(error_of({}), HasSubstr("frame.png: the file is empty")); }

TEST(ImageIo, TextIsNotAnImage) {
  const std::string text = "root:x:0:0:root:/root:/bin/bash\n";
  EXPECT_THAT(error_of({text.begin(), text.end()}), HasSubstr("not a readable image"));
}

TEST(ImageIo, HugeImagesAreRefusedFromTheirHeader) {
  EXPECT_THAT(error_of(png_header(10000, 6000)), HasSubstr("10000x6000, more than the 50 megapixels"));
  // A JPEG whose frame header claims 9000 x 9000.
  const std::vector<unsigned char> jpeg = {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x23, 0x28, 0x23, 0x28,
                                           0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF};
  EXPECT_EQ(v::peek_size(jpeg), cv::Size(9000, 9000));
  EXPECT_THAT(error_of(jpeg), HasSubstr("more than the 50 megapixels"));
}

TEST(ImageIo, TruncatedAndTinyImagesAreRefused) {
  cv::Mat image(120, 160, CV_8UC3, cv::Scalar(20, 120, 200));
  std::vector<unsigned char> png;
  cv::imencode(".png", image, png);
  EXPECT_EQ(v::peek_size(png), cv::Size(160, 120));
  EXPECT_FALSE(v::decode_image(png, "ok.png").empty());
  std::vector<unsigned char> truncated(png.begin(), png.begin() + static_cast<long>(png.size() / 3));
  EXPECT_THAT(error_of(truncated), HasSubstr("not a readable image"));
  cv::Mat tiny(8, 8, CV_8UC3, cv::Scalar(0, 0, 0));
  cv::imencode(".png", tiny, png);
  EXPECT_THAT(error_of(png), HasSubstr("8x8, too small"));
}

TEST(ImageIo, MissingFileIsNamed) {
  try {
    v::load_image("/nonexistent/table.jpg");
    FAIL() << "no error";
  } catch (const v::ImageFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/table.jpg: cannot open the file"));
  }
}
