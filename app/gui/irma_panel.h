// Le jeu d'Irma's panel: the board of the player at the table as the game holds it (corrected
// cells marked, a refused placement in red), the score, the marker pile and the progress to the
// 5x7 rectangle. A click on a pion (or an empty cell next to the board) corrects it: the panel
// sends `fix cell R C COLOUR` to the session, which re-referees it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <wx/panel.h>

#include "app/gui/chooser.h"
#include "app/gui/overlay.h"
#include "app/gui/preferences.h"
#include "app/gui/runner.h"

namespace arbitre::gui {

class IrmaPanel : public wxPanel {
 public:
  IrmaPanel(wxWindow* parent, std::function<void(std::string)> send);

  void show_game(std::shared_ptr<const GameView> game);
  // A refused placement to draw in red until the next one (an empty one clears it).
  void show_refusal(Refusal refusal) {
    refusal_ = std::move(refusal);
    Refresh(false);
  }
  void set_chooser(Chooser chooser) { chooser_ = std::move(chooser); }
  // The colours to paint with (the light or the dark appearance).
  void set_palette(const Palette& palette) {
    palette_ = palette;
    Refresh(false);
  }
  const Palette& colours() const { return palette_; }
  // The advisor's cell for the pion to place (its colour asked when the game does not know it),
  // drawn in blue until the next move; a line in words for the log, empty when there is none.
  wxString advise();
  const std::optional<s::ri::Cell>& advice() const { return advice_; }

  // The centre of a game cell in the panel (client coordinates), as last drawn.
  std::optional<wxPoint> cell_centre(s::ri::Cell cell) const;
  // The score and pion count shown (for the test).
  int shown_score() const { return shown_score_; }
  const GameView* game() const { return game_.get(); }

  void render(wxDC& dc, const wxSize& size) const;
  // The click handler: finds the cell under the mouse and asks what is really there.
  void on_left_down(wxMouseEvent& event);

 private:
  struct Layout {
    int left = 0, top = 0, cell = 0;
    int row0 = 0, col0 = 0, rows = 0, cols = 0;
  };
  Layout layout(const wxSize& size) const;
  void on_paint(wxPaintEvent& event);

  std::function<void(std::string)> send_;
  Chooser chooser_ = popup_chooser;
  Palette palette_ = palette(false);
  std::shared_ptr<const GameView> game_;
  Refusal refusal_;
  std::optional<s::ri::Cell> advice_;
  int shown_score_ = 0;
};

}  // namespace arbitre::gui
