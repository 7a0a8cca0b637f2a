// The game store: one SQLite file holding the players, the games with their options and status,
// every game's event log, the final score sheets and the camera calibrations. Callers use these
// C++ types only; SQL stays inside data/store/.
//
//   auto store = Store::open(default_store_path());
//   GameId game = store.create_game(GameKind::Yams, options, {"Anna", "Bruno"});
//   store.append_event(game, EventKind::Roll, {{"dice", "7r 10w ..."}});  // committed on return
//   ...
//   store.finish_game(game, {{"Anna", 312, sheet}, {"Bruno", 287, sheet}});
//
// Durability: the file is in WAL mode with synchronous=FULL, and every writing call is one
// transaction committed before it returns, so whatever a call acknowledged survives the
// program being killed or the machine losing power. A failed write (full disk, I/O error,
// refusal by the schema) is rolled back whole and thrown as a StoreError; what was stored
// before stays as it was. Nothing is ever deleted: there is no delete call, and the schema
// refuses changes to the event log.
//
// A Store is one connection: use it from one thread at a time. Several programs may open the
// same file (the busy timeout makes a writer wait for another instead of failing).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/store/schema.h"
#include "data/store/store_error.h"

namespace arbitre::data::store {

namespace sqlite {
class Connection;
}

enum class GameKind { Irma, Yams };
enum class GameStatus { Running, Finished, Abandoned };
// What an event records: a move accepted by the referee, a die roll, a Yams box chosen or a
// declaration, a move the referee refused, a correction of an earlier observation, an undo, a
// redo (the last undone event carried out again).
enum class EventKind { Move, Roll, Box, Declare, Refusal, Correction, Undo, Redo };

// The words stored in the database ("irma", "running", "move"); from_text gives nullopt for
// any other word.
std::string_view to_text(GameKind kind);
std::string_view to_text(GameStatus status);
std::string_view to_text(EventKind kind);
std::optional<GameKind> game_kind_from_text(std::string_view text);
std::optional<GameStatus> game_status_from_text(std::string_view text);
std::optional<EventKind> event_kind_from_text(std::string_view text);

using PlayerId = std::int64_t;
using GameId = std::int64_t;

struct Player {
  PlayerId id = 0;
  std::string name;
  bool operator==(const Player&) const = default;
};

struct Event {
  std::int64_t seq = 0;  // 1, 2, 3... within its game
  EventKind kind = EventKind::Move;
  nlohmann::json payload;
  std::string created_at;  // UTC, "2024-05-01T18:30:12.345Z"
};

struct Seat {
  int seat = 0;  // 0 is the first player
  PlayerId player = 0;
  std::string name;
  std::optional<std::int64_t> score;  // set when the game is finished
  nlohmann::json sheet;               // the final score sheet; null until finished
};

struct Game {
  GameId id = 0;
  GameKind kind = GameKind::Irma;
  GameStatus status = GameStatus::Running;
  nlohmann::json options;
  std::string started_at;
  std::optional<std::string> ended_at;  // set when finished or abandoned
  std::vector<Seat> seats;              // in seat order
  std::int64_t event_count = 0;
};

// One player's final result, for finish_game.
struct PlayerResult {
  std::string player;  // a name seated in the game
  std::int64_t score = 0;
  nlohmann::json sheet;  // the score sheet as the scorer writes it
};

// A player's record in one kind of game. Higher scores are better in every game stored so far.
struct PlayerRecord {
  std::string player;
  GameKind kind = GameKind::Irma;
  int games = 0;     // every game of that kind the player sat in, running ones included
  int finished = 0;  // those played to the end
  std::optional<std::int64_t> best;  // over finished games
  std::optional<double> average;     // over finished games
  double completion_rate = 0;        // finished / games
};

struct Calibration {
  std::int64_t id = 0;
  std::string camera;  // the camera's stable id (device path, URL, ...)
  std::string kind;    // "homography", "colours", "zones", ... (vision's vocabulary)
  nlohmann::json payload;
  std::string saved_at;
};

struct OpenOptions {
  // Migrate no further than this version. Only tests need an older schema: the calls that use
  // newer tables fail on it.
  int schema_version = kSchemaVersion;
  // An SQLite VFS registered by the caller ("" for the default); tests use a disk-full shim.
  std::string vfs;
  // How long a write waits for another program's transaction before failing as "locked".
  int busy_timeout_ms = 5000;
};

// $XDG_DATA_HOME/arbitre/arbitre.db, or $HOME/.local/share/arbitre/arbitre.db when
// XDG_DATA_HOME is unset, empty or relative (as the XDG spec says). Creates the missing
// directories (mode 0700). Throws StoreError when neither variable helps or mkdir fails.
std::string default_store_path();

class Store {
 public:
  // Opens the store at path, creating the file when it does not exist, and migrates it to the
  // current schema. Throws StoreError, leaving the file's bytes untouched, when the file is not
  // an SQLite database, is another program's SQLite database, has a schema newer than this
  // build, is damaged (PRAGMA quick_check), or its directory or the file is not writable.
  static Store open(const std::string& path, const OpenOptions& options = {});

  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  const std::string& path() const;
  // PRAGMA user_version.
  int schema_version();

