#include "app/gui/companion/score_chart.h"

#include "app/gui/companion/score_sheet.h"

#include <wx/dcbuffer.h>
#include <wx/dcmemory.h>
#include <wx/graphics.h>
#include <wx/intl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace arbitre::app::gui::companion {
namespace {

// A round step for about `ticks` intervals up to `top` (1, 2, 5 x 10^n).
double nice_step(double top, int ticks) {
  const double raw = std::max(top / ticks, 1.0);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * magnitude >= raw) return factor * magnitude;
  }
  return 10 * magnitude;
}

}  // namespace

ScoreChart::ScoreChart(wxWindow* parent) : wxPanel(parent, wxID_ANY) {
  SetBackgroundStyle(wxBG_STYLE_PAINT);
  SetMinSize(FromDIP(wxSize(480, 300)));
  Bind(wxEVT_PAINT, &ScoreChart::on_paint, this);
  Bind(wxEVT_SIZE, [this](wxSizeEvent& event) {
    Refresh();
    event.Skip();
  });
}

void ScoreChart::set_series(std::vector<ScoreSeries> series, ds::GameKind kind) {
  series_ = std::move(series);
  kind_ = kind;
  Refresh();
}

wxColour ScoreChart::series_colour(std::size_t i) {
  static const wxColour colours[] = {{31, 119, 180}, {214, 39, 40},  {44, 160, 44},  {255, 127, 14},
                                     {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

wxBitmap ScoreChart::render(wxSize size) const {
  wxBitmap bitmap(size, 24);
  wxMemoryDC dc(bitmap);
  draw(dc, size);
  dc.SelectObject(wxNullBitmap);
  return bitmap;
}

void ScoreChart::on_paint(wxPaintEvent&) {
  wxAutoBufferedPaintDC dc(this);
  draw(dc, GetClientSize());
}

void ScoreChart::draw(wxDC& dc, wxSize size) const {
  dc.SetBackground(*wxWHITE_BRUSH);
  dc.Clear();
  std::unique_ptr<wxGraphicsContext> gc(wxGraphicsContext::CreateFromUnknownDC(dc));
  if (!gc) return;
  const wxFont font(wxFontInfo(wxSize(0, 12)).Family(wxFONTFAMILY_SWISS));
  gc->SetFont(font, *wxBLACK);

  // x: every finished game of the kind, in the order the games ended.
  std::map<std::pair<std::string, ds::GameId>, int> order;
  double top = 0;
  for (const ScoreSeries& s : series_) {
    for (const ScorePoint& p : s.points) {
      order[{p.ended_at, p.game}] = 0;
      top = std::max(top, static_cast<double>(p.score));
    }
  }
  if (order.empty()) {
    gc->DrawText(_("No finished game of this kind yet."), 20, 20);
    return;
  }
  std::vector<std::string> dates;
  for (auto& [key, index] : order) {
    index = static_cast<int>(dates.size());
    dates.push_back(key.first.substr(0, 10));
  }
  const double step = nice_step(top, 5);
  top = std::max(step, std::ceil(top / step) * step);

  const double left = 64, right = size.x - 150.0, upper = 36, lower = size.y - 44.0;
  if (right - left < 40 || lower - upper < 40) return;
  const auto x_of = [&](int index) {
    return dates.size() == 1 ? (left + right) / 2 : left + (right - left) * index / (dates.size() - 1.0);
  };
  const auto y_of = [&](double score) { return lower - (lower - upper) * score / top; };

  // TRANSLATORS: the chart's title; %s is the game's name.
  const wxString title = wxString::Format(_("Scores over time: %s"),
                                          game_name(kind_));
  gc->SetFont(wxFont(wxFontInfo(wxSize(0, 15)).Family(wxFONTFAMILY_SWISS).Bold()), *wxBLACK);
  gc->DrawText(title, left, 8);
  gc->SetFont(font, *wxBLACK);

  // Axes and the grid.
  gc->SetPen(wxPen(wxColour(225, 225, 225)));
  for (double v = 0; v <= top + 0.5; v += step) {
    gc->StrokeLine(left, y_of(v), right, y_of(v));
    const wxString label = wxString::Format("%.0f", v);
    double w, h;
    gc->GetTextExtent(label, &w, &h);
    gc->DrawText(label, left - 8 - w, y_of(v) - h / 2);
  }
  gc->SetPen(wxPen(*wxBLACK));
  gc->StrokeLine(left, upper, left, lower);
  gc->StrokeLine(left, lower, right, lower);
  const std::size_t every = std::max<std::size_t>(1, dates.size() / 6);
  for (std::size_t i = 0; i < dates.size(); i += every) {
    const wxString label = wxString::FromUTF8(dates[i]);
    double w, h;
    gc->GetTextExtent(label, &w, &h);
    gc->StrokeLine(x_of(static_cast<int>(i)), lower, x_of(static_cast<int>(i)), lower + 4);
    gc->DrawText(label, x_of(static_cast<int>(i)) - w / 2, lower + 6);
  }
  // TRANSLATORS: the chart's x axis: the finished games, oldest first.
  gc->DrawText(wxString::Format(_("%zu finished games, oldest first"), dates.size()), left, lower + 24);

  // One line per player, and the legend.
  for (std::size_t s = 0; s < series_.size(); ++s) {
    const wxColour colour = series_colour(s);
    gc->SetPen(wxPen(colour, 2));
    gc->SetBrush(wxBrush(colour));
    wxGraphicsPath path = gc->CreatePath();
    bool first = true;
    for (const ScorePoint& p : series_[s].points) {
      const double x = x_of(order[{p.ended_at, p.game}]), y = y_of(static_cast<double>(p.score));
      if (first) path.MoveToPoint(x, y); else path.AddLineToPoint(x, y);
      first = false;
    }
    gc->StrokePath(path);
    for (const ScorePoint& p : series_[s].points) {
      gc->DrawEllipse(x_of(order[{p.ended_at, p.game}]) - 3.5, y_of(static_cast<double>(p.score)) - 3.5, 7, 7);
    }
    const double ly = upper + 20.0 * static_cast<double>(s);
    gc->StrokeLine(right + 16, ly + 7, right + 36, ly + 7);
    gc->DrawText(wxString::FromUTF8(series_[s].player), right + 42, ly);
  }
}

}  // namespace arbitre::app::gui::companion
