#include "app/gui/yams_panel.h"

#include <algorithm>

#include <wx/dcbuffer.h>
#include <wx/intl.h>

#include "app/gui/paint.h"
#include "referee/yams/boxes.h"
#include "scoring/yams/advisor.h"
#include "scoring/yams/sheet.h"

namespace arbitre::gui {

namespace {
namespace ry = referee::yams;
namespace sy = scoring::yams;
wxString utf8(std::string_view text) { return wxString::FromUTF8(text.data(), text.size()); }
}  // namespace

YamsPanel::YamsPanel(wxWindow* parent, std::function<void(std::string)> send)
    : wxPanel(parent, wxID_ANY), send_(std::move(send)) {
  SetBackgroundStyle(wxBG_STYLE_PAINT);
  SetMinSize(FromDIP(wxSize(420, 560)));
  Bind(wxEVT_PAINT, &YamsPanel::on_paint, this);
  Bind(wxEVT_LEFT_DOWN, &YamsPanel::on_left_down, this);
  Bind(wxEVT_RIGHT_DOWN, &YamsPanel::on_right_down, this);
  // The sheet in order, each section followed by its total.
  for (int i = 0; i < ry::kBoxCount; ++i) {
    const ry::Box box = ry::box_at(i);
    if (box == ry::Box::Brelan) {
      rows_.push_back(Total::Chiffres);
      rows_.push_back(Total::Bonus);
      rows_.push_back(Total::Total1);
    } else if (box == ry::Box::SuiteRidicule) {
      rows_.push_back(Total::Total2);
    } else if (box == ry::Box::DoubleBrelan) {
      rows_.push_back(Total::Total3);
    } else if (box == ry::Box::Plus) {
      rows_.push_back(Total::Total4);
    }
    rows_.push_back(box);
  }
  rows_.push_back(Total::Total5);
  rows_.push_back(Total::Grand);
}

wxString YamsPanel::total_name(Total total) {
  switch (total) {
    case Total::Chiffres:
      return _("Chiffres");
    case Total::Bonus:
      return _("Bonus (330 or more)");
    case Total::Total1:
      return _("Total 1");
    case Total::Total2:
      return _("Total 2 (Yams)");
    case Total::Total3:
      return _("Total 3 (Suites)");
    case Total::Total4:
      return _("Total 4 (Combinaisons)");
    case Total::Total5:
      return _("Total 5 (Différence)");
    case Total::Grand:
      return _("Grand total");
  }
  return {};
}

wxString YamsPanel::advise() {
  if (!game_ || !game_->yams || game_->over) return _("No Yams game is running.");
  const ry::State& state = *game_->yams;
  if (state.turn.rolls == 0) return _("Advice: roll the ten dice first.");
  // The same seed for the same turn: asking twice gives the same advice.
  scoring::Rng rng(0x5eed0000ULL + static_cast<std::uint64_t>(state.sheets[state.player].filled_count()) * 8 +
                   static_cast<std::uint64_t>(state.turn.rolls));
  const sy::Advice advice = sy::advise(state, {}, rng);
  advice_ = advice.best;
  advised_turn_ = state.turn;
  advised_player_ = state.player;
  Refresh(false);
  wxString kept;
  for (int i = 0; i < ry::kDiceCount; ++i) {
    if ((advice.best.keep >> i) & 1u) kept += wxString::Format("%s%d", kept.empty() ? "" : " ", state.turn.dice[i].value);
  }
  // TRANSLATORS: the dice to keep, when the advice is to keep none.
  if (kept.empty()) kept = _("no die");
  const wxString box = utf8(ry::display_name(advice.best.box));
  switch (advice.best.action) {
    case sy::Action::Fill:
      return wxString::Format(_("Advice: fill %s for %d points (expected final total %.0f)"), box, advice.best.points,
                              advice.best.expected);
    case sy::Action::Declare:
      return wxString::Format(_("Advice: declare a sixth roll for %s, keeping %s (expected final total %.0f ± %.0f)"),
                              box, kept, advice.best.expected, advice.best.std_error);
    case sy::Action::Roll:
      break;
  }
  return wxString::Format(_("Advice: keep %s and roll again (expected final total %.0f ± %.0f)"), kept,
                          advice.best.expected, advice.best.std_error);
}

void YamsPanel::show_game(std::shared_ptr<const GameView> game) {
  game_ = std::move(game);
  Refresh(false);
}

std::vector<int> YamsPanel::shown_totals() const {
  std::vector<int> totals;
  if (!game_ || !game_->yams) return totals;
  for (const ry::Sheet& sheet : game_->yams->sheets) totals.push_back(scoring::yams::totals(sheet).grand);
  return totals;
}

YamsPanel::Layout YamsPanel::layout(const wxSize& size) const {
  Layout l;
  const int line = GetCharHeight();
  l.dice_top = 8 + 2 * (line + 4);
  l.die_side = std::clamp((size.x - 16) / 11 - 4, 16, 44);
  l.die_step = l.die_side + 6;
  l.sheet_top = l.dice_top + l.die_side + 12;
  const int rows = static_cast<int>(rows_.size()) + 1;
  l.row_height = std::max(8, std::min(line + 6, (size.y - l.sheet_top - 4) / rows));
  l.font = GetFont();
  int text_height = 0;
  for (int i = 0; i < 6; ++i) {
    GetTextExtent("Yg", nullptr, &text_height, nullptr, nullptr, &l.font);
    if (text_height <= l.row_height || l.font.GetPointSize() <= 6) break;
    l.font.SetPointSize(l.font.GetPointSize() - 1);
  }
  const int players = game_ && game_->yams ? static_cast<int>(game_->yams->sheets.size()) : 1;
  const wxFont bold = l.font.Bold();
  l.name_width = 0;
  for (const Row& row : rows_) {
    const wxString name = std::holds_alternative<ry::Box>(row) ? utf8(ry::display_name(std::get<ry::Box>(row)))
                                                               : total_name(std::get<Total>(row));
    int w = 0;
    GetTextExtent(name, &w, nullptr, nullptr, nullptr, &bold);
    l.name_width = std::max(l.name_width, w + 12);
  }
  l.name_width = std::min(l.name_width, size.x / 2);
  l.column_width = std::max(40, (size.x - l.name_width - 8) / (players + 1));
  return l;
}

std::optional<wxPoint> YamsPanel::die_centre(int die) const {
  if (die < 0 || die >= ry::kDiceCount) return std::nullopt;
  const Layout l = layout(GetClientSize());
  return wxPoint(8 + die * l.die_step + l.die_side / 2 + (die >= 5 ? 10 : 0), l.dice_top + l.die_side / 2);
}

std::optional<wxPoint> YamsPanel::box_centre(ry::Box box) const {
  if (!game_ || !game_->yams) return std::nullopt;
  const Layout l = layout(GetClientSize());
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    if (const auto* b = std::get_if<ry::Box>(&rows_[r]); b && *b == box) {
      return wxPoint(4 + l.name_width + game_->yams->player * l.column_width + l.column_width / 2,
                     l.sheet_top + static_cast<int>(r + 1) * l.row_height + l.row_height / 2);
    }
  }
  return std::nullopt;
}