  // --- Players: names are unique, compared exactly, and must not be blank.
  // Throws StoreError when the name is taken or blank.
  PlayerId create_player(const std::string& name);
  PlayerId find_or_create_player(const std::string& name);
  std::optional<Player> find_player(const std::string& name);
  std::vector<Player> players();  // by name

  // --- Games.
  // A running game; the players (created when new) sit in the order given. Throws StoreError
  // for no players, a name given twice, or options that are not serialisable JSON.
  GameId create_game(GameKind kind, const nlohmann::json& options,
                     const std::vector<std::string>& players);
  // Appends the next event to a running game and commits it before returning its seq
  // (1 for the first). Throws StoreError for an unknown game or one that is over.
  std::int64_t append_event(GameId game, EventKind kind, const nlohmann::json& payload);
  // The game's events in order. Throws StoreError for an unknown game.
  std::vector<Event> events(GameId game);
  // Ends a running game with every seated player's result, all in one transaction.
  void finish_game(GameId game, const std::vector<PlayerResult>& results);
  // Ends a running game without results (it stays in the records as not finished).
  void abandon_game(GameId game);
  // Throws StoreError for an unknown game.
  Game game(GameId id);
  std::vector<Game> list_games();        // newest first
  std::vector<Game> unfinished_games();  // running ones, newest first: candidates for --resume

  // --- Records: one per player and kind of game played, by player name then kind.
  std::vector<PlayerRecord> records();

  // --- Calibrations: every save is kept; the latest of a camera and kind is the one in use.
  std::int64_t save_calibration(const std::string& camera, const std::string& kind,
                                const nlohmann::json& payload);
  std::optional<Calibration> latest_calibration(const std::string& camera, const std::string& kind);

  // --- Checks and test hooks.
  // PRAGMA integrity_check: "ok", or SQLite's list of problems.
  std::string integrity_check();
  // The value of a PRAGMA without argument (journal_mode, foreign_keys, ...). The name must be
  // letters and underscores.
  std::string pragma(std::string_view name);
  // Tests: caps the file at `pages` pages (PRAGMA max_page_count), so that writes beyond
  // fail as a full disk does (SQLITE_FULL). Returns the cap in effect (never below the size).
  std::int64_t limit_pages_for_testing(std::int64_t pages);

 private:
  explicit Store(std::unique_ptr<sqlite::Connection> db);
  std::vector<Game> query_games(std::string_view where, std::optional<GameId> id);

  std::unique_ptr<sqlite::Connection> db_;
};

}  // namespace arbitre::data::store
