#include "data/store/store_error.h"

#include <utility>

namespace arbitre::data::store {

namespace {

std::string join(const std::string& path, const std::string& action, const std::string& problem) {
  std::string text;
  for (const std::string* part : {&path, &action, &problem}) {
    if (part->empty()) continue;
    if (!text.empty()) text += ": ";
    text += *part;
  }
  return text;
}

}  // namespace

StoreError::StoreError(std::string path, std::string action, std::string problem, int sqlite_code)
    : InputError(join(path, action, problem)),
      path_(std::move(path)),
      action_(std::move(action)),
      problem_(std::move(problem)),
      sqlite_code_(sqlite_code) {}

StoreError StoreError::in_context(const std::string& path, const std::string& action) const {
  return StoreError(path_.empty() ? path : path_, action_.empty() ? action : action_, problem_,
                    sqlite_code_);
}

}  // namespace arbitre::data::store
