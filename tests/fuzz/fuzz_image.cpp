// Fuzz target for the image entry points of `arbitre detect pions` and `arbitre detect dice`:
// any bytes must give an observation or an ImageFileError, never a crash.
//
// With clang: cmake -DARBITRE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ ... then run
// build/.../tests/fuzz/fuzz_image CORPUS_DIR. Without it, the same function is driven by
// fuzz_image_smoke (a CTest): seeded mutations of a valid PNG and JPEG.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vision/dice.h"
#include "vision/pions.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  try {
    (void)arbitre::vision::detect_pions_bytes(bytes, "fuzz");
  } catch (const arbitre::vision::ImageFileError&) {
  }
  try {
    (void)arbitre::vision::detect_dice_bytes(bytes, "fuzz");
  } catch (const arbitre::vision::ImageFileError&) {
  }
  return 0;
}
