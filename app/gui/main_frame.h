// The main window: the game and source chosen on the left, the live view in the middle, the
// game's panel on the right, the event log below, the frame rate and the recognition state in
// the status bar. It owns the Runner (the session on its worker thread) and receives its events
// through CallAfter on the GUI thread.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <wx/frame.h>
#include <wx/timer.h>
#include <wx/weakref.h>

#include "app/gui/preferences.h"
#include "app/gui/runner.h"
#include "app/session/events.h"

class wxButton;
class wxChoice;
class wxMenuItem;
class wxSimplebook;
class wxTextCtrl;

namespace arbitre::app::gui::companion {
class HistoryFrame;
}

namespace arbitre::gui {

class IrmaPanel;
class LiveView;
class YamsPanel;

enum class SourceKind { Demo, Webcam, Url, File };

struct StartRequest {
  s::GameKind kind = s::GameKind::Irma;
  SourceKind source = SourceKind::Demo;
  std::string spec;                  // webcam index, URL or file (not for the demo)
  std::vector<std::string> players;  // empty: the demo's, or "player"
  bool realtime = true;              // play a recording at its own pace
  // The store of a camera game (and of its calibration); empty: the user's
  // (data::store::default_store_path()). The demo always plays into a temporary store.
  std::string store_path;
  std::function<bool(const s::Event&, const GameView&)> pause_when;  // see RunnerSetup
};

// What the window observed, for the GUI test and the timing harness.
struct FrameStats {
  int corrections = 0;
  int undos = 0;
  int redos = 0;
  int refusals = 0;
  int command_refusals = 0;
  std::string last_command_refusal;
  int camera_lost = 0;
  int camera_back = 0;
  // The Irma game right after each CameraLost and CameraReconnected (the player at the table):
  // what the source's loss kept.
  struct IrmaSnapshot {
    int score = 0;
    int pions = 0;
    std::size_t moves = 0;
    bool operator==(const IrmaSnapshot&) const = default;
  };
  std::vector<IrmaSnapshot> at_lost, at_back;
  std::optional<s::ri::Cell> last_accepted;
  std::optional<s::ri::Cell> last_refused;  // the cell of the last refused Irma placement
  std::vector<s::FinalScore> expected;  // the demo's ground truth
  std::optional<s::GameOver> game_over;
  std::string end_reason;
  std::string end_error;
  bool running = false;
  // Timing: Start pressed -> first frame drawn, and the figures below.
  std::chrono::steady_clock::time_point start_pressed;
  std::optional<double> first_frame_ms;
  std::optional<double> first_frame_since_launch_ms;  // the program started -> first frame drawn
  int pictures = 0;                    // frames drawn from the camera source's own picture
  std::string calibration_from;        // a camera game's calibration: "store", "file" or 
  std::vector<double> overlay_ms;      // frame captured -> overlay drawn (see FrameSeen)
  std::vector<double> recognition_ms;  // source asked -> observation back (read, decode, detect)
};

class MainFrame : public wxFrame {
 public:
  // `launched`: when the program started (for the start-up figure).
  explicit MainFrame(std::chrono::steady_clock::time_point launched);
  ~MainFrame() override;

  // Starts a game as the Start button does with the controls' values; false (and a message in
  // the log) when the source cannot be opened.
  bool start(const StartRequest& request);
  void stop();

  IrmaPanel* irma_panel() const { return irma_panel_; }
  YamsPanel* yams_panel() const { return yams_panel_; }
  LiveView* live_view() const { return live_view_; }
  wxButton* undo_button() const { return undo_; }
  wxButton* redo_button() const { return redo_; }
  int undo_menu_id() const;
  int redo_menu_id() const;
  wxButton* pause_button() const { return pause_; }
  wxButton* advice_button() const { return advice_; }
  wxButton* yams_advice_button() const { return yams_advice_; }
  Runner* runner() const { return runner_.get(); }
  const FrameStats& stats() const { return stats_; }
  // At start-up: when the store holds an unfinished game, asks whether to resume it (Start then
  // resumes it from the source chosen).
  void offer_resume();
  // Writes the log lines not shown yet (the log takes lines in batches).
  void flush_log();
  // Shows the panel of a game (the notebook page).
  void show_panel(s::GameKind kind);
  // Called on the GUI thread when a game's loop has ended (`reason` as end_reason says it),
  // after the window has shown it; e.g. `--demo both` starts the Yams demo then.
  std::function<void(const std::string& reason)> on_game_end;

