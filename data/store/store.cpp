#include "data/store/store.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "data/store/sqlite.h"

namespace arbitre::data::store {

namespace fs = std::filesystem;

namespace {

// The current time as stored: UTC ISO 8601 with milliseconds, from SQLite's clock.
#define ARBITRE_STORE_NOW "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

constexpr std::array<std::string_view, 2> kGameKindText = {"irma", "yams"};
constexpr std::array<std::string_view, 3> kGameStatusText = {"running", "finished", "abandoned"};
constexpr std::array<std::string_view, 8> kEventKindText = {
    "move", "roll", "box", "declare", "refusal", "correction", "undo", "redo"};

template <typename Enum, std::size_t N>
std::optional<Enum> from_text(const std::array<std::string_view, N>& words, std::string_view text) {
  const auto it = std::find(words.begin(), words.end(), text);
  if (it == words.end()) return std::nullopt;
  return static_cast<Enum>(it - words.begin());
}

// Runs f, giving any StoreError it throws the path and the action when they are missing.
template <typename F>
auto reading(const std::string& path, const std::string& action, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const StoreError& e) {
    throw e.in_context(path, action);
  }
}

// The same for a write, which is always one transaction: when the failure came from the disk
// or from another program, the message also says that the transaction was rolled back whole.
template <typename F>
auto writing(const std::string& path, const std::string& action, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const StoreError& e) {
    const StoreError error = e.in_context(path, action);
    switch (e.sqlite_code() & 0xff) {
      case SQLITE_FULL:
      case SQLITE_IOERR:
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
      case SQLITE_READONLY:
      case SQLITE_NOMEM:
        throw StoreError(
            error.path(), error.action(),
            error.problem() + "; nothing of it was written, and the data stored before is intact",
            e.sqlite_code());
      default:
        throw error;
    }
  }
}

[[noreturn]] void refuse(const std::string& problem, int code = 0) {
  throw StoreError("", "", problem, code);
}

// JSON text to store; a value nlohmann cannot write (invalid UTF-8 in a string) is refused.
std::string json_text(const nlohmann::json& value, std::string_view what) {
  try {
    return value.dump();
  } catch (const nlohmann::json::exception& e) {
    refuse(std::string(what) + " cannot be written as JSON: " + e.what());
  }
}

// JSON read back; the schema only lets valid JSON in, so a failure means a damaged file.
nlohmann::json parse_stored(const std::string& text, std::string_view what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    refuse("the database file is damaged: " + std::string(what) + " is not JSON (" + e.what() +
           ")");
  }
}

// The one row of a statement that returns exactly one (INSERT ... RETURNING): its first column
// as an integer. Steps to the end so that the statement is complete before any COMMIT.
std::int64_t single_int(sqlite::Statement& statement) {
  if (!statement.step()) refuse("the database returned no row");
  const std::int64_t value = statement.int64(0);
  statement.run();
  return value;
}

std::string quoted(const std::string& name) {
  return "\"" + name + "\"";
}

std::string game_name(GameId id) {
  return "game " + std::to_string(id);
}

// Refuses, before SQLite is involved, a path that cannot hold a store: with messages about the
// path itself rather than SQLite's "unable to open database file".
void check_location(const std::string& path) {
  if (path.empty()) refuse("no file name given");
  std::error_code error;
  const fs::path file(path);
  const fs::file_status status = fs::status(file, error);
  const bool exists = fs::exists(status);
  if (exists && fs::is_directory(status)) refuse("this is a directory, not a file");
  if (exists && !fs::is_regular_file(status)) refuse("this is not a regular file");

  fs::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  const fs::file_status dir_status = fs::status(dir, error);
  if (!fs::exists(dir_status)) refuse("the directory " + dir.string() + " does not exist");
  if (!fs::is_directory(dir_status)) refuse(dir.string() + " is not a directory");
  // WAL mode keeps two files next to the database (-wal and -shm), created when it opens.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    refuse("the directory " + dir.string() +
           " is not writable (the store keeps its journal files next to the database)");
  }
  if (exists && ::access(path.c_str(), R_OK | W_OK) != 0) {
    refuse("the file is not readable and writable by you (check its permissions)");
  }
}

