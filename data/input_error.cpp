#include "data/input_error.h"

#include <fstream>
#include <sstream>

namespace arbitre::data {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read the file");
  return text.str();
}

}  // namespace arbitre::data
