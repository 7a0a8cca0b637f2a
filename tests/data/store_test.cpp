// The SQLite game store: what it keeps, what it refuses, and what survives a full disk, a
// read-only directory, a foreign or damaged file, old schemas and SIGKILL at any moment.
#include "data/store/store.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "data/store/disk_full_vfs.h"
#include "data/store/sqlite.h"

namespace ds = arbitre::data::store;
namespace fs = std::filesystem;
using ds::EventKind;
using ds::GameKind;
using ds::GameStatus;
using ds::StoreError;
using ::testing::HasSubstr;

extern char** environ;

namespace {

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "arbitre-store-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code error;
    for (const auto& entry : fs::recursive_directory_iterator(path_, error)) {
      if (entry.is_directory()) fs::permissions(entry.path(), fs::perms::owner_all, error);
    }
    fs::remove_all(path_, error);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

// The message of the StoreError that f throws, or "" when it throws none.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const StoreError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json dice(int n) {
  return {{"n", n}, {"dice", "7r 10w 3r 3r 5w 1r 2r 9w 9w 4r"}};
}

// Options to open a store without migrating past `version`.
ds::OpenOptions up_to(int version) {
  ds::OpenOptions options;
  options.schema_version = version;
  return options;
}

// Options to open a store on the disk-full VFS (see ds::testing::set_free_space).
ds::OpenOptions on_a_small_disk() {
  ds::OpenOptions options;
  options.vfs = ds::testing::disk_full_vfs();
  return options;
}

// A store with one running Yams game of Anna and Bruno holding `events` events.
ds::GameId game_with_events(ds::Store& store, int events) {
  const ds::GameId game =
      store.create_game(GameKind::Yams, {{"textures", false}}, {"Anna", "Bruno"});
  for (int i = 1; i <= events; ++i) store.append_event(game, EventKind::Roll, dice(i));
  return game;
}

}  // namespace

// --- Opening and the pragmas

TEST(StoreOpen, CreatesTheFileWithWalForeignKeysAndFullSync) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("arbitre.db"));
  EXPECT_TRUE(fs::is_regular_file(dir.file("arbitre.db")));
  EXPECT_EQ(store.pragma("journal_mode"), "wal");
  EXPECT_EQ(store.pragma("foreign_keys"), "1");
  EXPECT_EQ(store.pragma("synchronous"), "2");  // FULL
  EXPECT_EQ(store.pragma("busy_timeout"), "5000");
  EXPECT_EQ(store.pragma("application_id"), std::to_string(ds::kApplicationId));
  EXPECT_EQ(store.schema_version(), ds::kSchemaVersion);
  EXPECT_EQ(store.integrity_check(), "ok");
  EXPECT_THAT(error_of([&] { store.pragma("journal_mode = DELETE"); }), HasSubstr("not a PRAGMA"));
}

TEST(StoreOpen, ReopensWhatItCreated) {
  TempDir dir;
  ds::GameId game = 0;
  {
    ds::Store store = ds::Store::open(dir.file("a.db"));
    game = game_with_events(store, 3);
  }
  ds::Store store = ds::Store::open(dir.file("a.db"));
  EXPECT_EQ(store.events(game).size(), 3u);
  EXPECT_EQ(store.pragma("journal_mode"), "wal");
}

TEST(StoreOpen, DefaultPathFollowsXdgDataHomeThenHome) {
  TempDir dir;
  struct RestoreEnv {
    std::optional<std::string> xdg, home;
    static std::optional<std::string> get(const char* name) {
      const char* value = std::getenv(name);
      return value ? std::optional<std::string>(value) : std::nullopt;
    }
    static void put(const char* name, const std::optional<std::string>& value) {
      value ? ::setenv(name, value->c_str(), 1) : ::unsetenv(name);
    }
    ~RestoreEnv() {
      put("XDG_DATA_HOME", xdg);
      put("HOME", home);
    }
  } restore{RestoreEnv::get("XDG_DATA_HOME"), RestoreEnv::get("HOME")};

  ::setenv("XDG_DATA_HOME", dir.file("xdg/data").c_str(), 1);
  EXPECT_EQ(ds::default_store_path(), dir.file("xdg/data/arbitre/arbitre.db"));
  EXPECT_TRUE(fs::is_directory(dir.file("xdg/data/arbitre")));
  EXPECT_EQ(fs::status(dir.file("xdg/data/arbitre")).permissions() & fs::perms::all,
            fs::perms::owner_all);

  // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
  ::setenv("XDG_DATA_HOME", "relative/data", 1);
  ::setenv("HOME", dir.file("home").c_str(), 1);
  EXPECT_EQ(ds::default_store_path(), dir.file("home/.local/share/arbitre/arbitre.db"));
  EXPECT_TRUE(fs::is_directory(dir.file("home/.local/share/arbitre")));

  ::unsetenv("XDG_DATA_HOME");
  ::unsetenv("HOME");
  EXPECT_THAT(error_of([] { ds::default_store_path(); }),
              HasSubstr("neither XDG_DATA_HOME nor HOME"));
}