  // The companion windows, as their menu items open them. The history reads the store the last
  // game was played into (the user's store before any game).
  enum class HistoryPage { Games, Records, Chart };
  app::gui::companion::HistoryFrame* open_history(HistoryPage page);
  // The score sheet of the game chosen in the history (the newest when none is): file dialog,
  // then PNG or PDF; print dialog.
  void export_sheet(bool pdf);
  void print_sheet();
  // The calibration assistant for the camera chosen in the source controls (its id is the
  // source string the session's calibration_for reads with), on the last live frame.
  void open_calibration();
  // The last frame the live view showed, at the source's full size (invalid before any).
  wxImage last_frame() const;
  // Edit > Preferences: the dialog, then set_preferences with what it says on OK.
  void open_preferences();
  // Keeps the preferences (wxConfig), shows the panels in their appearance and the default source
  // in the source controls (when no game runs); the rule variants apply to the next game.
  void set_preferences(const Preferences& preferences);
  const Preferences& preferences() const { return prefs_; }
  // The store of the game started last (empty before any).
  const std::string& runner_store_path() const { return store_path_; }

 private:
  void build();
  StartRequest request_from_controls() const;
  void on_start(wxCommandEvent&);
  void on_pause(wxCommandEvent&);
  void on_stop(wxCommandEvent&);
  void on_undo(wxCommandEvent&);
  void on_redo(wxCommandEvent&);
  void on_test_url(wxCommandEvent&);
  void on_browse(wxCommandEvent&);
  void on_source_changed();
  void on_close(wxCloseEvent& event);
  void on_timer(wxTimerEvent&);
  void apply_appearance();
  void show_default_source();

  // Called on the GUI thread with what the worker reported.
  void drain_events();
  void handle_event(const s::Event& event, const std::shared_ptr<const GameView>& view);
  void handle_frame(FrameSeen frame, wxImage image, long number);
  void handle_end(const std::string& reason, const std::string& error);
  void log(const wxString& line);
  void set_recognition(const wxString& state);
  void send(std::string line);
  void update_buttons();
  void remove_store();
  std::string camera_store_path(const StartRequest& request) const;

  wxChoice* game_ = nullptr;
  wxTextCtrl* players_ = nullptr;
  wxChoice* source_ = nullptr;
  wxChoice* webcam_ = nullptr;
  wxTextCtrl* url_ = nullptr;
  wxButton* test_url_ = nullptr;
  wxTextCtrl* file_ = nullptr;
  wxButton* browse_ = nullptr;
  wxButton* start_ = nullptr;
  wxButton* pause_ = nullptr;
  wxButton* stop_ = nullptr;
  wxButton* undo_ = nullptr;
  wxButton* redo_ = nullptr;
  wxMenuItem* undo_item_ = nullptr;  // Edit menu
  wxMenuItem* redo_item_ = nullptr;
  wxButton* best_box_ = nullptr;
  wxButton* advice_ = nullptr;
  wxButton* rolled_ = nullptr;
  wxButton* yams_advice_ = nullptr;
  LiveView* live_view_ = nullptr;
  wxSimplebook* book_ = nullptr;
  IrmaPanel* irma_panel_ = nullptr;
  YamsPanel* yams_panel_ = nullptr;
  wxTextCtrl* log_ = nullptr;
  wxTimer timer_;

  std::unique_ptr<Runner> runner_;
  std::string temporary_store_;
  std::string store_path_;  // of the game started last (empty: none yet)
  wxWeakRef<app::gui::companion::HistoryFrame> history_;
  std::string history_path_;  // the store history_ reads
  std::string last_source_;   // the camera's source string of the game started last ("" demo)
  // The last frame drawn: the camera's picture, or the demo recording's file.
  std::shared_ptr<const s::Picture> last_picture_;
  std::string last_image_path_;
  std::mutex inbox_mutex_;
  std::vector<std::pair<s::Event, std::shared_ptr<const GameView>>> inbox_;  // guarded
  bool drain_posted_ = false;                                                // guarded
  int generation_ = 0;  // of the game started last (GUI thread)
  std::atomic<bool> frame_pending_{false};
  // The newest frame not offered to the GUI (dropped above), shown when the game is held so that
  // the live view shows the frame the game stopped at.
  std::mutex dropped_mutex_;
  struct Dropped {
    int generation = 0;  // of its game
    long number = 0;     // of the frame in its game
    FrameSeen frame;
  };
  std::optional<Dropped> dropped_;  // guarded
  void show_dropped_frame();
  long frame_number_ = 0;  // worker thread: frames offered in the current game
  long shown_frame_ = 0;   // GUI thread: the number of the frame the live view shows (a frame
                           // posted before the game was held may arrive after the dropped one)
  double last_frame_posted_ms_ = 0;  // worker thread only
  std::atomic<int> frames_{0};
  std::shared_ptr<std::atomic<int>> url_test_generation_ = std::make_shared<std::atomic<int>>(0);
  std::thread url_test_;
  bool can_undo_ = false;
  bool can_redo_ = false;
  std::optional<s::GameId> resume_game_;
  wxString pending_log_;
  int pending_lines_ = 0;
  FrameStats stats_;
  Preferences prefs_;
  std::chrono::steady_clock::time_point launched_;
};

}  // namespace arbitre::gui
