#include "app/gui/companion/tests/screen_grab.h"

// Xlib last: its macros (None, Status, Bool) would clash with wx's and the project's names.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

namespace arbitre::app::gui::companion::testing {

// XGetImage: under GTK 3, wxScreenDC keeps giving back its first picture.
wxImage grab_screen(const wxRect& rect) {
  Display* display = XOpenDisplay(nullptr);
  if (!display) return {};
  wxImage out;
  XImage* image = XGetImage(display, DefaultRootWindow(display), rect.x, rect.y,
                            static_cast<unsigned>(rect.width), static_cast<unsigned>(rect.height), AllPlanes, ZPixmap);
  if (image) {
    out.Create(rect.width, rect.height);
    const auto channel = [](unsigned long pixel, unsigned long mask) {
      if (mask == 0) return static_cast<unsigned char>(0);
      int shift = 0;
      while (!((mask >> shift) & 1u)) ++shift;
      const unsigned long max = mask >> shift;
      return static_cast<unsigned char>(((pixel & mask) >> shift) * 255 / max);
    };
    for (int y = 0; y < rect.height; ++y) {
      for (int x = 0; x < rect.width; ++x) {
        const unsigned long pixel = XGetPixel(image, x, y);
        out.SetRGB(x, y, channel(pixel, image->red_mask), channel(pixel, image->green_mask),
                   channel(pixel, image->blue_mask));
      }
    }
    XDestroyImage(image);
  }
  XCloseDisplay(display);
  return out;
}

}  // namespace arbitre::app::gui::companion::testing