TEST(StoreOpen, MissingDirectoryIsNamed) {
  TempDir dir;
  const std::string path = dir.file("nowhere/arbitre.db");
  const std::string message = error_of([&] { ds::Store::open(path); });
  EXPECT_THAT(message, HasSubstr(path + ": cannot open the game store: the directory "));
  EXPECT_THAT(message, HasSubstr("does not exist"));
  EXPECT_THAT(error_of([&] { ds::Store::open(dir.path()); }), HasSubstr("is a directory"));
}

// --- Files that are not ours: a clear message, and not one byte changed.

TEST(StoreOpen, RandomBytesAreRefusedAndLeftUntouched) {
  TempDir dir;
  const std::string path = dir.file("noise.db");
  const std::string noise = random_bytes(64 * 1024, 7);
  write_bytes(path, noise);
  const std::string message = error_of([&] { ds::Store::open(path); });
  EXPECT_THAT(message, HasSubstr(path + ": cannot open the game store"));
  EXPECT_THAT(message, HasSubstr("not an SQLite database"));
  EXPECT_EQ(bytes_of(path), noise);
}

TEST(StoreOpen, ForeignSqliteDatabaseIsRefusedAndLeftUntouched) {
  TempDir dir;
  const std::string path = dir.file("recipes.db");
  {
    ds::sqlite::Connection other(path, /*create=*/true);
    other.exec(
        "CREATE TABLE recipes (name TEXT, minutes INTEGER);"
        "INSERT INTO recipes VALUES ('tarte flambée', 25);");
  }
  const std::string before = bytes_of(path);
  ASSERT_FALSE(before.empty());
  const std::string message = error_of([&] { ds::Store::open(path); });
  EXPECT_THAT(message, HasSubstr(path + ": cannot open the game store"));
  EXPECT_THAT(message, HasSubstr("another program's SQLite database (with a table \"recipes\")"));
  EXPECT_EQ(bytes_of(path), before);
  // Not even the journal mode changed (it is in the header): the other program sees its file.
  ds::sqlite::Connection other(path, /*create=*/false);
  EXPECT_EQ(other.query_text("PRAGMA journal_mode"), "delete");
  EXPECT_EQ(other.query_int("SELECT minutes FROM recipes"), 25);
}

TEST(StoreOpen, NewerSchemaIsRefusedAndLeftUntouched) {
  TempDir dir;
  const std::string path = dir.file("future.db");
  {
    ds::Store store = ds::Store::open(path);
    game_with_events(store, 2);
  }
  {
    ds::sqlite::Connection future(path, /*create=*/false);
    future.exec("PRAGMA user_version = " + std::to_string(ds::kSchemaVersion + 1));
  }
  const std::string before = bytes_of(path);
  const std::string message = error_of([&] { ds::Store::open(path); });
  EXPECT_THAT(message, HasSubstr(path +
                                 ": cannot open the game store: it was written by a newer "
                                 "Arbitre (schema version " +
                                 std::to_string(ds::kSchemaVersion + 1)));
  EXPECT_THAT(message, HasSubstr("left as it is"));
  EXPECT_EQ(bytes_of(path), before);
}

TEST(StoreOpen, DamagedDatabaseIsRefusedAndLeftUntouched) {
  TempDir dir;
  const std::string path = dir.file("damaged.db");
  {
    ds::Store store = ds::Store::open(path);
    game_with_events(store, 200);
  }
  // Closing the last connection checkpointed the WAL into the file: damage pages 2 to 4, the
  // roots of the first tables.
  std::string bytes = bytes_of(path);
  ASSERT_GT(bytes.size(), 5u * 4096);
  bytes.replace(4096, 3 * 4096, random_bytes(3 * 4096, 11));
  write_bytes(path, bytes);
  const std::string message = error_of([&] { ds::Store::open(path); });
  EXPECT_THAT(message, HasSubstr(path + ": cannot open the game store"));
  EXPECT_THAT(message, HasSubstr("damaged"));
  EXPECT_EQ(bytes_of(path), bytes);
}

// --- Permissions. Root ignores permission bits, so as root the attempts run in a child
// process that drops to the unprivileged user 65534 ("nobody").

