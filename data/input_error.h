// Bad input files: one exception type carrying a message that names the file, the place and the
// field, caught at the app boundary (exit code 2).
#pragma once

#include <stdexcept>
#include <string>

namespace arbitre::data {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads a whole text file; throws InputError naming the path when it cannot.
std::string read_text_file(const std::string& path);

}  // namespace arbitre::data
