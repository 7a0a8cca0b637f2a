#include "app/gui/live_view.h"

#include <wx/arrstr.h>
#include <wx/dcbuffer.h>
#include <wx/intl.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/overlay.h"
#include "app/gui/paint.h"
#include "app/gui/words.h"
#include "vision/dice.h"

namespace arbitre::gui {

void draw_die(wxDC& dc, int x, int y, int side, const referee::yams::Die& die, bool marked) {
  dc.SetPen(wxPen(marked ? wxColour(255, 210, 0) : wxColour(40, 40, 40), marked ? 3 : 1));
  dc.SetBrush(wxBrush(die_colour(die.colour)));
  dc.DrawRoundedRectangle(x - side / 2, y - side / 2, side, side, side / 6.0);
  dc.SetTextForeground(die_text_colour(die.colour));
  const wxString text = wxString::Format("%d", die.value);
  const wxSize extent = dc.GetTextExtent(text);
  dc.DrawText(text, x - extent.x / 2, y - extent.y / 2);
}

namespace {
// The side of a die as the view draws it, in view pixels.
int die_side(double scale) { return std::max(14, static_cast<int>(56 * scale)); }
}  // namespace

LiveView::LiveView(wxWindow* parent, std::function<void(std::string)> send)
    : wxPanel(parent, wxID_ANY), send_(std::move(send)) {
  SetBackgroundStyle(wxBG_STYLE_PAINT);
  SetMinSize(FromDIP(wxSize(480, 270)));
  Bind(wxEVT_PAINT, &LiveView::on_paint, this);
  Bind(wxEVT_LEFT_DOWN, &LiveView::on_left_down, this);
}

ViewFit LiveView::fit(const wxSize& size) const {
  int width = 1280, height = 720;
  if (step_ && step_->pions && step_->pions->width > 0) {
    width = step_->pions->width;
    height = step_->pions->height;
  } else if (step_ && step_->dice && step_->dice->width > 0) {
    width = step_->dice->width;
    height = step_->dice->height;
  } else if (image_.IsOk()) {
    width = image_.GetWidth();
    height = image_.GetHeight();
  }
  return fit_view(size.x, size.y, width, height);
}

std::optional<wxPoint> LiveView::pion_point(std::size_t index) const {
  if (!step_ || !step_->pions || index >= step_->pions->pions.size()) return std::nullopt;
  const auto [x, y] = fit(GetClientSize()).to_view(step_->pions->pions[index].x, step_->pions->pions[index].y);
  return wxPoint(x, y);
}

std::optional<wxPoint> LiveView::die_point(std::size_t index) const {
  if (!step_ || !step_->dice || index >= step_->dice->dice.size()) return std::nullopt;
  const auto [x, y] = fit(GetClientSize()).to_view(step_->dice->dice[index].x, step_->dice->dice[index].y);
  return wxPoint(x, y);
}

void LiveView::on_left_down(wxMouseEvent& event) {
  if (!step_ || !game_ || game_->over) return;
  const ViewFit f = fit(GetClientSize());
  const wxPoint p = event.GetPosition();
  if (!f.inside(p.x, p.y)) return;
  const auto [x, y] = f.to_frame(p.x, p.y);
  if (step_->pions && !game_->irma.empty()) {
    const vision::PionObservation& seen = *step_->pions;
    // The radius drawn (at least 6 view pixels), in frame pixels.
    const auto index = pion_at(seen, x, y, 6 / f.scale);
    if (!index) return;
    const auto cell = game_cell(seen, *index, game_->irma[game_->current].state.board.pions());
    if (!cell) return;
    if (const auto line = ask_cell_fix(this, chooser_, *cell)) send_(*line);
    return;
  }
  if (step_->dice && game_->yams && game_->yams->turn.rolls > 0) {
    const auto index = die_at(*step_->dice, x, y, die_side(f.scale) / f.scale);
    if (!index) return;
    const s::ry::Turn& turn = game_->yams->turn;
    const auto die = die_number(step_->dice->dice[*index], game_->seen, turn.aside);
    if (!die) return;
    if (const auto line = ask_die_fix(this, chooser_, *die, turn.dice[static_cast<std::size_t>(*die)])) send_(*line);
  }
}

void LiveView::show_frame(const wxImage& image, const s::SourceStep& step) {
  image_ = image;
  scaled_ = wxBitmap();
  step_ = step;
  if (step.dice) camera_angle_.add(step.dice->camera_tilt_deg);
  Refresh(false);
}

void LiveView::on_paint(wxPaintEvent&) {
  wxAutoBufferedPaintDC dc(this);
  render(dc, GetClientSize());
}

void LiveView::render(wxDC& dc, const wxSize& size) const {
  dc.SetBackground(wxBrush(wxColour(30, 30, 30)));
  dc.Clear();
  // The frame scaled to fit, centred: the same fit as the click handler's.
  const ViewFit f = fit(size);
  const double scale = f.scale;
  const int w = f.w, h = f.h, ox = f.ox, oy = f.oy;
  const auto at = [&](double x, double y) {
    const auto [vx, vy] = f.to_view(x, y);
    return wxPoint(vx, vy);
  };
  if (image_.IsOk()) {
    if (!scaled_.IsOk() || scaled_size_ != wxSize(w, h)) {
      scaled_ = wxBitmap(image_.Scale(w, h, wxIMAGE_QUALITY_BILINEAR));
      scaled_size_ = wxSize(w, h);
    }
    dc.DrawBitmap(scaled_, ox, oy);
  } else {
    dc.SetPen(*wxTRANSPARENT_PEN);
    dc.SetBrush(wxBrush(kFelt));
    dc.DrawRectangle(ox, oy, w, h);
  }
  wxFont font = GetFont();
  dc.SetFont(font.Bold());

  if (step_ && step_->pions) {
    const vision::PionObservation& seen = *step_->pions;
    const int radius = std::max(6, static_cast<int>((seen.pitch > 0 ? seen.pitch * 0.42 : 20) * scale));
    for (const vision::PionSighting& p : seen.pions) {
      const bool doubtful = p.confidence < kLowConfidence;
      const wxPoint c = at(p.x, p.y);
      dc.SetBrush(*wxTRANSPARENT_BRUSH);
      dc.SetPen(wxPen(*wxBLACK, 4));
      dc.DrawCircle(c, radius);
      dc.SetPen(wxPen(pion_colour(p.colour), 2, doubtful ? wxPENSTYLE_SHORT_DASH : wxPENSTYLE_SOLID));
      dc.DrawCircle(c, radius);
      wxString label = colour_name(p.colour).Left(1).Upper();
      if (doubtful) label += "?";
      dc.SetTextForeground(doubtful ? wxColour(255, 230, 0) : *wxWHITE);
      dc.DrawText(label, c.x + radius, c.y - radius);
    }
    // The legal cells of the pion in hand (a dot of its colour), a refused placement (the pion
    // tried and the cells the referee named): in the game's frame taken back to the picture.
    const bool legal = game_ && !game_->legal_cells.empty();
    if ((refusal_.cell || !refusal_.cells.empty() || legal) && game_ && !game_->irma.empty()) {
      const s::IrmaGame::Player& player = game_->irma[game_->current];
      const auto fit = fit_lattice(seen.pions);
      const auto shift = align_to_game(seen.pions, player.state.board.pions());
      const std::optional<s::ri::Colour> hand = player.in_hand ? player.in_hand : game_->expected_colour;
      if (fit && shift && legal && hand) {
        dc.SetPen(wxPen(wxColour(40, 140, 60), 2));
        dc.SetBrush(wxBrush(pion_colour(*hand)));
        for (const s::ri::Cell& cell : game_->legal_cells) {
          const auto [x, y] = (*fit)(cell.row - shift->row, cell.col - shift->col);
          dc.DrawCircle(at(x, y), std::max(3, radius / 3));
        }
      }
      if (fit && shift) {
        dc.SetBrush(*wxTRANSPARENT_BRUSH);
        dc.SetPen(wxPen(kRefused, 3));
        for (const s::ri::Cell& cell : refusal_.cells) {
          const auto [x, y] = (*fit)(cell.row - shift->row, cell.col - shift->col);
          dc.DrawCircle(at(x, y), radius + 3);
        }
        if (refusal_.cell) {
          const auto [x, y] = (*fit)(refusal_.cell->row - shift->row, refusal_.cell->col - shift->col);
          const wxPoint c = at(x, y);
          dc.SetPen(wxPen(kRefused, 4));
          dc.DrawLine(c.x - radius, c.y - radius, c.x + radius, c.y + radius);
          dc.DrawLine(c.x - radius, c.y + radius, c.x + radius, c.y - radius);
        }
      }
    }
  }
  if (step_ && step_->dice) {
    const int side = die_side(scale);
    for (std::size_t i = 0; i < step_->dice->dice.size(); ++i) {
      const vision::DieSighting& d = step_->dice->dice[i];
      referee::yams::Die die;
      die.value = static_cast<std::uint8_t>(std::clamp(d.value, 0, 10));
      die.colour = d.colour;
      const wxPoint c = at(d.x, d.y);
      draw_die(dc, c.x, c.y, side, die, d.zone == vision::DieZone::Kept);
      const bool doubtful = d.cocked || d.value == 0 || d.confidence < kLowConfidence;
      if (doubtful) {
        dc.SetBrush(*wxTRANSPARENT_BRUSH);
        dc.SetPen(wxPen(wxColour(255, 230, 0), 2, wxPENSTYLE_SHORT_DASH));
        dc.DrawRectangle(c.x - side / 2 - 4, c.y - side / 2 - 4, side + 8, side + 8);
        dc.SetTextForeground(wxColour(255, 230, 0));
        dc.DrawText(d.cocked ? _("cocked") : "?", c.x + side / 2 + 2, c.y - side / 2);
      }
    }
    dc.SetTextForeground(*wxWHITE);
    // TRANSLATORS: the live view's label for the dice a player set aside.
    dc.DrawText(_("kept (yellow border)"), ox + 8, oy + h - dc.GetCharHeight() - 6);
    if (camera_angle_.past_surest()) {
      // On a dark band across the top of the frame, below the message if there is one, so
      // that it reads on any table.
      // TRANSLATORS: the live view's advice when the camera looks at the dice from too far to the
      // side; the numbers are angles in degrees from straight overhead.
      const wxString advice = wxString::Format(
          _("The camera looks about %d° from overhead: dice are read surest within %d°"),
          static_cast<int>(std::lround(*camera_angle_.degrees())),
          static_cast<int>(vision::kDiceSurestTiltDeg));
      // Word-wrapped to the frame's width.
      std::vector<wxString> lines(1);
      for (const wxString& word : wxSplit(advice, ' ')) {
        const wxString longer = lines.back().empty() ? word : lines.back() + ' ' + word;
        if (!lines.back().empty() && dc.GetTextExtent(longer).x > w - 24) {
          lines.push_back(word);
        } else {
          lines.back() = longer;
        }
      }
      int width = 0;
      for (const wxString& line : lines) width = std::max(width, dc.GetTextExtent(line).x);
      const int line_height = dc.GetCharHeight();
      const int top = oy + 6 + (message_.empty() ? 0 : line_height + 10);
      dc.SetPen(*wxTRANSPARENT_PEN);
      dc.SetBrush(wxBrush(wxColour(20, 20, 20)));
      dc.DrawRectangle(ox + 4, top, width + 12, line_height * static_cast<int>(lines.size()) + 8);
      dc.SetTextForeground(wxColour(255, 230, 0));
      for (std::size_t i = 0; i < lines.size(); ++i) {
        dc.DrawText(lines[i], ox + 10, top + 4 + line_height * static_cast<int>(i));
      }
    }
  }
  if (!step_) {
    dc.SetTextForeground(*wxWHITE);
    dc.DrawText(message_.empty() ? _("No picture yet: choose a source and press Start") : message_, ox + 12, oy + 12);
  } else if (!message_.empty()) {
    dc.SetTextForeground(wxColour(255, 120, 120));
    dc.DrawText(message_, ox + 12, oy + 12);
  }
}

}  // namespace arbitre::gui
