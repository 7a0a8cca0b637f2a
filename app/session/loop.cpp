#include "app/session/loop.h"

namespace arbitre::app::session {

LoopEnd run_loop(Session& session, ObservationSource& source, const LoopHooks& hooks) {
  while (true) {
    if (hooks.stop_requested && hooks.stop_requested()) return LoopEnd::Interrupted;
    if (hooks.poll_command) {
      while (const auto line = hooks.poll_command()) {
        if (*line == "quit") return LoopEnd::Quit;
        session.command(*line);
        if (session.over()) return LoopEnd::Over;
      }
    }
    if (session.over()) return LoopEnd::Over;
    const SourceStep step = source.next();
    if (step.kind == SourceStep::Kind::Ended) return LoopEnd::SourceEnded;
    if (step.kind == SourceStep::Kind::Command && step.text == "quit") return LoopEnd::Quit;
    session.step(step);
    if (session.over()) return LoopEnd::Over;
  }
}

std::string end_reason(LoopEnd end, const Session& session) {
  switch (end) {
    case LoopEnd::Over:
      return session.abandoned() ? "abandoned" : "game-over";
    case LoopEnd::SourceEnded:
      return "end-of-source";
    case LoopEnd::Quit:
      return "quit";
    case LoopEnd::Interrupted:
      return "interrupted";
  }
  return "";
}

}  // namespace arbitre::app::session
