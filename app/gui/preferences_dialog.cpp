#include "app/gui/preferences_dialog.h"

#include <wx/button.h>
#include <wx/checkbox.h>
#include <wx/filename.h>
#include <wx/stdpaths.h>
#include <wx/choice.h>
#include <wx/intl.h>
#include <wx/msgdlg.h>
#include <wx/sizer.h>
#include <wx/spinctrl.h>
#include <wx/statbox.h>
#include <wx/stattext.h>
#include <wx/textctrl.h>

#include "app/gui/words.h"
#include "referee/irma/record.h"

namespace arbitre::gui {
namespace {

const char* const kLanguages[] = {"", "en", "fr", "de"};
const char* const kSources[] = {"demo", "webcam", "url", "file"};
const char* const kAppearances[] = {"system", "light", "dark"};

template <std::size_t N>
int index_of(const char* const (&words)[N], const std::string& word) {
  for (std::size_t i = 0; i < N; ++i) {
    if (word == words[i]) return static_cast<int>(i);
  }
  return 0;
}

template <std::size_t N>
std::string word_at(const char* const (&words)[N], int index) {
  return index >= 0 && static_cast<std::size_t>(index) < N ? words[index] : words[0];
}

wxString utf8(const std::string& text) { return wxString::FromUTF8(text); }

}  // namespace

Preferences load_preferences(wxConfigBase& config, std::vector<std::string>* problems) {
  std::map<std::string, std::string> entries;
  for (const auto& [key, value] : Preferences{}.entries()) {
    wxString read;
    if (config.Read(utf8(key), &read)) entries[key] = read.ToStdString(wxConvUTF8);
  }
  return Preferences::from_entries(entries, problems);
}

void save_preferences(wxConfigBase& config, const Preferences& preferences) {
  // The config folder may not exist yet (a fresh account, or the tests' own XDG_CONFIG_HOME):
  // wxFileConfig writes its file there but does not make the folder.
  const wxString folder = wxStandardPaths::Get().GetUserConfigDir();
  if (!wxFileName::DirExists(folder)) wxFileName::Mkdir(folder, wxS_DIR_DEFAULT, wxPATH_MKDIR_FULL);
  for (const auto& [key, value] : preferences.entries()) config.Write(utf8(key), utf8(value));
  config.Flush();
}

PreferencesDialog::PreferencesDialog(wxWindow* parent, const Preferences& preferences)
    : wxDialog(parent, wxID_ANY, _("Preferences"), wxDefaultPosition, wxDefaultSize,
               wxDEFAULT_DIALOG_STYLE | wxRESIZE_BORDER) {
  auto* root = new wxBoxSizer(wxVERTICAL);
  const auto row = [](wxWindow* parent, wxSizer* sizer, const wxString& label, wxWindow* control) {
    auto* line = new wxBoxSizer(wxHORIZONTAL);
    line->Add(new wxStaticText(parent, wxID_ANY, label), wxSizerFlags().CentreVertical().Border(wxRIGHT, 6));
    line->Add(control, wxSizerFlags(1).Expand());
    sizer->Add(line, wxSizerFlags().Expand().Border(wxALL, 3));
  };

  auto* general = new wxStaticBoxSizer(wxVERTICAL, this, _("General"));
  wxWindow* g = general->GetStaticBox();
  language_ = new wxChoice(g, wxID_ANY);
  // TRANSLATORS: the language preference: follow the system's locale.
  language_->Append(_("System"));
  language_->Append("English");
  language_->Append(wxString::FromUTF8("Français"));
  language_->Append("Deutsch");
  language_->SetSelection(index_of(kLanguages, preferences.language));
  row(g, general, _("Language (at the next start):"), language_);
  source_ = new wxChoice(g, wxID_ANY);
  source_->Append(_("Bundled demo"));
  source_->Append(_("Webcam"));
  source_->Append(_("Network camera (URL)"));
  source_->Append(_("Video file or image sequence"));
  source_->SetSelection(index_of(kSources, preferences.source));
  row(g, general, _("Default source:"), source_);
  source_spec_ = new wxTextCtrl(g, wxID_ANY, utf8(preferences.source_spec));
  source_spec_->SetHint(_("webcam number, URL or file"));
  row(g, general, _("Its camera, URL or file:"), source_spec_);
  appearance_ = new wxChoice(g, wxID_ANY);
  // TRANSLATORS: appearance of the drawn panels: as the desktop's dark or light setting.
  appearance_->Append(_("Follow the system"));
  appearance_->Append(_("Light"));
  appearance_->Append(_("Dark"));
  appearance_->SetSelection(index_of(kAppearances, preferences.appearance));
  row(g, general, _("Board and sheet colours:"), appearance_);
  root->Add(general, wxSizerFlags().Expand().Border(wxALL, 6));

  auto* irma = new wxStaticBoxSizer(wxVERTICAL, this, _("Le jeu d'Irma: rule variants"));
  wxWindow* i = irma->GetStaticBox();
  auto* bag = new wxFlexGridSizer(2, 4, 3, 6);
  for (const s::ri::Colour colour : s::ri::kAllColours) {
    const int c = static_cast<int>(colour);
    bag_[c] = new wxSpinCtrl(i, wxID_ANY, "", wxDefaultPosition, wxDefaultSize, wxSP_ARROW_KEYS, 0, 99,
                             preferences.irma.bag[static_cast<std::size_t>(c)]);
    bag->Add(new wxStaticText(i, wxID_ANY, colour_name(colour)), wxSizerFlags().CentreVertical());
    bag->Add(bag_[c], wxSizerFlags().Expand());
  }
  // TRANSLATORS: how many pions of each colour the bag holds (a variant of the rules).
  irma->Add(new wxStaticText(i, wxID_ANY, _("Pions in the bag:")), wxSizerFlags().Border(wxALL, 3));
  irma->Add(bag, wxSizerFlags().Expand().Border(wxALL, 3));
  auto* markers = new wxFlexGridSizer(2, 3, 3, 6);
  const int values[] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    markers_[k] = new wxSpinCtrl(i, wxID_ANY, "", wxDefaultPosition, wxDefaultSize, wxSP_ARROW_KEYS, 0, 99,
                                 preferences.irma.marker_stock[static_cast<std::size_t>(k)]);
    markers->Add(new wxStaticText(i, wxID_ANY, wxString::Format(_("worth %d"), values[k])), wxSizerFlags().CentreVertical());
    markers->Add(markers_[k], wxSizerFlags().Expand());
  }
  // TRANSLATORS: how many markers of each value the box holds.
  irma->Add(new wxStaticText(i, wxID_ANY, _("Markers in the box:")), wxSizerFlags().Border(wxALL, 3));
  irma->Add(markers, wxSizerFlags().Expand().Border(wxALL, 3));
  repeat_rule_ = new wxChoice(i, wxID_ANY);
  // TRANSLATORS: the repeat rule's default: a series may not be of the kind of the last one scored.
  repeat_rule_->Append(_("not the kind of the last series scored"));
  // TRANSLATORS: the repeat rule's variant: only the previous turn's series counts.
  repeat_rule_->Append(_("not the kind of the previous turn's series"));
  repeat_rule_->SetSelection(preferences.irma.repeat_rule == s::ri::RepeatRule::PreviousTurn ? 1 : 0);
  row(i, irma, _("Repeated series:"), repeat_rule_);
  root->Add(irma, wxSizerFlags().Expand().Border(wxALL, 6));

