// The dice window detector's scan of one pyramid level (internal to vision/dice): every 32x32
// window 8 pixels apart scored by the linear SVM on its HOG — what cv::HOGDescriptor::detect
// gives with window_hog() (16x16 blocks 8 apart, 8x8 cells, 9 unsigned bins, Gaussian block
// weights of sigma 4, L2-Hys at 0.2, no gamma), winStride 8 and padding 8, computed another way.
//
// OpenCV builds each block's histogram pixel by pixel, and every pixel lies in four blocks. Both
// the Gaussian and the cells' bilinear weights are separable, so a block's histogram is the sum,
// over the four cells it covers, of the cell's votes weighted by one of four row profiles and
// one of four column profiles (which cell of the block it votes for, and where the cell lies in
// the block): each pixel row of a cell is summed once under the column profiles, each cell's
// rows once under the row profiles, and every block is put together from its four cells'
// (hog_blocks, streamed: only the rows and cells still needed are kept). The same code gives
// the face crops' HOG and the re-centring's blocks. The angles come from a closer arctangent
// than OpenCV's (documented to about 0.3 degree), which moves a vote between two neighbouring
// bins by a hair: the scores agree with OpenCV's to a few thousandths (tests
// DiceReader.TheWindowScanScoresAsOpenCvsHog, DiceReader.BlockHogIsOpenCvsHog).
#pragma once

#include <opencv2/core.hpp>
#include <vector>

namespace arbitre::vision::dice {

// The windows of the 8-bit grey `image` scoring at least `threshold` with `weights` (the
// window's 324 HOG features, then the bias): their top-left corners (from (-8, -8), the padding)
// row by row, and their scores. With AVX2 when the processor has it, unless `vectors` is false
// (the plain code, for machines without it: the same windows, scores within 1e-5). Parts run
// sixteen values at a time with AVX-512 where the processor has it: the same bytes as AVX2.
void scan_hog(const cv::Mat& image, const float* weights, double threshold,
              std::vector<cv::Point>& hits, std::vector<double>& scores, bool vectors = true);

// Block histograms of an 8-bit grey or BGR image on a grid, as cv::HOGDescriptor gives them with
// blocks of 2 x 2 cells of `cell` pixels (9 unsigned bins, Gaussian block weights of sigma
// cell / 2, L2-Hys at 0.2, no gamma): the block whose top-left corner is origin + step * (u, v),
// for u < nx and v < ny, at out + (v * nx + u) * 36, its cells column by column, then bins.
// Pixels past the image's edges (by less than its size: the scan's padding) are mirrored, and so
// is the gradient beside them (BORDER_REFLECT_101; a view into a larger image is taken as a whole
// image). A colour pixel's gradient is its channel's of largest magnitude, as OpenCV's. `cell` a
// multiple of `step`; cells of 6 and 8 pixels in AVX2 (others in the plain code). Each cell's
// histograms are made once and shared by the blocks; the angles are scan_hog's.
void hog_blocks(const cv::Mat& image, int cell, int step, cv::Point origin, int nx, int ny,
                float* out, bool vectors = true);

// The descriptor of a window the size of `image` with blocks of 2 x 2 cells of `cell` pixels,
// `cell` apart: what cv::HOGDescriptor(image size, 2 cell, cell, cell, 9).compute(image) gives
// (blocks column by column), (cols / cell - 1) x (rows / cell - 1) x 36 floats.
void hog_window(const cv::Mat& image, int cell, float* out, bool vectors = true);

// Whether the vector code may use AVX-512 (where the processor has it; on by default): the same
// bytes either way, which tests check by turning it off. Returns the setting before. Not
// thread-safe: set it only while no scan runs.
bool set_hog_avx512(bool on);

}  // namespace arbitre::vision::dice
