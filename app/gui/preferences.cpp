#include "app/gui/preferences.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "referee/irma/record.h"

namespace arbitre::gui {
namespace {

constexpr std::array<int, 3> kMarkerValues = {1, 2, 4};

std::optional<int> whole(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool one_of(const std::string& value, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return value == w; });
}

double luminance(Rgb c) {
  const auto channel = [](std::uint8_t v) {
    const double x = v / 255.0;
    return x <= 0.03928 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

}  // namespace

std::map<std::string, std::string> Preferences::entries() const {
  std::map<std::string, std::string> out = {{"language", language},
                                            {"source", source},
                                            {"source_spec", source_spec},
                                            {"appearance", appearance}};
  for (const s::ri::Colour colour : s::ri::kAllColours) {
    out["irma/bag_" + std::string(s::ri::to_string(colour))] =
        std::to_string(irma.bag[static_cast<std::size_t>(colour)]);
  }
  for (std::size_t k = 0; k < kMarkerValues.size(); ++k) {
    out["irma/markers_" + std::to_string(kMarkerValues[k])] = std::to_string(irma.marker_stock[k]);
  }
  out["irma/repeat_rule"] = std::string(s::ri::to_string(irma.repeat_rule));
  out["yams/keep_rule"] = std::string(s::ry::to_string(yams.keep_rule));
  out["yams/textures"] = yams.textures ? "1" : "0";
  return out;
}

Preferences Preferences::from_entries(const std::map<std::string, std::string>& entries,
                                      std::vector<std::string>* problems) {
  Preferences out;
  const auto problem = [&](const std::string& key, const std::string& value) {
    if (problems) problems->push_back(key + " = \"" + value + "\": not understood, the default is used");
  };
  const auto text = [&](const std::string& key, std::string& into, std::initializer_list<const char*> allowed) {
    const auto it = entries.find(key);
    if (it == entries.end()) return;
    if (allowed.size() > 0 && !one_of(it->second, allowed)) {
      problem(key, it->second);
      return;
    }
    into = it->second;
  };
  text("language", out.language, {"", "en", "fr", "de"});
  text("source", out.source, {"demo", "webcam", "url", "file"});
  text("source_spec", out.source_spec, {});
  text("appearance", out.appearance, {"system", "light", "dark"});
  const auto count = [&](const std::string& key, int& into) {
    const auto it = entries.find(key);
    if (it == entries.end()) return;
    if (const auto value = whole(it->second); value && *value >= 0 && *value <= 1000) {
      into = *value;
    } else {
      problem(key, it->second);
    }
  };
  for (const s::ri::Colour colour : s::ri::kAllColours) {
    count("irma/bag_" + std::string(s::ri::to_string(colour)), out.irma.bag[static_cast<std::size_t>(colour)]);
  }
  for (std::size_t k = 0; k < kMarkerValues.size(); ++k) {
    count("irma/markers_" + std::to_string(kMarkerValues[k]), out.irma.marker_stock[k]);
  }
  if (const auto it = entries.find("irma/repeat_rule"); it != entries.end()) {
    if (const auto rule = s::ri::repeat_rule_from_string(it->second)) {
      out.irma.repeat_rule = *rule;
    } else {
      problem("irma/repeat_rule", it->second);
    }
  }
  if (const auto error = s::ri::validate(out.irma)) {
    if (problems) problems->push_back("irma options: " + error->field + ": " + error->message + " (the defaults are used)");
    out.irma = s::ri::Options{};
  }
  if (const auto it = entries.find("yams/keep_rule"); it != entries.end()) {
    if (const auto rule = s::ry::keep_rule_from_string(it->second)) {
      out.yams.keep_rule = *rule;
    } else {
      problem("yams/keep_rule", it->second);
    }
  }
  if (const auto it = entries.find("yams/textures"); it != entries.end()) {
    if (it->second == "1" || it->second == "0") {
      out.yams.textures = it->second == "1";
    } else {
      problem("yams/textures", it->second);
    }
  }
  return out;
}

void Preferences::apply(s::SessionOptions& options) const {
  options.irma = irma;
  options.yams = yams;
}

Palette palette(bool dark) {
  if (dark) {
    return {{40, 42, 46}, {236, 236, 236}, {170, 170, 170}, {88, 90, 96},
            {58, 60, 74}, {74, 66, 28}, {120, 170, 255}};
  }
  return {{250, 250, 250}, {20, 20, 20}, {100, 100, 100}, {210, 210, 210},
          {225, 225, 235}, {250, 244, 200}, {30, 90, 220}};
}

bool dark_appearance(const std::string& appearance, bool system_is_dark) {
  return appearance == "dark" || (appearance != "light" && system_is_dark);
}

double contrast(Rgb a, Rgb b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace arbitre::gui
