// A small choice asked of the user (a pion's colour, a die's value). The panels ask through this
// function so that the GUI test can answer in place of the popup menu and still go through the
// panels' own click handlers.
#pragma once

#include <functional>
#include <optional>

#include <wx/arrstr.h>
#include <wx/string.h>
#include <wx/window.h>

namespace arbitre::gui {

// Returns the index of the choice made, or nullopt when the user dismissed it.
using Chooser = std::function<std::optional<int>(wxWindow* parent, const wxString& title,
                                                 const wxArrayString& choices)>;

// The default: a popup menu at the mouse.
std::optional<int> popup_chooser(wxWindow* parent, const wxString& title, const wxArrayString& choices);

}  // namespace arbitre::gui
