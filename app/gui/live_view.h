// The live view: the last frame the session saw (the picture, when the source is a sequence of
// image files; a felt table otherwise) with what the reader recognised drawn on top: each pion
// or die outlined and labelled, the low-confidence ones dashed with a "?", a refused Irma
// placement in red with the offending cells, and advice to move the camera when the dice reader
// finds it more than vision::kDiceSurestTiltDeg from overhead (session::CameraAngle). A click on a
// recognised pion or die opens the same correction menu as the game panels and sends the same
// `fix` command: the click is taken back through the view's scaling to the frame's pixels
// (ViewFit), to the sighting drawn there, and to the game's cell (align_to_game) or die number
// (die_number).
#pragma once

#include <wx/bitmap.h>
#include <wx/image.h>
#include <wx/panel.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/chooser.h"
#include "app/gui/overlay.h"
#include "app/gui/runner.h"
#include "app/session/camera_angle.h"

namespace arbitre::gui {

class LiveView : public wxPanel {
 public:
  LiveView(wxWindow* parent, std::function<void(std::string)> send);

  // A frame and what was read in it (the image may be invalid: no picture).
  void show_frame(const wxImage& image, const s::SourceStep& step);
  void show_game(std::shared_ptr<const GameView> game) { game_ = std::move(game); Refresh(); }
  // A refused placement to draw in red until the next one (an empty one clears it).
  void show_refusal(Refusal refusal) {
    refusal_ = std::move(refusal);
    Refresh(false);
  }
  void set_message(const wxString& message) { message_ = message; Refresh(); }
  // A new game or source: the camera's angle is told afresh (CameraAngle).
  void clear_camera_angle() { camera_angle_.clear(); }
  // Whether the view advises moving the camera (for the test).
  bool advises_camera() const { return camera_angle_.past_surest(); }

  // Draws the view into any DC (the window's, or a bitmap's for a screenshot).
  void render(wxDC& dc, const wxSize& size) const;

  void set_chooser(Chooser chooser) { chooser_ = std::move(chooser); }
  // The click handler: the pion or die under the mouse, corrected through the menu.
  void on_left_down(wxMouseEvent& event);
  // The frame shown and where its sighting i is drawn (client coordinates), for the test.
  const std::optional<s::SourceStep>& step() const { return step_; }
  const wxImage& image() const { return image_; }
  std::optional<wxPoint> pion_point(std::size_t index) const;
  std::optional<wxPoint> die_point(std::size_t index) const;
  const GameView* game() const { return game_.get(); }

 private:
  void on_paint(wxPaintEvent& event);
  ViewFit fit(const wxSize& size) const;

  wxImage image_;
  mutable wxBitmap scaled_;  // image_ at the size last drawn
  mutable wxSize scaled_size_;
  std::optional<s::SourceStep> step_;
  std::shared_ptr<const GameView> game_;
  Refusal refusal_;
  s::CameraAngle camera_angle_;  // told by the dice read in the frames shown
  wxString message_;
  std::function<void(std::string)> send_;
  Chooser chooser_ = popup_chooser;
};

// Pion confidence under which the live view marks a sighting as doubtful.
inline constexpr double kLowConfidence = 0.6;

}  // namespace arbitre::gui
