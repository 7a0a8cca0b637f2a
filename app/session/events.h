// What a live session reports, as typed events: the CLI prints them as JSON lines, the GUI will
// draw them. Nothing in app/session/ prints.
//
// `seq` is the number of the event in the game's log in the store, for the events that are
// stored (accepted and refused moves, corrections, undos, redos); they are committed before they are
// emitted. Events about the scene, the camera and refused commands are not stored (seq 0).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "data/store/store.h"
#include "referee/irma/irma.h"
#include "referee/yams/yams.h"
#include "scoring/yams/sheet.h"
#include "vision/observation.h"

namespace arbitre::app::session {

namespace ri = referee::irma;
namespace ry = referee::yams;
using data::store::GameId;
using data::store::GameKind;

// A new game, or a game resumed by replaying its log (`replayed` events in `replay_ms`).
struct Started {
  GameId game = 0;
  GameKind kind = GameKind::Irma;
  std::vector<std::string> players;
  bool resumed = false;
  std::int64_t replayed = 0;
  double replay_ms = 0;
  std::string to_move;  // the player whose turn it is
  int score = 0;        // that player's running score (Irma) or grand total (Yams)
};

// The scene: something moves over the table / it settled back to the game's position.
struct Unstable {};
struct Stable {};

// The table settled into a position that is not the game's plus one pion: how it differs,
// cells in the game's frame.
struct BoardChanged {
  std::string detail;
  std::vector<ri::Cell> added;
  std::vector<ri::Cell> removed;
  std::vector<ri::Cell> recoloured;
};

// The dice settled but cannot be a roll: a cocked die, dice missing or unread; or the roll they
// made was refused for a reason a die read wrong, missed or seen where there is none can cause
// ("refused", after the `refused` event: a kept die changed or unkept, a die swapped, not five
// of each colour, a die kept at a turn's first roll). The players reroll, or type what the
// camera could not read (`die N VALUE`, `die + VALUE ZONE`, `die - N`, N the index in `scene`);
// the scene as typed so far is reported again (`again`) until it is readable, then taken as
// settled (a refused roll: refereed again).
struct DiceUnreadable {
  std::string reason;       // "cocked", "count", "unread", "colours", "refused"
  int seen = 0;             // dice seen
  std::vector<int> dice;    // the dice concerned (indices in `scene`)
  std::vector<vision::DieSighting> scene;  // the settled dice, as read (and typed)
  bool again = false;       // reported again after a `die` command
};

// Yams: the camera's angle from overhead as the dice reader tells it (the median of the last nine
// frames that told it, CameraAngle) crossed vision::kDiceSurestTiltDeg (`surest_within`). Past it
// (`past`), the dice are read less surely: the players may move the camera nearer overhead. Back
// within it, the advice is withdrawn. Reported when it crosses, not on every frame; not stored.
struct CameraAdvice {
  int degrees = 0;
  int surest_within = 0;
  bool past = false;
};

struct CameraLost {
  std::string error;
};
struct CameraReconnected {};

// An Irma placement (or a true blocking claim) the referee accepted.
struct Accepted {
  std::int64_t seq = 0;
  std::string player;
  int number = 0;  // the move's number in the player's record (refused tries included)
  ri::Move move;
  std::vector<ri::Series> series;
  std::optional<ri::SeriesKind> marker;
  std::optional<std::string> warning;  // the marker box runs short
  int score = 0;                       // running score after it
  int pions = 0;                       // on the board after it
};

// A move refused: by the referee (Irma reasons of docs/rules/irma.md, Yams reasons of
// referee/yams/yams.h) or by the session ("pion-in-hand", "not-the-draw", "bag-empty").
struct Refused {
  std::int64_t seq = 0;
  std::string player;
  std::optional<ri::Move> irma;  // the Irma move tried
  std::optional<ry::Move> yams;  // the Yams move tried
  std::string reason;
  std::vector<ri::Cell> cells;  // Irma: the cells involved
  std::vector<int> dice;        // Yams: the dice involved
  std::string message;          // in words
  int score = 0;
};

// A manual correction, re-refereed. `effect` says what it changed ("recoloured", "removed",
// "added" for Irma; "die" for Yams); `legal`/`reason` are the verdict of the corrected move.
struct Corrected {
  std::int64_t seq = 0;
  std::string player;
  std::string fix;  // the correction as text: "cell 2,3 green", "die 4 7r"
  std::string effect;
  bool legal = true;
  std::string reason;
  std::vector<ri::Cell> cells;
  int score = 0;
};

struct Undone {
  std::int64_t seq = 0;
  std::string player;
  std::string undid;  // what was undone, in words ("red 2,3", "roll 2", "box chiffre-7", ...)
  int score = 0;
};

// The last undone event carried out again (`redid` as the Undone said it). The events that
// follow from it (PlayerOver, SheetUpdate, GameOver) come after it as they did the first time.
struct Redone {
  std::int64_t seq = 0;
  std::string player;
  std::string redid;
  int score = 0;
};

// Yams: a roll the referee accepted.
struct Rolled {
  std::int64_t seq = 0;
  std::string player;
  int roll = 0;  // 1..6 within the turn
  ry::Dice dice{};
  std::uint16_t keep = 0;  // dice set aside before it (bit i = die i)
  bool manual = false;     // announced with the `roll` command
  std::optional<ry::Box> best;  // the box the advisor would fill now, and its points
  int best_points = 0;
};

struct Declared {
  std::int64_t seq = 0;
  std::string player;
  ry::Box box = ry::Box::Chiffre1;
};

struct Filled {
  std::int64_t seq = 0;
  std::string player;
  ry::Box box = ry::Box::Chiffre1;
  int points = 0;
  bool first_roll = false;
  std::optional<bool> sixth_success;
  bool automatic = false;  // chosen by the advisor (--auto, or `box` without a box)
};

// Yams: a player's sheet after his turn, and who plays next.
struct SheetUpdate {
  std::string player;
  ry::Sheet sheet;
  scoring::yams::Totals totals;
  std::string next;
};

// Irma: one player's game ended (completed or blocked); `next` plays now ("" when none).
struct PlayerOver {
  std::string player;
  int score = 0;
  int markers = 0;
  int bonus = 0;
  bool plus = false;
  bool completed = false;
  bool blocked = false;
  std::string next;
  int draws = 0;  // the draws the next player must place, in order
};

struct FinalScore {
  std::string player;
  int score = 0;
  std::optional<bool> plus;  // Irma's tie-breaker (nullopt in Yams)
};

struct GameOver {
  GameId game = 0;
  std::vector<FinalScore> scores;
  std::optional<std::string> winner;  // nullopt for a tie
};

// A command that could not be understood or carried out; nothing was stored.
struct CommandRefused {
  std::string command;
  std::string message;
};

// The session stopped: "quit", "interrupted", "end-of-source", "abandoned", "game-over".
struct Stopped {
  std::string reason;
  bool resumable = false;
  GameId game = 0;
};

using Event =
    std::variant<Started, Unstable, Stable, BoardChanged, DiceUnreadable, CameraAdvice, CameraLost,
                 CameraReconnected, Accepted, Refused, Corrected, Undone, Redone, Rolled, Declared,
                 Filled, SheetUpdate, PlayerOver, GameOver, CommandRefused, Stopped>;

using Listener = std::function<void(const Event&)>;

}  // namespace arbitre::app::session