namespace {

// Runs f without privileges and returns its result, or nullopt when privileges cannot be
// dropped (a container without CAP_SETUID). As another user than root, f runs in this process.
std::optional<std::string> run_unprivileged(const std::function<std::string()>& f) {
  if (::geteuid() != 0) return f();
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return std::nullopt;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(42);
    std::string result;
    try {
      result = f();
    } catch (const std::exception& e) {
      result = std::string("exception: ") + e.what();
    }
    const char* p = result.data();
    std::size_t left = result.size();
    while (left > 0) {
      const ssize_t n = ::write(pipe_fds[1], p, left);
      if (n <= 0) _exit(1);
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  ::close(pipe_fds[1]);
  std::string result;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) result.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 42) return std::nullopt;
  return result;
}

// Gives a path to user 65534 when running as root, so that the unprivileged child owns it.
void give_to_nobody(const std::string& path) {
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0) << path;
  }
}

}  // namespace

TEST(StoreOpen, ReadOnlyDirectoryIsRefusedAndKeepsTheData) {
  TempDir dir;
  ::chmod(dir.path().c_str(), 0755);  // let the unprivileged child reach the directory below
  const std::string shelf = dir.file("shelf");
  ASSERT_EQ(::mkdir(shelf.c_str(), 0755), 0);
  const std::string path = shelf + "/arbitre.db";
  ds::GameId game = 0;
  {
    ds::Store store = ds::Store::open(path);
    game = game_with_events(store, 5);
  }
  give_to_nobody(shelf);
  give_to_nobody(path);
  const std::string before = bytes_of(path);
  ASSERT_EQ(::chmod(shelf.c_str(), 0555), 0);

  const auto attempt = [&](const std::string& file) {
    return run_unprivileged([&] {
      return error_of([&] {
        ds::Store store = ds::Store::open(file);
        store.append_event(game, EventKind::Undo, {});
      });
    });
  };
  const std::optional<std::string> new_file = attempt(shelf + "/new.db");
  const std::optional<std::string> old_file = attempt(path);
  ASSERT_EQ(::chmod(shelf.c_str(), 0755), 0);
  if (!new_file || !old_file) {
    GTEST_SKIP() << "running as root without the right to change user (setuid failed): chmod "
                    "cannot make a directory read-only for root, so this cannot be checked here";
  }
  EXPECT_THAT(*new_file, HasSubstr(shelf + "/new.db: cannot open the game store: the directory " +
                                   shelf + " is not writable"));
  EXPECT_FALSE(fs::exists(shelf + "/new.db"));
  EXPECT_THAT(*old_file, HasSubstr(path + ": cannot open the game store: the directory " + shelf +
                                   " is not writable"));
  EXPECT_EQ(bytes_of(path), before);
  ds::Store store = ds::Store::open(path);
  EXPECT_EQ(store.events(game).size(), 5u);
}

TEST(StoreOpen, ReadOnlyFileIsRefusedAndKeepsTheData) {
  TempDir dir;
  ::chmod(dir.path().c_str(), 0755);
  const std::string shelf = dir.file("shelf");
  ASSERT_EQ(::mkdir(shelf.c_str(), 0755), 0);
  const std::string path = shelf + "/arbitre.db";
  {
    ds::Store store = ds::Store::open(path);
    game_with_events(store, 5);
  }
  give_to_nobody(shelf);
  give_to_nobody(path);
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const std::string before = bytes_of(path);
  const std::optional<std::string> message =
      run_unprivileged([&] { return error_of([&] { ds::Store::open(path); }); });
  if (!message) GTEST_SKIP() << "running as root without the right to change user (setuid failed)";
  EXPECT_THAT(*message, HasSubstr(path + ": cannot open the game store: the file is not readable "
                                         "and writable"));
  EXPECT_EQ(bytes_of(path), before);
}

// --- Players and games

TEST(StorePlayers, NamesAreUniqueAndNotBlank) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const ds::PlayerId anna = store.create_player("Anna");
  EXPECT_EQ(store.find_or_create_player("Anna"), anna);
  const ds::PlayerId bruno = store.find_or_create_player("Bruno");
  EXPECT_NE(bruno, anna);
  EXPECT_THAT(error_of([&] { store.create_player("Anna"); }),
              HasSubstr("cannot add the player \"Anna\": a player of that name already exists"));
  EXPECT_THAT(error_of([&] { store.create_player("  "); }), HasSubstr("must not be blank"));
  EXPECT_EQ(store.players(), (std::vector<ds::Player>{{anna, "Anna"}, {bruno, "Bruno"}}));
  EXPECT_EQ(store.find_player("Bruno")->id, bruno);
  EXPECT_FALSE(store.find_player("Chloé"));
}

