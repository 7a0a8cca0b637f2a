// The game behind the window: a session (app/session) fed by its source on a worker thread.
// No wx here: the window gives callbacks, called on the worker thread, that forward what
// happened to the GUI thread. The GUI thread only ever sets flags and queues command lines; it
// never waits on the camera.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/session/demo.h"
#include "app/session/events.h"
#include "app/session/irma_game.h"
#include "app/session/loop.h"
#include "app/session/session.h"
#include "app/session/source.h"

namespace arbitre::gui {

namespace s = app::session;

// What the panels draw: a copy of the game taken on the worker thread right after an event, so
// the GUI thread never reads the session while the worker changes it.
struct GameView {
  s::GameKind kind = s::GameKind::Irma;
  std::vector<std::string> players;
  // Irma
  std::vector<s::IrmaGame::Player> irma;
  std::size_t current = 0;
  std::optional<s::ri::Colour> expected_colour;
  // The cells where the current player's pion in hand (the refused one, else the colour to
  // place) may go, as the referee says (referee::irma::legal_cells); empty when neither is known.
  std::vector<s::ri::Cell> legal_cells;
  // Yams
  std::optional<s::ry::State> yams;
  s::ry::Dice seen{};
  bool yams_rolled = false;  // the current turn has a roll on the table
  bool can_undo = false;
  bool can_redo = false;
  bool over = false;
};

// One frame as the source delivered it to the session: the step (with what the detector read,
// and the frame itself in step.picture when the camera source keeps pictures) and, for the
// demo recording (a scripted source without pictures), the image file the frame came from.
struct FrameSeen {
  s::SourceStep step;
  std::string image_path;  // empty: none (the picture, if any, is step.picture)
  // Steady clock, milliseconds: when the frame was captured (step.picture's captured_ms, the
  // moment the camera source read it; without a picture, when the source was asked for the
  // frame), and when the observation came back (read, decoded and recognised).
  double captured_ms = 0;
  double recognised_ms = 0;
};

struct RunnerSetup {
  s::SessionOptions options;
  std::unique_ptr<s::ObservationSource> source;
  // The source reads files NNNN.jpg from this printf pattern, one per observation (the demo
  // recording, an image sequence): the live view shows them. Empty: none.
  std::string image_pattern;
  std::string store_path;  // the SQLite file; empty: no store (nothing kept)
  // A recorded Yams demo's players: they hear every event (and answer through the source).
  std::shared_ptr<s::RecordedPlayers> table;
  // A running game of that store to resume (its log replayed) instead of starting a new one.
  std::optional<s::GameId> resume;
  bool realtime = false;   // wait for each observation's time (a recording played at its pace)
  // Hold the game right after the first event for which this holds (see Runner::pause_when);
  // given here, it is in place before the worker starts.
  std::function<bool(const s::Event&, const GameView&)> pause_when;
};

struct RunnerCallbacks {
  // An event of the session, with the game as it is after it. Worker thread.
  std::function<void(const s::Event&, std::shared_ptr<const GameView>)> on_event;
  // A frame the session is about to see. Worker thread; keep it short.
  std::function<void(FrameSeen)> on_frame;
  // The loop ended (`reason` as end_reason says it, or the error that stopped it). Worker thread.
  std::function<void(std::string reason, std::string error)> on_end;
};

class Runner {
 public:
  Runner(RunnerSetup setup, RunnerCallbacks callbacks);
  ~Runner();  // asks the worker to stop and joins it
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // A command line for the session (`fix cell 2 3 green`, `undo`, `box brelan`); the worker
  // runs it between two frames.
  void send(std::string line);
  void set_paused(bool paused) { paused_ = paused; }
  // Pauses the game on the worker thread right after the first event for which `when` holds,
  // before the next frame is read (step by step play; the GUI test stops at a chosen point).
  void pause_when(std::function<bool(const s::Event&, const GameView&)> when);
  bool paused() const { return paused_; }
  // True once the worker has seen the pause request and waits (the test corrects then).
  bool idle() const { return idle_; }
  void request_stop() { stop_ = true; }
  bool finished() const { return finished_; }

 private:
  class Tap;
  void run();
  std::shared_ptr<const GameView> view() const;
  std::optional<std::string> poll();
  bool commands_pending();

  RunnerSetup setup_;
  RunnerCallbacks callbacks_;
  std::unique_ptr<s::Session> session_;
  std::mutex mutex_;
  std::deque<std::string> commands_;
  std::function<bool(const s::Event&, const GameView&)> pause_when_;  // guarded by mutex_
  std::atomic<bool> paused_{false};
  std::atomic<bool> idle_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread worker_;
};

// The printf pattern `pattern` (one %d-style field) for frame `index`.
std::string frame_path(const std::string& pattern, long index);
// The first index of an image sequence that exists (OpenCV's image reader starts there), or -1.
long first_frame_index(const std::string& pattern);

}  // namespace arbitre::gui
