// The embedded default of `arbitre watch --demo`: a game played through the whole live loop
// (stability filter, referee, scoring, store) with no camera.
//
// A bundled recording — rendered frames NNNN.jpg of a whole game with its ground truth
// truth.json, in data/demo/recordings/<game>/ (or $ARBITRE_DEMO_RECORDINGS/<game>/) — is played
// through the camera path (frames -> detector) when it exists and the game's detector exists.
// Otherwise the bundled game record (data/demo/<game>-demo.json, compiled in) is turned into the
// observations a camera would have made of that game, hands passing and a camera unplugged
// included, and played as a script. Either way the expected final scores come with it: the
// recording's truth, or the record replayed through the referee.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/session/events.h"
#include "app/session/script.h"
#include "app/session/source.h"
#include "data/irma/record_json.h"
#include "data/yams/record_json.h"

namespace arbitre::app::session {

struct Demo {
  GameKind kind = GameKind::Irma;
  std::vector<std::string> players;
  ri::Options irma;
  ry::Options yams;
  std::unique_ptr<ObservationSource> source;
  std::string from;                 // where it comes from, for people
  std::vector<FinalScore> expected;  // the ground truth's final scores (empty if unknown)
};

// The bundled recording of a game, when one exists: its directory.
std::optional<std::string> demo_recording_dir(GameKind kind);
Demo make_demo(GameKind kind);

// A game record as a camera would have seen it played.
Script irma_demo_script(const data::irma::GameRecord& record);
Script yams_demo_script(const data::yams::GameRecord& record);

}  // namespace arbitre::app::session