TEST(StoreGames, RoundTripOfAGameItsEventsAndItsResult) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const nlohmann::json options = {{"bag", {{"red", 12}}}, {"repeat_rule", "last-scored"}};
  const ds::GameId game = store.create_game(GameKind::Irma, options, {"Bruno", "Anna"});

  ds::Game running = store.game(game);
  EXPECT_EQ(running.id, game);
  EXPECT_EQ(running.kind, GameKind::Irma);
  EXPECT_EQ(running.status, GameStatus::Running);
  EXPECT_EQ(running.options, options);
  EXPECT_THAT(running.started_at,
              ::testing::MatchesRegex(
                  R"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z)"));
  EXPECT_FALSE(running.ended_at);
  ASSERT_EQ(running.seats.size(), 2u);
  EXPECT_EQ(running.seats[0].name, "Bruno");
  EXPECT_EQ(running.seats[1].name, "Anna");
  EXPECT_EQ(running.seats[1].seat, 1);
  EXPECT_FALSE(running.seats[0].score);

  const nlohmann::json move = {{"colour", "red"}, {"row", 0}, {"col", 0}};
  EXPECT_EQ(store.append_event(game, EventKind::Move, move), 1);
  EXPECT_EQ(store.append_event(game, EventKind::Refusal, {{"reason", "not-adjacent"}}), 2);
  EXPECT_EQ(store.append_event(game, EventKind::Correction, {{"of", 1}, {"colour", "white"}}), 3);
  const std::vector<ds::Event> events = store.events(game);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, EventKind::Move);
  EXPECT_EQ(events[0].payload, move);
  EXPECT_EQ(events[1].kind, EventKind::Refusal);
  EXPECT_EQ(events[2].payload["of"], 1);
  EXPECT_FALSE(events[2].created_at.empty());
  EXPECT_EQ(store.unfinished_games().size(), 1u);

  const nlohmann::json sheet = {{"markers", {4, 2}}, {"total", 6}};
  store.finish_game(game, {{"Anna", 6, sheet}, {"Bruno", 4, {{"total", 4}}}});
  const ds::Game finished = store.game(game);
  EXPECT_EQ(finished.status, GameStatus::Finished);
  ASSERT_TRUE(finished.ended_at);
  EXPECT_GE(*finished.ended_at, finished.started_at);
  EXPECT_EQ(finished.seats[1].score, 6);
  EXPECT_EQ(finished.seats[1].sheet, sheet);
  EXPECT_EQ(finished.seats[0].score, 4);
  EXPECT_EQ(finished.event_count, 3);
  EXPECT_TRUE(store.unfinished_games().empty());

  const ds::GameId second = store.create_game(GameKind::Yams, nlohmann::json::object(), {"Anna"});
  const std::vector<ds::Game> games = store.list_games();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].id, second);  // newest first
  EXPECT_EQ(games[1].seats[1].score, 6);
  EXPECT_EQ(store.unfinished_games().front().id, second);
  EXPECT_THAT(error_of([&] { store.game(999); }), HasSubstr("there is no game 999"));
}

TEST(StoreGames, BadGamesAreRefused) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  EXPECT_THAT(error_of([&] { store.create_game(GameKind::Yams, {}, {}); }),
              HasSubstr("cannot start a game of yams: a game needs at least one player"));
  EXPECT_THAT(error_of([&] {
                store.create_game(GameKind::Yams, {}, {"Anna", "Anna"});
              }),
              HasSubstr("named twice"));
  EXPECT_THAT(error_of([&] {
                store.create_game(GameKind::Yams, {{"x", "\xff"}}, {"Anna"});
              }),
              HasSubstr("the options cannot be written as JSON"));
  EXPECT_TRUE(store.list_games().empty());
}

TEST(StoreGames, FinishingNeedsEveryPlayersResultAndHappensOnce) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const ds::GameId game = game_with_events(store, 2);
  EXPECT_THAT(error_of([&] {
                store.finish_game(game, {{"Anna", 10, {}}});
              }),
              HasSubstr("cannot finish game 1: no result for \"Bruno\""));
  EXPECT_THAT(error_of([&] {
                store.finish_game(game, {{"Anna", 1, {}}, {"Chloé", 2, {}}});
              }),
              HasSubstr("\"Chloé\" does not play in this game"));
  // Nothing of the refused attempts was kept.
  EXPECT_EQ(store.game(game).status, GameStatus::Running);
  EXPECT_FALSE(store.game(game).seats[0].score);

  store.finish_game(game, {{"Anna", 10, {}}, {"Bruno", 12, {}}});
  EXPECT_THAT(error_of([&] {
                store.finish_game(game, {{"Anna", 1, {}}, {"Bruno", 2, {}}});
              }),
              HasSubstr("the game is already finished"));
  EXPECT_THAT(error_of([&] { store.abandon_game(game); }), HasSubstr("already finished"));
  EXPECT_THAT(error_of([&] { store.append_event(game, EventKind::Roll, dice(3)); }),
              HasSubstr("cannot record a roll in game 1: the game is over"));
  EXPECT_EQ(store.game(game).seats[1].score, 12);
}

