#include "app/gui/runner.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>

#include "app/session/yams_game.h"
#include "data/store/store.h"

namespace arbitre::gui {

std::string frame_path(const std::string& pattern, long index) {
  std::vector<char> buffer(pattern.size() + 32);
  std::snprintf(buffer.data(), buffer.size(), pattern.c_str(), index);
  return buffer.data();
}

long first_frame_index(const std::string& pattern) {
  for (long i = 0; i < 100; ++i) {
    std::error_code error;
    if (std::filesystem::exists(frame_path(pattern, i), error)) return i;
  }
  return -1;
}

// Between the source and the session: reports each step to the window (with the image file an
// image sequence read it from), paces a recording to its clock, and holds the game while paused
// (the session sees Waiting steps then, so the loop keeps taking commands). It reads no pixel and
// detects nothing: the observation is the source's.
class Runner::Tap : public s::ObservationSource {
 public:
  Tap(Runner& runner, s::ObservationSource& inner) : runner_(runner), inner_(inner) {
    if (!runner_.setup_.image_pattern.empty()) next_index_ = first_frame_index(runner_.setup_.image_pattern);
  }

  s::SourceStep next() override {
    while (runner_.paused_ && !runner_.stop_) {
      runner_.idle_ = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (runner_.commands_pending()) {  // let the loop take the commands
        s::SourceStep waiting;
        waiting.kind = s::SourceStep::Kind::Waiting;
        return waiting;
      }
    }
    runner_.idle_ = false;
    // A recording at its own pace: wait until the next frame is due (the last frame's time plus
    // the last interval between frames), as a camera would deliver it, then read it.
    if (runner_.setup_.realtime && clock_zero_ && last_seconds_) {
      std::this_thread::sleep_until(*clock_zero_ + to_duration(*last_seconds_ + interval_));
    }
    const double asked = now_ms();
    s::SourceStep step = inner_.next();
    const double recognised = now_ms();
    if (step.kind != s::SourceStep::Kind::Observation) return step;
    if (!clock_zero_) clock_zero_ = std::chrono::steady_clock::now() - to_duration(step.seconds);
    if (last_seconds_ && step.seconds > *last_seconds_) interval_ = step.seconds - *last_seconds_;
    last_seconds_ = step.seconds;
    if (runner_.callbacks_.on_frame) {
      FrameSeen seen;
      seen.step = step;
      if (next_index_ >= 0) seen.image_path = frame_path(runner_.setup_.image_pattern, next_index_++);
      seen.captured_ms = step.picture ? step.picture->captured_ms : asked;
      seen.recognised_ms = recognised;
      runner_.callbacks_.on_frame(std::move(seen));
    } else if (next_index_ >= 0) {
      ++next_index_;
    }
    return step;
  }

 private:
  static double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  static std::chrono::steady_clock::duration to_duration(double seconds) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(seconds));
  }

  Runner& runner_;
  s::ObservationSource& inner_;
  long next_index_ = -1;
  std::optional<std::chrono::steady_clock::time_point> clock_zero_;
  std::optional<double> last_seconds_;
  double interval_ = 0;
};

Runner::Runner(RunnerSetup setup, RunnerCallbacks callbacks)
    : setup_(std::move(setup)), callbacks_(std::move(callbacks)) {
  pause_when_ = std::move(setup_.pause_when);
  worker_ = std::thread([this] { run(); });
}

Runner::~Runner() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

void Runner::pause_when(std::function<bool(const s::Event&, const GameView&)> when) {
  std::lock_guard lock(mutex_);
  pause_when_ = std::move(when);
}

void Runner::send(std::string line) {
  std::lock_guard lock(mutex_);
  commands_.push_back(std::move(line));
}

bool Runner::commands_pending() {
  std::lock_guard lock(mutex_);
  return !commands_.empty();
}

std::optional<std::string> Runner::poll() {
  std::lock_guard lock(mutex_);
  if (commands_.empty()) return std::nullopt;
  std::string line = std::move(commands_.front());
  commands_.pop_front();
  return line;
}

std::shared_ptr<const GameView> Runner::view() const {
  auto view = std::make_shared<GameView>();
  view->kind = setup_.options.kind;
  view->players = setup_.options.players;
  if (!session_) return view;
  view->over = session_->over();
  view->can_undo = session_->can_undo();
  view->can_redo = session_->can_redo();
  if (const s::IrmaGame* irma = session_->irma()) {
    view->irma = irma->players();
    view->current = irma->current();
    view->expected_colour = irma->expected_colour();
    if (!irma->players().empty() && !session_->over()) {
      const s::IrmaGame::Player& player = irma->players()[irma->current()];
      const std::optional<s::ri::Colour> hand = player.in_hand ? player.in_hand : view->expected_colour;
      if (hand) view->legal_cells = s::ri::legal_cells(player.state, *hand);
    }
    view->players.clear();
    for (const auto& player : irma->players()) view->players.push_back(player.name);
  }
  if (const s::YamsGame* yams = session_->yams()) {
    view->yams = yams->state();
    view->seen = yams->seen();
    view->yams_rolled = yams->state().turn.rolls > 0;
    view->players = yams->players();
  }
  return view;
}

void Runner::run() {
  std::string reason;
  std::string error;
  try {
    std::optional<data::store::Store> store;
    if (!setup_.store_path.empty()) store.emplace(data::store::Store::open(setup_.store_path));
    std::vector<s::Event> early;  // emitted by start(), before session_ is set
    auto listener = [&](const s::Event& event) {
      if (setup_.table) setup_.table->hear(event);
      if (!session_) {
        early.push_back(event);
        return;
      }
      const std::shared_ptr<const GameView> game = view();
      {
        std::lock_guard lock(mutex_);
        // Not while the players at a recorded table still have lines to type about this event:
        // held there, their correction would come after what is done during the pause.
        const bool answering = setup_.table && setup_.table->answering();
        if (pause_when_ && !answering && pause_when_(event, *game)) {
          pause_when_ = nullptr;
          paused_ = true;
        }
      }
      if (callbacks_.on_event) callbacks_.on_event(event, game);
    };
    if (setup_.resume && store)
      session_ = s::Session::resume(*store, *setup_.resume, setup_.options, listener);
    else
      session_ = s::Session::start(store ? &*store : nullptr, setup_.options, listener);
    if (callbacks_.on_event) {
      for (const s::Event& event : early) callbacks_.on_event(event, view());
    }
    Tap tap(*this, *setup_.source);
    s::LoopHooks hooks;
    hooks.poll_command = [this] { return poll(); };
    hooks.stop_requested = [this] { return stop_.load(); };
    const s::LoopEnd end = s::run_loop(*session_, tap, hooks);
    reason = s::end_reason(end, *session_);
    session_.reset();  // before the store it writes to
  } catch (const std::exception& e) {
    session_.reset();
    reason = "error";
    error = e.what();
  }
  finished_ = true;
  if (callbacks_.on_end) callbacks_.on_end(reason, error);
}

}  // namespace arbitre::gui
