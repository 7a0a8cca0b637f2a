#include "app/session/script.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <sstream>

#include "data/input_error.h"
#include "data/json_reader.h"

namespace arbitre::app::session {
namespace {

namespace ri = referee::irma;
namespace ry = referee::yams;
using nlohmann::json;

class Parser : public data::JsonReader {
 public:
  using JsonReader::JsonReader;

  Script script(const json& root) const {
    if (!root.is_object()) fail("top level", "expected an object with \"steps\"");
    only_keys(root, {"game", "fps", "steps", "comment"}, "top level");
    Script out;
    if (const auto it = root.find("game"); it != root.end()) {
      const auto kind = data::store::game_kind_from_text(string(*it, "game"));
      if (!kind) fail("game", "expected \"irma\" or \"yams\"");
      out.game = kind;
    }
    double fps = 10;
    if (const auto it = root.find("fps"); it != root.end()) {
      if (!it->is_number() || it->get<double>() <= 0 || it->get<double>() > 1000) {
        fail("fps", "expected a number of frames per second, above 0 and at most 1000");
      }
      fps = it->get<double>();
    }
    const json& steps = field(root, "steps", "top level");
    if (!steps.is_array()) fail("steps", "expected an array of steps");
    double t = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      step(steps[i], element("steps", i, "step"), fps, t, out);
    }
    return out;
  }

 private:
  void step(const json& value, const std::string& where, double fps, double& t, Script& out) const {
    if (!value.is_object()) fail(where, "expected an object");
    only_keys(value,
              {"board", "pions", "dice", "kept", "cocked", "xy", "width", "height",
               "camera_tilt_deg", "frames", "command", "lost", "reconnected", "comment"},
              where);
    const int kinds = value.contains("board") + value.contains("pions") + value.contains("dice") +
                      value.contains("command") + value.contains("lost") +
                      value.contains("reconnected");
    if (kinds == 0 && value.contains("comment")) return;
    if (kinds != 1) {
      fail(where, "expected exactly one of \"board\", \"pions\", \"dice\", \"command\", \"lost\", "
                  "\"reconnected\"");
    }
    if (value.contains("camera_tilt_deg") && !value.contains("dice")) {
      fail(where + ".camera_tilt_deg",
           "goes with \"dice\": the dice reader tells the camera's angle");
    }
    SourceStep step;
    if (const auto it = value.find("command"); it != value.end()) {
      step.kind = SourceStep::Kind::Command;
      step.text = string(*it, where + ".command");
      step.seconds = t;
      out.steps.push_back(step);
      return;
    }
    if (const auto it = value.find("lost"); it != value.end()) {
      step.kind = SourceStep::Kind::Lost;
      step.text = string(*it, where + ".lost");
      step.seconds = t;
      out.steps.push_back(step);
      return;
    }
    if (value.contains("reconnected")) {
      step.kind = SourceStep::Kind::Reconnected;
      step.seconds = t;
      out.steps.push_back(step);
      return;
    }
    step.kind = SourceStep::Kind::Observation;
    if (value.contains("board")) {
      step.pions = board(value["board"], where + ".board");
    } else if (value.contains("pions")) {
      step.pions = pions(value["pions"], where + ".pions");
    } else {
      step.dice = dice(value, where);
    }
    const int frames = value.contains("frames")
                           ? integer(value["frames"], where + ".frames", 1, 100000)
                           : std::max(1, static_cast<int>(std::lround(fps)));
    for (int f = 0; f < frames; ++f) {
      step.seconds = t;
      out.steps.push_back(step);
      t += 1 / fps;
    }
  }

  static vision::PionObservation normalised(vision::PionObservation o) {
    if (o.pions.empty()) return o;
    int row = INT_MAX, col = INT_MAX;
    for (const auto& p : o.pions) {
      row = std::min(row, p.row);
      col = std::min(col, p.col);
    }
    for (auto& p : o.pions) {
      p.row -= row;
      p.col -= col;
    }
    return o;
  }

