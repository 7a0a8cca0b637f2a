#include "app/gui/self_test.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <wx/bitmap.h>
#include <wx/button.h>
#include <wx/choice.h>
#include <wx/spinctrl.h>
#include <wx/dcmemory.h>
#include <wx/filename.h>
#include <wx/menu.h>
#include <wx/statusbr.h>
#include <wx/evtloop.h>
#include <wx/time.h>
#include <wx/utils.h>

#include "app/gui/irma_panel.h"
#include "app/gui/live_view.h"
#include "app/gui/overlay.h"
#include "app/gui/preferences_dialog.h"
#include "app/gui/screen_grab.h"
#include "app/gui/main_frame.h"
#include "app/gui/yams_panel.h"
#include "app/gui/companion/history.h"
#include "app/session/calibration.h"
#include "app/session/demo.h"
#include "data/store/store.h"
#include <nlohmann/json.hpp>
#include "referee/yams/dice.h"
#include "scoring/irma/score.h"

namespace arbitre::gui {

namespace {

constexpr int kTickMs = 20;
constexpr int kSettleTicks = 5;           // after the worker went idle, for its events to arrive
constexpr int kPhaseTimeoutTicks = 4500;  // 90 s in any one phase (a loaded machine reads slowly)

std::string board_text(const s::ri::Board& board) {
  std::string text;
  for (const auto& [cell, colour] : board.pions())
    text += referee::to_text(cell) + std::string(s::ri::to_string(colour)) + " ";
  return text;
}

// The placements of a recording's truth.json, in order: the last frame of each placement's
// shot, the score after it and the pions on the board (refused tries add none).
struct Placement {
  long frame = 0;
  int move = 0;
  bool accepted = false;
  int score = 0;
  int pions = 0;
};
std::vector<Placement> truth_placements(const std::string& dir) {
  std::vector<Placement> out;
  std::ifstream in(std::filesystem::path(dir) / "truth.json");
  const nlohmann::json truth = nlohmann::json::parse(in, nullptr, false);
  if (!truth.is_object() || !truth.contains("shots")) return out;
  int pions = 0;
  for (const nlohmann::json& shot : truth["shots"]) {
    if (shot.value("kind", "") != "placed") continue;
    Placement p;
    p.frame = shot["frames"][1].get<long>();
    p.move = shot.value("move", 0);
    p.accepted = shot.value("verdict", "") == "accepted";
    p.score = shot.value("score", 0);
    if (p.accepted) ++pions;
    p.pions = pions;
    out.push_back(p);
  }
  return out;
}

const s::IrmaGame::Player* irma_player(const MainFrame& frame) {
  const GameView* game = frame.irma_panel()->game();
  if (!game || game->irma.empty()) return nullptr;
  return &game->irma[game->current];
}

}  // namespace

SelfTest::SelfTest(MainFrame* frame, const wxString& out_dir, std::function<void(int)> done, bool timing_only,
                   const wxString& camera_server)
    : frame_(frame), out_dir_(out_dir), done_(std::move(done)), timer_(this), camera_server_(camera_server) {
  if (timing_only) phase_ = Phase::TimingStart;
  if (!camera_server_.empty()) phase_ = Phase::CameraStart;
  wxFileName::Mkdir(out_dir_, wxS_DIR_DEFAULT, wxPATH_MKDIR_FULL);
  started_ms_ = static_cast<long>(wxGetLocalTimeMillis().GetValue());
  Bind(wxEVT_TIMER, &SelfTest::tick, this);
  timer_.Start(kTickMs);
}

SelfTest::~SelfTest() {
  if (server_ && server_running_) {
    server_->Detach();
    wxProcess::Kill(server_->GetPid(), wxSIGTERM);  // the server this test started
  }
}

void SelfTest::fail(const std::string& why) {
  std::printf("FAIL: %s\n", why.c_str());
  std::fflush(stdout);
  ++failures_;
}

void SelfTest::check(bool ok, const std::string& what) {
  if (ok) {
    std::printf("ok: %s\n", what.c_str());
    std::fflush(stdout);
  } else {
    fail(what);
  }
}

void SelfTest::click_button(wxButton* button) {
  check(button->IsEnabled(), std::string("the button \"") + button->GetLabel().ToStdString(wxConvUTF8) +
                                 "\" can be clicked");
  wxCommandEvent click(wxEVT_BUTTON, button->GetId());
  click.SetEventObject(button);
  button->ProcessWindowEvent(click);
}

void SelfTest::click_menu(int id) {
  wxMenuItem* item = frame_->GetMenuBar()->FindItem(id);
  check(item && item->IsEnabled(), "the menu item \"" + (item ? item->GetItemLabelText().ToStdString(wxConvUTF8) : std::string("?")) +
                                       "\" can be chosen");
  wxCommandEvent choose(wxEVT_MENU, id);
  choose.SetEventObject(frame_);
  frame_->ProcessWindowEvent(choose);
}

void SelfTest::click_at(wxWindow* window, const wxPoint& at) {
  wxMouseEvent click(wxEVT_LEFT_DOWN);
  click.SetPosition(at);
  click.SetEventObject(window);
  window->ProcessWindowEvent(click);
}

void SelfTest::check_played_to_the_end(const std::string& game) {
  const FrameStats& stats = frame_->stats();
  check(stats.end_reason == "game-over",
        "the " + game + " demo played to the end (" + stats.end_reason + " " + stats.end_error + ")");
}

void SelfTest::screenshot(const std::string& name) {
  const auto save = [&](const wxBitmap& bitmap, const std::string& file) {
    const wxString path = out_dir_ + wxFileName::GetPathSeparator() + wxString::FromUTF8(file) + ".png";
    check(bitmap.IsOk() && bitmap.SaveFile(path, wxBITMAP_TYPE_PNG), "screenshot " + path.ToStdString(wxConvUTF8));
  };
  // The drawn panels render themselves into a bitmap (the same code as their paint handler).
  const auto render = [&](auto* panel, const std::string& file) {
    const wxSize size = panel->GetClientSize();
    wxBitmap bitmap(std::max(1, size.x), std::max(1, size.y));
    {
      wxMemoryDC dc(bitmap);
      panel->render(dc, size);
    }
    save(bitmap, file);
  };
  render(frame_->live_view(), "live-" + name);
  if (name.rfind("irma", 0) == 0) render(frame_->irma_panel(), "panel-" + name);
  if (name.rfind("yams", 0) == 0) render(frame_->yams_panel(), "panel-" + name);
  // The whole window, native controls included, read back from the X server (wxScreenDC
  // keeps returning its first picture under GTK 3, so Xlib is asked directly).
  frame_->flush_log();
  frame_->Raise();
  frame_->Refresh();
  // GTK lays text views out when idle: let the window catch up (drawing only, no timer or
  // input events, so the test does not re-enter itself).
  for (int i = 0; i < 10; ++i) {
    wxEventLoopBase::GetActive()->YieldFor(wxEVT_CATEGORY_UI);
    wxMilliSleep(10);
  }
  frame_->Update();
  const wxImage window = grab_screen(frame_->GetScreenRect());
  save(window.IsOk() ? wxBitmap(window) : wxBitmap(), "window-" + name);
}

std::optional<StartRequest> SelfTest::sequence_request(const std::string& store_name, bool realtime) {
  const auto dir = s::demo_recording_dir(s::GameKind::Irma);
  check(dir.has_value(), "the Irma demo recording is there");
  if (!dir) return std::nullopt;
  StartRequest request;
  request.kind = s::GameKind::Irma;
  request.source = SourceKind::File;
  request.spec = (std::filesystem::path(*dir) / "%04d.jpg").string();
  request.players = s::make_demo(s::GameKind::Irma).players;
  request.realtime = realtime;
  request.store_path = (out_dir_ + wxFileName::GetPathSeparator() + wxString::FromUTF8(store_name)).ToStdString(wxConvUTF8);
  std::filesystem::remove(request.store_path);
  return request;
}

void SelfTest::write_timing(const std::string& game) {
  const FrameStats& stats = frame_->stats();
  const auto quantiles = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) { return v.empty() ? 0.0 : v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))]; };
    char text[128];
    std::snprintf(text, sizeof text, "median %.1f p95 %.1f max %.1f (%zu frames)", at(0.5), at(0.95), at(1.0), v.size());
    return std::string(text);
  };
  char line[512];
  std::snprintf(line, sizeof line,
                "launch_to_first_frame_ms %.1f\nstart_to_first_frame_ms %.1f\noverlay_ms %s\nrecognition_ms %s\n",
                stats.first_frame_since_launch_ms.value_or(-1), stats.first_frame_ms.value_or(-1),
                quantiles(stats.overlay_ms).c_str(), quantiles(stats.recognition_ms).c_str());
  std::ofstream out((out_dir_ + wxFileName::GetPathSeparator() + "timing-" + game + ".txt").ToStdString(wxConvUTF8));
  out << line;
  std::printf("timing %s:\n%s", game.c_str(), line);
}