  auto* yams = new wxStaticBoxSizer(wxVERTICAL, this, _("Le Yams impossible: rule variants"));
  wxWindow* y = yams->GetStaticBox();
  keep_rule_ = new wxChoice(y, wxID_ANY);
  // TRANSLATORS: the keep rule's default: before each roll the player chooses the dice to keep again.
  keep_rule_->Append(_("free: chosen again before each roll"));
  // TRANSLATORS: the keep rule's variant: a die set aside stays aside for the rest of the turn.
  keep_rule_->Append(_("locked: a die set aside stays aside"));
  keep_rule_->SetSelection(preferences.yams.keep_rule == s::ry::KeepRule::Locked ? 1 : 0);
  row(y, yams, _("Kept dice:"), keep_rule_);
  textures_ = new wxCheckBox(y, wxID_ANY, _("The dice are frosted or transparent (texture harmony)"));
  textures_->SetValue(preferences.yams.textures);
  yams->Add(textures_, wxSizerFlags().Border(wxALL, 3));
  root->Add(yams, wxSizerFlags().Expand().Border(wxALL, 6));

  root->Add(new wxStaticText(this, wxID_ANY, _("The rule variants apply to the next game started from a camera or a file; the demo keeps its own.")),
            wxSizerFlags().Border(wxALL, 6));
  root->Add(CreateStdDialogButtonSizer(wxOK | wxCANCEL), wxSizerFlags().Expand().Border(wxALL, 6));
  SetSizerAndFit(root);
  Bind(wxEVT_BUTTON, &PreferencesDialog::on_ok, this, wxID_OK);
}

Preferences PreferencesDialog::value() const {
  Preferences out;
  out.language = word_at(kLanguages, language_->GetSelection());
  out.source = word_at(kSources, source_->GetSelection());
  out.source_spec = source_spec_->GetValue().ToStdString(wxConvUTF8);
  out.appearance = word_at(kAppearances, appearance_->GetSelection());
  for (int c = 0; c < 4; ++c) out.irma.bag[static_cast<std::size_t>(c)] = bag_[c]->GetValue();
  for (int k = 0; k < 3; ++k) out.irma.marker_stock[static_cast<std::size_t>(k)] = markers_[k]->GetValue();
  out.irma.repeat_rule = repeat_rule_->GetSelection() == 1 ? s::ri::RepeatRule::PreviousTurn : s::ri::RepeatRule::LastScored;
  out.yams.keep_rule = keep_rule_->GetSelection() == 1 ? s::ry::KeepRule::Locked : s::ry::KeepRule::Free;
  out.yams.textures = textures_->GetValue();
  return out;
}

void PreferencesDialog::on_ok(wxCommandEvent& event) {
  // Irma options the referee refuses (an empty bag, ...) are not kept.
  if (const auto error = s::ri::validate(value().irma)) {
    wxMessageBox(wxString::Format(_("These Irma options cannot be played: %s"), utf8(error->message)), _("Preferences"),
                 wxOK | wxICON_WARNING, this);
    return;
  }
  event.Skip();  // the dialog's own OK: closes it
}

}  // namespace arbitre::gui