// --- The event log

TEST(StoreEvents, SeqCountsFromOneInEveryGameAndKeepsTheOrder) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const ds::GameId a = store.create_game(GameKind::Yams, {}, {"Anna"});
  const ds::GameId b = store.create_game(GameKind::Irma, {}, {"Bruno"});
  for (int i = 1; i <= 30; ++i) {
    EXPECT_EQ(
        store.append_event(i % 3 == 0 ? b : a, i % 2 ? EventKind::Roll : EventKind::Box, dice(i)),
        i % 3 == 0 ? i / 3 : i - i / 3);
  }
  const std::vector<ds::Event> events = store.events(a);
  ASSERT_EQ(events.size(), 20u);
  int previous = 0;
  for (std::size_t k = 0; k < events.size(); ++k) {
    EXPECT_EQ(events[k].seq, static_cast<std::int64_t>(k) + 1);
    const int n = events[k].payload["n"];
    EXPECT_GT(n, previous);
    EXPECT_EQ(events[k].kind, n % 2 ? EventKind::Roll : EventKind::Box);
    previous = n;
  }
  EXPECT_EQ(store.events(b).size(), 10u);
  EXPECT_EQ(store.game(b).event_count, 10);
}

TEST(StoreEvents, ForeignKeyRefusesAnEventForAnUnknownGame) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  game_with_events(store, 1);
  const std::string message = error_of([&] { store.append_event(42, EventKind::Move, {}); });
  EXPECT_THAT(message, HasSubstr(dir.file("a.db") +
                                 ": cannot record a move in game 42: there is no game 42"));
  EXPECT_THAT(error_of([&] { store.events(42); }), HasSubstr("there is no game 42"));
}

TEST(StoreEvents, TheSchemaKeepsTheLogAppendOnly) {
  TempDir dir;
  const std::string path = dir.file("a.db");
  {
    ds::Store store = ds::Store::open(path);
    game_with_events(store, 3);
  }
  // Even a program writing SQL straight into the file cannot edit, delete or skip events.
  ds::sqlite::Connection raw(path, /*create=*/false);
  EXPECT_THAT(error_of([&] { raw.exec("UPDATE events SET payload = '{}' WHERE seq = 2"); }),
              HasSubstr("events are never changed"));
  EXPECT_THAT(error_of([&] { raw.exec("DELETE FROM events"); }),
              HasSubstr("events are never deleted"));
  EXPECT_THAT(error_of([&] { raw.exec("INSERT INTO events VALUES (1, 7, 'move', '{}', 'now')"); }),
              HasSubstr("without gaps"));
  EXPECT_EQ(raw.query_int("SELECT count(*) FROM events"), 3);
}

TEST(StoreEvents, PayloadThatIsNotJsonTextIsRefused) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const ds::GameId game = game_with_events(store, 1);
  EXPECT_THAT(error_of([&] {
                store.append_event(game, EventKind::Move, {{"colour", "\xc3"}});
              }),
              HasSubstr("the event cannot be written as JSON"));
  EXPECT_EQ(store.events(game).size(), 1u);
}

// --- Records and calibrations

TEST(StoreRecords, BestAverageAndCompletionPerPlayerAndKind) {
  TempDir dir;
  ds::Store store = ds::Store::open(dir.file("a.db"));
  const auto yams = [&] { return store.create_game(GameKind::Yams, {}, {"Anna", "Bruno"}); };
  const ds::GameId g1 = yams(), g2 = yams(), g3 = yams();
  store.finish_game(g1, {{"Anna", 300, {}}, {"Bruno", 250, {}}});
  store.finish_game(g2, {{"Anna", 200, {}}, {"Bruno", 280, {}}});
  store.abandon_game(g3);
  store.create_game(GameKind::Irma, {}, {"Anna"});  // still running

  const std::vector<ds::PlayerRecord> records = store.records();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].player, "Anna");
  EXPECT_EQ(records[0].kind, GameKind::Irma);
  EXPECT_EQ(records[0].games, 1);
  EXPECT_EQ(records[0].finished, 0);
  EXPECT_FALSE(records[0].best);
  EXPECT_FALSE(records[0].average);
  EXPECT_EQ(records[0].completion_rate, 0.0);
  EXPECT_EQ(records[1].kind, GameKind::Yams);
  EXPECT_EQ(records[1].games, 3);
  EXPECT_EQ(records[1].finished, 2);
  EXPECT_EQ(records[1].best, 300);
  EXPECT_DOUBLE_EQ(*records[1].average, 250.0);
  EXPECT_DOUBLE_EQ(records[1].completion_rate, 2.0 / 3.0);
  EXPECT_EQ(records[2].player, "Bruno");
  EXPECT_EQ(records[2].best, 280);
  EXPECT_DOUBLE_EQ(*records[2].average, 265.0);
  EXPECT_EQ(store.game(g3).status, GameStatus::Abandoned);
}