void SelfTest::tick(wxTimerEvent&) {
  ++wait_;
  if (wait_ > (phase_ == Phase::TimingEnd || phase_ == Phase::TimingCameraEnd ? 2 * kPhaseTimeoutTicks : kPhaseTimeoutTicks)) {
    fail("timed out in phase " + std::to_string(static_cast<int>(phase_)));
    phase_ = Phase::Finished;
  }
  if (!shown_file_.empty()) report_shown();
  step();
  if (phase_ == Phase::Finished) {
    timer_.Stop();
    const long ms = static_cast<long>(wxGetLocalTimeMillis().GetValue()) - started_ms_;
    std::printf("%s (%d failures, %.1f s)\n", failures_ == 0 ? "PASS" : "FAIL", failures_, ms / 1000.0);
    std::fflush(stdout);
    frame_->stop();
    done_(failures_ == 0 ? 0 : 1);
  }
}

// The network camera's server holds each accepted placement until the window shows it (a loaded
// machine reads a real-time stream late): it reads the pions shown from this file.
void SelfTest::report_shown() {
  const s::IrmaGame::Player* player = irma_player(*frame_);
  const int shown = player ? static_cast<int>(player->state.board.size()) : 0;
  if (shown == shown_) return;
  shown_ = shown;
  const std::string part = shown_file_ + ".part";
  std::ofstream(part) << shown << "\n";
  std::error_code error;
  std::filesystem::rename(part, shown_file_, error);  // whole, never half written
}

