// The capture loop: the source's steps go to the session, commands typed meanwhile between
// them, until the game is over, the source ends, `quit` is typed or a stop is requested (Ctrl-C
// in the CLI, closing the window in the GUI). The GUI runs it on a worker thread.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "app/session/session.h"
#include "app/session/source.h"

namespace arbitre::app::session {

struct LoopHooks {
  // A command line typed since the last call, or nullopt (must not block).
  std::function<std::optional<std::string>()> poll_command;
  // True when the loop should stop now.
  std::function<bool()> stop_requested;
};

enum class LoopEnd {
  Over,         // the game is over or abandoned
  SourceEnded,  // the file, sequence or script has no more frames
  Quit,         // `quit` was typed
  Interrupted,  // stop_requested
};

LoopEnd run_loop(Session& session, ObservationSource& source, const LoopHooks& hooks);

// The word the CLI prints for the end of a session ("game-over", "abandoned", "end-of-source",
// "quit", "interrupted").
std::string end_reason(LoopEnd end, const Session& session);

}  // namespace arbitre::app::session
