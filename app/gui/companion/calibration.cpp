#include "app/gui/companion/calibration.h"

#include <wx/button.h>
#include <wx/dcbuffer.h>
#include <wx/filedlg.h>
#include <wx/filename.h>
#include <wx/graphics.h>
#include <wx/intl.h>
#include <wx/log.h>
#include <wx/panel.h>
#include <wx/sizer.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "app/gui/companion/score_sheet.h"
#include "app/session/calibration.h"
#include "vision/mat_file.h"
#include "vision/pions.h"

namespace arbitre::app::gui::companion {

// The still frame with what the steps found drawn on it; clicks are reported in frame pixels.
class FrameView : public wxPanel {
 public:
  FrameView(wxWindow* parent, std::function<void(double, double, bool)> on_click)
      : wxPanel(parent, wxID_ANY), on_click_(std::move(on_click)) {
    SetBackgroundStyle(wxBG_STYLE_PAINT);
    SetMinSize(FromDIP(wxSize(560, 420)));
    Bind(wxEVT_PAINT, &FrameView::on_paint, this);
    Bind(wxEVT_SIZE, [this](wxSizeEvent& event) {
      scaled_ = wxBitmap();
      Refresh();
      event.Skip();
    });
    Bind(wxEVT_LEFT_DOWN, [this](wxMouseEvent& event) { click(event, true); });
    Bind(wxEVT_RIGHT_DOWN, [this](wxMouseEvent& event) { click(event, false); });
  }

  void set(const wxImage* frame, const std::optional<MatFound>* mat, const vision::DiceZones* zones,
           bool show_zones) {
    const int width = frame && frame->IsOk() ? frame->GetWidth() : 0;
    if (frame_ != frame || width != frame_w_) scaled_ = wxBitmap();
    frame_ = frame;
    frame_w_ = width;
    mat_ = mat;
    zones_ = zones;
    show_zones_ = show_zones;
    Refresh();
  }
  void frame_changed() {
    scaled_ = wxBitmap();
    Refresh();
  }

 private:
  // The frame's placement in the panel: scale and offset.
  void placement(double& scale, double& x0, double& y0) const {
    const wxSize size = GetClientSize();
    scale = std::min(size.x / static_cast<double>(frame_->GetWidth()),
                     size.y / static_cast<double>(frame_->GetHeight()));
    x0 = (size.x - frame_->GetWidth() * scale) / 2;
    y0 = (size.y - frame_->GetHeight() * scale) / 2;
  }

  void click(wxMouseEvent& event, bool left) {
    if (!frame_ || !frame_->IsOk()) return;
    double scale, x0, y0;
    placement(scale, x0, y0);
    const double x = (event.GetX() - x0) / scale, y = (event.GetY() - y0) / scale;
    if (x < 0 || y < 0 || x >= frame_->GetWidth() || y >= frame_->GetHeight()) return;
    on_click_(x, y, left);
  }

  void polygon(wxGraphicsContext& gc, const std::vector<std::pair<double, double>>& points,
               const wxColour& colour, double scale, double x0, double y0) {
    if (points.empty()) return;
    gc.SetPen(wxPen(colour, 3));
    gc.SetBrush(wxBrush(wxColour(colour.Red(), colour.Green(), colour.Blue(), 60)));
    wxGraphicsPath path = gc.CreatePath();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double x = x0 + points[i].first * scale, y = y0 + points[i].second * scale;
      if (i == 0) path.MoveToPoint(x, y); else path.AddLineToPoint(x, y);
    }
    if (points.size() > 2) path.CloseSubpath();
    gc.DrawPath(path);
    gc.SetBrush(wxBrush(colour));
    for (const auto& [px, py] : points) gc.DrawEllipse(x0 + px * scale - 4, y0 + py * scale - 4, 8, 8);
  }

