// Reading the screen back from the X server, for the GUI test's screenshots.
#pragma once

#include <wx/gdicmn.h>
#include <wx/image.h>

namespace arbitre::app::gui::companion::testing {

// The pixels of a rectangle of the default display's root window; an invalid image when the
// display cannot be opened or read.
wxImage grab_screen(const wxRect& rect);

}  // namespace arbitre::app::gui::companion::testing
