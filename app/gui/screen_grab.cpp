#include "app/gui/screen_grab.h"

// Last: Xlib defines macros (None, Status, Bool) that other headers use as names.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

namespace arbitre::gui {

wxImage grab_screen(const wxRect& rect) {
  Display* display = XOpenDisplay(nullptr);
  if (!display) return {};
  XImage* shot = XGetImage(display, DefaultRootWindow(display), rect.x, rect.y,
                           static_cast<unsigned>(rect.width), static_cast<unsigned>(rect.height), AllPlanes,
                           ZPixmap);
  wxImage image;
  if (shot) {
    image.Create(rect.width, rect.height);
    // One channel of a pixel, by its mask, scaled to 0..255.
    const auto channel = [](unsigned long pixel, unsigned long mask) {
      int shift = 0;
      while (mask && !(mask & 1)) {
        mask >>= 1;
        ++shift;
      }
      return static_cast<unsigned char>(mask ? ((pixel >> shift) & mask) * 255 / mask : 0);
    };
    for (int y = 0; y < rect.height; ++y) {
      for (int x = 0; x < rect.width; ++x) {
        const unsigned long pixel = XGetPixel(shot, x, y);
        image.SetRGB(x, y, channel(pixel, shot->red_mask), channel(pixel, shot->green_mask),
                     channel(pixel, shot->blue_mask));
      }
    }
    XDestroyImage(shot);
  }
  XCloseDisplay(display);
  return image;
}

}  // namespace arbitre::gui