  void on_paint(wxPaintEvent&) {
    wxAutoBufferedPaintDC dc(this);
    dc.SetBackground(wxBrush(wxColour(40, 40, 40)));
    dc.Clear();
    if (!frame_ || !frame_->IsOk()) {
      dc.SetTextForeground(*wxWHITE);
      dc.DrawText(_("No frame yet: open an image."), 16, 16);
      return;
    }
    double scale, x0, y0;
    placement(scale, x0, y0);
    const int w = std::max(1, static_cast<int>(frame_->GetWidth() * scale));
    const int h = std::max(1, static_cast<int>(frame_->GetHeight() * scale));
    if (!scaled_.IsOk() || scaled_.GetWidth() != w) scaled_ = wxBitmap(frame_->Scale(w, h, wxIMAGE_QUALITY_HIGH));
    dc.DrawBitmap(scaled_, static_cast<int>(x0), static_cast<int>(y0));
    std::unique_ptr<wxGraphicsContext> gc(wxGraphicsContext::CreateFromUnknownDC(dc));
    if (!gc) return;
    if (mat_ && *mat_) {
      std::vector<std::pair<double, double>> corners((*mat_)->corners.begin(), (*mat_)->corners.end());
      polygon(*gc, corners, wxColour(30, 200, 60), scale, x0, y0);
    }
    if (show_zones_ && zones_) {
      polygon(*gc, zones_->tray, wxColour(40, 120, 255), scale, x0, y0);
      polygon(*gc, zones_->kept, wxColour(255, 150, 0), scale, x0, y0);
    }
  }

  std::function<void(double, double, bool)> on_click_;
  const wxImage* frame_ = nullptr;
  int frame_w_ = 0;
  const std::optional<MatFound>* mat_ = nullptr;
  const vision::DiceZones* zones_ = nullptr;
  bool show_zones_ = false;
  wxBitmap scaled_;
};

namespace {

wxString utf8(const std::string& text) { return wxString::FromUTF8(text); }

const char* const kPapers[] = {"a4", "a3"};

wxString step_title(CalibrationAssistant::Step step) {
  switch (step) {
    case CalibrationAssistant::Step::Mat: return _("Step 1 of 5: print the play mat");
    case CalibrationAssistant::Step::Find: return _("Step 2 of 5: find the mat");
    case CalibrationAssistant::Step::Colours: return _("Step 3 of 5: the colours of the pions");
    case CalibrationAssistant::Step::Zones: return _("Step 4 of 5: the dice zones");
    case CalibrationAssistant::Step::Save: return _("Step 5 of 5: save");
  }
  return {};
}

wxStaticText* wrapped(wxWindow* parent, const wxString& text) {
  auto* label = new wxStaticText(parent, wxID_ANY, text);
  label->Wrap(parent->FromDIP(300));
  return label;
}

}  // namespace

wxColour lab_to_colour(const std::array<double, 3>& lab) {
  // CIE L*a*b* (D65) -> XYZ -> linear sRGB -> sRGB.
  const double fy = (lab[0] + 16) / 116, fx = fy + lab[1] / 500, fz = fy - lab[2] / 200;
  const auto finv = [](double t) { return t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29); };
  const double x = 0.95047 * finv(fx), y = finv(fy), z = 1.08883 * finv(fz);
  const double linear[3] = {3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z,
                            0.0557 * x - 0.2040 * y + 1.0570 * z};
  unsigned char rgb[3];
  for (int k = 0; k < 3; ++k) {
    const double c = std::clamp(linear[k], 0.0, 1.0);
    const double s = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
    rgb[k] = static_cast<unsigned char>(std::lround(std::clamp(s, 0.0, 1.0) * 255));
  }
  return {rgb[0], rgb[1], rgb[2]};
}

