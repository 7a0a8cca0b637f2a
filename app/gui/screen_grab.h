// A part of the X screen as an image, read from the X server (for the GUI test's screenshots of
// whole windows, native controls included). Under GTK 3, wxScreenDC keeps returning its first
// picture, so Xlib is asked directly. Needs an X display (Xvfb in the tests).
#pragma once

#include <wx/gdicmn.h>
#include <wx/image.h>

namespace arbitre::gui {

// The pixels of `rect` (screen coordinates); an invalid image when there is no X display.
wxImage grab_screen(const wxRect& rect);

}  // namespace arbitre::gui
