#include "app/cli/watch_commands.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <optional>
#include <ostream>

#include "app/cli/dice_commands.h"
#include "app/session/calibration.h"
#include "app/session/camera_source.h"
#include "app/session/demo.h"
#include "app/session/game_log.h"
#include "app/session/loop.h"
#include "app/session/script.h"
#include "app/session/session.h"
#include "data/input_error.h"
#include "data/irma/record_json.h"

namespace arbitre::app::watch {
namespace {

namespace fs = std::filesystem;
namespace s = session;
namespace ri = referee::irma;
namespace ry = referee::yams;
using json = nlohmann::ordered_json;

template <typename... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <typename... F>
Overloaded(F...) -> Overloaded<F...>;

json cell_json(ri::Cell cell) { return json::array({cell.row, cell.col}); }

json cells_json(const std::vector<ri::Cell>& cells) {
  json out = json::array();
  for (const ri::Cell cell : cells) out.push_back(cell_json(cell));
  return out;
}

json irma_move(json out, const ri::Move& move) {
  out.update(data::irma::move_to_json(move));
  return out;
}

json scores_json(const std::vector<s::FinalScore>& scores) {
  json out = json::array();
  for (const s::FinalScore& score : scores) {
    json entry = {{"player", score.player}, {"score", score.score}};
    if (score.plus) entry["plus"] = *score.plus;
    out.push_back(entry);
  }
  return out;
}

json seq_player(const char* event, std::int64_t seq, const std::string& player) {
  return {{"event", event}, {"seq", seq}, {"player", player}};
}

// --- Ctrl-C: a flag the loop looks at; blocking waits return on it (no SA_RESTART).
volatile sig_atomic_t interrupted = 0;
void on_sigint(int) { interrupted = 1; }

class SigintGuard {
 public:
  SigintGuard() {
    interrupted = 0;
    struct sigaction action {};
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_);
  }
  ~SigintGuard() { sigaction(SIGINT, &previous_, nullptr); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

// Lines from stdin without blocking the capture loop.
class StdinLines {
 public:
  // A complete line typed so far, waiting at most `timeout_ms` for one.
  std::optional<std::string> next(int timeout_ms) {
    while (true) {
      if (auto line = take()) return line;
      if (eof_) {
        if (buffer_.empty()) return std::nullopt;
        std::string rest;
        rest.swap(buffer_);
        return rest;
      }
      pollfd fd{STDIN_FILENO, POLLIN, 0};
      const int ready = ::poll(&fd, 1, timeout_ms);
      if (ready <= 0) return std::nullopt;  // timeout, or a signal
      char chunk[4096];
      const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) return std::nullopt;
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  bool eof() const { return eof_ && buffer_.empty(); }

 private:
  std::optional<std::string> take() {
    const auto end = buffer_.find('\n');
    if (end == std::string::npos) return std::nullopt;
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
  std::string buffer_;
  bool eof_ = false;
};

// A temporary store for the demo, removed at the end.
class TemporaryStore {
 public:
  TemporaryStore() {
    std::string pattern = (fs::temp_directory_path() / "arbitre-demo-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw data::InputError("cannot create a temporary directory for the demo's game store");
    }
    dir_ = pattern;
  }
  ~TemporaryStore() {
    std::error_code error;
    fs::remove_all(dir_, error);
  }
  TemporaryStore(const TemporaryStore&) = delete;
  TemporaryStore& operator=(const TemporaryStore&) = delete;
  std::string path() const { return (dir_ / "demo.db").string(); }

 private:
  fs::path dir_;
};

data::store::GameKind kind_of(const std::string& game) {
  const auto kind = data::store::game_kind_from_text(game);
  if (!kind) throw data::InputError("--game: expected irma or yams, not \"" + game + "\"");
  return *kind;
}

void print(std::ostream& out, const json& line) {
  out << line.dump() << "\n";
  out.flush();
}

int play_demo(const WatchOptions& options, std::ostream& out) {
  std::optional<TemporaryStore> temporary;
  if (options.db.empty()) temporary.emplace();
  data::store::Store store = data::store::Store::open(options.db.empty() ? temporary->path() : options.db);
  std::vector<data::store::GameKind> kinds = {data::store::GameKind::Irma, data::store::GameKind::Yams};
  if (!options.game.empty()) kinds = {kind_of(options.game)};
  int code = 0;
  SigintGuard guard;
  for (const data::store::GameKind kind : kinds) {
    s::Demo demo = s::make_demo(kind);
    print(out, {{"event", "demo"},
                {"kind", std::string(data::store::to_text(kind))},
                {"from", demo.from},
                {"expected", scores_json(demo.expected)}});
    s::SessionOptions session_options;
    session_options.kind = kind;
    session_options.players = demo.players;
    session_options.irma = demo.irma;
    session_options.yams = demo.yams;
    session_options.automatic = options.automatic;
    std::vector<s::FinalScore> got;
    auto session = s::Session::start(&store, session_options, [&](const s::Event& event) {
      if (const auto* over = std::get_if<s::GameOver>(&event)) got = over->scores;
      print(out, event_json(event));
      if (demo.table) demo.table->hear(event);
    });
    const s::LoopEnd end = s::run_loop(*session, *demo.source, {nullptr, [] { return interrupted != 0; }});
    print(out, event_json(s::Stopped{s::end_reason(end, *session), !session->over(), session->game()}));
    if (end == s::LoopEnd::Interrupted) return 0;
    bool ok = got.size() == demo.expected.size() || demo.expected.empty();
    for (std::size_t i = 0; ok && i < demo.expected.size(); ++i) {
      ok = got[i].player == demo.expected[i].player && got[i].score == demo.expected[i].score;
    }
    if (!session->over()) ok = false;
    json verdict = {{"event", "demo-verdict"},
                    {"kind", std::string(data::store::to_text(kind))},
                    {"ok", ok},
                    {"expected", scores_json(demo.expected)},
                    {"got", scores_json(got)}};
    if (demo.table) {  // what the players typed besides the camera
      const s::PlayersTally& t = demo.table->tally();
      verdict["players_typed"] = {{"rolls", t.rolls},         {"rolls_corrected", t.rolls_fixed},
                                  {"dice_corrected", t.fixed}, {"scenes_typed", t.scenes_typed},
                                  {"dice_typed", t.typed},     {"dice_added", t.added},
                                  {"dice_removed", t.removed}, {"rolls_undone", t.undone}};
    }
    print(out, verdict);
    if (!ok) code = 1;
  }
  return code;
}

}  // namespace

json event_json(const s::Event& event) {
  return std::visit(
      Overloaded{
          [](const s::Started& e) {
            json out = {{"event", "started"},
                        {"game", e.game},
                        {"kind", std::string(data::store::to_text(e.kind))},
                        {"players", e.players},
                        {"to_move", e.to_move},
                        {"score", e.score}};
            if (e.resumed) {
              out["resumed"] = true;
              out["replayed"] = e.replayed;
              out["replay_ms"] = std::round(e.replay_ms * 1000) / 1000;
            }
            return out;
          },
          [](const s::Unstable&) {
            return json{{"event", "unstable"}};
          },
          [](const s::Stable&) {
            return json{{"event", "stable"}};
          },
          [](const s::BoardChanged& e) {
            return json{{"event", "board-changed"},
                        {"detail", e.detail},
                        {"added", cells_json(e.added)},
                        {"removed", cells_json(e.removed)},
                        {"recoloured", cells_json(e.recoloured)}};
          },
          [](const s::DiceUnreadable& e) {
            json scene = json::array();
            for (const vision::DieSighting& d : e.scene) scene.push_back(detect::die_json(d));
            return json{{"event", "dice-unreadable"},
                        {"reason", e.reason},
                        {"seen", e.seen},
                        {"dice", e.dice},
                        {"scene", scene}};
          },
          [](const s::CameraAdvice& e) {
            return json{{"event", "camera-advice"},
                        {"degrees", e.degrees},
                        {"surest_within", e.surest_within},
                        {"past", e.past}};
          },
          [](const s::CameraLost& e) {
            return json{{"event", "camera-lost"}, {"error", e.error}};
          },
          [](const s::CameraReconnected&) {
            return json{{"event", "camera-reconnected"}};
          },
          [](const s::Accepted& e) {
            json out = irma_move(seq_player("accepted", e.seq, e.player), e.move);
            out["move"] = e.number;
            json series = json::array();
            for (const ri::Series& s : e.series) {
              series.push_back({{"kind", std::string(ri::to_string(s.kind))}, {"cells", cells_json(s.cells)}});
            }
            out["series"] = series;
            out["marker"] = e.marker ? json(ri::marker_value(*e.marker)) : json(nullptr);
            out["score"] = e.score;
            out["pions"] = e.pions;
            if (e.warning) out["warning"] = *e.warning;
            return out;
          },
          [](const s::Refused& e) {
            json out = seq_player("refused", e.seq, e.player);
            if (e.irma) {
              out = irma_move(out, *e.irma);
              out["reason"] = e.reason;
              out["cells"] = cells_json(e.cells);
            } else if (e.yams) {
              switch (e.yams->kind) {
                case ry::MoveKind::Roll:
                  out["move"] = "roll";
                  out["dice"] = ry::to_text(e.yams->dice);
                  out["keep"] = json::parse(s::dice_indices(e.yams->keep).dump());
                  break;
                case ry::MoveKind::Declare:
                  out["move"] = "declare";
                  out["box"] = std::string(ry::id(e.yams->box));
                  break;
                case ry::MoveKind::Fill:
                  out["move"] = "box";
                  out["box"] = std::string(ry::id(e.yams->box));
                  break;
              }
              out["reason"] = e.reason;
              out["dice_involved"] = e.dice;
            }
            out["message"] = e.message;
            out["score"] = e.score;
            return out;
          },
          [](const s::Corrected& e) {
            json out = seq_player("corrected", e.seq, e.player);
            out["fix"] = e.fix;
            out["effect"] = e.effect;
            out["legal"] = e.legal;
            if (!e.legal) out["reason"] = e.reason;
            if (e.effect != "die") out["cells"] = cells_json(e.cells);
            out["score"] = e.score;
            return out;
          },
          [](const s::Undone& e) {
            json out = seq_player("undone", e.seq, e.player);
            out["undid"] = e.undid;
            out["score"] = e.score;
            return out;
          },
          [](const s::Redone& e) {
            json out = seq_player("redone", e.seq, e.player);
            out["redid"] = e.redid;
            out["score"] = e.score;
            return out;
          },
          [](const s::Rolled& e) {
            json out = seq_player("rolled", e.seq, e.player);
            out["roll"] = e.roll;
            out["dice"] = ry::to_text(e.dice);
            out["keep"] = json::parse(s::dice_indices(e.keep).dump());
            if (e.manual) out["manual"] = true;
            if (e.best)
              out["best"] = {{"box", std::string(ry::id(*e.best))}, {"points", e.best_points}};
            return out;
          },
          [](const s::Declared& e) {
            json out = seq_player("declared", e.seq, e.player);
            out["box"] = std::string(ry::id(e.box));
            return out;
          },
          [](const s::Filled& e) {
            json out = seq_player("filled", e.seq, e.player);
            out["box"] = std::string(ry::id(e.box));
            out["points"] = e.points;
            out["first_roll"] = e.first_roll;
            if (e.sixth_success) out["sixth_success"] = *e.sixth_success;
            out["auto"] = e.automatic;
            return out;
          },
          [](const s::SheetUpdate& e) {
            json out = {{"event", "sheet"}, {"player", e.player}};
            const nlohmann::json sheet = s::yams_sheet_json(e.sheet);
            json boxes = json::object();
            for (int b = 0; b < ry::kBoxCount; ++b) {  // in sheet order
              const std::string id(ry::id(ry::box_at(b)));
              boxes[id] = sheet["boxes"][id];
            }
            out["boxes"] = boxes;
            out["totals"] = {{"chiffres", e.totals.chiffres}, {"bonus", e.totals.bonus},
                             {"total1", e.totals.total1},     {"total2", e.totals.total2},
                             {"total3", e.totals.total3},     {"total4", e.totals.total4},
                             {"total5", e.totals.total5},     {"grand", e.totals.grand}};
            out["filled"] = e.sheet.filled_count();
            out["next"] = e.next.empty() ? json(nullptr) : json(e.next);
            return out;
          },
          [](const s::PlayerOver& e) {
            json out = {{"event", "player-over"}, {"player", e.player}, {"score", e.score},
                        {"markers", e.markers},   {"bonus", e.bonus},   {"plus", e.plus},
                        {"completed", e.completed}, {"blocked", e.blocked}};
            if (!e.next.empty()) {
              out["next"] = e.next;
              out["draws"] = e.draws;
            }
            return out;
          },
          [](const s::GameOver& e) {
            json out = {{"event", "game-over"}, {"game", e.game}, {"scores", scores_json(e.scores)}};
            out["winner"] = e.winner ? json(*e.winner) : json(nullptr);
            return out;
          },
          [](const s::CommandRefused& e) {
            return json{{"event", "command-refused"}, {"command", e.command}, {"message", e.message}};
          },
          [](const s::Stopped& e) {
            return json{{"event", "stopped"}, {"game", e.game}, {"reason", e.reason}, {"resumable", e.resumable}};
          },
      },
      event);
}

int run(const WatchOptions& options, std::ostream& out) {
  if (options.demo) {
    if (options.resume || !options.script.empty() || !options.calibration.empty()) {
      throw data::InputError(
          "--demo: plays the bundled games; it takes no --resume, --script or --calibration");
    }
    return play_demo(options, out);
  }
  std::optional<data::store::GameKind> kind;
  if (!options.game.empty()) kind = kind_of(options.game);
  if (!kind && !options.resume) throw data::InputError("--game: which game, irma or yams?");

  if (!options.script.empty() && !options.calibration.empty()) {
    throw data::InputError("--calibration: a script has no camera to calibrate");
  }
  std::optional<s::Script> script;
  if (!options.script.empty()) {
    script = s::load_script(options.script);
    if (script->game && kind && *script->game != *kind) {
      throw data::InputError(options.script + ": game: the script is for " +
                             std::string(data::store::to_text(*script->game)) + ", not " +
                             options.game);
    }
  }

  data::store::Store store =
      data::store::Store::open(options.db.empty() ? data::store::default_store_path() : options.db);
  s::SessionOptions session_options;
  session_options.automatic = options.automatic;
  if (!options.players.empty()) session_options.players = options.players;
  const s::Listener listener = [&](const s::Event& event) { print(out, event_json(event)); };

  // Everything that can be refused is checked before a game is created or resumed: the game to
  // resume, the script's game, the calibration and the source.
  std::optional<data::store::GameId> resume_id;
  if (options.resume) {
    for (const data::store::Game& game : store.unfinished_games()) {  // newest first
      if (!kind || game.kind == *kind) {
        resume_id = game.id;
        kind = game.kind;
        break;
      }
    }
    if (!resume_id) {
      throw data::InputError(store.path() + ": no unfinished game" +
                             (kind ? " of " + options.game : std::string()) + " to resume");
    }
  }
  if (script && script->game && *script->game != *kind) {
    throw data::InputError(options.script + ": game: the script is for " +
                           std::string(data::store::to_text(*script->game)) + ", the game is " +
                           std::string(data::store::to_text(*kind)));
  }
  std::unique_ptr<s::ObservationSource> source;
  if (script) {
    source = std::make_unique<s::ScriptedSource>(std::move(script->steps));
  } else {
    const s::CameraCalibration calibration =
        s::calibration_for(store, options.source, *kind, options.calibration);
    s::CameraOptions camera;
    camera.fps = options.fps;
    camera.calibration = calibration.colours;
    if (calibration.zones) camera.zones = *calibration.zones;
    camera.textures = options.textures;
    if (!calibration.from.empty()) {
      json line = {{"event", "calibration"},
                   {"camera", options.source},
                   {"kind", calibration.colours ? s::kColoursCalibration : s::kZonesCalibration},
                   {"from", calibration.from}};
      if (!calibration.saved_at.empty()) line["saved_at"] = calibration.saved_at;
      print(out, line);
    }
    source = s::open_camera(options.source, *kind, camera);
  }

  std::unique_ptr<s::Session> session;
  if (resume_id) {
    session = s::Session::resume(store, *resume_id, session_options, listener);
  } else {
    session_options.kind = *kind;
    session = s::Session::start(&store, session_options, listener);
  }

  SigintGuard guard;
  StdinLines stdin_lines;
  // A camera runs while commands are typed; a script runs first, its commands in it.
  const bool scripted = static_cast<bool>(script);
  s::LoopHooks hooks;
  hooks.stop_requested = [] { return interrupted != 0; };
  if (!scripted) {
    hooks.poll_command = [&]() -> std::optional<std::string> {
      if (stdin_lines.eof()) return std::nullopt;
      return stdin_lines.next(0);
    };
  }
  s::LoopEnd end = s::run_loop(*session, *source, hooks);
  // After a script, the game goes on with commands typed on stdin, until its end.
  while (scripted && end == s::LoopEnd::SourceEnded && !stdin_lines.eof() && !session->over()) {
    if (interrupted) {
      end = s::LoopEnd::Interrupted;
      break;
    }
    const auto line = stdin_lines.next(100);
    if (!line) continue;
    if (*line == "quit") {
      end = s::LoopEnd::Quit;
      break;
    }
    session->command(*line);
    if (session->over()) end = s::LoopEnd::Over;
  }
  print(out, event_json(s::Stopped{s::end_reason(end, *session), !session->over(), session->game()}));
  return 0;
}

}  // namespace arbitre::app::watch