CalibrationAssistant::CalibrationAssistant(wxWindow* parent, const std::string& store_path,
                                           const std::string& camera)
    : wxDialog(parent, wxID_ANY, _("Calibration assistant"), wxDefaultPosition, wxDefaultSize,
               wxDEFAULT_DIALOG_STYLE | wxRESIZE_BORDER),
      store_(std::make_unique<data::store::Store>(data::store::Store::open(store_path))),
      camera_(camera) {
  title_ = new wxStaticText(this, wxID_ANY, wxString());
  title_->SetFont(title_->GetFont().Bold().Scaled(1.2f));
  auto* camera_label = new wxStaticText(this, wxID_ANY, wxString::Format(_("Camera: %s"), utf8(camera_)));

  book_ = new wxSimplebook(this, wxID_ANY);
  book_->AddPage(make_mat_page(), wxString());
  book_->AddPage(make_find_page(), wxString());
  book_->AddPage(make_colours_page(), wxString());
  book_->AddPage(make_zones_page(), wxString());
  book_->AddPage(make_save_page(), wxString());

  view_ = new FrameView(this, [this](double x, double y, bool left) {
    if (step() != Step::Zones) return;
    if (left) {
      add_zone_point(x, y);
    } else {
      auto& points = zone_ == Zone::Tray ? zones_.tray : zones_.kept;
      if (!points.empty()) points.pop_back();
      update();
    }
  });

  status_ = new wxStaticText(this, wxID_ANY, wxString());
  back_ = new wxButton(this, wxID_BACKWARD, _("< Back"));
  next_ = new wxButton(this, wxID_FORWARD, _("Next >"));
  auto* close = new wxButton(this, wxID_CLOSE, _("Close"));
  back_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) {
    if (step() != Step::Mat) show_step(static_cast<Step>(static_cast<int>(step()) - 1));
  });
  next_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) {
    if (step() != Step::Save) show_step(static_cast<Step>(static_cast<int>(step()) + 1));
  });
  close->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) {
    if (IsModal()) EndModal(wxID_CLOSE); else Hide();
  });
  SetEscapeId(wxID_CLOSE);

  auto* middle = new wxBoxSizer(wxHORIZONTAL);
  middle->Add(book_, wxSizerFlags().Expand().Border(wxRIGHT));
  middle->Add(view_, wxSizerFlags(1).Expand());
  auto* buttons = new wxBoxSizer(wxHORIZONTAL);
  buttons->Add(status_, wxSizerFlags(1).CenterVertical());
  buttons->Add(back_, wxSizerFlags().Border(wxLEFT));
  buttons->Add(next_, wxSizerFlags().Border(wxLEFT));
  buttons->Add(close, wxSizerFlags().Border(wxLEFT));
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(title_, wxSizerFlags().Border(wxLEFT | wxRIGHT | wxTOP));
  sizer->Add(camera_label, wxSizerFlags().Border(wxLEFT | wxRIGHT));
  sizer->Add(middle, wxSizerFlags(1).Expand().Border());
  sizer->Add(buttons, wxSizerFlags().Expand().Border(wxLEFT | wxRIGHT | wxBOTTOM));
  SetSizerAndFit(sizer);
  SetSize(FromDIP(wxSize(980, 620)));
  show_step(Step::Mat);
}

CalibrationAssistant::~CalibrationAssistant() {
  if (!temp_path_.empty()) wxRemoveFile(utf8(temp_path_));
  if (!temp_name_.empty()) wxRemoveFile(utf8(temp_name_));
}

wxButton* CalibrationAssistant::open_button(wxWindow* page) {
  auto* button = new wxButton(page, wxID_ANY, _("Open an image..."));
  button->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { choose_frame(); });
  return button;
}

wxWindow* CalibrationAssistant::make_mat_page() {
  auto* page = new wxPanel(book_);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(wrapped(page, _("Print the play mat at 100% (no \"fit to page\") and lay it flat under the "
                             "camera. Its four corner markers let Arbitre find the table's plane.")),
             wxSizerFlags().Border(wxBOTTOM));
  paper_ = new wxChoice(page, wxID_ANY);
  // TRANSLATORS: paper sizes.
  paper_->Append(_("A4"));
  paper_->Append(_("A3"));
  paper_->SetSelection(0);
  auto* row = new wxBoxSizer(wxHORIZONTAL);
  row->Add(new wxStaticText(page, wxID_ANY, _("Paper:")), wxSizerFlags().CenterVertical().Border(wxRIGHT));
  row->Add(paper_);
  sizer->Add(row, wxSizerFlags().Border(wxBOTTOM));
  for (const bool pdf : {true, false}) {
    auto* button = new wxButton(page, wxID_ANY, pdf ? _("Save the mat as PDF...") : _("Save the mat as PNG..."));
    button->Bind(wxEVT_BUTTON, [this, pdf](wxCommandEvent&) {
      wxFileDialog dialog(this, _("Save the play mat"), wxString(), pdf ? "arbitre-mat.pdf" : "arbitre-mat.png",
                          pdf ? _("PDF files (*.pdf)|*.pdf") : _("PNG images (*.png)|*.png"),
                          wxFD_SAVE | wxFD_OVERWRITE_PROMPT);
      if (dialog.ShowModal() == wxID_OK) write_mat(dialog.GetPath(), kPapers[paper_->GetSelection()]);
    });
    sizer->Add(button, wxSizerFlags().Expand().Border(wxBOTTOM, 4));
  }
  page->SetSizer(sizer);
  return page;
}