TEST(StoreCalibrations, TheLatestOfEachCameraAndKindIsInUse) {
  TempDir dir;
  const std::string path = dir.file("a.db");
  {
    ds::Store store = ds::Store::open(path);
    const nlohmann::json h1 = {{"h", {1, 0, 0, 0, 1, 0, 0, 0, 1}}};
    const nlohmann::json h2 = {{"h", {1.5, 0, 3, 0, 1.5, 4, 0, 0, 1}}};
    const auto first = store.save_calibration("/dev/video0", "homography", h1);
    const auto second = store.save_calibration("/dev/video0", "homography", h2);
    EXPECT_GT(second, first);
    store.save_calibration("/dev/video0", "colours", {{"red", {52.0, 61.5, 40.25}}});
    store.save_calibration("http://phone:8080/video", "homography", h1);
    EXPECT_THAT(error_of([&] { store.save_calibration("", "zones", {}); }),
                HasSubstr("the camera has no id"));
  }
  // The next session starts calibrated.
  ds::Store store = ds::Store::open(path);
  const auto homography = store.latest_calibration("/dev/video0", "homography");
  ASSERT_TRUE(homography);
  EXPECT_EQ(homography->payload["h"][2], 3);
  EXPECT_FALSE(homography->saved_at.empty());
  EXPECT_EQ(store.latest_calibration("/dev/video0", "colours")->payload["red"][2], 40.25);
  EXPECT_EQ(store.latest_calibration("http://phone:8080/video", "homography")->payload["h"][0], 1);
  EXPECT_FALSE(store.latest_calibration("/dev/video1", "homography"));
  EXPECT_FALSE(store.latest_calibration("/dev/video0", "zones"));
}

// --- Migrations

TEST(StoreMigrations, EveryEarlierVersionIsUpgradedWithItsData) {
  for (int from = 0; from < ds::kSchemaVersion; ++from) {
    SCOPED_TRACE("from schema version " + std::to_string(from));
    TempDir dir;
    const std::string path = dir.file("old.db");
    ds::GameId finished = 0, running = 0;
    {
      ds::Store old = ds::Store::open(path, up_to(from));
      ASSERT_EQ(old.schema_version(), from);
      if (from >= 1) {
        finished = game_with_events(old, 4);
        old.finish_game(finished, {{"Anna", 40, {{"total", 40}}}, {"Bruno", 30, {}}});
        running = game_with_events(old, 7);
      }
      if (from >= 2) old.save_calibration("cam", "zones", {{"zones", 3}});
    }
    ds::Store store = ds::Store::open(path);
    EXPECT_EQ(store.schema_version(), ds::kSchemaVersion);
    EXPECT_EQ(store.pragma("application_id"), std::to_string(ds::kApplicationId));
    EXPECT_EQ(store.pragma("journal_mode"), "wal");
    if (from >= 1) {
      EXPECT_EQ(store.game(finished).seats[0].sheet["total"], 40);
      const std::vector<ds::Event> events = store.events(running);
      ASSERT_EQ(events.size(), 7u);
      EXPECT_EQ(events[6].payload, dice(7));
      EXPECT_EQ(store.append_event(running, EventKind::Box, {{"box", "chance"}}), 8);
      EXPECT_EQ(store.records().front().best, 40);
      EXPECT_EQ(store.unfinished_games().front().id, running);
    }
    if (from >= 2) {
      EXPECT_EQ(store.latest_calibration("cam", "zones")->payload["zones"], 3);
    }
    // Every table of the current schema is there.
    EXPECT_GT(store.save_calibration("cam", "homography", {{"h", 1}}), 0);
    EXPECT_EQ(store.integrity_check(), "ok");
  }
}

TEST(StoreMigrations, AFailedMigrationLeavesTheEarlierVersionWhole) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  ds::GameId game = 0;
  {
    ds::Store old = ds::Store::open(path, up_to(1));
    game = game_with_events(old, 5);
  }
  ds::testing::set_free_space(0);
  const std::string message = error_of([&] { ds::Store::open(path, on_a_small_disk()); });
  ds::testing::set_free_space(std::nullopt);
  EXPECT_THAT(message, HasSubstr(path + ": cannot upgrade it to schema version 2 (camera "
                                        "calibrations): the disk is full"));
  ds::Store back = ds::Store::open(path, up_to(1));
  EXPECT_EQ(back.schema_version(), 1);
  EXPECT_EQ(back.events(game).size(), 5u);
  EXPECT_EQ(back.integrity_check(), "ok");
}

// --- A full disk

