#include "app/gui/companion/score_sheet.h"

#include <wx/dcbuffer.h>
#include <wx/dcmemory.h>
#include <wx/intl.h>
#include <wx/log.h>

#include <algorithm>

#include "app/gui/companion/pdf_image.h"

namespace arbitre::app::gui::companion {
namespace {

namespace ri = referee::irma;
namespace ry = referee::yams;

constexpr int kMargin = 16;
constexpr int kHeading = 46;
constexpr int kRow = 18;
constexpr int kLabelWidth = 200;
constexpr int kPlayerWidth = 96;
constexpr int kCell = 26;
constexpr int kBoardWidth = 7 * kCell + 24;
constexpr int kMoveColumns[] = {34, 150, 190, 64, 64};  // #, move, verdict, marker, score
constexpr int kMovesWidth = 34 + 150 + 190 + 64 + 64;
constexpr int kPlayerHeading = 44;

wxString utf8(const std::string& text) { return wxString::FromUTF8(text); }


wxColour pion_colour(ri::Colour colour) {
  switch (colour) {
    case ri::Colour::Red: return {205, 40, 40};
    case ri::Colour::Orange: return {240, 135, 20};
    case ri::Colour::Green: return {40, 155, 60};
    case ri::Colour::White: return {245, 245, 240};
  }
  return *wxBLACK;
}

// "red 2,3" in the reader's words.
wxString move_words(const std::string& text) {
  const auto move = ri::move_from_text(text);
  return move ? pion_words(move->colour, move->cell) : utf8(text);
}

wxFont sheet_font(int pixels, bool bold = false) {
  wxFontInfo info(wxSize(0, pixels));
  info.Family(wxFONTFAMILY_SWISS);
  if (bold) info.Bold();
  return wxFont(info);
}

// One line of the Yams sheet: a section's title, a box, or a total (bold).
struct YamsLine {
  enum class Kind { Section, Box, Total } kind;
  wxString label;
  std::vector<wxString> values;  // one per player
};

std::vector<YamsLine> yams_lines(const SheetModel& sheet) {
  std::vector<YamsLine> lines;
  const auto total = [&](const wxString& label, int scoring::yams::Totals::*field) {
    YamsLine line{YamsLine::Kind::Total, label, {}};
    for (const YamsSheetPlayer& p : sheet.yams) line.values.push_back(wxString::Format("%d", p.totals.*field));
    lines.push_back(line);
  };
  // TRANSLATORS: the Yams sheet's sections are game words, usually kept in French.
  const wxString sections[] = {_("Chiffres"), _("Yams"), _("Suites"), _("Combinaisons"), _("Différence")};
  std::optional<ry::Section> current;
  const auto close_section = [&](ry::Section section) {
    switch (section) {
      case ry::Section::Chiffres:
        total(_("Chiffres total"), &scoring::yams::Totals::chiffres);
        total(_("Bonus (330 or more)"), &scoring::yams::Totals::bonus);
        total(_("Total 1"), &scoring::yams::Totals::total1);
        break;
      case ry::Section::Yams: total(_("Total 2"), &scoring::yams::Totals::total2); break;
      case ry::Section::Suites: total(_("Total 3"), &scoring::yams::Totals::total3); break;
      case ry::Section::Combinaisons: total(_("Total 4"), &scoring::yams::Totals::total4); break;
      case ry::Section::Difference: total(_("Total 5"), &scoring::yams::Totals::total5); break;
    }
  };
  for (int b = 0; b < ry::kBoxCount; ++b) {
    const ry::Box box = ry::box_at(b);
    const ry::Section section = ry::section(box);
    if (current != section) {
      if (current) close_section(*current);
      current = section;
      lines.push_back({YamsLine::Kind::Section, sections[static_cast<int>(section)], {}});
    }
    YamsLine line{YamsLine::Kind::Box, utf8(std::string(ry::display_name(box))), {}};
    for (const YamsSheetPlayer& p : sheet.yams) {
      const auto& value = p.boxes[static_cast<std::size_t>(b)];
      line.values.push_back(value ? wxString::Format("%d", *value) : wxString());
    }
    lines.push_back(line);
  }
  if (current) close_section(*current);
  total(_("Grand total"), &scoring::yams::Totals::grand);
  return lines;
}

int irma_block_height(const IrmaSheetPlayer& player) {
  int board_rows = 1;
  if (!player.pions.empty()) {
    int lo = player.pions.front().first.row, hi = lo;
    for (const auto& [cell, colour] : player.pions) {
      lo = std::min(lo, cell.row);
      hi = std::max(hi, cell.row);
    }
    board_rows = hi - lo + 1;
  }
  const int moves = (static_cast<int>(player.moves.size()) + 1) * kRow;
  return kPlayerHeading + std::max(board_rows * kCell + kCell, moves) + kMargin;
}

wxString heading(const SheetModel& sheet) {
  return wxString::Format(_("Game %lld: %s"), static_cast<long long>(sheet.game), game_name(sheet.kind));
}

wxString subheading(const SheetModel& sheet) {
  return wxString::Format(_("Started %s; after %zu of %zu events"), utf8(short_time(sheet.started_at)), sheet.step,
                          sheet.steps);
}

void draw_yams(wxDC& dc, const SheetModel& sheet, int top) {
  const std::vector<YamsLine> lines = yams_lines(sheet);
  const int width = kLabelWidth + kPlayerWidth * static_cast<int>(sheet.yams.size());
  int y = top;
  dc.SetPen(wxPen(wxColour(120, 120, 120)));
  dc.SetFont(sheet_font(13, true));
  dc.SetBrush(wxBrush(wxColour(225, 232, 245)));
  dc.DrawRectangle(kMargin, y, width, kRow);
  for (std::size_t p = 0; p < sheet.yams.size(); ++p) {
    dc.DrawText(utf8(sheet.yams[p].name), kMargin + kLabelWidth + static_cast<int>(p) * kPlayerWidth + 4, y + 1);
  }
  y += kRow;
  for (const YamsLine& line : lines) {
    const bool section = line.kind == YamsLine::Kind::Section;
    const bool total = line.kind == YamsLine::Kind::Total;
    dc.SetBrush(wxBrush(section ? wxColour(235, 235, 235) : total ? wxColour(250, 244, 220) : *wxWHITE));
    dc.DrawRectangle(kMargin, y, width, kRow);
    dc.SetFont(sheet_font(12, section || total));
    dc.DrawText(line.label, kMargin + 4, y + 2);
    for (std::size_t p = 0; p < line.values.size(); ++p) {
      const int x = kMargin + kLabelWidth + static_cast<int>(p) * kPlayerWidth;
      dc.DrawLine(x, y, x, y + kRow);
      const wxSize extent = dc.GetTextExtent(line.values[p]);
      dc.DrawText(line.values[p], x + kPlayerWidth - 6 - extent.x, y + 2);
    }
    y += kRow;
  }
}

void draw_irma_player(wxDC& dc, const IrmaSheetPlayer& player, int top) {
  dc.SetFont(sheet_font(14, true));
  dc.SetTextForeground(*wxBLACK);
  dc.DrawText(utf8(player.name), kMargin, top);
  const wxString status = player.completed ? _("rectangle completed")
                          : player.blocked ? _("blocked")
                                           : _("playing");
  dc.SetFont(sheet_font(12));
  wxString summary = wxString::Format(_("Score %d: markers %d, bonus %d"), player.score, player.markers,
                                      player.bonus);
  if (player.plus) summary += _(", plus");
  dc.DrawText(summary + " (" + status + ")", kMargin, top + 20);

  // The board, rows top to bottom as on the table.
  const int board_top = top + kPlayerHeading;
  if (player.pions.empty()) {
    dc.DrawText(_("No pion yet"), kMargin, board_top);
  } else {
    int rmin = player.pions.front().first.row, rmax = rmin;
    int cmin = player.pions.front().first.col, cmax = cmin;
    for (const auto& [cell, colour] : player.pions) {
      rmin = std::min(rmin, cell.row), rmax = std::max(rmax, cell.row);
      cmin = std::min(cmin, cell.col), cmax = std::max(cmax, cell.col);
    }
    dc.SetPen(wxPen(wxColour(190, 190, 190)));
    dc.SetBrush(wxBrush(wxColour(250, 248, 240)));
    dc.DrawRectangle(kMargin, board_top, (cmax - cmin + 1) * kCell, (rmax - rmin + 1) * kCell);
    for (const auto& [cell, colour] : player.pions) {
      const int x = kMargin + (cell.col - cmin) * kCell + kCell / 2;
      const int y = board_top + (cell.row - rmin) * kCell + kCell / 2;
      dc.SetPen(wxPen(wxColour(60, 60, 60)));
      dc.SetBrush(wxBrush(pion_colour(colour)));
      dc.DrawCircle(x, y, kCell / 2 - 2);
    }
  }

  // The moves.
  const int left = kMargin + kBoardWidth;
  const wxString titles[] = {_("#"), _("Move"), _("Verdict"), _("Marker"), _("Score")};
  int y = board_top;
  dc.SetPen(wxPen(wxColour(120, 120, 120)));
  const auto row = [&](const wxString (&cells)[5], const wxColour& fill, bool bold) {
    dc.SetBrush(wxBrush(fill));
    dc.DrawRectangle(left, y, kMovesWidth, kRow);
    dc.SetFont(sheet_font(12, bold));
    int x = left;
    for (int c = 0; c < 5; ++c) {
      dc.DrawText(cells[c], x + 4, y + 2);
      x += kMoveColumns[c];
    }
    y += kRow;
  };
  row(titles, wxColour(225, 232, 245), true);
  for (const IrmaMoveLine& line : player.moves) {
    const wxString cells[] = {
        wxString::Format("%d", line.number), move_words(line.move),
        line.legal ? _("accepted") : wxString::Format(_("refused: %s"), utf8(line.reason)),
        line.marker ? wxString::Format("+%d", line.marker) : wxString(), wxString::Format("%d", line.score)};
    row(cells, line.legal ? *wxWHITE : wxColour(252, 228, 228), false);
  }
}

}  // namespace

wxString colour_name(referee::irma::Colour colour) {
  switch (colour) {
    case referee::irma::Colour::Red: return _("red");
    case referee::irma::Colour::Orange: return _("orange");
    case referee::irma::Colour::Green: return _("green");
    case referee::irma::Colour::White: return _("white");
  }
  return {};
}

wxString pion_words(referee::irma::Colour colour, std::optional<referee::Cell> cell) {
  if (!cell) return wxString::Format(_("%s: blocked"), colour_name(colour));
  return wxString::Format(_("%s at %d,%d"), colour_name(colour), cell->row, cell->col);
}

wxString game_name(ds::GameKind kind) {
  // TRANSLATORS: the games' names; they are usually kept as they are.
  return kind == ds::GameKind::Irma ? _("Le jeu d'Irma") : _("Le Yams impossible");
}

wxSize sheet_size(const SheetModel& sheet) {
  if (sheet.kind == ds::GameKind::Yams) {
    const int rows = static_cast<int>(yams_lines(sheet).size()) + 1;
    const int width = kLabelWidth + kPlayerWidth * static_cast<int>(std::max<std::size_t>(1, sheet.yams.size()));
    return {std::max(width, 420) + 2 * kMargin, kMargin + kHeading + rows * kRow + kMargin};
  }
  int height = kMargin + kHeading;
  for (const IrmaSheetPlayer& player : sheet.irma) height += irma_block_height(player);
  return {kBoardWidth + kMovesWidth + 2 * kMargin, height + kMargin};
}

void draw_sheet(wxDC& dc, const SheetModel& sheet) {
  dc.SetTextForeground(*wxBLACK);
  dc.SetBackgroundMode(wxBRUSHSTYLE_TRANSPARENT);
  dc.SetFont(sheet_font(18, true));
  dc.DrawText(heading(sheet), kMargin, kMargin);
  dc.SetFont(sheet_font(12));
  dc.DrawText(subheading(sheet), kMargin, kMargin + 24);
  int top = kMargin + kHeading;
  if (sheet.kind == ds::GameKind::Yams) {
    draw_yams(dc, sheet, top);
    return;
  }
  for (const IrmaSheetPlayer& player : sheet.irma) {
    draw_irma_player(dc, player, top);
    top += irma_block_height(player);
  }
}

wxBitmap render_sheet(const SheetModel& sheet, double scale) {
  const wxSize size = sheet_size(sheet);
  wxBitmap bitmap(static_cast<int>(size.x * scale), static_cast<int>(size.y * scale), 24);
  wxMemoryDC dc(bitmap);
  dc.SetBackground(*wxWHITE_BRUSH);
  dc.Clear();
  dc.SetUserScale(scale, scale);
  draw_sheet(dc, sheet);
  dc.SelectObject(wxNullBitmap);
  return bitmap;
}

wxString save_sheet_png(const SheetModel& sheet, const wxString& path, double scale) {
  const wxBitmap bitmap = render_sheet(sheet, scale);
  wxLogNull quiet;  // the problem is returned, for the caller to show once
  if (!bitmap.IsOk() || !bitmap.ConvertToImage().SaveFile(path, wxBITMAP_TYPE_PNG)) {
    return wxString::Format(_("Cannot write %s"), path);
  }
  return {};
}

wxString save_sheet_pdf(const SheetModel& sheet, const wxString& path, double scale) {
  const wxImage image = render_sheet(sheet, scale).ConvertToImage();
  if (!image.IsOk()) return _("Cannot draw the sheet");
  const std::size_t bytes = static_cast<std::size_t>(image.GetWidth()) * image.GetHeight() * 3;
  const std::vector<std::uint8_t> rgb(image.GetData(), image.GetData() + bytes);
  const std::string problem = write_pdf_image(path.utf8_string(), rgb, image.GetWidth(), image.GetHeight());
  if (!problem.empty()) return wxString::Format(_("Cannot write %s"), path);
  return {};
}

SheetPrintout::SheetPrintout(SheetModel sheet) : wxPrintout(_("Score sheet")), sheet_(std::move(sheet)) {}

bool SheetPrintout::OnPrintPage(int page) {
  wxDC* dc = GetDC();
  if (page != 1 || dc == nullptr) return false;
  const wxSize size = sheet_size(sheet_);
  FitThisSizeToPage(size);
  draw_sheet(*dc, sheet_);
  return true;
}

void SheetPrintout::GetPageInfo(int* min_page, int* max_page, int* from, int* to) {
  *min_page = *max_page = *from = *to = 1;
}

SheetPanel::SheetPanel(wxWindow* parent) : wxScrolledWindow(parent, wxID_ANY) {
  SetBackgroundStyle(wxBG_STYLE_PAINT);
  SetScrollRate(16, 16);
  Bind(wxEVT_PAINT, &SheetPanel::on_paint, this);
}

void SheetPanel::set_sheet(SheetModel sheet) {
  sheet_ = std::move(sheet);
  empty_ = false;
  SetVirtualSize(sheet_size(sheet_));
  Refresh();
}

void SheetPanel::on_paint(wxPaintEvent&) {
  wxAutoBufferedPaintDC dc(this);
  dc.SetBackground(*wxWHITE_BRUSH);
  dc.Clear();
  DoPrepareDC(dc);
  if (!empty_) draw_sheet(dc, sheet_);
}

}  // namespace arbitre::app::gui::companion
