// The GUI test (`arbitre-gui --self-test DIR`): plays both bundled demos through the window as a
// user would, corrects a pion and a die by clicking the panels (the click handlers run, a test
// chooser answers in place of the popup menu), undoes each with the Undo button, redoes it (the
// Redo button, the Edit menu) and undoes it again, corrects the pion and the die once more by
// clicking them on the live view, checks that the
// final Irma score and the Yams sheets shown equal the demos' ground truth, and saves
// screenshots of the window and of each panel into DIR. Exit status 0 only when all holds.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <wx/bitmap.h>
#include <wx/button.h>
#include <wx/event.h>
#include <wx/string.h>
#include <wx/process.h>
#include <wx/timer.h>

namespace arbitre::gui {

class MainFrame;
struct StartRequest;

class SelfTest : public wxEvtHandler {
 public:
  // `done` is called once with the exit status. `timing_only`: the timing harness instead
  // (`--timing DIR`): the Irma demo played at its recording's pace, the figures written to
  // DIR/timing-irma-realtime.txt, nothing checked but that it played to the end.
  // `camera_server`: the network-camera test instead (`--camera-test SCRIPT`): SCRIPT
  // (tests/gui/mjpeg_server.py) serves the Irma recording as MJPEG over HTTP, stops answering
  // mid-game and comes back when asked; the test checks that the window says the camera is lost,
  // that the game is kept, and that play goes on to the recording's score once it is back.
  SelfTest(MainFrame* frame, const wxString& out_dir, std::function<void(int)> done, bool timing_only = false,
           const wxString& camera_server = {});
  ~SelfTest() override;

 private:
  enum class Phase {
    StartIrma, IrmaPause, IrmaIdle, IrmaCorrected, IrmaUndone, IrmaRedone, IrmaUndoneAgain, IrmaLive,
    IrmaLiveCorrected, IrmaLiveUndone, IrmaRefused, IrmaEnd,
    StartYams, YamsPause, YamsIdle, YamsCorrected, YamsUndone, YamsRedone, YamsUndoneAgain, YamsLive,
    YamsLiveCorrected, YamsLiveUndone, YamsEnd, History, Preferences, SequenceStart, SequenceEnd, TimingStart, TimingEnd, TimingCameraStart, TimingCameraEnd,
    CameraStart, CameraPort, CameraLost, CameraBack, CameraEnd, Finished
  };
  void tick(wxTimerEvent&);
  void step();
  void fail(const std::string& why);
  void check(bool ok, const std::string& what);
  void screenshot(const std::string& name);
  void report_shown();
  // The Irma demo recording opened as an image sequence (the camera path), with the demo's
  // players, into a fresh store `store_name` in the output folder; none if the recording is
  // missing (a failed check).
  std::optional<StartRequest> sequence_request(const std::string& store_name, bool realtime);
  void click_button(wxButton* button);
  // An Edit menu item (Undo, Redo: the command their keyboard shortcuts send).
  void click_menu(int id);
  // A left click at `at` (client coordinates) through the window's own mouse handler.
  void click_at(wxWindow* window, const wxPoint& at);
  void check_played_to_the_end(const std::string& game);
  void write_timing(const std::string& game);

  MainFrame* frame_;
  wxString out_dir_;
  std::function<void(int)> done_;
  wxTimer timer_;
  Phase phase_ = Phase::StartIrma;
  int wait_ = 0;          // ticks spent in the phase
  int settle_ = 0;        // ticks to wait after the worker went idle
  int die_ = 0;           // the die being corrected
  int corrections_ = 0;   // counters when the phase began
  int refusals_ = 0;
  std::string saved_;     // the board or dice before the correction, as text
  int undos_before_ = 0;  // undos of the game before the correction (the recorded players undo too)
  std::string fixed_;     // and after it
  int other_ = 0;         // the colour the Irma correction chooses (index in kAllColours)
  int choice_ = 0;        // the face the Yams correction chooses (index in 1..10)
  int failures_ = 0;
  long started_ms_ = 0;
  // The network-camera test.
  wxString camera_server_;
  wxProcess* server_ = nullptr;  // the MJPEG server (tests/gui/mjpeg_server.py)
  bool server_running_ = false;
  std::string port_file_, resume_file_, camera_store_;
  std::string shown_file_;  // the pions the window shows, for the server (report_shown)
  int shown_ = -1;
  struct TruthPoint {
    long frame = 0;  // the last frame of a placement's shot
    int score = 0;   // after it
    int pions = 0;   // on the board after it
  };
  TruthPoint drop_, last_;  // the table when the camera stops answering, and at its last frame
};

}  // namespace arbitre::gui
