// The calibration assistant: a dialog that walks through the steps of calibrating one camera and
// saves the results in the store for that camera (app/session/calibration.h: kinds "colours"
// and "zones"), so that `arbitre watch --source CAMERA` and the GUI start calibrated next time.
//   1. Mat: write the printable play mat (PDF or PNG, A4 or A3).
//   2. Find: find the mat in a still frame; its corners are drawn and the homography shown.
//   3. Colours: a frame with one pion of each colour; the four colours are measured and shown.
//   4. Dice zones: click the tray's corners, then the kept area's, on the frame.
//   5. Save.
// The still frame is an image file the user opens, or a frame the caller passes (set_frame,
// e.g. the live view's last picture). Each step is also a public call, for the main window's
// menus and for tests. Problems are shown in the dialog's status line, never in a modal box.
#pragma once

#include <wx/choice.h>
#include <wx/dialog.h>
#include <wx/image.h>
#include <wx/radiobox.h>
#include <wx/simplebook.h>
#include <wx/stattext.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/companion/mat_finder.h"
#include "data/store/store.h"
#include "vision/dice.h"
#include "vision/observation.h"

class wxButton;

namespace arbitre::app::gui::companion {

class FrameView;

class CalibrationAssistant : public wxDialog {
 public:
  enum class Step { Mat, Find, Colours, Zones, Save };
  enum class Zone { Tray, Kept };

  // `camera`: the camera's id as the session keys it (the --source of `arbitre watch`: a device,
  // a URL, a folder). Opens the store at `store_path`; throws data::store::StoreError.
  CalibrationAssistant(wxWindow* parent, const std::string& store_path, const std::string& camera);
  ~CalibrationAssistant() override;

  void show_step(Step step);
  Step step() const { return static_cast<Step>(book_->GetSelection()); }

  // The still frame the steps 2-4 work on. Return false (with the problem shown) when unreadable.
  bool set_frame_file(const wxString& path);
  bool set_frame(const wxImage& frame);
  const wxImage& frame() const { return frame_; }

  // Step 1: writes the mat ("a4"/"a3", path ending .pdf or .png).
  bool write_mat(const wxString& path, const std::string& paper);
  // Step 2: finds the mat in the frame (paper as chosen in step 1).
  bool find_mat();
  const std::optional<MatFound>& mat() const { return mat_; }
  // Step 3: measures the four colours in the frame (one pion of each colour).
  bool measure_colours();
  const std::optional<vision::ColourCalibration>& colours() const { return colours_; }
  // Step 4: the zones in frame pixels; a click adds a point to the active zone.
  void set_active_zone(Zone zone);
  void add_zone_point(double x, double y);
  void clear_zone(Zone zone);
  const vision::DiceZones& zones() const { return zones_; }
  // Step 5: saves what was measured (colours when measured, zones when the tray has three
  // points or more). Returns false with the problem shown when there is nothing to save or the
  // store refuses.
  bool save();

  wxString problem() const { return problem_; }
  wxString message() const { return status_->GetLabel(); }

 private:
  wxWindow* make_mat_page();
  wxWindow* make_find_page();
  wxWindow* make_colours_page();
  wxWindow* make_zones_page();
  wxWindow* make_save_page();
  wxButton* open_button(wxWindow* page);
  void choose_frame();
  void update();
  void say(const wxString& text);
  void fail(const wxString& problem);

  std::unique_ptr<data::store::Store> store_;
  std::string camera_;
  wxImage frame_;
  std::string frame_path_;  // the frame as a file, for vision's file-based calls
  std::string temp_name_;   // the unique name reserved for it (an empty file), removed with it
  std::string temp_path_;   // a frame given as an image is written here: temp_name_ + ".png"
  std::optional<MatFound> mat_;
  std::optional<vision::ColourCalibration> colours_;
  vision::DiceZones zones_;
  Zone zone_ = Zone::Tray;
  wxString problem_;

  wxStaticText* title_ = nullptr;
  wxSimplebook* book_ = nullptr;
  FrameView* view_ = nullptr;
  wxChoice* paper_ = nullptr;
  wxStaticText* mat_text_ = nullptr;
  std::vector<wxWindow*> swatches_;
  std::vector<wxStaticText*> swatch_text_;
  wxRadioBox* zone_choice_ = nullptr;
  wxStaticText* zones_text_ = nullptr;
  wxStaticText* summary_ = nullptr;
  wxStaticText* status_ = nullptr;
  wxButton* back_ = nullptr;
  wxButton* next_ = nullptr;
};

// A colour measured by the calibration (lightness relative to white x100, a, b) as sRGB, for
// showing it; out-of-gamut values are clipped.
wxColour lab_to_colour(const std::array<double, 3>& lab);

}  // namespace arbitre::app::gui::companion