  vision::PionObservation board(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, "expected an array of rows like \"RO.G\"");
    vision::PionObservation o;
    o.width = 1280;
    o.height = 720;
    for (std::size_t r = 0; r < value.size(); ++r) {
      const std::string row = string(value[r], where + "[" + std::to_string(r) + "]");
      for (std::size_t c = 0; c < row.size(); ++c) {
        const char ch = static_cast<char>(std::toupper(static_cast<unsigned char>(row[c])));
        if (ch == '.' || ch == ' ') continue;
        const std::optional<ri::Colour> colour =
            ch == 'R'   ? std::optional(ri::Colour::Red)
            : ch == 'O' ? std::optional(ri::Colour::Orange)
            : ch == 'G' ? std::optional(ri::Colour::Green)
            : ch == 'W' ? std::optional(ri::Colour::White)
                        : std::nullopt;
        if (!colour) {
          fail(where + "[" + std::to_string(r) + "]",
               std::string("unknown pion '") + row[c] + "' (R, O, G, W, or '.' for none)");
        }
        o.pions.push_back({static_cast<int>(r), static_cast<int>(c), *colour,
                           100.0 * static_cast<double>(c) + 50, 100.0 * static_cast<double>(r) + 50,
                           1.0});
      }
    }
    return normalised(o);
  }

