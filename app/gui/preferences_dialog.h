// Edit > Preferences: the language, the default source, the rule variants of Le jeu d'Irma (bag
// counts, marker stock, repeat rule) and of Le Yams impossible (keep rule, dice textures), and
// the appearance of the drawn panels (following the system's dark or light setting, or forced).
// Kept with wxConfig: $XDG_CONFIG_HOME/arbitre-gui.conf (~/.config when unset); the tests point
// XDG_CONFIG_HOME at a temporary folder.
#pragma once

#include <string>
#include <vector>

#include <wx/config.h>
#include <wx/dialog.h>

#include "app/gui/preferences.h"

class wxCheckBox;
class wxChoice;
class wxSpinCtrl;
class wxTextCtrl;

namespace arbitre::gui {

// The preferences as wxConfig holds them (defaults for what it does not); `problems` names the
// entries that could not be read.
Preferences load_preferences(wxConfigBase& config, std::vector<std::string>* problems = nullptr);
void save_preferences(wxConfigBase& config, const Preferences& preferences);

class PreferencesDialog : public wxDialog {
 public:
  PreferencesDialog(wxWindow* parent, const Preferences& preferences);

  // What the controls say now.
  Preferences value() const;
  // The controls, for the GUI test (it sets them as a user would, then presses OK).
  wxChoice* language() const { return language_; }
  wxChoice* source() const { return source_; }
  wxTextCtrl* source_spec() const { return source_spec_; }
  wxSpinCtrl* bag(int colour) const { return bag_[colour]; }
  wxSpinCtrl* markers(int kind) const { return markers_[kind]; }
  wxChoice* repeat_rule() const { return repeat_rule_; }
  wxChoice* keep_rule() const { return keep_rule_; }
  wxCheckBox* textures() const { return textures_; }
  wxChoice* appearance() const { return appearance_; }

 private:
  void on_ok(wxCommandEvent& event);

  wxChoice* language_ = nullptr;
  wxChoice* source_ = nullptr;
  wxTextCtrl* source_spec_ = nullptr;
  wxSpinCtrl* bag_[4] = {};
  wxSpinCtrl* markers_[3] = {};
  wxChoice* repeat_rule_ = nullptr;
  wxChoice* keep_rule_ = nullptr;
  wxCheckBox* textures_ = nullptr;
  wxChoice* appearance_ = nullptr;
};

}  // namespace arbitre::gui
