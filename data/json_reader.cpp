#include "data/json_reader.h"

#include "data/input_error.h"

namespace arbitre::data {
namespace {

// Line and column (1-based) of a byte offset.
std::string line_column(const std::string& text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

void JsonReader::fail(const std::string& where, const std::string& problem) const {
  throw InputError(source_ + ": " + where + ": " + problem);
}

nlohmann::json JsonReader::parse(const std::string& text) const {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const std::string message = e.what();
    const auto cut = message.find("parse error");
    fail(line_column(text, e.byte > 0 ? e.byte - 1 : 0),
         "not valid JSON (" + (cut == std::string::npos ? message : message.substr(cut)) + ")");
  }
}

const nlohmann::json& JsonReader::field(const nlohmann::json& object, const std::string& key,
                                        const std::string& where) const {
  const auto it = object.find(key);
  if (it == object.end()) fail(where + "." + key, "missing field");
  return *it;
}

int JsonReader::integer(const nlohmann::json& value, const std::string& where, int min,
                        int max) const {
  if (!value.is_number_integer()) fail(where, "expected an integer, got " + value.dump());
  const auto number = value.get<long long>();
  if (number < min || number > max) {
    fail(where, std::to_string(number) + " is out of range [" + std::to_string(min) + ", " +
                    std::to_string(max) + "]");
  }
  return static_cast<int>(number);
}

std::string JsonReader::string(const nlohmann::json& value, const std::string& where) const {
  if (!value.is_string()) fail(where, "expected a string, got " + value.dump());
  return value.get<std::string>();
}

void JsonReader::only_keys(const nlohmann::json& object, std::initializer_list<const char*> keys,
                           const std::string& where) const {
  for (const auto& item : object.items()) {
    bool known = false;
    for (const char* key : keys) known = known || item.key() == key;
    if (!known) fail(where + "." + item.key(), "unknown field");
  }
}

std::string JsonReader::element(const std::string& array, std::size_t index, const char* noun) {
  return array + "[" + std::to_string(index) + "] (" + noun + " " + std::to_string(index + 1) + ")";
}

}  // namespace arbitre::data