  vision::PionObservation pions(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, "expected an array of pions");
    vision::PionObservation o;
    o.width = 1280;
    o.height = 720;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string at = where + "[" + std::to_string(i) + "]";
      const json& p = value[i];
      if (!p.is_object()) fail(at, "expected an object {\"row\", \"col\", \"colour\"}");
      only_keys(p, {"row", "col", "colour", "x", "y", "confidence"}, at);
      vision::PionSighting s;
      s.row = integer(field(p, "row", at), at + ".row", -1000, 1000);
      s.col = integer(field(p, "col", at), at + ".col", -1000, 1000);
      const auto colour = ri::colour_from_string(string(field(p, "colour", at), at + ".colour"));
      if (!colour) fail(at + ".colour", "expected red, orange, green or white");
      s.colour = *colour;
      s.x = number(p, "x", at, 0);
      s.y = number(p, "y", at, 0);
      s.confidence = number(p, "confidence", at, 1);
      o.pions.push_back(s);
    }
    return normalised(o);
  }

  double number(const json& object, const char* key, const std::string& where, double fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    if (!it->is_number()) fail(where + "." + key, "expected a number");
    return it->get<double>();
  }

  std::vector<int> indices(const json& value, const std::string& where, std::size_t count) const {
    if (!value.is_array()) fail(where, "expected an array of dice numbers");
    std::vector<int> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      out.push_back(integer(value[i], where + "[" + std::to_string(i) + "]", 0,
                            static_cast<int>(count) - 1));
    }
    return out;
  }

  vision::DiceObservation dice(const json& step, const std::string& where) const {
    vision::DiceObservation o;
    const json& value = step["dice"];
    const std::string at = where + ".dice";
    if (value.is_string()) {
      std::istringstream in(value.get<std::string>());
      std::string word;
      while (in >> word) {
        std::string problem;
        const auto die = ry::die_from_text(word, &problem);
        if (!die) fail(at, "die " + std::to_string(o.dice.size()) + ": " + problem);
        vision::DieSighting s;
        s.value = die->value;
        s.colour = die->colour;
        if (die->texture != ry::Texture::None) s.texture = die->texture;
        s.confidence = 1;
        o.dice.push_back(s);
      }
      if (step.contains("kept")) {
        for (const int i : indices(step["kept"], where + ".kept", o.dice.size())) {
          o.dice[static_cast<std::size_t>(i)].zone = vision::DieZone::Kept;
        }
      }
      if (step.contains("cocked")) {
        for (const int i : indices(step["cocked"], where + ".cocked", o.dice.size())) {
          o.dice[static_cast<std::size_t>(i)].cocked = true;
        }
      }
      if (step.contains("xy")) {
        const json& xy = step["xy"];
        if (!xy.is_array() || xy.size() != o.dice.size()) {
          fail(where + ".xy", "expected one [x, y] per die");
        }
        for (std::size_t i = 0; i < xy.size(); ++i) {
          const json& p = xy[i];
          if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
            fail(where + ".xy[" + std::to_string(i) + "]", "expected [x, y]");
          }
          o.dice[i].x = p[0].get<double>();
          o.dice[i].y = p[1].get<double>();
        }
        o.width = 1280;
        o.height = 720;
      }
    } else if (value.is_array()) {
      if (step.contains("kept") || step.contains("cocked") || step.contains("xy")) {
        fail(where, "\"kept\", \"cocked\" and \"xy\" go with dice written as a string");
      }
      for (std::size_t i = 0; i < value.size(); ++i) o.dice.push_back(die(value[i], at + "[" + std::to_string(i) + "]"));
    } else {
      fail(at, "expected ten dice like \"7r 10w 3r ...\" or an array of dice objects");
    }
    if (step.contains("width")) o.width = integer(step["width"], where + ".width", 1, 100000);
    if (step.contains("height")) o.height = integer(step["height"], where + ".height", 1, 100000);
    if (const auto it = step.find("camera_tilt_deg"); it != step.end()) {
      if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > 90) {
        fail(where + ".camera_tilt_deg",
             "expected the camera's angle from overhead, 0 to 90 degrees");
      }
      o.camera_tilt_deg = it->get<double>();
    }
    return o;
  }

  vision::DieSighting die(const json& p, const std::string& at) const {
    if (!p.is_object()) fail(at, "expected an object {\"value\", \"colour\", ...}");
    only_keys(p, {"value", "colour", "texture", "zone", "x", "y", "confidence", "cocked"}, at);
    vision::DieSighting s;
    s.value = integer(field(p, "value", at), at + ".value", 0, 10);
    const std::string colour = string(field(p, "colour", at), at + ".colour");
    if (colour == "red" || colour == "r") {
      s.colour = ry::DieColour::Red;
    } else if (colour == "white" || colour == "w") {
      s.colour = ry::DieColour::White;
    } else {
      fail(at + ".colour", "expected \"red\" or \"white\"");
    }
    if (const auto it = p.find("texture"); it != p.end()) {
      const std::string texture = string(*it, at + ".texture");
      if (texture == "frosted") {
        s.texture = ry::Texture::Frosted;
      } else if (texture == "transparent") {
        s.texture = ry::Texture::Transparent;
      } else if (texture != "none") {
        fail(at + ".texture", "expected \"none\", \"frosted\" or \"transparent\"");
      }
    }
    if (const auto it = p.find("zone"); it != p.end()) {
      const std::string zone = string(*it, at + ".zone");
      if (zone == "tray") {
        s.zone = vision::DieZone::Tray;
      } else if (zone == "kept") {
        s.zone = vision::DieZone::Kept;
      } else if (zone == "table") {
        s.zone = vision::DieZone::Table;
      } else {
        fail(at + ".zone", "expected \"tray\", \"kept\" or \"table\"");
      }
    }
    s.x = number(p, "x", at, 0);
    s.y = number(p, "y", at, 0);
    s.confidence = number(p, "confidence", at, 1);
    if (const auto it = p.find("cocked"); it != p.end()) {
      if (!it->is_boolean()) fail(at + ".cocked", "expected true or false");
      s.cocked = it->get<bool>();
    }
    return s;
  }
};

}  // namespace

Script parse_script(const std::string& text, const std::string& source) {
  const Parser parser(source);
  return parser.script(parser.parse(text));
}

Script load_script(const std::string& path) {
  return parse_script(data::read_text_file(path), path);
}

}  // namespace arbitre::app::session