void YamsPanel::on_paint(wxPaintEvent&) {
  wxAutoBufferedPaintDC dc(this);
  render(dc, GetClientSize());
}

void YamsPanel::render(wxDC& dc, const wxSize& size) const {
  dc.SetBackground(wxBrush(to_wx(palette_.background)));
  dc.Clear();
  dc.SetFont(GetFont());
  dc.SetTextForeground(to_wx(palette_.text));
  if (!game_ || !game_->yams) {
    dc.DrawText(_("Le Yams impossible: no game yet"), 8, 8);
    return;
  }
  const ry::State& state = *game_->yams;
  const ry::Turn& turn = state.turn;
  const Layout l = layout(size);
  const int line = GetCharHeight() + 4;
  const wxString to_move = static_cast<std::size_t>(state.player) < game_->players.size()
                               ? wxString::FromUTF8(game_->players[state.player])
                               : wxString();
  dc.SetFont(GetFont().Bold());
  if (game_->over)
    dc.DrawText(_("Game over"), 8, 8);
  else
    dc.DrawText(wxString::Format(_("%s to play — roll %d of 5"), to_move, turn.rolls), 8, 8);
  dc.SetFont(GetFont());
  wxString second;
  if (game_->over) {
    int best = 0;
    for (std::size_t p = 1; p < state.sheets.size(); ++p) {
      if (scoring::yams::totals(state.sheets[p]).grand > scoring::yams::totals(state.sheets[best]).grand) best = static_cast<int>(p);
    }
    if (static_cast<std::size_t>(best) < game_->players.size())
      second = wxString::Format(_("%s has the best sheet"), wxString::FromUTF8(game_->players[best]));
  } else if (turn.declared)
    second = wxString::Format(_("Sixth roll declared for %s"), utf8(ry::display_name(*turn.declared)));
  else if (turn.rolls > 0)
    second = _("Click an empty box of your column to fill it; click a die to correct it");
  else
    second = _("Waiting for the first roll");
  dc.DrawText(second, 8, 8 + line);

  // The dice on the table (the turn's), kept dice with a yellow border.
  if (turn.rolls > 0 && !game_->over) {
    for (int i = 0; i < ry::kDiceCount; ++i) {
      const wxPoint c = *die_centre(i);
      draw_die(dc, c.x, c.y, l.die_side, turn.dice[i], (turn.aside >> i) & 1u);
    }
    // The advised keep, while the dice are those it was asked for.
    if (advice_ && advice_->action != sy::Action::Fill && advised_turn_ == turn && advised_player_ == state.player) {
      dc.SetPen(wxPen(to_wx(palette_.highlight), 3, wxPENSTYLE_SHORT_DASH));
      dc.SetBrush(*wxTRANSPARENT_BRUSH);
      const int side = l.die_side + 8;
      for (int i = 0; i < ry::kDiceCount; ++i) {
        if (!((advice_->keep >> i) & 1u)) continue;
        const wxPoint c = *die_centre(i);
        dc.DrawRoundedRectangle(c.x - side / 2, c.y - side / 2, side, side, side / 6.0);
      }
    }
  }

  // The sheet.
  const std::size_t players = state.sheets.size();
  const int x_names = 4;
  const int x_cols = x_names + l.name_width;
  const int now_col = static_cast<int>(players);
  int y = l.sheet_top;
  dc.SetFont(l.font.Bold());
  for (std::size_t p = 0; p < players; ++p) {
    const wxString name = p < game_->players.size() ? wxString::FromUTF8(game_->players[p]) : wxString();
    dc.DrawText(name, x_cols + static_cast<int>(p) * l.column_width + 4, y);
  }
  // TRANSLATORS: sheet column: what each empty box would score with the dice on the table now.
  dc.DrawText(_("now"), x_cols + now_col * l.column_width + 4, y);
  dc.SetFont(l.font);
  const bool rolled = turn.rolls > 0 && !game_->over;
  const ry::BoxScores now = rolled ? ry::score_all(turn.dice, turn.rolls == 1) : ry::BoxScores{};
  std::vector<scoring::yams::Totals> totals;
  for (const ry::Sheet& sheet : state.sheets) totals.push_back(scoring::yams::totals(sheet));
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    y = l.sheet_top + static_cast<int>(r + 1) * l.row_height;
    const bool is_total = std::holds_alternative<Total>(rows_[r]);
    if (is_total) {
      dc.SetPen(*wxTRANSPARENT_PEN);
      dc.SetBrush(wxBrush(to_wx(palette_.total_row)));
      dc.DrawRectangle(x_names, y, x_cols + (now_col + 1) * l.column_width - x_names, l.row_height);
    } else if (!game_->over) {  // the column of the player to move
      dc.SetPen(*wxTRANSPARENT_PEN);
      dc.SetBrush(wxBrush(to_wx(palette_.current_column)));
      dc.DrawRectangle(x_cols + state.player * l.column_width, y, l.column_width, l.row_height);
    }
    dc.SetPen(wxPen(to_wx(palette_.line)));
    dc.DrawLine(x_names, y, x_cols + (now_col + 1) * l.column_width, y);
    dc.SetTextForeground(to_wx(palette_.text));
    const int text_y = y + (l.row_height - dc.GetCharHeight()) / 2;
    if (const auto* box = std::get_if<ry::Box>(&rows_[r])) {
      dc.DrawText(utf8(ry::display_name(*box)), x_names + 4, text_y);
      for (std::size_t p = 0; p < players; ++p) {
        const auto& entry = state.sheets[p].boxes[ry::index(*box)];
        if (entry) dc.DrawText(wxString::Format("%d", entry->score), x_cols + static_cast<int>(p) * l.column_width + 4, text_y);
      }
      if (rolled && !state.sheets[state.player].filled(*box)) {
        dc.SetTextForeground(to_wx(palette_.dim_text));
        dc.DrawText(wxString::Format("%d", now[ry::index(*box)]), x_cols + now_col * l.column_width + 4, text_y);
      }
    } else {
      const Total total = std::get<Total>(rows_[r]);
      const wxString name = total_name(total);
      dc.SetFont(l.font.Bold());
      dc.DrawText(name, x_names + 4, text_y);
      for (std::size_t p = 0; p < players; ++p) {
        const scoring::yams::Totals& t = totals[p];
        const int value = total == Total::Chiffres ? t.chiffres
                          : total == Total::Bonus  ? t.bonus
                          : total == Total::Total1 ? t.total1
                          : total == Total::Total2 ? t.total2
                          : total == Total::Total3 ? t.total3
                          : total == Total::Total4 ? t.total4
                          : total == Total::Total5 ? t.total5
                                                   : t.grand;
        dc.DrawText(wxString::Format("%d", value), x_cols + static_cast<int>(p) * l.column_width + 4, text_y);
      }
      dc.SetFont(l.font);
    }
  }
}

