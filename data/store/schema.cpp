#include "data/store/schema.h"

#include <array>

namespace arbitre::data::store {

namespace {

// Version 1: the games and what happened in them.
//  - Kinds of games and events are rows of small tables referenced by foreign keys (not CHECK
//    lists), so a new game or event kind is one INSERT in a migration, not a table rebuild.
//  - Times are UTC ISO 8601 text with milliseconds (strftime('%Y-%m-%dT%H:%M:%fZ')): readable
//    with the sqlite3 shell and ordered as text.
//  - Game ids are AUTOINCREMENT: an id, once given, never names another game.
//  - The event log is append-only and numbered 1, 2, 3... per game; triggers refuse gaps,
//    events for a game that is over, and any UPDATE or DELETE (a correction is a new event).
//  - No ON DELETE CASCADE anywhere: deleting a game that has seats, events or scores fails.
constexpr std::string_view kVersion1 = R"sql(
CREATE TABLE game_kinds (name TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO game_kinds (name) VALUES ('irma'), ('yams');

CREATE TABLE event_kinds (name TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO event_kinds (name)
  VALUES ('move'), ('roll'), ('box'), ('declare'), ('refusal'), ('correction'), ('undo');

CREATE TABLE players (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0)
);

CREATE TABLE games (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL REFERENCES game_kinds (name),
  options TEXT NOT NULL CHECK (json_valid(options)),
  status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'abandoned')),
  started_at TEXT NOT NULL,
  ended_at TEXT,
  CHECK ((status = 'running') = (ended_at IS NULL))
);

CREATE TABLE game_players (
  game INTEGER NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL CHECK (seat >= 0),
  player INTEGER NOT NULL REFERENCES players (id),
  PRIMARY KEY (game, seat),
  UNIQUE (game, player)
) WITHOUT ROWID;

CREATE TABLE events (
  game INTEGER NOT NULL REFERENCES games (id),
  seq INTEGER NOT NULL CHECK (seq >= 1),
  kind TEXT NOT NULL REFERENCES event_kinds (name),
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (game, seq)
) WITHOUT ROWID;

CREATE TRIGGER events_appended_in_order BEFORE INSERT ON events
BEGIN
  SELECT RAISE(ABORT, 'the game is over: it takes no more events')
    WHERE (SELECT status FROM games WHERE id = NEW.game) <> 'running';
  SELECT RAISE(ABORT, 'events are numbered 1, 2, 3... in each game, without gaps')
    WHERE NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game = NEW.game);
END;
CREATE TRIGGER events_never_changed BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are never changed: a correction is a new event');
END;
CREATE TRIGGER events_never_deleted BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are never deleted');
END;

-- The final score sheet of each player of a finished game; only seated players can have one.
CREATE TABLE scores (
  game INTEGER NOT NULL,
  player INTEGER NOT NULL,
  score INTEGER NOT NULL,
  sheet TEXT NOT NULL CHECK (json_valid(sheet)),
  PRIMARY KEY (game, player),
  FOREIGN KEY (game, player) REFERENCES game_players (game, player)
) WITHOUT ROWID;
)sql";

// Version 2: camera calibrations (homography, colour profiles, zones...), kept as a history so
// that the next session starts calibrated from the latest one of each kind.
constexpr std::string_view kVersion2 = R"sql(
CREATE TABLE calibrations (
  id INTEGER PRIMARY KEY,
  camera TEXT NOT NULL CHECK (length(camera) > 0),
  kind TEXT NOT NULL CHECK (length(kind) > 0),
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  saved_at TEXT NOT NULL
);
CREATE INDEX calibrations_latest ON calibrations (camera, kind, id);
)sql";

// Version 3: indexes for the records of a player (seats by player) and for the unfinished
// games offered for resuming (a partial index holding only the running games).
constexpr std::string_view kVersion3 = R"sql(
CREATE INDEX game_players_by_player ON game_players (player);
CREATE INDEX games_running ON games (id) WHERE status = 'running';
)sql";

// Version 4: the redo event (an undone event carried out again), one row of event_kinds.
constexpr std::string_view kVersion4 = R"sql(
INSERT INTO event_kinds (name) VALUES ('redo');
)sql";

constexpr std::array kMigrations = {
    Migration{1, "players, games, event log and score sheets", kVersion1},
    Migration{2, "camera calibrations", kVersion2},
    Migration{3, "indexes for records and resuming", kVersion3},
    Migration{4, "the redo event", kVersion4},
};
static_assert(kMigrations.size() == kSchemaVersion);

}  // namespace

std::span<const Migration> migrations() {
  return kMigrations;
}

}  // namespace arbitre::data::store
