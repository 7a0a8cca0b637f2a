// arbitre-gui: the desktop app. Options:
//   --lang fr|de|en     the language (else the preference, else the system's locale)
//   --demo irma|yams|both  start the bundled demo at once (both: Irma, then Yams when Irma is
//                       over; what ./run.sh opens on a machine with a display)
//   --self-test DIR     the GUI test (self_test.h); screenshots go to DIR
//   --timing DIR        the timing harness: the Irma demo at its own pace, figures into DIR
//   --camera-test SCRIPT  with --self-test: the network camera lost and back (self_test.h)
#include <chrono>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <langinfo.h>
#include <memory>

#include <wx/app.h>
#include <wx/cmdline.h>
#include <wx/config.h>
#include <wx/filename.h>
#include <wx/image.h>
#include <wx/intl.h>
#include <wx/log.h>
#include <wx/stdpaths.h>
#include <wx/translation.h>
#include <wx/uilocale.h>

#include "app/gui/main_frame.h"
#include "app/gui/self_test.h"
#include "vision/memory.h"

#ifndef ARBITRE_GUI_BUILD_LOCALE_DIR
#define ARBITRE_GUI_BUILD_LOCALE_DIR ""
#endif

namespace arbitre::gui {
namespace {

class App : public wxApp {
 public:
  bool OnInit() override {
    const auto launched = std::chrono::steady_clock::now();
    arbitre::vision::keep_freed_memory();  // frames read at a steady pace: vision/memory.h
    wxUILocale::UseDefault();
    // Source strings are UTF-8: read them as such even under the C locale (numbers written to
    // files keep the C locale's decimal point: only LC_CTYPE changes).
    if (std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0) std::setlocale(LC_CTYPE, "C.UTF-8");
    SetAppName("arbitre-gui");
    SetVendorName("arbitre");
    wxStandardPaths::Get().SetFileLayout(wxStandardPaths::FileLayout_XDG);
    if (!wxApp::OnInit()) return false;  // parses the command line
    setup_translations();
    wxInitAllImageHandlers();
    if (!test_dir_.empty()) wxLog::SetActiveTarget(new wxLogStderr);

    frame_ = new MainFrame(launched);
    frame_->Show();
    if (!test_dir_.empty()) {
      test_ = std::make_unique<SelfTest>(
          frame_, test_dir_,
          [this](int status) {
            exit_code_ = status;
            CallAfter([this] { frame_->Close(true); });
          },
          timing_, camera_test_);
    } else if (!demo_.empty()) {
      StartRequest request;
      request.kind = demo_ == "yams" ? s::GameKind::Yams : s::GameKind::Irma;
      if (demo_ == "both") {
        // Once: the Yams demo follows an Irma demo played to its end.
        frame_->on_game_end = [frame = frame_](const std::string& reason) {
          frame->on_game_end = nullptr;
          if (reason != "game-over") return;
          StartRequest yams;
          yams.kind = s::GameKind::Yams;
          frame->CallAfter([frame, yams] { frame->start(yams); });
        };
      }
      frame_->start(request);
    } else {
      frame_->CallAfter([frame = frame_] { frame->offer_resume(); });
    }
    return true;
  }

  int OnRun() override {
    const int status = wxApp::OnRun();
    return exit_code_ != 0 ? exit_code_ : status;
  }

  int OnExit() override {
    test_.reset();
    return wxApp::OnExit();
  }

  void OnInitCmdLine(wxCmdLineParser& parser) override {
    wxApp::OnInitCmdLine(parser);
    parser.AddOption("", "lang", _("language of the window: fr, de or en"));
    parser.AddOption("", "demo", _("start the bundled demo: irma, yams or both (Irma, then Yams)"));
    parser.AddOption("", "self-test", _("run the GUI test, screenshots into this folder"));
    parser.AddOption("", "timing", _("measure start-up and overlay latency on the demo, figures into this folder"));
    parser.AddOption("", "camera-test", _("with --self-test: the network-camera test, served by this script"));
  }

  bool OnCmdLineParsed(wxCmdLineParser& parser) override {
    if (!wxApp::OnCmdLineParsed(parser)) return false;
    parser.Found("lang", &lang_);
    parser.Found("demo", &demo_);
    parser.Found("self-test", &test_dir_);
    if (parser.Found("timing", &test_dir_)) timing_ = true;
    parser.Found("camera-test", &camera_test_);
    if (!lang_.empty() && lang_ != "fr" && lang_ != "de" && lang_ != "en") {
      wxLogError("--lang: expected fr, de or en, not %s", lang_);
      return false;
    }
    if (!demo_.empty() && demo_ != "irma" && demo_ != "yams" && demo_ != "both") {
      wxLogError("--demo: expected irma, yams or both, not %s", demo_);
      return false;
    }
    return true;
  }

 private:
  // The catalogues: next to the build (a build tree) or under share/locale of the install.
  void setup_translations() {
    wxString lang = lang_;
    if (lang.empty()) lang = wxConfigBase::Get()->Read("language", "");
    const wxFileName exe(wxStandardPaths::Get().GetExecutablePath());
    wxFileName installed(exe.GetPath(), "");
    installed.RemoveLastDir();
    installed.AppendDir("share");
    installed.AppendDir("locale");
    wxFileTranslationsLoader::AddCatalogLookupPathPrefix(installed.GetPath());
    wxFileTranslationsLoader::AddCatalogLookupPathPrefix(ARBITRE_GUI_BUILD_LOCALE_DIR);
    auto* translations = new wxTranslations;
    if (!lang.empty()) translations->SetLanguage(lang);
    wxTranslations::Set(translations);
    if (lang != "en") {
      translations->AddStdCatalog();
      if (!translations->AddCatalog("arbitre-gui") && !lang.empty())
        std::fprintf(stderr, "arbitre-gui: no catalogue for %s\n", static_cast<const char*>(lang.utf8_str()));
    }
  }

  wxString lang_;
  wxString demo_;
  wxString test_dir_;
  wxString camera_test_;
  bool timing_ = false;
  MainFrame* frame_ = nullptr;
  std::unique_ptr<SelfTest> test_;
  int exit_code_ = 0;
};

}  // namespace
}  // namespace arbitre::gui

wxIMPLEMENT_APP(arbitre::gui::App);
