// A score sheet drawn with wx: one drawing (draw_sheet) for the screen, the PNG and PDF exports
// and the printer. Irma: each player's board, markers, score and every move with its verdict and
// the score after it. Yams: the 34 boxes, the five totals, the bonus and the grand total per player.
#pragma once

#include <wx/bitmap.h>
#include <wx/dc.h>
#include <wx/prntbase.h>
#include <wx/scrolwin.h>

#include "app/gui/companion/history_model.h"

namespace arbitre::app::gui::companion {

// "Le jeu d'Irma", "Le Yams impossible" (translatable).
wxString game_name(ds::GameKind kind);

// A pion's colour in the reader's language ("red", "rouge", "rot").
wxString colour_name(referee::irma::Colour colour);

// A pion placed ("red at 2,3") or a blocking claim ("red: blocked") in the reader's language.
wxString pion_words(referee::irma::Colour colour, std::optional<referee::Cell> cell);

// The sheet's size in pixels at scale 1.
wxSize sheet_size(const SheetModel& sheet);
// Draws the sheet with its top left at (0, 0), in the DC's user units (scale it to zoom).
void draw_sheet(wxDC& dc, const SheetModel& sheet);
// The sheet on white at `scale` times its size.
wxBitmap render_sheet(const SheetModel& sheet, double scale = 1.0);

// Exports. Return the problem in words, or an empty string.
wxString save_sheet_png(const SheetModel& sheet, const wxString& path, double scale = 1.0);
// A one-page PDF (A4) holding the sheet drawn at `scale` (2: about 150 dpi on A4).
wxString save_sheet_pdf(const SheetModel& sheet, const wxString& path, double scale = 2.0);

// The sheet for wxPrinter / wxPrintPreview: one page, fitted to the page's margins.
class SheetPrintout : public wxPrintout {
 public:
  explicit SheetPrintout(SheetModel sheet);
  bool OnPrintPage(int page) override;
  bool HasPage(int page) override { return page == 1; }
  void GetPageInfo(int* min_page, int* max_page, int* from, int* to) override;

 private:
  SheetModel sheet_;
};

// The sheet on screen, scrolled when larger than the window.
class SheetPanel : public wxScrolledWindow {
 public:
  explicit SheetPanel(wxWindow* parent);
  void set_sheet(SheetModel sheet);
  const SheetModel& sheet() const { return sheet_; }

 private:
  void on_paint(wxPaintEvent& event);
  SheetModel sheet_;
  bool empty_ = true;
};

}  // namespace arbitre::app::gui::companion