wxWindow* CalibrationAssistant::make_find_page() {
  auto* page = new wxPanel(book_);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(wrapped(page, _("Open a still frame of the table with the mat in view (or use the camera's "
                             "frame), then find the mat: its outline is drawn in green.")),
             wxSizerFlags().Border(wxBOTTOM));
  sizer->Add(open_button(page), wxSizerFlags().Expand().Border(wxBOTTOM, 4));
  auto* find = new wxButton(page, wxID_ANY, _("Find the mat"));
  find->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { find_mat(); });
  sizer->Add(find, wxSizerFlags().Expand().Border(wxBOTTOM));
  mat_text_ = new wxStaticText(page, wxID_ANY, wxString());
  mat_text_->SetFont(wxFont(wxFontInfo(9).Family(wxFONTFAMILY_TELETYPE)));
  sizer->Add(mat_text_);
  page->SetSizer(sizer);
  return page;
}

wxWindow* CalibrationAssistant::make_colours_page() {
  auto* page = new wxPanel(book_);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(wrapped(page, _("Put one pion of each colour (red, orange, green, white) on the table, apart "
                             "from each other, open a frame of them and measure.")),
             wxSizerFlags().Border(wxBOTTOM));
  sizer->Add(open_button(page), wxSizerFlags().Expand().Border(wxBOTTOM, 4));
  auto* measure = new wxButton(page, wxID_ANY, _("Measure the colours"));
  measure->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { measure_colours(); });
  sizer->Add(measure, wxSizerFlags().Expand().Border(wxBOTTOM));
  auto* grid = new wxFlexGridSizer(2, FromDIP(wxSize(8, 6)));
  for (const referee::irma::Colour colour : referee::irma::kAllColours) {
    const wxString name = colour_name(colour);
    auto* swatch = new wxPanel(page, wxID_ANY, wxDefaultPosition, FromDIP(wxSize(36, 24)), wxBORDER_SIMPLE);
    swatch->SetBackgroundColour(wxColour(200, 200, 200));
    auto* text = new wxStaticText(page, wxID_ANY, name + ": " + _("not measured"));
    swatches_.push_back(swatch);
    swatch_text_.push_back(text);
    grid->Add(swatch);
    grid->Add(text, wxSizerFlags().CenterVertical());
  }
  sizer->Add(grid);
  page->SetSizer(sizer);
  return page;
}

wxWindow* CalibrationAssistant::make_zones_page() {
  auto* page = new wxPanel(book_);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(wrapped(page, _("Click the corners of the dice tray on the frame, then choose \"Kept area\" and "
                             "click the corners of the place where kept dice are set aside. A right click "
                             "removes the last point.")),
             wxSizerFlags().Border(wxBOTTOM));
  sizer->Add(open_button(page), wxSizerFlags().Expand().Border(wxBOTTOM, 4));
  const wxString zones[] = {_("Tray (blue)"), _("Kept area (orange)")};
  zone_choice_ = new wxRadioBox(page, wxID_ANY, _("Zone"), wxDefaultPosition, wxDefaultSize, 2, zones, 1);
  zone_choice_->Bind(wxEVT_RADIOBOX, [this](wxCommandEvent& event) {
    set_active_zone(event.GetSelection() == 0 ? Zone::Tray : Zone::Kept);
  });
  sizer->Add(zone_choice_, wxSizerFlags().Expand().Border(wxBOTTOM));
  auto* clear = new wxButton(page, wxID_ANY, _("Clear this zone"));
  clear->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { clear_zone(zone_); });
  sizer->Add(clear, wxSizerFlags().Expand().Border(wxBOTTOM));
  zones_text_ = new wxStaticText(page, wxID_ANY, wxString());
  sizer->Add(zones_text_);
  page->SetSizer(sizer);
  return page;
}

