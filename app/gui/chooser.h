// A small choice asked of the user (a pion's colour, a die's value). The panels ask through this
// function so that the GUI test can answer in place of the popup menu and still go through the
// panels' own click handlers.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <wx/arrstr.h>
#include <wx/string.h>
#include <wx/window.h>

#include "referee/irma/irma.h"
#include "referee/yams/dice.h"

namespace arbitre::gui {

// Returns the index of the choice made, or nullopt when the user dismissed it.
using Chooser = std::function<std::optional<int>(wxWindow* parent, const wxString& title,
                                                 const wxArrayString& choices)>;

// The default: a popup menu at the mouse.
std::optional<int> popup_chooser(wxWindow* parent, const wxString& title, const wxArrayString& choices);

// The correction menus, the same from the game panels and from the live view: what is at an Irma
// cell (a colour or no pion), what a die shows. The session command to send (`fix cell R C
// COLOUR`, `fix die N VALUE`), or nullopt when the user chose nothing.
std::optional<std::string> ask_cell_fix(wxWindow* parent, const Chooser& chooser, referee::irma::Cell cell);
std::optional<std::string> ask_die_fix(wxWindow* parent, const Chooser& chooser, int die, referee::yams::Die now);

}  // namespace arbitre::gui
