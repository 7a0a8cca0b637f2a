// The app's preferences, without wx: the language, the default source, the rule variants of
// each game and the appearance of the drawn panels. The window keeps them with wxConfig
// (preferences_dialog.h: a file under the XDG config directory, $XDG_CONFIG_HOME/arbitre-gui.conf)
// as the flat entries below, and applies them to the next game started (a camera game; the
// bundled demo keeps its recording's options, which its ground truth was played with).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "app/session/session.h"

namespace arbitre::gui {

namespace s = app::session;

struct Preferences {
  std::string language;         // "" (the system's), "en", "fr", "de"
  std::string source = "demo";  // the default source: "demo", "webcam", "url", "file"
  std::string source_spec;      // its webcam index, URL or file ("" for the demo)
  s::ri::Options irma;          // bag counts, marker stock, repeat rule
  s::ry::Options yams;          // keep rule, dice textures
  std::string appearance = "system";  // the drawn panels: "system", "light", "dark"

  bool operator==(const Preferences&) const = default;

  // As wxConfig keeps them: "language", "source", "source_spec", "appearance", "irma/bag_red",
  // ... "irma/markers_1", "irma/markers_2", "irma/markers_4", "irma/repeat_rule",
  // "yams/keep_rule", "yams/textures" (every value as text).
  std::map<std::string, std::string> entries() const;
  // Read back; an entry missing or unreadable keeps its default and is named in `problems`
  // (a hand-edited file), as are Irma options the referee refuses (all Irma options default then).
  static Preferences from_entries(const std::map<std::string, std::string>& entries,
                                  std::vector<std::string>* problems = nullptr);

  // The rule variants into the options a game starts with.
  void apply(s::SessionOptions& options) const;
};

// The colours the drawn panels (Irma board, Yams sheet) paint with, one set for a light and one
// for a dark appearance; each text colour reads on the backgrounds it is drawn on (WCAG contrast
// at least 4.5 for text, 3 for the dimmed "now" column).
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};
struct Palette {
  Rgb background;      // the panel
  Rgb text;            // names, scores
  Rgb dim_text;        // what an empty box would score now
  Rgb line;            // the sheet's rules
  Rgb total_row;       // the background of the totals rows
  Rgb current_column;  // the background of the player to move's column
  Rgb highlight;       // advice, corrected cells
  bool operator==(const Palette&) const = default;
};
Palette palette(bool dark);
// Whether the panels are dark: `appearance` "dark", or "system" and the system is dark.
bool dark_appearance(const std::string& appearance, bool system_is_dark);
// The WCAG 2 contrast ratio of two colours (1 to 21).
double contrast(Rgb a, Rgb b);

}  // namespace arbitre::gui