wxWindow* CalibrationAssistant::make_save_page() {
  auto* page = new wxPanel(book_);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  summary_ = new wxStaticText(page, wxID_ANY, wxString());
  sizer->Add(summary_, wxSizerFlags().Border(wxBOTTOM));
  auto* save_button = new wxButton(page, wxID_SAVE, _("Save for this camera"));
  save_button->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { save(); });
  sizer->Add(save_button, wxSizerFlags().Expand());
  page->SetSizer(sizer);
  return page;
}

void CalibrationAssistant::show_step(Step step) {
  book_->SetSelection(static_cast<std::size_t>(step));
  title_->SetLabel(step_title(step));
  update();
}

void CalibrationAssistant::say(const wxString& text) {
  problem_.clear();
  status_->SetForegroundColour(wxColour(20, 110, 40));
  status_->SetLabel(text);
}

void CalibrationAssistant::fail(const wxString& problem) {
  problem_ = problem;
  status_->SetForegroundColour(wxColour(180, 20, 20));
  status_->SetLabel(problem);
}

void CalibrationAssistant::choose_frame() {
  wxFileDialog dialog(this, _("Open a frame of the table"), wxString(), wxString(),
                      _("Images (*.png;*.jpg;*.jpeg)|*.png;*.jpg;*.jpeg;*.PNG;*.JPG;*.JPEG"),
                      wxFD_OPEN | wxFD_FILE_MUST_EXIST);
  if (dialog.ShowModal() == wxID_OK) set_frame_file(dialog.GetPath());
}

bool CalibrationAssistant::set_frame_file(const wxString& path) {
  wxImage image;
  {
    wxLogNull quiet;  // a bad file is reported in the status line
    image.LoadFile(path);
  }
  if (!image.IsOk()) {
    fail(wxString::Format(_("%s is not an image Arbitre can read."), path));
    return false;
  }
  frame_ = image;
  frame_path_ = path.utf8_string();
  mat_.reset();
  view_->frame_changed();
  say(wxString::Format(_("Frame: %s (%d x %d)"), wxFileName(path).GetFullName(), frame_.GetWidth(),
                       frame_.GetHeight()));
  update();
  return true;
}

bool CalibrationAssistant::set_frame(const wxImage& frame) {
  if (!frame.IsOk()) {
    fail(_("The camera gave no frame."));
    return false;
  }
  if (temp_path_.empty()) {
    temp_name_ = wxFileName::CreateTempFileName("arbitre-frame").utf8_string();
    temp_path_ = temp_name_ + ".png";
  }
  if (!frame.SaveFile(utf8(temp_path_), wxBITMAP_TYPE_PNG)) {
    fail(wxString::Format(_("Cannot write %s"), utf8(temp_path_)));
    return false;
  }
  return set_frame_file(utf8(temp_path_));
}

bool CalibrationAssistant::write_mat(const wxString& path, const std::string& paper) {
  try {
    vision::write_mat_file(path.utf8_string(), paper);
  } catch (const std::exception& e) {
    fail(utf8(e.what()));
    return false;
  }
  say(wxString::Format(_("The mat was written to %s. Print it at 100%%."), path));
  return true;
}

bool CalibrationAssistant::find_mat() {
  if (frame_path_.empty()) {
    fail(_("Open a frame first."));
    return false;
  }
  try {
    mat_ = find_mat_in_file(frame_path_, kPapers[paper_->GetSelection()]);
  } catch (const std::exception& e) {
    fail(utf8(e.what()));
    return false;
  }
  update();
  if (!mat_) {
    fail(_("The mat is not in this frame: fewer than two of its corner markers are visible."));
    return false;
  }
  say(wxString::Format(_("Mat found: %d of its 4 markers seen."), mat_->markers));
  return true;
}

bool CalibrationAssistant::measure_colours() {
  if (frame_path_.empty()) {
    fail(_("Open a frame first."));
    return false;
  }
  try {
    colours_ = vision::calibrate_pions_file(frame_path_);
  } catch (const std::exception& e) {
    fail(wxString::Format(_("The colours could not be measured: %s"), utf8(e.what())));
    return false;
  }
  update();
  say(_("The four colours were measured."));
  return true;
}

void CalibrationAssistant::set_active_zone(Zone zone) {
  zone_ = zone;
  zone_choice_->SetSelection(zone == Zone::Tray ? 0 : 1);
  update();
}