std::optional<ry::Box> YamsPanel::box_at(const wxPoint& p) const {
  if (!game_ || !game_->yams) return std::nullopt;
  const ry::State& state = *game_->yams;
  const Layout l = layout(GetClientSize());
  const int x_cols = 4 + l.name_width;
  const int column = p.x >= x_cols ? (p.x - x_cols) / l.column_width : -1;
  if (column != state.player && column != static_cast<int>(state.sheets.size())) return std::nullopt;
  const int r = (p.y - l.sheet_top) / l.row_height - 1;
  if (p.y < l.sheet_top || r < 0 || r >= static_cast<int>(rows_.size())) return std::nullopt;
  if (const auto* box = std::get_if<ry::Box>(&rows_[r])) return *box;
  return std::nullopt;
}

void YamsPanel::on_right_down(wxMouseEvent& event) {
  if (!game_ || !game_->yams || game_->over) return;
  // The session says why when it cannot be declared (not after the fifth roll, a chiffre, ...).
  if (const auto box = box_at(event.GetPosition())) send_("declare " + std::string(ry::id(*box)));
}

std::optional<std::string> ask_die_fix(wxWindow* parent, const Chooser& chooser, int die, ry::Die now) {
  wxArrayString choices;
  for (int v = 1; v <= ry::kFaces; ++v) choices.Add(wxString::Format("%d", v));
  const auto choice = chooser(parent, wxString::Format(_("Die %d shows:"), die + 1), choices);
  if (!choice) return std::nullopt;
  now.value = static_cast<std::uint8_t>(*choice + 1);
  return "fix die " + std::to_string(die) + " " + ry::to_text(now);
}

void YamsPanel::on_left_down(wxMouseEvent& event) {
  if (!game_ || !game_->yams || game_->over) return;
  const ry::State& state = *game_->yams;
  const wxPoint p = event.GetPosition();
  const Layout l = layout(GetClientSize());
  if (state.turn.rolls > 0) {
    for (int i = 0; i < ry::kDiceCount; ++i) {
      const wxPoint c = *die_centre(i);
      if (std::abs(p.x - c.x) > l.die_side / 2 || std::abs(p.y - c.y) > l.die_side / 2) continue;
      if (const auto line = ask_die_fix(this, chooser_, i, state.turn.dice[i])) send_(*line);
      return;
    }
  }
  if (const auto box = box_at(p); box && !state.sheets[state.player].filled(*box)) {
    send_("box " + std::string(ry::id(*box)));
  }
}

}  // namespace arbitre::gui
