// The session's events and the referee's reason codes in words, in the user's language (the
// strings are marked with _() and translated by the catalogues of po/).
#pragma once

#include <string_view>

#include <wx/string.h>

#include "app/session/events.h"

namespace arbitre::gui {

namespace s = app::session;

wxString colour_name(s::ri::Colour colour);
wxString series_name(s::ri::SeriesKind kind);
// An Irma or a session reason code ("carre", "pion-in-hand", ...) in words; `fallback` (the
// session's English message) for a code this version does not know.
wxString irma_reason(std::string_view code, const std::string& fallback = {});
wxString yams_reason(std::string_view code, const std::string& fallback = {});
wxString cell_text(s::ri::Cell cell);
// One line for the event log; empty for events not worth a line (Stable, Unstable).
wxString describe(const s::Event& event);

}  // namespace arbitre::gui
