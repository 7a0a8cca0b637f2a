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

#include <deque>
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

// What the players at a recorded Yams table did besides rolling and choosing boxes: they answer
// the referee as players looking at the dice would. A settled scene the camera could not read
// (a die unread, cocked, missed or invented), or the dice of a roll the referee refused, they
// type in (`die N VALUE`, `die + VALUE ZONE`, `die - N`) when the camera read them wrong; a roll
// accepted with a die read wrong they correct (`fix die N VALUE`); a roll counted when they had
// only set dice aside they undo (`undo`). Counted, so that the demo says how much of the game the
// camera read alone.
struct PlayersTally {
  int scenes_typed = 0;  // unreadable settled scenes (or refused rolls) the players typed in
  int typed = 0;         // dice typed over what the camera read (or could not)
  int added = 0;         // dice the camera missed
  int removed = 0;       // dice it saw that are none
  int rolls = 0;         // rolls accepted
  int rolls_fixed = 0;   // of which with a die read wrong, corrected after (fix die)
  int fixed = 0;         // dice corrected so
  int undone = 0;        // rolls counted that were none
};

class RecordedPlayers {
 public:
  struct Die {
    ry::Die face;
    bool kept = false;
    double x = 0, y = 0;
  };
  struct Shot {
    long first = 0, last = 0;  // frames, from 0
    bool rolled = false;       // the dice were just rolled (not set aside, a hand, the empty tray)
    std::vector<Die> dice;
  };
  RecordedPlayers(std::vector<Shot> shots, int width) : shots_(std::move(shots)), width_(width) {}
  // Before each frame the recording gives: its number.
  void at_frame(long frame) { frame_ = frame; }
  // What the session reported: queues the answers.
  void hear(const Event& event);
  // The next answer to type, if any.
  std::optional<std::string> answer();
  // Whether answers are waiting to be typed.
  bool answering() const { return !answers_.empty(); }
  const PlayersTally& tally() const { return tally_; }

 private:
  const Shot* shot() const;
  std::vector<Shot> shots_;
  int width_ = 0;
  long frame_ = -1;
  long refusals_frame_ = -1;  // refused rolls answered at that frame
  int refusals_ = 0;
  std::deque<std::string> answers_;
  PlayersTally tally_;
};

struct Demo {
  GameKind kind = GameKind::Irma;
  std::vector<std::string> players;
  ri::Options irma;
  ry::Options yams;
  std::unique_ptr<ObservationSource> source;
  std::string from;                 // where it comes from, for people
  std::vector<FinalScore> expected;  // the ground truth's final scores (empty if unknown)
  // A recorded Yams game's players: give them every event the session reports.
  std::shared_ptr<RecordedPlayers> table;
};

// The bundled recording of a game, when one exists: its directory.
std::optional<std::string> demo_recording_dir(GameKind kind);
Demo make_demo(GameKind kind);

// A game record as a camera would have seen it played.
Script irma_demo_script(const data::irma::GameRecord& record);
Script yams_demo_script(const data::yams::GameRecord& record);

}  // namespace arbitre::app::session
