// What the history window shows, without wx: a stored game replayed step by step through the
// session's game classes (the same replay_events that resume and `arbitre show` use), the score
// sheet of a game at any step, and the scores over time per player from the store.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/session/game_log.h"
#include "data/store/store.h"
#include "scoring/yams/sheet.h"

namespace arbitre::app::gui::companion {

namespace ds = data::store;

// A stored game and its event log, replayable to any step. Step k is the game after its first
// k events (0: nothing played, size(): the game as stored).
class GameReplay {
 public:
  // Reads the game and its log. Throws ds::StoreError for an unknown game, data::InputError when
  // the options or an event do not replay (naming the game and the event).
  GameReplay(ds::Store& store, ds::GameId id);

  const ds::Game& game() const { return game_; }
  std::size_t size() const { return events_.size(); }
  std::size_t position() const { return position_; }
  // Replays up to `step` (clamped to size()): forward from the current step, or from the
  // start when going back. Throws data::InputError when an event does not replay.
  void seek(std::size_t step);
  // The event that led to the current step (nullptr at step 0).
  const ds::Event* last_event() const;

  const session::IrmaGame* irma() const { return irma_ ? &*irma_ : nullptr; }
  const session::YamsGame* yams() const { return yams_ ? &*yams_ : nullptr; }

 private:
  void restart();

  ds::Game game_;
  std::vector<ds::Event> events_;
  std::size_t position_ = 0;
  std::optional<session::IrmaGame> irma_;
  std::optional<session::YamsGame> yams_;
};

// One Irma move as the sheet lists it: the referee's verdict and the score after it.
struct IrmaMoveLine {
  int number = 0;
  std::string move;    // referee::irma::to_text: "red 2,3", "white blocked"
  bool legal = true;
  std::string reason;  // refused: the referee's reason code
  int marker = 0;      // the marker earned (0: none)
  int score = 0;       // the player's score after the move
};

struct IrmaSheetPlayer {
  std::string name;
  std::vector<std::pair<referee::Cell, referee::irma::Colour>> pions;
  std::vector<IrmaMoveLine> moves;
  int score = 0;
  int markers = 0;
  int bonus = 0;
  bool plus = false;
  bool completed = false;
  bool blocked = false;
};

struct YamsSheetPlayer {
  std::string name;
  std::array<std::optional<int>, referee::yams::kBoxCount> boxes{};
  scoring::yams::Totals totals;
};

// A score sheet as printed: the game's heading and every player's part.
struct SheetModel {
  ds::GameId game = 0;
  ds::GameKind kind = ds::GameKind::Irma;
  std::string started_at;
  std::size_t step = 0;   // events replayed
  std::size_t steps = 0;  // events in the log
  std::vector<IrmaSheetPlayer> irma;
  std::vector<YamsSheetPlayer> yams;
};

// The sheet of a replay at its current step.
SheetModel sheet_model(const GameReplay& replay);

// A finished game's score for one player, in the order the games ended.
struct ScorePoint {
  ds::GameId game = 0;
  std::string ended_at;
  std::int64_t score = 0;
};
struct ScoreSeries {
  std::string player;
  std::vector<ScorePoint> points;  // oldest first
};
// One series per player who finished a game of `kind`, by player name; games given newest
// first (as Store::list_games gives them) or in any order: points are sorted by end time, then id.
std::vector<ScoreSeries> score_series(const std::vector<ds::Game>& games, ds::GameKind kind);

// A store time stamp ("2026-11-29T18:30:12.345Z") as the windows show it: "2026-11-29 18:30" (UTC).
std::string short_time(const std::string& stamp);

}  // namespace arbitre::app::gui::companion