// Runs PRAGMA quick_check, throwing when the file is damaged. quick_check reads every page but
// skips the index-to-table cross checks of integrity_check: milliseconds for a megabyte.
void check_not_damaged(sqlite::Connection& db) {
  const std::string verdict = db.query_text("PRAGMA quick_check(1)");
  if (verdict != "ok") {
    refuse("the database file is damaged (" + verdict +
               "); it is left as it is: restore a backup or choose another file",
           SQLITE_CORRUPT);
  }
}

// Tells an empty file, an Arbitre store and another program's SQLite file apart, reading the
// header and the schema only. Returns the store's schema version (0 for an empty file).
int identify(sqlite::Connection& db) {
  const std::int64_t application_id = db.query_int("PRAGMA application_id");
  const int version = static_cast<int>(db.query_int("PRAGMA user_version"));
  const std::int64_t objects = db.query_int("SELECT count(*) FROM sqlite_schema");
  if (application_id == kApplicationId) {
    if (version > kSchemaVersion) {
      refuse("it was written by a newer Arbitre (schema version " + std::to_string(version) +
             ", this one knows versions up to " + std::to_string(kSchemaVersion) +
             "); it is left as it is: update Arbitre to use it");
    }
    return version;
  }
  if (application_id == 0 && version == 0 && objects == 0) return 0;
  std::string problem = "not an Arbitre game store but another program's SQLite database";
  const std::string table =
      db.query_text("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name LIMIT 1");
  if (!table.empty()) problem += " (with a table " + quoted(table) + ")";
  refuse(problem + "; it is left as it is: choose another file");
}

// Brings the schema from `version` up to `target`, one migration per transaction. Each one
// reads user_version again under the write lock, so two programs opening the same old file
// at once do not both run it.
void migrate(sqlite::Connection& db, int version, int target) {
  for (const Migration& migration : migrations()) {
    if (migration.version <= version) continue;
    if (migration.version > target) break;
    const std::string action = "cannot upgrade it to schema version " +
                               std::to_string(migration.version) + " (" +
                               std::string(migration.summary) + ")";
    reading("", action, [&] {
      sqlite::Transaction transaction(db);
      if (db.query_int("PRAGMA user_version") >= migration.version) return;
      if (migration.version == 1) {
        db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
      }
      db.exec(migration.sql);
      db.exec("PRAGMA user_version = " + std::to_string(migration.version));
      transaction.commit();
    });
  }
}

// mkdir -p with mode 0700 for the directories it creates (the XDG base directory spec).
void make_directories(const fs::path& dir) {
  fs::path partial;
  for (const fs::path& part : dir) {
    partial /= part;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      throw StoreError(dir.string(), "cannot create the data directory", std::strerror(errno));
    }
  }
  if (!fs::is_directory(dir)) {
    throw StoreError(dir.string(), "cannot create the data directory", "not a directory");
  }
}

std::optional<PlayerId> lookup_player(sqlite::Connection& db, const std::string& name) {
  sqlite::Statement select = db.prepare("SELECT id FROM players WHERE name = ?1");
  select.bind(1, name);
  if (!select.step()) return std::nullopt;
  return select.int64(0);
}

void check_player_name(const std::string& name) {
  if (name.find_first_not_of(" \t\r\n") == std::string::npos) {
    refuse("a player's name must not be blank");
  }
}

PlayerId insert_player(sqlite::Connection& db, const std::string& name) {
  check_player_name(name);
  sqlite::Statement insert = db.prepare("INSERT INTO players (name) VALUES (?1) RETURNING id");
  insert.bind(1, name);
  return single_int(insert);
}

PlayerId find_or_insert_player(sqlite::Connection& db, const std::string& name) {
  if (const auto id = lookup_player(db, name)) return *id;
  return insert_player(db, name);
}

// The status of a game, refusing an unknown game.
GameStatus status_of(sqlite::Connection& db, GameId game) {
  sqlite::Statement select = db.prepare("SELECT status FROM games WHERE id = ?1");
  select.bind(1, game);
  if (!select.step()) refuse("there is no " + game_name(game));
  const auto status = game_status_from_text(select.text(0));
  if (!status) refuse("the database file is damaged: unknown game status " + select.text(0));
  return *status;
}

