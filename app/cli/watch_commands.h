// `arbitre watch`: the live referee loop on the command line. One JSON line per event on stdout
// (event_json gives the formats), commands read from stdin, Ctrl-C ends cleanly.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/session/events.h"

namespace arbitre::app::watch {

struct WatchOptions {
  std::string game;  // "irma" or "yams"; may be left out with --resume and --demo
  std::string source = "0";
  std::vector<std::string> players;
  std::string db;  // "" for data::store::default_store_path() (a temporary file for --demo)
  bool resume = false;
  bool automatic = false;
  std::string script;
  bool demo = false;
  double fps = 0;  // the clock of a video file or image sequence (0: its default)
  // A camera's calibration file (Irma: colours from `arbitre calibrate pions`; Yams: dice zones),
  // saved in the store for that source; without one, the store's latest for the source is used.
  std::string calibration;
  bool textures = false;  // Yams: the dice have textures (frosted / transparent)
};

// Runs the session; returns the exit code (0, or 1 when a demo's final scores differ from its
// ground truth). Throws data::InputError for bad input.
int run(const WatchOptions& options, std::ostream& out);

// One event as a JSON line's object: {"event": "accepted", ...}.
nlohmann::ordered_json event_json(const session::Event& event);

}  // namespace arbitre::app::watch
