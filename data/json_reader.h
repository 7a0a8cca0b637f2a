// Reading JSON input files with messages that name the file, the place and the field.
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace arbitre::data {

class JsonReader {
 public:
  explicit JsonReader(std::string source) : source_(std::move(source)) {}

  // Throws InputError "<source>: <where>: <problem>".
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const;
  // Parses the text; a syntax error names its line and column.
  nlohmann::json parse(const std::string& text) const;
  // The member `key` of `object`, or a "missing field" error at where.key.
  const nlohmann::json& field(const nlohmann::json& object, const std::string& key,
                              const std::string& where) const;
  // An integer within [min, max].
  int integer(const nlohmann::json& value, const std::string& where, int min, int max) const;
  // A string.
  std::string string(const nlohmann::json& value, const std::string& where) const;
  // Refuses members other than `keys` (typos would otherwise be silently ignored).
  void only_keys(const nlohmann::json& object, std::initializer_list<const char*> keys,
                 const std::string& where) const;
  // "moves[3] (move 4)": an element of an array, with its 1-based number for people.
  static std::string element(const std::string& array, std::size_t index, const char* noun);

 private:
  std::string source_;
};

}  // namespace arbitre::data