void require_running(sqlite::Connection& db, GameId game) {
  const GameStatus status = status_of(db, game);
  if (status != GameStatus::Running) {
    refuse("the game is already " + std::string(to_text(status)));
  }
}

}  // namespace

std::string_view to_text(GameKind kind) {
  return kGameKindText.at(static_cast<std::size_t>(kind));
}
std::string_view to_text(GameStatus status) {
  return kGameStatusText.at(static_cast<std::size_t>(status));
}
std::string_view to_text(EventKind kind) {
  return kEventKindText.at(static_cast<std::size_t>(kind));
}
std::optional<GameKind> game_kind_from_text(std::string_view text) {
  return from_text<GameKind>(kGameKindText, text);
}
std::optional<GameStatus> game_status_from_text(std::string_view text) {
  return from_text<GameStatus>(kGameStatusText, text);
}
std::optional<EventKind> event_kind_from_text(std::string_view text) {
  return from_text<EventKind>(kEventKindText, text);
}

std::string default_store_path() {
  fs::path base;
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && *xdg != '\0' && fs::path(xdg).is_absolute()) {
    base = xdg;
  } else {
    const char* home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
      throw StoreError("", "cannot find the data directory",
                       "neither XDG_DATA_HOME nor HOME is set");
    }
    base = fs::path(home) / ".local" / "share";
  }
  const fs::path dir = base / "arbitre";
  make_directories(dir);
  return (dir / "arbitre.db").string();
}