void CalibrationAssistant::add_zone_point(double x, double y) {
  (zone_ == Zone::Tray ? zones_.tray : zones_.kept).emplace_back(x, y);
  update();
}

void CalibrationAssistant::clear_zone(Zone zone) {
  (zone == Zone::Tray ? zones_.tray : zones_.kept).clear();
  update();
}

bool CalibrationAssistant::save() {
  const bool tray = zones_.tray.size() >= 3;
  if (!zones_.tray.empty() && !tray) {
    fail(_("The tray needs at least three corners."));
    return false;
  }
  if (!zones_.kept.empty() && zones_.kept.size() < 3) {
    fail(_("The kept area needs at least three corners, or none."));
    return false;
  }
  if (!zones_.kept.empty() && !tray) {
    fail(_("Mark the tray before the kept area."));
    return false;
  }
  if (!colours_ && !tray) {
    fail(_("Nothing to save yet: measure the colours or mark the dice zones."));
    return false;
  }
  try {
    if (colours_) store_->save_calibration(camera_, session::kColoursCalibration, session::colours_to_json(*colours_));
    if (tray) store_->save_calibration(camera_, session::kZonesCalibration, session::zones_to_json(zones_));
  } catch (const std::exception& e) {
    fail(wxString::Format(_("The calibration was not saved: %s"), utf8(e.what())));
    return false;
  }
  say(colours_ && tray ? _("Colours and dice zones saved for this camera.")
      : colours_       ? _("Colours saved for this camera.")
                       : _("Dice zones saved for this camera."));
  return true;
}

void CalibrationAssistant::update() {
  const Step current = step();
  view_->set(current == Step::Mat ? nullptr : &frame_, &mat_, &zones_, current == Step::Zones || current == Step::Save);
  view_->Show(current != Step::Mat);
  back_->Enable(current != Step::Mat);
  next_->Enable(current != Step::Save);

  if (mat_) {
    const auto& h = mat_->homography;
    wxString text = wxString::Format(_("Markers seen: %d of 4"), mat_->markers) + "\n" +
                    _("Homography (mat mm to pixels):") + "\n";
    for (int r = 0; r < 3; ++r) {
      text += wxString::Format("%11.4g %11.4g %11.4g\n", h[r * 3], h[r * 3 + 1], h[r * 3 + 2]);
    }
    mat_text_->SetLabel(text);
  } else {
    mat_text_->SetLabel(wxString());
  }

  for (std::size_t c = 0; c < 4; ++c) {
    const wxString name = colour_name(referee::irma::kAllColours[c]);
    if (colours_) {
      const auto& lab = colours_->colour[c];
      // The lightness is relative to the scene's white, which may be darker than the white pion:
      // shown with the lightest pion at 95, so that the four swatches look like the pions.
      double lightest = 1;
      for (const auto& other : colours_->colour) lightest = std::max(lightest, other[0]);
      swatches_[c]->SetBackgroundColour(lab_to_colour({lab[0] * 95 / lightest, lab[1], lab[2]}));
      swatch_text_[c]->SetLabel(wxString::Format("%s: L %s  a %s  b %s", name, wxString::FromCDouble(lab[0], 1),
                                                 wxString::FromCDouble(lab[1], 1), wxString::FromCDouble(lab[2], 1)));
    } else {
      swatches_[c]->SetBackgroundColour(wxColour(200, 200, 200));
      swatch_text_[c]->SetLabel(name + ": " + _("not measured"));
    }
    swatches_[c]->Refresh();
  }

  zones_text_->SetLabel(wxString::Format(_("Tray: %zu points\nKept area: %zu points"), zones_.tray.size(),
                                         zones_.kept.size()));
  wxString summary = wxString::Format(_("For camera %s:"), utf8(camera_)) + "\n";
  summary += colours_ ? _("- the four pion colours") : _("- no colours measured");
  summary += "\n";
  summary += zones_.tray.size() >= 3 ? (zones_.kept.empty() ? _("- the dice tray") : _("- the dice tray and kept area"))
                                     : _("- no dice zones");
  summary_->SetLabel(summary);
  Layout();
}

}  // namespace arbitre::app::gui::companion
