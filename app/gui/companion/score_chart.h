// Scores over time: one line per player through the finished games of one kind, in the order the
// games ended (x: the n-th finished game, labelled with its date; y: the score). Drawn with
// wxGraphicsContext (anti-aliased) on screen and into bitmaps.
#pragma once

#include <wx/panel.h>

#include <vector>

#include "app/gui/companion/history_model.h"

namespace arbitre::app::gui::companion {

class ScoreChart : public wxPanel {
 public:
  explicit ScoreChart(wxWindow* parent);
  void set_series(std::vector<ScoreSeries> series, ds::GameKind kind);
  const std::vector<ScoreSeries>& series() const { return series_; }
  // The chart drawn into a bitmap of the given size (what the panel shows at that size).
  wxBitmap render(wxSize size) const;
  // The colour of the i-th series' line (and of its legend entry).
  static wxColour series_colour(std::size_t i);

 private:
  void on_paint(wxPaintEvent& event);
  void draw(wxDC& dc, wxSize size) const;

  std::vector<ScoreSeries> series_;
  ds::GameKind kind_ = ds::GameKind::Irma;
};

}  // namespace arbitre::app::gui::companion
