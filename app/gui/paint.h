// Colours and small drawing helpers shared by the live view and the game panels.
#pragma once

#include <wx/colour.h>
#include <wx/dc.h>

#include "app/gui/preferences.h"
#include "referee/irma/irma.h"
#include "referee/yams/dice.h"

namespace arbitre::gui {

inline wxColour pion_colour(referee::irma::Colour colour) {
  switch (colour) {
    case referee::irma::Colour::Red:
      return {206, 40, 40};
    case referee::irma::Colour::Orange:
      return {240, 140, 20};
    case referee::irma::Colour::Green:
      return {40, 160, 60};
    case referee::irma::Colour::White:
      return {245, 245, 240};
  }
  return *wxBLACK;
}

inline wxColour die_colour(referee::yams::DieColour colour) {
  return colour == referee::yams::DieColour::Red ? wxColour(190, 30, 40) : wxColour(248, 248, 244);
}

inline wxColour die_text_colour(referee::yams::DieColour colour) {
  return colour == referee::yams::DieColour::Red ? *wxWHITE : *wxBLACK;
}

inline wxColour to_wx(Rgb c) { return {c.r, c.g, c.b}; }

inline const wxColour kFelt(28, 92, 60);
inline const wxColour kRefused(230, 20, 20);

// A die drawn as a rounded square centred at (x, y), its value written on it.
void draw_die(wxDC& dc, int x, int y, int side, const referee::yams::Die& die, bool marked);

}  // namespace arbitre::gui