void SelfTest::step() {
  const FrameStats& stats = frame_->stats();
  Runner* runner = frame_->runner();
  const auto next = [&](Phase phase) {
    phase_ = phase;
    wait_ = 0;
    settle_ = 0;
  };
  switch (phase_) {
    case Phase::StartIrma: {
      StartRequest request;
      request.kind = s::GameKind::Irma;
      request.realtime = false;
      // Hold the game after a placement once a few pions are down and before any refused try:
      // that pion is then the last move, and recolouring it changes no other move's verdict.
      request.pause_when = [](const s::Event& event, const GameView& game) {
        if (!std::holds_alternative<s::Accepted>(event) || game.irma.empty()) return false;
        const s::IrmaGame::Player& player = game.irma[game.current];
        return player.state.board.size() >= 4 && !player.in_hand &&
               player.record.moves.size() == static_cast<std::size_t>(player.state.board.size()) &&
               std::get<s::Accepted>(event).move.cell.has_value();
      };
      check(frame_->start(request), "the Irma demo starts");
      next(Phase::IrmaPause);
      break;
    }
    case Phase::IrmaPause: {
      if (!stats.running) {
        fail("the Irma demo ended before the correction could be tried");
        next(Phase::IrmaEnd);
      } else if (runner->paused() && runner->idle() && ++settle_ >= kSettleTicks) {
        // Held; go on once the window has taken in the events up to the placement.
        const s::IrmaGame::Player* player = irma_player(*frame_);
        if (player && stats.last_accepted && !player->record.moves.empty() &&
            player->record.moves.back().cell == stats.last_accepted) {
          next(Phase::IrmaIdle);
        }
      }
      break;
    }
    case Phase::IrmaIdle: {
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(player && stats.last_accepted && player->record.moves.back().cell == stats.last_accepted,
            "the game is held after a placement");
      if (!player || !stats.last_accepted) {
        next(Phase::IrmaEnd);
        break;
      }
      const s::ri::Cell cell = *stats.last_accepted;
      const s::ri::Colour colour = *player->state.board.at(cell);
      const int other = colour == s::ri::Colour::Red ? 1 : 0;  // orange for red, else red
      other_ = other;
      saved_ = board_text(player->state.board);
      corrections_ = stats.corrections;
      refusals_ = stats.command_refusals;
      // The chooser answers "red" to "which colour was drawn?" and `other` to "what is here?".
      frame_->irma_panel()->set_chooser([other](wxWindow*, const wxString&, const wxArrayString& choices) {
        return std::optional<int>(choices.size() > 4 ? other : 0);
      });
      // The advisor's cell for a red pion: a cell the referee accepts.
      click_button(frame_->advice_button());
      const auto advice = frame_->irma_panel()->advice();
      check(advice && s::ri::check(player->state, s::ri::Move::place(s::ri::Colour::Red, *advice)).legal(),
            "the advised cell for a red pion is legal");
      const auto at = frame_->irma_panel()->cell_centre(cell);
      check(at.has_value(), "the last pion is on the Irma panel");
      if (!at) {
        next(Phase::IrmaEnd);
        break;
      }
      click_at(frame_->irma_panel(), *at);
      next(Phase::IrmaCorrected);
      break;
    }
    case Phase::IrmaCorrected: {
      if (stats.command_refusals > refusals_) {
        fail("the session refused the Irma correction: " + stats.last_command_refusal);
        click_button(frame_->pause_button());
        next(Phase::IrmaEnd);
      } else if (stats.corrections > corrections_) {
        const s::IrmaGame::Player* player = irma_player(*frame_);
        check(player && board_text(player->state.board) != saved_, "the correction changed the pion on the panel");
        fixed_ = player ? board_text(player->state.board) : std::string();
        check(!frame_->redo_button()->IsEnabled(), "Redo is disabled: nothing was undone");
        screenshot("irma-corrected");
        click_button(frame_->undo_button());
        next(Phase::IrmaUndone);
      }
      break;
    }
    case Phase::IrmaUndone: {
      if (stats.undos == 0) break;
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(player && board_text(player->state.board) == saved_, "Undo restored the Irma board");
      click_button(frame_->redo_button());  // enabled now: the correction can be redone
      next(Phase::IrmaRedone);
      break;
    }
    case Phase::IrmaRedone: {
      if (stats.redos == 0) break;
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(player && board_text(player->state.board) == fixed_, "Redo carried the Irma correction out again");
      check(!frame_->redo_button()->IsEnabled(), "Redo is disabled again once redone");
      click_menu(frame_->undo_menu_id());  // Edit > Undo (Ctrl+Z)
      next(Phase::IrmaUndoneAgain);
      break;
    }
    case Phase::IrmaUndoneAgain: {
      if (stats.undos < 2) break;
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(player && board_text(player->state.board) == saved_, "Edit > Undo restored the Irma board again");
      next(Phase::IrmaLive);
      break;
    }
    case Phase::IrmaLive: {
      // The same pion corrected by clicking it on the live view: the frame the game is held at
      // shows it; its sighting's cell, through the view's scaling and the board's alignment.
      const s::IrmaGame::Player* player = irma_player(*frame_);
      const auto& step = frame_->live_view()->step();
      std::optional<std::size_t> sighting;
      if (player && step && step->pions) {
        for (std::size_t i = 0; i < step->pions->pions.size(); ++i) {
          if (game_cell(*step->pions, i, player->state.board.pions()) == stats.last_accepted) sighting = i;
        }
      }
      check(sighting.has_value(), "the live view shows the last pion placed");
      const auto at = sighting ? frame_->live_view()->pion_point(*sighting) : std::nullopt;
      if (!at) {
        corrections_ = stats.corrections;  // no correction to wait for
        next(Phase::IrmaLiveUndone);
        break;
      }
      corrections_ = stats.corrections;
      refusals_ = stats.command_refusals;
      const int other = other_;
      frame_->live_view()->set_chooser([other](wxWindow*, const wxString&, const wxArrayString& choices) {
        return std::optional<int>(choices.size() > 4 ? other : 0);
      });
      click_at(frame_->live_view(), *at);
      next(Phase::IrmaLiveCorrected);
      break;
    }
    case Phase::IrmaLiveCorrected: {
      if (stats.command_refusals > refusals_) {
        fail("the session refused the live view's correction: " + stats.last_command_refusal);
        next(Phase::IrmaLiveUndone);
      } else if (stats.corrections > corrections_) {
        const s::IrmaGame::Player* player = irma_player(*frame_);
        check(player && board_text(player->state.board) == fixed_,
              "the click on the live view made the same correction as the panel's");
        screenshot("irma-live-corrected");
        click_button(frame_->undo_button());
        next(Phase::IrmaLiveUndone);
      }
      break;
    }
    case Phase::IrmaLiveUndone: {
      if (stats.undos < 3 && stats.corrections > corrections_) break;  // the live correction's undo
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(player && board_text(player->state.board) == saved_, "Undo restored the Irma board after the live view's correction");
      // Hold the game again at the next refused placement, to show it.
      frame_->runner()->pause_when([](const s::Event& event, const GameView&) {
        const auto* refused = std::get_if<s::Refused>(&event);
        return refused && refused->irma && refused->irma->cell && !refused->cells.empty();
      });
      click_button(frame_->pause_button());  // resume
      next(Phase::IrmaRefused);
      break;
    }
    case Phase::IrmaRefused: {
      if (!stats.running) {
        fail("the Irma demo refused no placement with cells to show");
        next(Phase::IrmaEnd);
      } else if (runner->paused() && runner->idle() && ++settle_ >= kSettleTicks) {
        check(stats.refusals > 0, "a refused placement is shown");
        // The legal cells drawn for the refused pion in hand: each one the referee accepts for
        // it, the refused cell not among them.
        const GameView* game = frame_->irma_panel()->game();
        const s::IrmaGame::Player* player = irma_player(*frame_);
        check(game && player && player->in_hand && !game->legal_cells.empty(),
              "the refused pion is in hand and its legal cells are drawn");
        if (game && player && player->in_hand) {
          for (const s::ri::Cell& cell : game->legal_cells) {
            check(s::ri::check(player->state, s::ri::Move::place(*player->in_hand, cell)).legal() &&
                      cell != stats.last_refused,
                  "legal cell " + std::to_string(cell.row) + "," + std::to_string(cell.col) + " is accepted for the pion in hand");
          }
        }
        screenshot("irma-refused");
        click_button(frame_->pause_button());  // resume
        next(Phase::IrmaEnd);
      }
      break;
    }
    case Phase::IrmaEnd: {
      if (stats.running) break;
      check_played_to_the_end("Irma");
      const GameView* game = frame_->irma_panel()->game();
      check(!stats.expected.empty(), "the Irma demo has expected scores");
      for (const s::FinalScore& expected : stats.expected) {
        bool found = false;
        for (const s::IrmaGame::Player& player : game ? game->irma : std::vector<s::IrmaGame::Player>{}) {
          if (player.name != expected.player) continue;
          found = true;
          const int shown = scoring::irma::score(player.state);
          check(shown == expected.score, "Irma score of " + expected.player + ": shown " + std::to_string(shown) +
                                             ", expected " + std::to_string(expected.score));
        }
        check(found, "Irma player " + expected.player + " is shown");
      }
      check(game && frame_->irma_panel()->shown_score() == scoring::irma::score(game->irma[game->current].state),
            "the Irma panel's score line is the game's");
      screenshot("irma");
      write_timing("irma");
      next(Phase::StartYams);
      break;
    }
    case Phase::StartYams: {
      StartRequest request;
      request.kind = s::GameKind::Yams;
      request.realtime = false;
      // Hold the game after a first roll once a few boxes are filled: any die may be corrected.
      request.pause_when = [](const s::Event& event, const GameView& game) {
        const auto* rolled = std::get_if<s::Rolled>(&event);
        return rolled && rolled->roll == 1 && game.yams && game.yams->sheets[0].filled_count() >= 2;
      };
      check(frame_->start(request), "the Yams demo starts");
      next(Phase::YamsPause);
      break;
    }
    case Phase::YamsPause: {
      if (!stats.running) {
        fail("the Yams demo ended before the correction could be tried");
        next(Phase::YamsEnd);
      } else if (runner->paused() && runner->idle() && ++settle_ >= kSettleTicks) {
        // Held; go on once the window has taken in the events up to the roll.
        const GameView* game = frame_->yams_panel()->game();
        if (game && game->yams && game->yams->turn.rolls >= 1) {
          die_ = 0;
          next(Phase::YamsIdle);
        }
      }
      break;
    }
    case Phase::YamsIdle: {
      const GameView* game = frame_->yams_panel()->game();
      if (!game || !game->yams || game->yams->turn.rolls == 0 || die_ >= s::ry::kDiceCount) {
        fail("no die of the Yams demo could be corrected (" +
             (die_ >= s::ry::kDiceCount ? "every correction refused: " + stats.last_command_refusal
                                        : std::string("no roll on the panel")) +
             ")");
        click_button(frame_->pause_button());
        next(Phase::YamsEnd);
        break;
      }
      saved_ = s::ry::to_text(game->yams->turn.dice);
      undos_before_ = stats.undos;
      if (die_ == 0) {
        // The advisor's choice for the dice on the table: a keep of these ten dice, or an empty
        // box of the player to move.
        click_button(frame_->yams_advice_button());
        const auto& advice = frame_->yams_panel()->advice();
        const s::ry::Sheet& sheet = game->yams->sheets[game->yams->player];
        check(advice.has_value() && (advice->action == scoring::yams::Action::Fill
                                         ? !sheet.filled(advice->box)
                                         : advice->keep < (1u << s::ry::kDiceCount)),
              "the Yams advice is a keep of the dice on the table or an empty box of the player to move");
      }
      corrections_ = stats.corrections;
      refusals_ = stats.command_refusals;
      const int value = game->yams->turn.dice[die_].value;
      const int choice = value % s::ry::kFaces;  // the next face: value + 1 (10 -> 1)
      choice_ = choice;
      frame_->yams_panel()->set_chooser([choice](wxWindow*, const wxString&, const wxArrayString&) {
        return std::optional<int>(choice);
      });
      const auto at = frame_->yams_panel()->die_centre(die_);
      click_at(frame_->yams_panel(), *at);
      next(Phase::YamsCorrected);
      break;
    }
    case Phase::YamsCorrected: {
      if (stats.command_refusals > refusals_) {  // that die cannot change: try the next
        std::printf("note: %s\n", stats.last_command_refusal.c_str());
        ++die_;
        next(Phase::YamsIdle);
      } else if (stats.corrections > corrections_) {
        const GameView* game = frame_->yams_panel()->game();
        check(game && game->yams && s::ry::to_text(game->yams->turn.dice) != saved_,
              "the correction changed die " + std::to_string(die_) + " on the Yams panel");
        fixed_ = game && game->yams ? s::ry::to_text(game->yams->turn.dice) : std::string();
        screenshot("yams-corrected");
        click_button(frame_->undo_button());
        next(Phase::YamsUndone);
      }
      break;
    }
    case Phase::YamsUndone: {
      if (stats.undos <= undos_before_) break;  // the recorded players may have undone too
      const GameView* game = frame_->yams_panel()->game();
      const std::string now = game && game->yams ? s::ry::to_text(game->yams->turn.dice) : "";
      check(now == saved_, "Undo restored the Yams dice (" + now + ", before the correction " + saved_ + ")");
      click_menu(frame_->redo_menu_id());  // Edit > Redo (Ctrl+Y, Ctrl+Shift+Z)
      next(Phase::YamsRedone);
      break;
    }
    case Phase::YamsRedone: {
      if (stats.redos == 0) break;
      const GameView* game = frame_->yams_panel()->game();
      check(game && game->yams && s::ry::to_text(game->yams->turn.dice) == fixed_, "Edit > Redo carried the die's correction out again");
      click_button(frame_->undo_button());
      next(Phase::YamsUndoneAgain);
      break;
    }
    case Phase::YamsUndoneAgain: {
      if (stats.undos < undos_before_ + 2) break;
      const GameView* game = frame_->yams_panel()->game();
      check(game && game->yams && s::ry::to_text(game->yams->turn.dice) == saved_, "Undo restored the Yams dice again");
      next(Phase::YamsLive);
      break;
    }
    case Phase::YamsLive: {
      // The same die corrected by clicking it on the live view (the frame the game is held at):
      // the sighting the game numbers as that die, through the view's scaling.
      const GameView* game = frame_->yams_panel()->game();
      const auto& step = frame_->live_view()->step();
      std::optional<std::size_t> sighting;
      if (game && game->yams && step && step->dice) {
        for (std::size_t i = 0; i < step->dice->dice.size() && !sighting; ++i) {
          if (die_number(step->dice->dice[i], game->seen, game->yams->turn.aside) == die_) sighting = i;
        }
      }
      check(sighting.has_value(), "the live view shows die " + std::to_string(die_) + " of the roll");
      const auto at = sighting ? frame_->live_view()->die_point(*sighting) : std::nullopt;
      corrections_ = stats.corrections;
      refusals_ = stats.command_refusals;
      if (!at) {
        next(Phase::YamsLiveUndone);
        break;
      }
      const int choice = choice_;
      frame_->live_view()->set_chooser([choice](wxWindow*, const wxString&, const wxArrayString&) {
        return std::optional<int>(choice);
      });
      click_at(frame_->live_view(), *at);
      next(Phase::YamsLiveCorrected);
      break;
    }
    case Phase::YamsLiveCorrected: {
      if (stats.command_refusals > refusals_) {
        fail("the session refused the live view's die correction: " + stats.last_command_refusal);
        next(Phase::YamsLiveUndone);
      } else if (stats.corrections > corrections_) {
        const GameView* game = frame_->yams_panel()->game();
        check(game && game->yams && s::ry::to_text(game->yams->turn.dice) == fixed_,
              "the click on the live view made the same die correction as the panel's");
        click_button(frame_->undo_button());
        next(Phase::YamsLiveUndone);
      }
      break;
    }
    case Phase::YamsLiveUndone: {
      if (stats.undos < undos_before_ + 3 && stats.corrections > corrections_) break;  // the live correction's undo
      const GameView* game = frame_->yams_panel()->game();
      check(game && game->yams && s::ry::to_text(game->yams->turn.dice) == saved_,
            "Undo restored the Yams dice after the live view's correction");
      click_button(frame_->pause_button());  // resume
      next(Phase::YamsEnd);
      break;
    }
    case Phase::YamsEnd: {
      if (stats.running) break;
      check_played_to_the_end("Yams");
      const GameView* game = frame_->yams_panel()->game();
      const std::vector<int> shown = frame_->yams_panel()->shown_totals();
      check(!stats.expected.empty() && shown.size() == stats.expected.size(), "a Yams sheet is shown for every player");
      for (std::size_t p = 0; p < stats.expected.size() && p < shown.size(); ++p) {
        const s::FinalScore& expected = stats.expected[p];
        check(game->players[p] == expected.player && shown[p] == expected.score,
              "Yams grand total of " + expected.player + ": shown " + std::to_string(shown[p]) + ", expected " +
                  std::to_string(expected.score));
        check(game->yams->sheets[p].complete(), "the sheet of " + expected.player + " is complete");
      }
      screenshot("yams");
      // The demo's camera is 14 degrees from overhead: no advice. The same frame, had the dice
      // reader found the camera 26 degrees from overhead in the last frames, shows it.
      check(!frame_->live_view()->advises_camera(),
            "no camera advice for the demo's camera (14 degrees)");
      if (const auto& step = frame_->live_view()->step(); step && step->dice) {
        const s::SourceStep shown = *step;  // a copy: showing the tilted frame replaces `step`
        s::SourceStep tilted = shown;
        tilted.dice->camera_tilt_deg = 26;
        const wxImage image = frame_->live_view()->image();
        for (int i = 0; i < 9; ++i) frame_->live_view()->show_frame(image, tilted);
        check(frame_->live_view()->advises_camera(),
              "the live view advises a camera 26 degrees from overhead");
        screenshot("yams-camera");
        frame_->live_view()->clear_camera_angle();
        frame_->live_view()->show_frame(image, shown);
        check(!frame_->live_view()->advises_camera(),
              "no camera advice once the demo's own frame is shown again");
      } else {
        fail("the live view shows the Yams demo's last dice");
      }
      next(Phase::History);
      break;
    }
    case Phase::History: {
      // The History menu's window on the store the demo played into: the Yams game just played,
      // its sheet replayed from the log with the totals the panel showed.
      app::gui::companion::HistoryFrame* history = frame_->open_history(MainFrame::HistoryPage::Games);
      check(history != nullptr, "the game history opens on the demo's store");
      if (history) {
        check(history->game_count() == 1, "the history lists the one game of the store, not " +
                                              std::to_string(history->game_count()));
        const bool chosen = history->game_count() > 0 &&
                            history->select_game(static_cast<data::store::GameId>(history->games_list().GetItemData(0)));
        check(chosen && history->sheet().kind == data::store::GameKind::Yams, "the history shows the Yams game's sheet");
        for (std::size_t p = 0; chosen && p < stats.expected.size(); ++p) {
          const auto& sheet = history->sheet().yams;
          check(p < sheet.size() && sheet[p].totals.grand == stats.expected[p].score,
                "the history's sheet of " + stats.expected[p].player + " has the grand total " +
                    std::to_string(stats.expected[p].score));
        }
        history->Close(true);
      }
      next(Phase::Preferences);
      break;
    }
    case Phase::Preferences: {
      // Edit > Preferences as a user fills it in: a rule variant for each game and the dark
      // panels; kept with wxConfig (in the test's own XDG_CONFIG_HOME), read back, and the Irma
      // variant reaches the next game (the image sequence below: its options in the store).
      PreferencesDialog dialog(frame_, frame_->preferences());
      dialog.repeat_rule()->SetSelection(1);  // previous turn
      dialog.keep_rule()->SetSelection(1);    // locked
      dialog.appearance()->SetSelection(2);   // dark
      dialog.bag(static_cast<int>(s::ri::Colour::White))->SetValue(11);
      const Preferences chosen = dialog.value();
      check(chosen.irma.repeat_rule == s::ri::RepeatRule::PreviousTurn && chosen.yams.keep_rule == s::ry::KeepRule::Locked &&
                chosen.appearance == "dark" && chosen.irma.bag[3] == 11,
            "the preferences dialog gives what its controls say");
      frame_->set_preferences(chosen);
      std::vector<std::string> problems;
      check(load_preferences(*wxConfigBase::Get(), &problems) == chosen && problems.empty(),
            "the preferences read back from wxConfig are the ones saved");
      const char* xdg = std::getenv("XDG_CONFIG_HOME");
      check(xdg && std::filesystem::exists(std::filesystem::path(xdg) / "arbitre-gui.conf"),
            "the preferences are kept in the test's own XDG_CONFIG_HOME/arbitre-gui.conf");
      check(frame_->irma_panel()->colours() == palette(true) && frame_->yams_panel()->colours() == palette(true),
            "the panels paint with the dark palette");
      next(Phase::SequenceStart);
      break;
    }
    case Phase::SequenceStart: {
      // The Irma recording opened as a camera (an image sequence): the game starts with the
      // calibration the store holds for that source string, and the live view draws the camera
      // source's own pictures.
      std::optional<StartRequest> request = sequence_request("sequence-store.db", false);
      if (!request) {
        next(Phase::Finished);
        break;
      }
      {
        auto store = data::store::Store::open(request->store_path);
        vision::ColourCalibration colours;  // red, orange, green, white (L, a, b)
        colours.colour = {{{48, 62, 42}, {66, 36, 64}, {56, -44, 32}, {95, 0, 2}}};
        store.save_calibration(request->spec, s::kColoursCalibration, s::colours_to_json(colours));
      }
      check(frame_->start(*request), "the Irma recording starts as an image sequence");
      next(Phase::SequenceEnd);
      break;
    }
    case Phase::SequenceEnd: {
      if (stats.running) break;
      check(stats.end_error.empty(), "the image sequence played without error " + stats.end_error);
      check(stats.calibration_from == "store", "the game started with the calibration the store holds for the source");
      check(stats.pictures > 0, "the live view drew the camera source's own pictures");
      {
        // The game was started with the preferences' rule variants.
        auto store = data::store::Store::open(frame_->runner_store_path());
        const auto games = store.list_games();
        check(games.size() == 1 && games[0].options.value("repeat_rule", "") == "previous-turn" &&
                  games[0].options["bag"].value("white", 0) == 11,
              "the image sequence's game has the preferences' Irma variants in the store");
      }
      const wxImage last = frame_->last_frame();
      check(last.IsOk() && last.GetWidth() == 640 && last.GetHeight() == 480,
            "the last frame is the recording's 640x480 picture, as the source read it");
      next(Phase::Finished);
      break;
    }
    case Phase::TimingStart: {
      StartRequest request;
      request.kind = s::GameKind::Irma;
      request.realtime = true;
      check(frame_->start(request), "the Irma demo starts at its own pace");
      next(Phase::TimingEnd);
      break;
    }
    case Phase::TimingEnd: {
      if (stats.running) break;
      check(stats.end_reason == "game-over", "the Irma demo played to the end");
      write_timing("irma-realtime");
      next(Phase::TimingCameraStart);
      break;
    }
    case Phase::TimingCameraStart: {
      // The same recording opened as an image sequence, as the window opens a camera: the camera
      // source decodes each frame once and hands it to the live view (CameraOptions::pictures),
      // and capture to overlay starts at the picture's captured_ms.
      const std::optional<StartRequest> request = sequence_request("timing-store.db", true);
      check(request && frame_->start(*request), "the Irma recording starts as an image sequence");
      next(Phase::TimingCameraEnd);
      break;
    }
    case Phase::TimingCameraEnd: {
      if (stats.running) break;
      check(stats.end_error.empty(), "the image sequence played without error: " + stats.end_error);
      check(stats.pictures > 0, "the live view drew the camera source's own pictures");
      write_timing("irma-sequence");
      next(Phase::Finished);
      break;
    }
    case Phase::CameraStart: {
      // The Irma recording from a network camera that stops answering after the placement of
      // move 9 and comes back to show the rest up to move 20.
      const auto dir = s::demo_recording_dir(s::GameKind::Irma);
      check(dir.has_value(), "the Irma demo recording is there");
      const std::vector<Placement> placements = dir ? truth_placements(*dir) : std::vector<Placement>{};
      const auto accepted_from = [&](int move) -> std::optional<Placement> {
        for (const Placement& p : placements) {
          if (p.accepted && p.move >= move) return p;
        }
        return std::nullopt;
      };
      const auto drop = accepted_from(9), last = accepted_from(20);
      check(drop && last, "the recording's truth has placements past move 20");
      if (!dir || !drop || !last) {
        next(Phase::Finished);
        break;
      }
      drop_ = {drop->frame, drop->score, drop->pions};
      last_ = {last->frame, last->score, last->pions};
      const auto in_out = [&](const char* name) {
        const std::string path = (out_dir_ + wxFileName::GetPathSeparator() + name).ToStdString(wxConvUTF8);
        std::filesystem::remove(path);
        return path;
      };
      port_file_ = in_out("camera.port");
      resume_file_ = in_out("camera.resume");
      camera_store_ = in_out("camera-store.db");
      shown_file_ = in_out("camera.shown");
      const std::string script = camera_server_.ToStdString(wxConvUTF8);
      const std::string drop_after = std::to_string(drop_.frame + 1), last_frame = std::to_string(last_.frame);
      const char* argv[] = {"python3",          script.c_str(),      "--frames",
                            dir->c_str(),       "--port-file",       port_file_.c_str(),
                            "--drop-after",     drop_after.c_str(),  "--last",
                            last_frame.c_str(), "--resume-file",     resume_file_.c_str(),
                            "--shown-file",     shown_file_.c_str(), nullptr};
      server_ = new wxProcess(this);
      Bind(wxEVT_END_PROCESS, [this](wxProcessEvent&) { server_running_ = false; });
      server_running_ = wxExecute(argv, wxEXEC_ASYNC, server_) > 0;
      check(server_running_, "the MJPEG server starts");
      next(server_running_ ? Phase::CameraPort : Phase::Finished);
      break;
    }
    case Phase::CameraPort: {
      std::ifstream in(port_file_);
      int port = 0;
      if (!(in >> port) || port <= 0) break;  // not listening yet
      StartRequest request;
      request.kind = s::GameKind::Irma;
      request.source = SourceKind::Url;
      request.spec = "http://127.0.0.1:" + std::to_string(port) + "/video.mjpg";
      request.players = {"player"};
      request.realtime = false;
      request.store_path = camera_store_;
      check(frame_->start(request), "the game starts from the network camera " + request.spec);
      next(Phase::CameraLost);
      break;
    }
    case Phase::CameraLost: {
      if (!stats.running) {
        fail("the camera game stopped before the camera was lost: " + stats.end_reason + " " + stats.end_error);
        next(Phase::Finished);
        break;
      }
      // A camera slow to give its first frame is reported lost too, with no pion yet: wait for
      // the loss after the placements.
      if (stats.at_lost.empty() || stats.at_lost.back().pions == 0) break;
      const FrameStats::IrmaSnapshot& lost = stats.at_lost.back();
      check(lost.score == drop_.score && lost.pions == drop_.pions,
            "when the camera stopped answering the game had the recording's score " + std::to_string(drop_.score) +
                " and " + std::to_string(drop_.pions) + " pions (shown " + std::to_string(lost.score) + ", " +
                std::to_string(lost.pions) + ")");
      const wxString status = frame_->GetStatusBar()->GetStatusText(2);
      check(status.Contains(wxGetTranslation("camera lost")),
            "the status bar says the camera is lost: " + status.ToStdString(wxConvUTF8));
      check(stats.running, "the game goes on waiting for the camera");
      screenshot("camera-lost");
      std::ofstream(resume_file_) << "back\n";  // the camera answers again
      next(Phase::CameraBack);
      break;
    }
    case Phase::CameraBack: {
      if (stats.at_back.empty()) {
        if (!stats.running) {
          fail("the camera game stopped while the camera was lost: " + stats.end_reason + " " + stats.end_error);
          next(Phase::Finished);
        }
        break;
      }
      check(stats.at_back.front() == stats.at_lost.back(),
            "the game came back as it was when the camera was lost (same score, pions and moves)");
      next(Phase::CameraEnd);
      break;
    }
    case Phase::CameraEnd: {
      // The server ends after its last frame: the camera is lost again, every frame read.
      if (stats.at_lost.size() < 2 || stats.at_lost.back().pions == drop_.pions) {
        if (!stats.running) {
          fail("the camera game stopped before the end of the stream: " + stats.end_reason + " " + stats.end_error);
          next(Phase::Finished);
        }
        break;
      }
      const GameView* game = frame_->irma_panel()->game();
      const s::IrmaGame::Player* player = irma_player(*frame_);
      check(game && player && scoring::irma::score(player->state) == last_.score &&
                player->state.board.size() == last_.pions,
            "after the camera came back, play went on to the recording's score " + std::to_string(last_.score) +
                " with " + std::to_string(last_.pions) + " pions (shown " +
                (player ? std::to_string(scoring::irma::score(player->state)) + ", " + std::to_string(player->state.board.size())
                        : std::string("nothing")) + ")");
      screenshot("camera-back");
      frame_->stop();
      next(Phase::Finished);
      break;
    }
    case Phase::Finished:
      break;
  }
}

}  // namespace arbitre::gui
