#include "app/gui/irma_panel.h"

#include <algorithm>

#include <wx/dcbuffer.h>
#include <wx/intl.h>
#include <wx/menu.h>

#include "app/gui/paint.h"
#include "app/gui/words.h"
#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"

namespace arbitre::gui {

namespace {
constexpr int kHeaderLines = 4;
}

std::optional<int> popup_chooser(wxWindow* parent, const wxString& title, const wxArrayString& choices) {
  wxMenu menu(title);
  for (std::size_t i = 0; i < choices.size(); ++i) menu.Append(static_cast<int>(i) + 1, choices[i]);
  const int id = parent->GetPopupMenuSelectionFromUser(menu);
  if (id == wxID_NONE || id < 1) return std::nullopt;
  return id - 1;
}

IrmaPanel::IrmaPanel(wxWindow* parent, std::function<void(std::string)> send)
    : wxPanel(parent, wxID_ANY), send_(std::move(send)) {
  SetBackgroundStyle(wxBG_STYLE_PAINT);
  SetMinSize(FromDIP(wxSize(360, 420)));
  Bind(wxEVT_PAINT, &IrmaPanel::on_paint, this);
  Bind(wxEVT_LEFT_DOWN, &IrmaPanel::on_left_down, this);
}

void IrmaPanel::show_game(std::shared_ptr<const GameView> game) {
  if (game_ && game && !game_->irma.empty() && !game->irma.empty() &&
      game_->irma[game_->current].record.moves.size() != game->irma[game->current].record.moves.size()) {
    advice_.reset();  // a move was made: the advice was for the position before it
  }
  game_ = std::move(game);
  if (game_ && !game_->irma.empty()) shown_score_ = scoring::irma::score(game_->irma[game_->current].state);
  Refresh(false);
}

IrmaPanel::Layout IrmaPanel::layout(const wxSize& size) const {
  Layout l;
  const int line = GetCharHeight() + 4;
  const int top = 8 + kHeaderLines * line;
  const int bottom = 3 * line;  // the marker pile
  int bb_row = 0, bb_col = 0, bb_h = 0, bb_w = 0;
  if (game_ && !game_->irma.empty()) {
    const s::ri::Board& board = game_->irma[game_->current].state.board;
    if (!board.empty()) {
      bb_row = board.top_left().row;
      bb_col = board.top_left().col;
      bb_h = board.height();
      bb_w = board.width();
    }
  }
  l.rows = std::max(bb_h + 2, s::ri::kRectRows + 2);
  l.cols = std::max(bb_w + 2, s::ri::kRectCols + 2);
  l.row0 = bb_row - (l.rows - bb_h) / 2;
  l.col0 = bb_col - (l.cols - bb_w) / 2;
  l.cell = std::max(8, std::min((size.x - 16) / l.cols, (size.y - top - bottom) / l.rows));
  l.left = (size.x - l.cell * l.cols) / 2;
  l.top = top;
  return l;
}

std::optional<wxPoint> IrmaPanel::cell_centre(s::ri::Cell cell) const {
  const Layout l = layout(GetClientSize());
  const int r = cell.row - l.row0, c = cell.col - l.col0;
  if (r < 0 || c < 0 || r >= l.rows || c >= l.cols) return std::nullopt;
  return wxPoint(l.left + c * l.cell + l.cell / 2, l.top + r * l.cell + l.cell / 2);
}

void IrmaPanel::on_paint(wxPaintEvent&) {
  wxAutoBufferedPaintDC dc(this);
  render(dc, GetClientSize());
}

void IrmaPanel::render(wxDC& dc, const wxSize& size) const {
  dc.SetBackground(wxBrush(to_wx(palette_.background)));
  dc.Clear();
  dc.SetFont(GetFont());
  dc.SetTextForeground(to_wx(palette_.text));
  const int line = GetCharHeight() + 4;
  if (!game_ || game_->irma.empty()) {
    dc.DrawText(_("Le jeu d'Irma: no game yet"), 8, 8);
    return;
  }
  const s::IrmaGame::Player& player = game_->irma[game_->current];
  const s::ri::State& state = player.state;
  const int score = scoring::irma::score(state);
  const int pions = state.board.size();
  int y = 8;
  wxFont bold = GetFont().Bold();
  dc.SetFont(bold);
  dc.DrawText(wxString::Format(_("%s — score %d"), wxString::FromUTF8(player.name), score), 8, y);
  dc.SetFont(GetFont());
  y += line;
  dc.DrawText(wxString::Format(_("%d of 35 pions; the pions span %d x %d of the 5 x 7 rectangle"), pions,
                               std::min(state.board.height(), state.board.width()),
                               std::max(state.board.height(), state.board.width())),
              8, y);
  y += line;
  wxString status;
  if (state.status == s::ri::Status::Completed)
    status = _("Rectangle completed: +5 and the plus");
  else if (state.status == s::ri::Status::Blocked)
    status = _("Blocked: the game is over for this player");
  else if (player.in_hand)
    status = wxString::Format(_("Pion in hand (refused): %s"), colour_name(*player.in_hand));
  else if (game_->expected_colour)
    status = wxString::Format(_("Next pion to place: %s"), colour_name(*game_->expected_colour));
  else
    status = wxString::Format(_("Pions left in the bag: %d"), state.bag_size());
  dc.DrawText(status, 8, y);
  y += line;
  if (game_->irma.size() > 1) {
    wxString others;
    for (std::size_t p = 0; p < game_->irma.size(); ++p) {
      if (p == game_->current) continue;
      others += wxString::Format("%s %d  ", wxString::FromUTF8(game_->irma[p].name),
                                 scoring::irma::score(game_->irma[p].state));
    }
    dc.DrawText(wxString::Format(_("Other players: %s"), others), 8, y);
  }

  // The board: the lattice, the pions, corrected cells, the refusal.
  const Layout l = layout(size);
  dc.SetPen(wxPen(wxColour(190, 190, 190)));
  dc.SetBrush(wxBrush(wxColour(235, 228, 210)));
  dc.DrawRectangle(l.left, l.top, l.cols * l.cell, l.rows * l.cell);
  for (int r = 0; r <= l.rows; ++r) dc.DrawLine(l.left, l.top + r * l.cell, l.left + l.cols * l.cell, l.top + r * l.cell);
  for (int c = 0; c <= l.cols; ++c) dc.DrawLine(l.left + c * l.cell, l.top, l.left + c * l.cell, l.top + l.rows * l.cell);
  const auto centre = [&](s::ri::Cell cell) {
    return wxPoint(l.left + (cell.col - l.col0) * l.cell + l.cell / 2, l.top + (cell.row - l.row0) * l.cell + l.cell / 2);
  };
  const int radius = l.cell * 4 / 10;
  for (const auto& [cell, colour] : state.board.pions()) {
    dc.SetPen(wxPen(wxColour(60, 60, 60), 1));
    dc.SetBrush(wxBrush(pion_colour(colour)));
    dc.DrawCircle(centre(cell), radius);
    if (player.corrected.count(cell)) {
      dc.SetPen(wxPen(wxColour(30, 90, 220), 2));  // on the board's own light colour
      dc.SetBrush(*wxTRANSPARENT_BRUSH);
      dc.DrawRectangle(centre(cell).x - l.cell / 2 + 2, centre(cell).y - l.cell / 2 + 2, l.cell - 4, l.cell - 4);
    }
  }
  // Where the pion in hand may go: a small ring in the pion's colour on each legal cell.
  const std::optional<s::ri::Colour> hand = player.in_hand ? player.in_hand : game_->expected_colour;
  if (hand) {
    dc.SetPen(wxPen(wxColour(40, 140, 60), 2));
    dc.SetBrush(wxBrush(pion_colour(*hand)));
    for (const s::ri::Cell& cell : game_->legal_cells) {
      if (cell.row < l.row0 || cell.row >= l.row0 + l.rows || cell.col < l.col0 || cell.col >= l.col0 + l.cols) continue;
      dc.DrawCircle(centre(cell), std::max(3, radius / 3));
    }
  }
  dc.SetBrush(*wxTRANSPARENT_BRUSH);
  if (advice_) {
    dc.SetPen(wxPen(wxColour(30, 90, 220), 3, wxPENSTYLE_SHORT_DASH));
    dc.DrawCircle(centre(*advice_), radius);
  }
  dc.SetPen(wxPen(kRefused, 3));
  for (const s::ri::Cell& cell : refusal_.cells) dc.DrawCircle(centre(cell), radius + 2);
  if (refusal_.cell) {
    const wxPoint c = centre(*refusal_.cell);
    if (player.in_hand) {
      dc.SetBrush(wxBrush(pion_colour(*player.in_hand)));
      dc.DrawCircle(c, radius);
    }
    dc.SetPen(wxPen(kRefused, 4));
    dc.DrawLine(c.x - radius, c.y - radius, c.x + radius, c.y + radius);
    dc.DrawLine(c.x - radius, c.y + radius, c.x + radius, c.y - radius);
  }

  // The marker pile, bottom to top, left to right.
  int x = 8;
  y = l.top + l.rows * l.cell + 8;
  dc.SetTextForeground(to_wx(palette_.text));
  dc.DrawText(wxString::Format(_("Markers: %d"), scoring::irma::markers_total(state)), x, y);
  y += line;
  const int token = std::max(10, line - 2);
  for (const s::ri::SeriesKind kind : state.pile) {
    if (x + token > size.x - 4) break;
    dc.SetPen(wxPen(wxColour(80, 60, 20)));
    dc.SetBrush(wxBrush(kind == s::ri::SeriesKind::Pair     ? wxColour(230, 200, 120)
                        : kind == s::ri::SeriesKind::Brelan ? wxColour(200, 160, 60)
                                                            : wxColour(160, 110, 30)));
    dc.DrawCircle(x + token / 2, y + token / 2, token / 2);
    const wxString value = wxString::Format("%d", s::ri::marker_value(kind));
    dc.SetTextForeground(*wxBLACK);
    dc.DrawText(value, x + token / 2 - dc.GetTextExtent(value).x / 2, y + token / 2 - dc.GetCharHeight() / 2);
    x += token + 2;
  }
}

wxString IrmaPanel::advise() {
  if (!game_ || game_->irma.empty() || game_->over) return _("No Irma game is running.");
  const s::IrmaGame::Player& player = game_->irma[game_->current];
  std::optional<s::ri::Colour> colour = player.in_hand ? player.in_hand : game_->expected_colour;
  if (!colour) {
    wxArrayString choices;
    for (const s::ri::Colour c : s::ri::kAllColours) choices.Add(colour_name(c));
    const auto choice = chooser_(this, _("Which colour was drawn?"), choices);
    if (!choice) return {};
    colour = s::ri::kAllColours[*choice];
  }
  // The same seed for the same position: asking twice gives the same advice.
  scoring::Rng rng(0x1a2b3c4dULL + player.record.moves.size());
  const auto cells = scoring::irma::advise(player.state, *colour, {}, rng);
  if (cells.empty()) return wxString::Format(_("Advice: the %s pion has no legal cell: say blocked"), colour_name(*colour));
  advice_ = cells.front().cell;
  Refresh(false);
  return wxString::Format(_("Advice: %s pion at %s (expected final score %.1f ± %.1f)"), colour_name(*colour),
                          cell_text(cells.front().cell), cells.front().expected, cells.front().std_error);
}

std::optional<std::string> ask_cell_fix(wxWindow* parent, const Chooser& chooser, s::ri::Cell cell) {
  wxArrayString choices;
  for (const s::ri::Colour colour : s::ri::kAllColours) choices.Add(colour_name(colour));
  // TRANSLATORS: a choice in the correction menu of a cell: there is no pion there.
  choices.Add(_("no pion"));
  const auto choice = chooser(parent, wxString::Format(_("What is at %s?"), cell_text(cell)), choices);
  if (!choice) return std::nullopt;
  const std::string what =
      *choice < s::ri::kColourCount ? std::string(s::ri::to_string(s::ri::kAllColours[*choice])) : "empty";
  return "fix cell " + std::to_string(cell.row) + " " + std::to_string(cell.col) + " " + what;
}

void IrmaPanel::on_left_down(wxMouseEvent& event) {
  if (!game_ || game_->irma.empty() || game_->over) return;
  const Layout l = layout(GetClientSize());
  const wxPoint p = event.GetPosition();
  if (p.x < l.left || p.y < l.top) return;
  const int c = (p.x - l.left) / l.cell, r = (p.y - l.top) / l.cell;
  if (r >= l.rows || c >= l.cols) return;
  if (const auto line = ask_cell_fix(this, chooser_, {l.row0 + r, l.col0 + c})) send_(*line);
}

}  // namespace arbitre::gui
