// Writing the printable play mat (public, no OpenCV types).
#pragma once

#include <string>

namespace arbitre::vision {

// Writes the mat for paper `size` ("a4" or "a3") as a vector PDF (path ending .pdf) or a
// 300 dpi PNG (.png). Throws ImageFileError naming the problem (size, extension, writing).
void write_mat_file(const std::string& path, const std::string& size);

}  // namespace arbitre::vision
