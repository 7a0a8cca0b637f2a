// Le Yams impossible's panel: the dice on the table (the kept ones marked), the roll counter,
// and the full sheet of every player — the 34 boxes, the five totals, the bonus and the grand
// total — with what each empty box would score now. A click on an empty box of the player to
// move fills it (`box ID`); a click on a die corrects its value (`fix die N VALUE`).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <wx/font.h>
#include <wx/panel.h>

#include "app/gui/chooser.h"
#include "app/gui/preferences.h"
#include "app/gui/runner.h"
#include "scoring/yams/advisor.h"

namespace arbitre::gui {

class YamsPanel : public wxPanel {
 public:
  YamsPanel(wxWindow* parent, std::function<void(std::string)> send);

  void show_game(std::shared_ptr<const GameView> game);
  void set_chooser(Chooser chooser) { chooser_ = std::move(chooser); }
  // The colours to paint with (the light or the dark appearance).
  void set_palette(const Palette& palette) {
    palette_ = palette;
    Refresh(false);
  }
  const Palette& colours() const { return palette_; }

  // The grand total shown for each player (for the test).
  std::vector<int> shown_totals() const;
  // Where die i and box b of the player to move are drawn, as last laid out.
  std::optional<wxPoint> die_centre(int die) const;
  std::optional<wxPoint> box_centre(s::ry::Box box) const;
  const GameView* game() const { return game_.get(); }
  // The advisor's choice for the player to move (scoring::yams::advise, the same as `arbitre
  // yams advise`): the dice to keep (outlined in blue dashes until the dice change), or the box
  // to fill or declare. A line in words for the log.
  wxString advise();
  const std::optional<scoring::yams::Option>& advice() const { return advice_; }

  void render(wxDC& dc, const wxSize& size) const;
  void on_left_down(wxMouseEvent& event);
  // Right click on a box: declares a sixth roll for it (`declare ID`).
  void on_right_down(wxMouseEvent& event);

 private:
  enum class Total { Chiffres, Bonus, Total1, Total2, Total3, Total4, Total5, Grand };
  using Row = std::variant<s::ry::Box, Total>;
  struct Layout {
    int dice_top = 0, die_side = 0, die_step = 0;
    int sheet_top = 0, row_height = 0, name_width = 0, column_width = 0;
    wxFont font;  // the sheet's, small enough for every row to fit
  };
  Layout layout(const wxSize& size) const;
  // The box under a point, in the column of the player to move or in "now".
  std::optional<s::ry::Box> box_at(const wxPoint& p) const;
  void on_paint(wxPaintEvent& event);

  std::function<void(std::string)> send_;
  Chooser chooser_ = popup_chooser;
  Palette palette_ = palette(false);
  std::shared_ptr<const GameView> game_;
  std::optional<scoring::yams::Option> advice_;
  s::ry::Turn advised_turn_;  // the turn the advice was for (drawn only while it is the same)
  int advised_player_ = -1;
  std::vector<Row> rows_;
  static wxString total_name(Total total);
};

}  // namespace arbitre::gui
