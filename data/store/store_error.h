// The one exception of the game store: a message naming the database file, what was being done
// and the problem in words for people ("the disk is full"). It is an InputError, so the command
// line reports it and exits 2 like any other bad input file.
#pragma once

#include <string>

#include "data/input_error.h"

namespace arbitre::data::store {

class StoreError : public InputError {
 public:
  // what() is "<path>: <action>: <problem>", leaving out the parts that are empty.
  // sqlite_code is SQLite's extended result code, 0 when the error did not come from SQLite.
  StoreError(std::string path, std::string action, std::string problem, int sqlite_code = 0);

  const std::string& path() const { return path_; }
  const std::string& action() const { return action_; }
  const std::string& problem() const { return problem_; }
  int sqlite_code() const { return sqlite_code_; }

  // The same error with the path and the action filled in where they are still empty.
  StoreError in_context(const std::string& path, const std::string& action) const;

 private:
  std::string path_;
  std::string action_;
  std::string problem_;
  int sqlite_code_;
};

}  // namespace arbitre::data::store