Store::Store(std::unique_ptr<sqlite::Connection> db) : db_(std::move(db)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

Store Store::open(const std::string& path, const OpenOptions& options) {
  return reading(path, "cannot open the game store", [&] {
    if (options.schema_version < 0 || options.schema_version > kSchemaVersion) {
      refuse("no schema version " + std::to_string(options.schema_version));
    }
    check_location(path);
    auto db = std::make_unique<sqlite::Connection>(path, /*create=*/true, options.vfs);
    if (db->read_only()) refuse("the file is read-only (check its permissions)");
    db->set_busy_timeout(options.busy_timeout_ms);
    db->exec("PRAGMA foreign_keys = ON");
    // Nothing is written before the file is known to be an Arbitre store (or empty) and whole:
    // changing the journal mode alone would rewrite a foreign file's header.
    const int version = identify(*db);
    if (version > 0) check_not_damaged(*db);
    const std::string journal = db->query_text("PRAGMA journal_mode = WAL");
    if (journal != "wal") {
      refuse("cannot use WAL mode here (the journal mode stays " + journal + ")");
    }
    // FULL: WAL is synced at every commit, so a committed event survives a power cut too
    // (NORMAL would only survive the program being killed).
    db->exec("PRAGMA synchronous = FULL");
    migrate(*db, version, options.schema_version);
    return Store(std::move(db));
  });
}

const std::string& Store::path() const {
  return db_->path();
}

int Store::schema_version() {
  return reading(path(), "cannot read the schema version",
                 [&] { return static_cast<int>(db_->query_int("PRAGMA user_version")); });
}

PlayerId Store::create_player(const std::string& name) {
  return writing(path(), "cannot add the player " + quoted(name), [&] {
    sqlite::Transaction transaction(*db_);
    if (lookup_player(*db_, name)) refuse("a player of that name already exists");
    const PlayerId id = insert_player(*db_, name);
    transaction.commit();
    return id;
  });
}

PlayerId Store::find_or_create_player(const std::string& name) {
  return writing(path(), "cannot add the player " + quoted(name), [&] {
    if (const auto id = lookup_player(*db_, name)) return *id;
    sqlite::Transaction transaction(*db_);
    const PlayerId id = find_or_insert_player(*db_, name);
    transaction.commit();
    return id;
  });
}

std::optional<Player> Store::find_player(const std::string& name) {
  const std::string action = "cannot look up the player " + quoted(name);
  return reading(path(), action, [&]() -> std::optional<Player> {
    const auto id = lookup_player(*db_, name);
    if (!id) return std::nullopt;
    return Player{*id, name};
  });
}

std::vector<Player> Store::players() {
  return reading(path(), "cannot list the players", [&] {
    std::vector<Player> players;
    sqlite::Statement select = db_->prepare("SELECT id, name FROM players ORDER BY name");
    while (select.step()) players.push_back({select.int64(0), select.text(1)});
    return players;
  });
}

GameId Store::create_game(GameKind kind, const nlohmann::json& options,
                          const std::vector<std::string>& players) {
  return writing(path(), "cannot start a game of " + std::string(to_text(kind)), [&] {
    if (players.empty()) refuse("a game needs at least one player");
    if (std::set<std::string>(players.begin(), players.end()).size() != players.size()) {
      refuse("a player is named twice");
    }
    for (const std::string& name : players) check_player_name(name);
    const std::string options_text = json_text(options, "the options");

    sqlite::Transaction transaction(*db_);
    sqlite::Statement insert = db_->prepare(
        "INSERT INTO games (kind, options, started_at) VALUES (?1, ?2, " ARBITRE_STORE_NOW
        ") RETURNING id");
    insert.bind(1, to_text(kind)).bind(2, options_text);
    const GameId game = single_int(insert);
    sqlite::Statement seat =
        db_->prepare("INSERT INTO game_players (game, seat, player) VALUES (?1, ?2, ?3)");
    for (std::size_t i = 0; i < players.size(); ++i) {
      seat.bind(1, game).bind(2, i).bind(3, find_or_insert_player(*db_, players[i]));
      seat.run();
      seat.reset();
    }
    transaction.commit();
    return game;
  });
}

std::int64_t Store::append_event(GameId game, EventKind kind, const nlohmann::json& payload) {
  const std::string action =
      "cannot record a " + std::string(to_text(kind)) + " in " + game_name(game);
  return writing(path(), action, [&] {
    const std::string payload_text = json_text(payload, "the event");
    try {
      // One transaction and one statement: the next seq is computed under the write
      // lock, and the schema refuses the event for a game that is over (trigger) or
      // unknown (foreign key).
      sqlite::Transaction transaction(*db_);
      sqlite::Statement insert = db_->prepare(
          "INSERT INTO events (game, seq, kind, payload, created_at) "
          "SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, " ARBITRE_STORE_NOW
          " FROM events WHERE game = ?1 RETURNING seq");
      insert.bind(1, game).bind(2, to_text(kind)).bind(3, payload_text);
      const std::int64_t seq = single_int(insert);
      transaction.commit();
      return seq;
    } catch (const StoreError& e) {
      if (e.sqlite_code() == SQLITE_CONSTRAINT_FOREIGNKEY) {
        refuse("there is no " + game_name(game), e.sqlite_code());
      }
      throw;
    }
  });
}

std::vector<Event> Store::events(GameId game) {
  return reading(path(), "cannot read the events of " + game_name(game), [&] {
    status_of(*db_, game);
    std::vector<Event> events;
    sqlite::Statement select = db_->prepare(
        "SELECT seq, kind, payload, created_at FROM events WHERE game = ?1 ORDER BY seq");
    select.bind(1, game);
    while (select.step()) {
      const auto kind = event_kind_from_text(select.text(1));
      if (!kind) refuse("the database file is damaged: unknown event kind " + select.text(1));
      const std::int64_t seq = select.int64(0);
      events.push_back({seq, *kind, parse_stored(select.text(2), "event " + std::to_string(seq)),
                        select.text(3)});
    }
    return events;
  });
}

void Store::finish_game(GameId game, const std::vector<PlayerResult>& results) {
  writing(path(), "cannot finish " + game_name(game), [&] {
    sqlite::Transaction transaction(*db_);
    require_running(*db_, game);
    std::map<std::string, PlayerId> seated;
    sqlite::Statement seats = db_->prepare(
        "SELECT p.name, p.id FROM game_players gp JOIN players p ON p.id = gp.player "
        "WHERE gp.game = ?1");
    seats.bind(1, game);
    while (seats.step()) seated.emplace(seats.text(0), seats.int64(1));

    sqlite::Statement insert =
        db_->prepare("INSERT INTO scores (game, player, score, sheet) VALUES (?1, ?2, ?3, ?4)");
    std::set<std::string> given;
    for (const PlayerResult& result : results) {
      const auto it = seated.find(result.player);
      if (it == seated.end()) refuse(quoted(result.player) + " does not play in this game");
      if (!given.insert(result.player).second) {
        refuse(quoted(result.player) + " has two results");
      }
      insert.bind(1, game).bind(2, it->second).bind(3, result.score);
      insert.bind(4, json_text(result.sheet, "the score sheet of " + quoted(result.player)));
      insert.run();
      insert.reset();
    }
    for (const auto& [name, id] : seated) {
      if (!given.contains(name)) refuse("no result for " + quoted(name));
    }
    sqlite::Statement update = db_->prepare(
        "UPDATE games SET status = 'finished', ended_at = " ARBITRE_STORE_NOW " WHERE id = ?1");
    update.bind(1, game).run();
    transaction.commit();
  });
}

void Store::abandon_game(GameId game) {
  writing(path(), "cannot abandon " + game_name(game), [&] {
    sqlite::Transaction transaction(*db_);
    require_running(*db_, game);
    sqlite::Statement update = db_->prepare(
        "UPDATE games SET status = 'abandoned', ended_at = " ARBITRE_STORE_NOW " WHERE id = ?1");
    update.bind(1, game).run();
    transaction.commit();
  });
}

std::vector<Game> Store::query_games(std::string_view where, std::optional<GameId> id) {
  // One read transaction, so that the games and their seats are one snapshot.
  db_->exec("BEGIN");
  struct EndRead {
    sqlite::Connection& db;
    ~EndRead() { db.rollback_if_open(); }
  } end_read{*db_};

  std::vector<Game> games;
  std::map<GameId, std::size_t> index;
  sqlite::Statement select = db_->prepare(
      "SELECT g.id, g.kind, g.status, g.options, g.started_at, g.ended_at, "
      "(SELECT count(*) FROM events e WHERE e.game = g.id) FROM games g WHERE " +
      std::string(where) + " ORDER BY g.id DESC");
  if (id) select.bind(1, *id);
  while (select.step()) {
    Game game;
    game.id = select.int64(0);
    const auto kind = game_kind_from_text(select.text(1));
    const auto status = game_status_from_text(select.text(2));
    if (!kind || !status) refuse("the database file is damaged: " + game_name(game.id));
    game.kind = *kind;
    game.status = *status;
    game.options = parse_stored(select.text(3), "the options of " + game_name(game.id));
    game.started_at = select.text(4);
    if (!select.is_null(5)) game.ended_at = select.text(5);
    game.event_count = select.int64(6);
    index.emplace(game.id, games.size());
    games.push_back(std::move(game));
  }

  sqlite::Statement seats = db_->prepare(
      "SELECT gp.game, gp.seat, gp.player, p.name, s.score, s.sheet "
      "FROM games g JOIN game_players gp ON gp.game = g.id JOIN players p ON p.id = gp.player "
      "LEFT JOIN scores s ON s.game = gp.game AND s.player = gp.player WHERE " +
      std::string(where) + " ORDER BY gp.game, gp.seat");
  if (id) seats.bind(1, *id);
  while (seats.step()) {
    const auto it = index.find(seats.int64(0));
    if (it == index.end()) continue;
    Seat seat;
    seat.seat = static_cast<int>(seats.int64(1));
    seat.player = seats.int64(2);
    seat.name = seats.text(3);
    if (!seats.is_null(4)) seat.score = seats.int64(4);
    if (!seats.is_null(5)) seat.sheet = parse_stored(seats.text(5), "a score sheet");
    games[it->second].seats.push_back(std::move(seat));
  }
  return games;
}

Game Store::game(GameId id) {
  return reading(path(), "cannot read " + game_name(id), [&] {
    std::vector<Game> games = query_games("g.id = ?1", id);
    if (games.empty()) refuse("there is no " + game_name(id));
    return std::move(games.front());
  });
}

std::vector<Game> Store::list_games() {
  return reading(path(), "cannot list the games", [&] { return query_games("1", std::nullopt); });
}

std::vector<Game> Store::unfinished_games() {
  return reading(path(), "cannot list the unfinished games",
                 [&] { return query_games("g.status = 'running'", std::nullopt); });
}

std::vector<PlayerRecord> Store::records() {
  return reading(path(), "cannot read the records", [&] {
    std::vector<PlayerRecord> records;
    sqlite::Statement select = db_->prepare(
        "SELECT p.name, g.kind, count(*), sum(g.status = 'finished'), "
        "max(CASE WHEN g.status = 'finished' THEN s.score END), "
        "avg(CASE WHEN g.status = 'finished' THEN s.score END) "
        "FROM game_players gp JOIN players p ON p.id = gp.player JOIN games g ON g.id = gp.game "
        "LEFT JOIN scores s ON s.game = gp.game AND s.player = gp.player "
        "GROUP BY p.id, g.kind ORDER BY p.name, g.kind");
    while (select.step()) {
      PlayerRecord record;
      record.player = select.text(0);
      const auto kind = game_kind_from_text(select.text(1));
      if (!kind) refuse("the database file is damaged: unknown game kind " + select.text(1));
      record.kind = *kind;
      record.games = static_cast<int>(select.int64(2));
      record.finished = static_cast<int>(select.int64(3));
      if (!select.is_null(4)) record.best = select.int64(4);
      if (!select.is_null(5)) record.average = select.real(5);
      record.completion_rate = static_cast<double>(record.finished) / record.games;
      records.push_back(std::move(record));
    }
    return records;
  });
}

std::int64_t Store::save_calibration(const std::string& camera, const std::string& kind,
                                     const nlohmann::json& payload) {
  const std::string action = "cannot save the " + kind + " calibration of camera " + quoted(camera);
  return writing(path(), action, [&] {
    if (camera.empty()) refuse("the camera has no id");
    if (kind.empty()) refuse("the calibration has no kind");
    const std::string payload_text = json_text(payload, "the calibration");
    sqlite::Transaction transaction(*db_);
    sqlite::Statement insert = db_->prepare(
        "INSERT INTO calibrations (camera, kind, payload, saved_at) "
        "VALUES (?1, ?2, ?3, " ARBITRE_STORE_NOW ") RETURNING id");
    insert.bind(1, camera).bind(2, kind).bind(3, payload_text);
    const std::int64_t id = single_int(insert);
    transaction.commit();
    return id;
  });
}

std::optional<Calibration> Store::latest_calibration(const std::string& camera,
                                                     const std::string& kind) {
  const std::string action = "cannot read the " + kind + " calibration of camera " + quoted(camera);
  return reading(path(), action, [&]() -> std::optional<Calibration> {
    sqlite::Statement select = db_->prepare(
        "SELECT id, payload, saved_at FROM calibrations WHERE camera = ?1 AND kind = ?2 "
        "ORDER BY id DESC LIMIT 1");
    select.bind(1, camera).bind(2, kind);
    if (!select.step()) return std::nullopt;
    return Calibration{select.int64(0), camera, kind, parse_stored(select.text(1), "a calibration"),
                       select.text(2)};
  });
}

std::string Store::integrity_check() {
  return reading(path(), "cannot check the database", [&] {
    std::string verdict;
    sqlite::Statement check = db_->prepare("PRAGMA integrity_check");
    while (check.step()) {
      if (!verdict.empty()) verdict += "\n";
      verdict += check.text(0);
    }
    return verdict;
  });
}

std::string Store::pragma(std::string_view name) {
  return reading(path(), "cannot read PRAGMA " + std::string(name), [&] {
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || c == '_';
    });
    if (!plain) refuse("not a PRAGMA name");
    return db_->query_text("PRAGMA " + std::string(name));
  });
}

std::int64_t Store::limit_pages_for_testing(std::int64_t pages) {
  return reading(path(), "cannot limit the size", [&] {
    return db_->query_int("PRAGMA max_page_count = " + std::to_string(pages));
  });
}

#undef ARBITRE_STORE_NOW

}  // namespace arbitre::data::store