TEST(StoreDiskFull, SizeLimitRollsBackTheEventAndKeepsEveryEarlierOne) {
  TempDir dir;
  const std::string path = dir.file("a.db");
  ds::GameId game = 0;
  std::vector<nlohmann::json> stored;
  {
    ds::Store store = ds::Store::open(path);
    game = game_with_events(store, 20);
    for (int i = 1; i <= 20; ++i) stored.push_back(dice(i));
    const std::int64_t pages = std::stoll(store.pragma("page_count"));
    store.limit_pages_for_testing(pages + 3);
    std::string message;
    for (int i = 21; i < 200 && message.empty(); ++i) {
      const nlohmann::json big = {{"n", i}, {"frame", std::string(1500, 'a' + i % 26)}};
      message = error_of([&] { store.append_event(game, EventKind::Correction, big); });
      if (message.empty()) stored.push_back(big);
    }
    EXPECT_THAT(message,
                HasSubstr(path + ": cannot record a correction in game 1: the disk is full"));
    EXPECT_THAT(message,
                HasSubstr("nothing of it was written, and the data stored before is intact"));
    EXPECT_GT(stored.size(), 20u);
    // Still full: a refused write again, and the game cannot be finished either.
    EXPECT_THAT(error_of([&] {
                  store.append_event(game, EventKind::Undo, {{"pad", std::string(9000, 'x')}});
                }),
                HasSubstr("the disk is full"));
  }
  ds::Store store = ds::Store::open(path);
  EXPECT_EQ(store.integrity_check(), "ok");
  const std::vector<ds::Event> events = store.events(game);
  ASSERT_EQ(events.size(), stored.size());
  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].payload, stored[i]) << i;
  EXPECT_EQ(store.append_event(game, EventKind::Undo, {}),
            static_cast<std::int64_t>(stored.size()) + 1);
}

TEST(StoreDiskFull, NoSpaceLeftOnTheDeviceRollsBackAndTheStoreRecovers) {
  TempDir dir;
  const std::string path = dir.file("a.db");
  ds::GameId game = 0;
  std::size_t kept = 0;
  {
    ds::Store store = ds::Store::open(path, on_a_small_disk());
    game = game_with_events(store, 10);
    ds::testing::set_free_space(40 * 1024);
    std::string message;
    int n = 11;
    for (; n < 500 && message.empty(); ++n) {
      message = error_of([&] {
        store.append_event(game, EventKind::Move, {{"n", n}, {"pad", std::string(1000, 'p')}});
      });
    }
    kept = static_cast<std::size_t>(n - 2);     // the last attempt failed
    ds::testing::set_free_space(std::nullopt);  // space freed
    EXPECT_THAT(message, HasSubstr(path + ": cannot record a move in game 1: the disk is full"));
    EXPECT_THAT(message, HasSubstr("nothing of it was written"));
    EXPECT_GT(kept, 10u);
    EXPECT_LT(kept, 60u);
    // The same connection goes on once there is space again, without a gap in the numbering.
    EXPECT_EQ(store.append_event(game, EventKind::Undo, {}), static_cast<std::int64_t>(kept) + 1);
  }
  ds::Store store = ds::Store::open(path);
  EXPECT_EQ(store.integrity_check(), "ok");
  const std::vector<ds::Event> events = store.events(game);
  ASSERT_EQ(events.size(), kept + 1);
  for (std::size_t i = 10; i < kept; ++i) EXPECT_EQ(events[i].payload["n"], i + 1);
  EXPECT_EQ(events.back().kind, EventKind::Undo);
}

// --- SIGKILL at random moments

namespace {

// The crash child, started with its stdout on a pipe.
class Child {
 public:
  Child(const std::string& db, int total) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    const std::string count = std::to_string(total);
    const char* argv[] = {ARBITRE_STORE_CRASH_CHILD, db.c_str(), count.c_str(), nullptr};
    const int error = posix_spawn(&pid_, ARBITRE_STORE_CRASH_CHILD, &actions, nullptr,
                                  const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    out_ = fds[0];
    if (error != 0) throw std::runtime_error("cannot start " ARBITRE_STORE_CRASH_CHILD);
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }

  // The next line of output, or nullopt at the end.
  std::optional<std::string> line() {
    while (true) {
      if (const auto end = buffer_.find('\n'); end != std::string::npos) {
        std::string text = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return text;
      }
      char chunk[4096];
      const ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  void kill() { ::kill(pid_, SIGKILL); }

  // Waits for the end; the raw waitpid status.
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    return status;
  }

 private:
  pid_t pid_ = 0;
  int out_ = -1;
  std::string buffer_;
};

}  // namespace

TEST(StoreCrash, FiftySigkillsLoseNoAcknowledgedEventAndTheGameResumesExactly) {
  constexpr int kTotal = 1000;
  constexpr int kKills = 50;
  TempDir dir;
  const std::string path = dir.file("crash.db");
  std::mt19937 rng(20240611);
  std::vector<nlohmann::json> seen;  // the log as the last check read it: it may only grow
  std::int64_t next_ack = 1;         // the ack the running child must print next
  int acks = 0;                      // all runs together
  int cut_off = 0;                   // events committed whose ack the kill prevented
  int killed = 0;

  // Reads the child's acks until `until(acks read in this run)` or the end of its output.
  // A run must continue the log exactly where it ends: its first ack is the log's size + 1.
  const auto read_acks = [&](Child& child, const std::function<bool(int)>& until, int& read) {
    while (!until(read)) {
      const auto text = child.line();
      if (!text) return;
      if (*text == "done") continue;
      ASSERT_EQ(text->rfind("ack ", 0), 0u) << *text;
      ASSERT_EQ(std::stoll(text->substr(4)), next_ack) << "not the next event of the log";
      ++next_ack;
      ++read;
      ++acks;
    }
  };

  // After a run: the file opens, is whole, holds every acknowledged event in order, unchanged,
  // and at most one more (committed, then killed before its ack).
  const auto check_log = [&]() {
    if (!fs::exists(path)) {
      ASSERT_EQ(next_ack, 1);
      return;
    }
    // Open without migrating, to see exactly what the child left behind.
    ds::Store store = ds::Store::open(path, up_to(0));
    ASSERT_EQ(store.integrity_check(), "ok");
    std::vector<ds::Event> events;
    if (store.schema_version() >= 1) {
      const std::vector<ds::Game> games = store.list_games();
      ASSERT_LE(games.size(), 1u);
      if (!games.empty()) events = store.events(games.front().id);
    }
    const auto acknowledged = static_cast<std::size_t>(next_ack - 1);
    ASSERT_GE(events.size(), acknowledged) << "an acknowledged event is lost";
    ASSERT_GE(events.size(), seen.size()) << "an event is lost";
    const std::size_t bound = std::max(acknowledged, seen.size()) + 1;
    ASSERT_LE(events.size(), bound) << "events stored that no run was appending";
    for (std::size_t i = 0; i < events.size(); ++i) {
      ASSERT_EQ(events[i].seq, static_cast<std::int64_t>(i) + 1);
      ASSERT_EQ(events[i].payload["n"], i + 1);
      if (i < seen.size()) {
        ASSERT_EQ(events[i].payload, seen[i]) << "event " << i + 1 << " changed";
      }
    }
    cut_off += static_cast<int>(events.size() - std::max(acknowledged, seen.size()));
    seen.clear();
    for (const ds::Event& event : events) seen.push_back(event.payload);
    next_ack = static_cast<std::int64_t>(seen.size()) + 1;
  };

  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < kKills; ++round) {
    SCOPED_TRACE("kill " + std::to_string(round + 1) + " with " + std::to_string(seen.size()) +
                 " events stored");
    Child child(path, kTotal);
    int read = 0;
    // About 12 events per run on average, so that all the kills fall within the session.
    if (rng() % 4 == 0) {
      // Early: while the child starts, opens, migrates, checks and replays the log.
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 6000));
    } else {
      // Within the stream of appends: after some acks, plus a moment into the next commit.
      const int wanted = static_cast<int>(rng() % 25);
      read_acks(
          child, [&](int n) { return n >= wanted; }, read);
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 1500));
    }
    child.kill();
    read_acks(
        child, [](int) { return false; }, read);  // acks written before the kill count too
    const int status = child.wait();
    ASSERT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
                (WIFEXITED(status) && WEXITSTATUS(status) == 0))
        << "the child failed (exit " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << ")";
    killed += WIFSIGNALED(status) ? 1 : 0;
    check_log();
    if (HasFatalFailure()) return;
  }

  // The last run is left to finish the game.
  const std::size_t before_last_run = seen.size();
  Child child(path, kTotal);
  int read = 0;
  read_acks(
      child, [](int) { return false; }, read);
  const int status = child.wait();
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  check_log();
  ds::Store store = ds::Store::open(path);
  const ds::Game game = store.list_games().front();
  EXPECT_EQ(game.status, GameStatus::Finished);
  EXPECT_EQ(game.event_count, kTotal);
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kTotal));
  EXPECT_EQ(acks + cut_off, kTotal) << "every event acknowledged once, or cut off once";
  EXPECT_EQ(killed, kKills) << "every kill should hit a running child (" << before_last_run
                            << " events stored before the last run)";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[ store    ] %d kills, %d acks, %d events committed but not acknowledged, %zu events "
      "before the last run, %.1f s\n",
      killed, acks, cut_off, before_last_run, seconds);
}
