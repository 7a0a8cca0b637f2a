#include "app/gui/main_frame.h"

#include <filesystem>
#include <sstream>

#include <wx/button.h>
#include <wx/choice.h>
#include <wx/config.h>
#include <wx/filedlg.h>
#include <wx/intl.h>
#include <wx/listbox.h>
#include <wx/log.h>
#include <wx/accel.h>
#include <wx/menu.h>
#include <wx/msgdlg.h>
#include <wx/simplebook.h>
#include <wx/sizer.h>
#include <wx/splitter.h>
#include <wx/statbox.h>
#include <wx/stattext.h>
#include <wx/statusbr.h>
#include <wx/settings.h>
#include <wx/stdpaths.h>
#include <wx/textctrl.h>
#include <wx/utils.h>

#include "app/gui/companion/calibration.h"
#include "app/gui/companion/history.h"
#include "app/gui/irma_panel.h"
#include "app/gui/live_view.h"
#include "app/gui/preferences_dialog.h"
#include "app/gui/words.h"
#include "app/gui/yams_panel.h"
#include "app/session/calibration.h"
#include "app/session/camera_source.h"
#include "app/session/demo.h"
#include "data/store/store.h"
#include "scoring/irma/score.h"

namespace arbitre::gui {

namespace companion = app::gui::companion;

namespace {

namespace fs = std::filesystem;

enum StatusField { kStatusGame, kStatusFps, kStatusRecognition, kStatusFields };

// The webcams V4L2 offers (/dev/videoN), by index.
std::vector<int> detect_webcams() {
  std::vector<int> found;
  for (int i = 0; i < 10; ++i) {
    std::error_code error;
    if (fs::exists("/dev/video" + std::to_string(i), error)) found.push_back(i);
  }
  return found;
}

// What the live view draws of a frame: the camera source's picture, or the recording's image
// file, at most 800 x 450 (any thread).
wxImage frame_image(const FrameSeen& frame) {
  wxImage image;
  if (const auto& picture = frame.step.picture; picture && picture->width > 0 && picture->height > 0) {
    // The frame the camera source decoded, scaled to what the view shows.
    const wxImage full(picture->width, picture->height, const_cast<unsigned char*>(picture->rgb.data()), true);
    const double scale = std::min({1.0, 800.0 / picture->width, 450.0 / picture->height});
    image = scale < 1.0 ? full.Scale(std::max(1, static_cast<int>(picture->width * scale)),
                                     std::max(1, static_cast<int>(picture->height * scale)), wxIMAGE_QUALITY_BILINEAR)
                        : full.Copy();
  } else if (!frame.image_path.empty()) {
    wxLogNull quiet;
    // The JPEG decoder scales down while decoding (much cheaper than decoding whole).
    image.SetOption(wxIMAGE_OPTION_MAX_WIDTH, 800);
    image.SetOption(wxIMAGE_OPTION_MAX_HEIGHT, 450);
    if (!image.LoadFile(frame.image_path)) image = wxImage();
  }
  return image;
}

FrameStats::IrmaSnapshot irma_snapshot(const GameView& view) {
  FrameStats::IrmaSnapshot out;
  if (view.irma.empty()) return out;
  const s::IrmaGame::Player& player = view.irma[view.current];
  out.score = scoring::irma::score(player.state);
  out.pions = player.state.board.size();
  out.moves = player.record.moves.size();
  return out;
}

std::vector<std::string> split_players(const wxString& text) {
  std::vector<std::string> players;
  std::stringstream in(text.ToStdString(wxConvUTF8));
  std::string name;
  while (std::getline(in, name, ',')) {
    const auto begin = name.find_first_not_of(" \t");
    const auto end = name.find_last_not_of(" \t");
    if (begin != std::string::npos) players.push_back(name.substr(begin, end - begin + 1));
  }
  return players;
}

}  // namespace

MainFrame::MainFrame(std::chrono::steady_clock::time_point launched)
    : wxFrame(nullptr, wxID_ANY, _("Arbitre — the table referee")), timer_(this), launched_(launched) {
  build();
  Bind(wxEVT_CLOSE_WINDOW, &MainFrame::on_close, this);
  Bind(wxEVT_TIMER, &MainFrame::on_timer, this);
  Bind(wxEVT_IDLE, [this](wxIdleEvent& event) {
    flush_log();
    event.Skip();
  });
  timer_.Start(1000);
  update_buttons();
}

MainFrame::~MainFrame() {
  timer_.Stop();
  runner_.reset();  // joins the worker
  if (url_test_.joinable()) url_test_.join();
  remove_store();
}

void MainFrame::build() {
  auto* root = new wxPanel(this);
  auto* controls = new wxBoxSizer(wxVERTICAL);

  auto* game_box = new wxStaticBoxSizer(wxVERTICAL, root, _("Game"));
  game_ = new wxChoice(game_box->GetStaticBox(), wxID_ANY);
  game_->Append(_("Le jeu d'Irma"));
  game_->Append(_("Le Yams impossible"));
  game_->SetSelection(0);
  game_box->Add(game_, wxSizerFlags().Expand().Border(wxALL, 2));
  // TRANSLATORS: label above the players' names, separated by commas.
  game_box->Add(new wxStaticText(game_box->GetStaticBox(), wxID_ANY, _("Players (comma-separated):")),
                wxSizerFlags().Border(wxLEFT | wxTOP, 2));
  players_ = new wxTextCtrl(game_box->GetStaticBox(), wxID_ANY, "");
  players_->SetHint(_("the demo's players"));
  game_box->Add(players_, wxSizerFlags().Expand().Border(wxALL, 2));
  controls->Add(game_box, wxSizerFlags().Expand().Border(wxALL, 4));

  auto* source_box = new wxStaticBoxSizer(wxVERTICAL, root, _("Source"));
  wxWindow* sb = source_box->GetStaticBox();
  source_ = new wxChoice(sb, wxID_ANY);
  source_->Append(_("Bundled demo"));
  source_->Append(_("Webcam"));
  source_->Append(_("Network camera (URL)"));
  source_->Append(_("Video file or image sequence"));
  source_->SetSelection(0);
  source_box->Add(source_, wxSizerFlags().Expand().Border(wxALL, 2));
  webcam_ = new wxChoice(sb, wxID_ANY);
  for (const int index : detect_webcams()) webcam_->Append(wxString::Format(_("Camera %d (/dev/video%d)"), index, index));
  if (webcam_->IsEmpty()) webcam_->Append(_("No webcam found (index 0)"));
  webcam_->SetSelection(0);
  source_box->Add(webcam_, wxSizerFlags().Expand().Border(wxALL, 2));
  auto* url_row = new wxBoxSizer(wxHORIZONTAL);
  url_ = new wxTextCtrl(sb, wxID_ANY, "");
  url_->SetHint("http://192.168.1.20:8080/video");
  test_url_ = new wxButton(sb, wxID_ANY, _("Test"));
  url_row->Add(url_, wxSizerFlags(1).Expand());
  url_row->Add(test_url_, wxSizerFlags().Border(wxLEFT, 2));
  source_box->Add(url_row, wxSizerFlags().Expand().Border(wxALL, 2));
  auto* file_row = new wxBoxSizer(wxHORIZONTAL);
  file_ = new wxTextCtrl(sb, wxID_ANY, "");
  file_->SetHint(_("video.mp4 or frames/%04d.jpg"));
  browse_ = new wxButton(sb, wxID_ANY, _("Browse…"));
  file_row->Add(file_, wxSizerFlags(1).Expand());
  file_row->Add(browse_, wxSizerFlags().Border(wxLEFT, 2));
  source_box->Add(file_row, wxSizerFlags().Expand().Border(wxALL, 2));
  controls->Add(source_box, wxSizerFlags().Expand().Border(wxALL, 4));

  auto* buttons = new wxGridSizer(2, 4, 4);
  start_ = new wxButton(root, wxID_ANY, _("Start"));
  pause_ = new wxButton(root, wxID_ANY, _("Pause"));
  stop_ = new wxButton(root, wxID_ANY, _("Stop"));
  undo_ = new wxButton(root, wxID_ANY, _("Undo"));  // not wxID_UNDO: GTK would put its own label
  // TRANSLATORS: button: carry out again what Undo undid.
  redo_ = new wxButton(root, wxID_ANY, _("Redo"));
  undo_->SetToolTip(_("Undo the last move, refused try or correction (Ctrl+Z)"));
  redo_->SetToolTip(_("Do again what was undone last (Ctrl+Shift+Z or Ctrl+Y)"));
  for (wxButton* b : {start_, pause_, stop_, undo_, redo_}) buttons->Add(b, wxSizerFlags().Expand());
  controls->Add(buttons, wxSizerFlags().Expand().Border(wxALL, 4));

  // TRANSLATORS: button: the advisor's cell for the Irma pion to place.
  advice_ = new wxButton(root, wxID_ANY, _("Irma: advise a cell"));
  controls->Add(advice_, wxSizerFlags().Expand().Border(wxALL, 4));

  // Le Yams impossible: what the camera cannot tell, and the advisor.
  auto* yams_box = new wxStaticBoxSizer(wxVERTICAL, root, _("Le Yams impossible"));
  // TRANSLATORS: button: fill the box the advisor would choose for the dice on the table.
  best_box_ = new wxButton(yams_box->GetStaticBox(), wxID_ANY, _("Fill the best box"));
  // TRANSLATORS: button: the dice as they lie are a new roll (e.g. every die was kept).
  rolled_ = new wxButton(yams_box->GetStaticBox(), wxID_ANY, _("Count as a roll"));
  // TRANSLATORS: button: the advisor's choice for the dice on the table (which to keep).
  yams_advice_ = new wxButton(yams_box->GetStaticBox(), wxID_ANY, _("Advise a keep"));
  yams_box->Add(yams_advice_, wxSizerFlags().Expand().Border(wxALL, 2));
  yams_box->Add(best_box_, wxSizerFlags().Expand().Border(wxALL, 2));
  yams_box->Add(rolled_, wxSizerFlags().Expand().Border(wxALL, 2));
  auto* declare_hint = new wxStaticText(yams_box->GetStaticBox(), wxID_ANY,
                                        _("Right-click a box after the fifth roll to declare a sixth roll for it."));
  declare_hint->Wrap(FromDIP(220));
  yams_box->Add(declare_hint, wxSizerFlags().Border(wxALL, 2));
  controls->Add(yams_box, wxSizerFlags().Expand().Border(wxALL, 4));

  const auto sender = [this](std::string line) { send(std::move(line)); };
  live_view_ = new LiveView(root, sender);
  book_ = new wxSimplebook(root);
  irma_panel_ = new IrmaPanel(book_, sender);
  yams_panel_ = new YamsPanel(book_, sender);
  book_->AddPage(irma_panel_, _("Irma"));
  book_->AddPage(yams_panel_, _("Yams"));

  auto* middle = new wxBoxSizer(wxHORIZONTAL);
  middle->Add(controls, wxSizerFlags().Expand());
  middle->Add(live_view_, wxSizerFlags(3).Expand().Border(wxALL, 4));
  middle->Add(book_, wxSizerFlags(2).Expand().Border(wxALL, 4));

  log_ = new wxTextCtrl(root, wxID_ANY, "", wxDefaultPosition, wxDefaultSize,
                        wxTE_MULTILINE | wxTE_READONLY | wxTE_DONTWRAP);
  log_->SetMinSize(FromDIP(wxSize(-1, 110)));
  auto* main = new wxBoxSizer(wxVERTICAL);
  main->Add(middle, wxSizerFlags(1).Expand());
  main->Add(log_, wxSizerFlags().Expand().Border(wxALL, 4));
  root->SetSizer(main);

  // The companion windows (app/gui/companion).
  auto* history_menu = new wxMenu;
  const auto add = [this](wxMenu* menu, const wxString& label, std::function<void()> action) {
    wxMenuItem* entry = menu->Append(wxID_ANY, label);
    Bind(wxEVT_MENU, [action = std::move(action)](wxCommandEvent&) { action(); }, entry->GetId());
  };
  add(history_menu, _("Game &history…"), [this] { open_history(HistoryPage::Games); });
  add(history_menu, _("&Records"), [this] { open_history(HistoryPage::Records); });
  add(history_menu, _("Score &chart"), [this] { open_history(HistoryPage::Chart); });
  history_menu->AppendSeparator();
  add(history_menu, _("Export sheet as &PNG…"), [this] { export_sheet(false); });
  add(history_menu, _("Export sheet as P&DF…"), [this] { export_sheet(true); });
  add(history_menu, _("&Print sheet…"), [this] { print_sheet(); });
  auto* tools_menu = new wxMenu;
  add(tools_menu, _("&Calibration assistant…"), [this] { open_calibration(); });
  // Edit: undo and redo (the buttons' commands) with their usual shortcuts.
  auto* edit_menu = new wxMenu;
  undo_item_ = edit_menu->Append(wxID_ANY, _("&Undo") + "\tCtrl+Z");
  redo_item_ = edit_menu->Append(wxID_ANY, _("&Redo") + "\tCtrl+Y");
  edit_menu->AppendSeparator();
  add(edit_menu, _("&Preferences…"), [this] { open_preferences(); });
  Bind(wxEVT_MENU, &MainFrame::on_undo, this, undo_item_->GetId());
  Bind(wxEVT_MENU, &MainFrame::on_redo, this, redo_item_->GetId());
  auto* menus = new wxMenuBar;
  menus->Append(edit_menu, _("&Edit"));
  menus->Append(history_menu, _("&History"));
  menus->Append(tools_menu, _("&Tools"));
  SetMenuBar(menus);

  CreateStatusBar(kStatusFields);
  const int widths[kStatusFields] = {-3, -1, -1};
  GetStatusBar()->SetStatusWidths(kStatusFields, widths);
  SetStatusText(_("Ready"), kStatusGame);
  SetStatusText(wxString::Format(_("%.1f frames/s"), 0.0), kStatusFps);
  set_recognition(_("idle"));

  start_->Bind(wxEVT_BUTTON, &MainFrame::on_start, this);
  pause_->Bind(wxEVT_BUTTON, &MainFrame::on_pause, this);
  stop_->Bind(wxEVT_BUTTON, &MainFrame::on_stop, this);
  undo_->Bind(wxEVT_BUTTON, &MainFrame::on_undo, this);
  redo_->Bind(wxEVT_BUTTON, &MainFrame::on_redo, this);
  // Ctrl+Shift+Z, the other usual key for redo (a menu item shows one shortcut).
  wxAcceleratorEntry keys[] = {{wxACCEL_CTRL | wxACCEL_SHIFT, 'Z', redo_item_->GetId()}};
  SetAcceleratorTable(wxAcceleratorTable(1, keys));
  best_box_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { send("box"); });
  advice_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { log(irma_panel_->advise()); });
  rolled_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { send("roll"); });
  yams_advice_->Bind(wxEVT_BUTTON, [this](wxCommandEvent&) { log(yams_panel_->advise()); });
  test_url_->Bind(wxEVT_BUTTON, &MainFrame::on_test_url, this);
  browse_->Bind(wxEVT_BUTTON, &MainFrame::on_browse, this);
  source_->Bind(wxEVT_CHOICE, [this](wxCommandEvent&) { on_source_changed(); });
  Bind(wxEVT_SYS_COLOUR_CHANGED, [this](wxSysColourChangedEvent& event) {
    apply_appearance();  // the desktop switched between dark and light
    event.Skip();
  });
  {
    std::vector<std::string> problems;
    prefs_ = load_preferences(*wxConfigBase::Get(), &problems);
    for (const std::string& problem : problems)
      log(wxString::Format(_("Preferences: %s"), wxString::FromUTF8(problem)));
  }
  apply_appearance();
  show_default_source();
  on_source_changed();
  SetClientSize(FromDIP(wxSize(1400, 860)));
}

void MainFrame::on_source_changed() {
  const int source = source_->GetSelection();
  webcam_->Enable(source == 1);
  url_->Enable(source == 2);
  test_url_->Enable(source == 2);
  file_->Enable(source == 3);
  browse_->Enable(source == 3);
}

void MainFrame::open_preferences() {
  PreferencesDialog dialog(this, prefs_);
  if (dialog.ShowModal() == wxID_OK) set_preferences(dialog.value());
}

void MainFrame::set_preferences(const Preferences& preferences) {
  const bool language_changed = preferences.language != prefs_.language;
  prefs_ = preferences;
  save_preferences(*wxConfigBase::Get(), prefs_);
  apply_appearance();
  if (!runner_ || runner_->finished()) {
    show_default_source();
    on_source_changed();
  }
  log(_("Preferences saved: the rule variants apply to the next game started."));
  if (language_changed) log(_("The language changes the next time Arbitre starts."));
}

void MainFrame::apply_appearance() {
  const bool dark = dark_appearance(prefs_.appearance, wxSystemSettings::GetAppearance().IsDark());
  irma_panel_->set_palette(palette(dark));
  yams_panel_->set_palette(palette(dark));
}

void MainFrame::show_default_source() {
  const std::string& source = prefs_.source;
  const wxString spec = wxString::FromUTF8(prefs_.source_spec);
  if (source == "webcam") {
    source_->SetSelection(1);
    const std::vector<int> cams = detect_webcams();
    for (std::size_t i = 0; i < cams.size(); ++i) {
      if (std::to_string(cams[i]) == prefs_.source_spec) webcam_->SetSelection(static_cast<int>(i));
    }
  } else if (source == "url") {
    source_->SetSelection(2);
    url_->SetValue(spec);
  } else if (source == "file") {
    source_->SetSelection(3);
    file_->SetValue(spec);
  } else {
    source_->SetSelection(0);
  }
}

void MainFrame::offer_resume() {
  std::vector<data::store::Game> games;
  try {
    const std::string path = data::store::default_store_path();
    std::error_code error;
    if (!fs::exists(path, error)) return;
    data::store::Store store = data::store::Store::open(path);
    games = store.unfinished_games();
  } catch (const std::exception& e) {
    log(wxString::Format(_("Cannot read the game store: %s"), wxString::FromUTF8(e.what())));
    return;
  }
  if (games.empty()) return;
  const data::store::Game& game = games.front();  // the newest
  wxString players;
  for (const data::store::Seat& seat : game.seats) players += (players.empty() ? "" : ", ") + wxString::FromUTF8(seat.name);
  const wxString kind = game.kind == s::GameKind::Yams ? _("Le Yams impossible") : _("Le jeu d'Irma");
  wxMessageDialog ask(this,
                      wxString::Format(_("A game of %s with %s, started %s, was not finished (%lld events). Resume it?"),
                                       kind, players, wxString::FromUTF8(game.started_at),
                                       static_cast<long long>(game.event_count)),
                      _("Resume a game"), wxYES_NO | wxYES_DEFAULT | wxICON_QUESTION);
  if (ask.ShowModal() != wxID_YES) return;
  resume_game_ = game.id;
  game_->SetSelection(game.kind == s::GameKind::Yams ? 1 : 0);
  game_->Disable();
  players_->SetValue(players);
  players_->Disable();
  if (source_->GetSelection() == 0) source_->SetSelection(1);
  on_source_changed();
  log(_("Choose the camera and press Start: the game goes on where it stopped."));
}

void MainFrame::show_panel(s::GameKind kind) { book_->SetSelection(kind == s::GameKind::Irma ? 0 : 1); }

StartRequest MainFrame::request_from_controls() const {
  StartRequest request;
  request.kind = game_->GetSelection() == 1 ? s::GameKind::Yams : s::GameKind::Irma;
  request.players = split_players(players_->GetValue());
  switch (source_->GetSelection()) {
    case 1: {
      request.source = SourceKind::Webcam;
      const std::vector<int> cams = detect_webcams();
      const int i = webcam_->GetSelection();
      request.spec = std::to_string(i >= 0 && i < static_cast<int>(cams.size()) ? cams[i] : 0);
      break;
    }
    case 2:
      request.source = SourceKind::Url;
      request.spec = url_->GetValue().ToStdString(wxConvUTF8);
      break;
    case 3:
      request.source = SourceKind::File;
      request.spec = file_->GetValue().ToStdString(wxConvUTF8);
      break;
    default:
      request.source = SourceKind::Demo;
  }
  return request;
}

void MainFrame::remove_store() {
  if (temporary_store_.empty()) return;
  std::error_code error;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(temporary_store_ + suffix, error);
  temporary_store_.clear();
}

bool MainFrame::start(const StartRequest& request) {
  runner_.reset();
  remove_store();
  stats_ = FrameStats{};
  can_undo_ = can_redo_ = false;
  stats_.start_pressed = std::chrono::steady_clock::now();
  game_->SetSelection(request.kind == s::GameKind::Yams ? 1 : 0);  // the game played, shown
  RunnerSetup setup;
  setup.options.kind = request.kind;
  setup.realtime = request.realtime;
  setup.pause_when = request.pause_when;
  try {
    if (request.source == SourceKind::Demo) {
      s::Demo demo = s::make_demo(request.kind);
      setup.options.players = demo.players;
      setup.options.irma = demo.irma;
      setup.options.yams = demo.yams;
      setup.source = std::move(demo.source);
      setup.table = demo.table;
      stats_.expected = demo.expected;
      if (const auto dir = s::demo_recording_dir(request.kind)) {
        setup.image_pattern = (fs::path(*dir) / "%04d.jpg").string();
      }
      // The demo keeps nothing: a temporary store, removed when the next game starts or the
      // window closes.
      // In memory-backed /dev/shm when there is one: the demo's commits need not reach a disk.
      std::error_code error;
      const fs::path dir = fs::is_directory("/dev/shm", error) ? fs::path("/dev/shm") : fs::temp_directory_path();
      temporary_store_ = (dir / ("arbitre-gui-demo-" + std::to_string(wxGetProcessId()) + ".db")).string();
      setup.store_path = temporary_store_;
      log(wxString::Format(_("Demo: %s"), wxString::FromUTF8(demo.from)));
    } else {
      if (request.spec.empty()) {
        log(_("Choose a source first."));
        return false;
      }
      setup.options.players = request.players.empty() ? std::vector<std::string>{"player"} : request.players;
      prefs_.apply(setup.options);  // the rule variants of the preferences
      setup.store_path = camera_store_path(request);
      fs::create_directories(fs::path(setup.store_path).parent_path());
      // The camera's calibration as `arbitre watch` reads it: the latest the store holds for
      // this source string (the calibration assistant saves it under the same string).
      s::CameraOptions camera;
      {
        auto store = data::store::Store::open(setup.store_path);
        const s::CameraCalibration calibration = s::calibration_for(store, request.spec, request.kind, "");
        camera.calibration = calibration.colours;
        if (calibration.zones) camera.zones = *calibration.zones;
        stats_.calibration_from = calibration.from;
        if (!calibration.from.empty())
          log(wxString::Format(_("Calibration of this camera saved %s."), wxString::FromUTF8(calibration.saved_at)));
      }
      camera.pictures = true;  // the live view shows the very frame the reader read
      camera.textures = prefs_.yams.textures;
      setup.source = s::open_camera(request.spec, request.kind, camera);
      setup.resume = resume_game_;
    }
  } catch (const std::exception& e) {
    log(wxString::Format(_("Cannot start: %s"), wxString::FromUTF8(e.what())));
    SetStatusText(_("Cannot start"), kStatusGame);
    return false;
  }
  if (resume_game_ && request.source != SourceKind::Demo) {
    resume_game_.reset();  // resumed now
    players_->Enable();
  }
  if (!request.players.empty() && request.source == SourceKind::Demo) {
    log(_("The demo is played with its own players."));
  }
  store_path_ = setup.store_path;
  last_source_ = request.source == SourceKind::Demo ? std::string() : request.spec;
  last_picture_.reset();
  last_image_path_.clear();
  show_panel(request.kind);
  live_view_->show_refusal({});
  live_view_->set_message({});
  live_view_->clear_camera_angle();
  irma_panel_->show_refusal({});
  log_->Clear();
  pending_log_.clear();
  pending_lines_ = 0;
  frames_ = 0;
  frame_pending_ = false;
  last_frame_posted_ms_ = 0;
  frame_number_ = 0;  // the last game's worker is joined
  shown_frame_ = 0;
  {
    std::lock_guard lock(dropped_mutex_);
    dropped_.reset();
  }
  {
    std::lock_guard lock(inbox_mutex_);  // the last game's worker is joined: drop what it left
    inbox_.clear();
  }
  const int generation = ++generation_;  // frames and ends of an older game are ignored

  RunnerCallbacks callbacks;
  callbacks.on_event = [this](const s::Event& event, std::shared_ptr<const GameView> view) {
    // Events wait in the inbox; one CallAfter drains all that came meanwhile, so a burst of
    // events costs one repaint, not one each.
    std::lock_guard lock(inbox_mutex_);
    inbox_.emplace_back(event, std::move(view));
    if (!drain_posted_) {
      drain_posted_ = true;
      CallAfter([this] { drain_events(); });
    }
  };
  callbacks.on_frame = [this, generation](FrameSeen frame) {
    ++frames_;
    // At most one frame waits for the GUI, and at most 60 a second are drawn: a source faster
    // than that (a script, a recording played flat out) would keep the GUI thread painting.
    const double now = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const long number = ++frame_number_;
    const auto drop = [&] {
      std::lock_guard lock(dropped_mutex_);
      dropped_ = Dropped{generation, number, std::move(frame)};
    };
    if (now - last_frame_posted_ms_ < 1000.0 / 60) return drop();
    if (frame_pending_.exchange(true)) return drop();  // the GUI has not drawn the last one yet
    {
      std::lock_guard lock(dropped_mutex_);
      dropped_.reset();
    }
    last_frame_posted_ms_ = now;
    wxImage image = frame_image(frame);
    CallAfter([this, generation, number, frame = std::move(frame), image] {
      if (generation == generation_) handle_frame(frame, image, number);
    });
  };
  callbacks.on_end = [this, generation](std::string reason, std::string error) {
    CallAfter([this, generation, reason, error] {
      if (generation == generation_) handle_end(reason, error);
    });
  };
  stats_.running = true;
  const std::string kind_text = request.kind == s::GameKind::Irma ? "irma" : "yams";
  SetStatusText(request.kind == s::GameKind::Irma ? _("Le jeu d'Irma: playing") : _("Le Yams impossible: playing"),
                kStatusGame);
  set_recognition(_("starting"));
  runner_ = std::make_unique<Runner>(std::move(setup), std::move(callbacks));
  update_buttons();
  return true;
}

std::string MainFrame::camera_store_path(const StartRequest& request) const {
  return request.store_path.empty() ? data::store::default_store_path() : request.store_path;
}

companion::HistoryFrame* MainFrame::open_history(HistoryPage page) {
  const std::string path = store_path_.empty() ? data::store::default_store_path() : store_path_;
  if (history_ && history_path_ != path) {
    history_->Destroy();
    history_ = nullptr;
  }
  if (!history_) {
    try {
      if (path != temporary_store_) fs::create_directories(fs::path(path).parent_path());
      history_ = new companion::HistoryFrame(this, path);
      history_path_ = path;
    } catch (const std::exception& e) {
      log(wxString::Format(_("The game history cannot be opened: %s"), wxString::FromUTF8(e.what())));
      return nullptr;
    }
  } else {
    history_->reload();
  }
  history_->show_page(page == HistoryPage::Records ? companion::HistoryFrame::Page::Records
                      : page == HistoryPage::Chart ? companion::HistoryFrame::Page::Chart
                                                   : companion::HistoryFrame::Page::Games);
  history_->Show();
  history_->Raise();
  return history_;
}

namespace {
// The history's chosen game, else its newest (first in the list); false when it holds none.
bool choose_sheet(companion::HistoryFrame& history) {
  if (history.selected_game()) return true;
  if (history.game_count() == 0) return false;
  return history.select_game(static_cast<data::store::GameId>(history.games_list().GetItemData(0)));
}
}  // namespace

void MainFrame::export_sheet(bool pdf) {
  companion::HistoryFrame* history = open_history(HistoryPage::Games);
  if (!history) return;
  if (!choose_sheet(*history)) {
    log(_("The store holds no game yet: there is no score sheet to export."));
    return;
  }
  history->on_export(pdf);
}

void MainFrame::print_sheet() {
  companion::HistoryFrame* history = open_history(HistoryPage::Games);
  if (!history) return;
  if (!choose_sheet(*history)) {
    log(_("The store holds no game yet: there is no score sheet to print."));
    return;
  }
  history->on_print();
}

wxImage MainFrame::last_frame() const {
  if (last_picture_ && last_picture_->width > 0)
    return wxImage(last_picture_->width, last_picture_->height, const_cast<unsigned char*>(last_picture_->rgb.data()), true)
        .Copy();
  wxImage image;
  if (!last_image_path_.empty()) {
    wxLogNull quiet;
    if (!image.LoadFile(last_image_path_)) image = wxImage();
  }
  return image;
}

void MainFrame::open_calibration() {
  const StartRequest request = request_from_controls();
  if (request.source == SourceKind::Demo || request.spec.empty()) {
    log(_("Choose the camera to calibrate first (a webcam, a URL or a video file) in Source."));
    return;
  }
  try {
    const std::string path = camera_store_path(request);
    fs::create_directories(fs::path(path).parent_path());
    companion::CalibrationAssistant assistant(this, path, request.spec);
    // The live view's last frame, when it came from this camera.
    if (const wxImage frame = last_frame(); frame.IsOk() && last_source_ == request.spec) assistant.set_frame(frame);
    assistant.ShowModal();
  } catch (const std::exception& e) {
    log(wxString::Format(_("The calibration assistant cannot open the store: %s"), wxString::FromUTF8(e.what())));
  }
}

void MainFrame::stop() {
  if (runner_) runner_->request_stop();
}

void MainFrame::send(std::string line) {
  if (!runner_ || runner_->finished()) {
    log(_("No game is running."));
    return;
  }
  runner_->send(std::move(line));
}

void MainFrame::on_start(wxCommandEvent&) { start(request_from_controls()); }

void MainFrame::on_pause(wxCommandEvent&) {
  if (!runner_) return;
  runner_->set_paused(!runner_->paused());
  set_recognition(runner_->paused() ? _("paused") : _("starting"));
  update_buttons();
}

void MainFrame::on_stop(wxCommandEvent&) { stop(); }

int MainFrame::undo_menu_id() const { return undo_item_->GetId(); }
int MainFrame::redo_menu_id() const { return redo_item_->GetId(); }

void MainFrame::on_undo(wxCommandEvent&) {
  if (can_undo_) send("undo");
}

void MainFrame::on_redo(wxCommandEvent&) {
  if (can_redo_) send("redo");
}

void MainFrame::on_browse(wxCommandEvent&) {
  wxFileDialog dialog(this, _("A video or one image of a sequence"), "", "",
                      _("Videos and images|*.mp4;*.avi;*.mkv;*.webm;*.jpg;*.png|All files|*"),
                      wxFD_OPEN | wxFD_FILE_MUST_EXIST);
  if (dialog.ShowModal() != wxID_OK) return;
  file_->SetValue(dialog.GetPath());
}

void MainFrame::on_test_url(wxCommandEvent&) {
  const std::string url = url_->GetValue().ToStdString(wxConvUTF8);
  if (url.empty()) {
    log(_("Type the camera's URL first."));
    return;
  }
  if (url_test_.joinable()) url_test_.join();
  test_url_->Disable();
  log(wxString::Format(_("Testing %s…"), wxString::FromUTF8(url)));
  // On a thread of its own: a camera that does not answer takes seconds to say so.
  url_test_ = std::thread([this, url] {
    std::string result;
    bool ok = false;
    try {
      auto source = s::open_camera(url, s::GameKind::Irma);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
      while (std::chrono::steady_clock::now() < deadline) {
        const s::SourceStep step = source->next();
        if (step.kind == s::SourceStep::Kind::Observation) {
          ok = true;
          result = step.pions ? std::to_string(step.pions->width) + "x" + std::to_string(step.pions->height) : "";
          break;
        }
        if (step.kind == s::SourceStep::Kind::Lost || step.kind == s::SourceStep::Kind::Ended) {
          result = step.text;
          break;
        }
      }
      if (!ok && result.empty()) result = "no frame in 8 s";
    } catch (const std::exception& e) {
      result = e.what();
    }
    CallAfter([this, ok, result] {
      test_url_->Enable();
      if (ok)
        log(wxString::Format(_("The camera answers: a %s picture."), wxString::FromUTF8(result)));
      else
        log(wxString::Format(_("The camera does not answer: %s"), wxString::FromUTF8(result)));
    });
  });
}

void MainFrame::on_close(wxCloseEvent& event) {
  if (runner_) runner_->request_stop();
  event.Skip();
}

void MainFrame::on_timer(wxTimerEvent&) {
  SetStatusText(wxString::Format(_("%.1f frames/s"), static_cast<double>(frames_.exchange(0))), kStatusFps);
}

void MainFrame::set_recognition(const wxString& state) {
  SetStatusText(wxString::Format(_("Table: %s"), state), kStatusRecognition);
}

void MainFrame::log(const wxString& line) {
  if (line.empty()) return;
  pending_log_ += (pending_log_.empty() && log_->IsEmpty() ? "" : "\n") + line;
  // A fast source sends hundreds of events a second: the text view takes them in batches (here,
  // or when the event queue is empty).
  if (++pending_lines_ >= 50) flush_log();
}

void MainFrame::flush_log() {
  if (pending_log_.empty()) return;
  if (log_->GetLastPosition() > 200000) log_->Remove(0, 100000);  // keep the log short
  log_->AppendText(pending_log_);
  log_->ShowPosition(log_->GetLastPosition());
  pending_log_.clear();
  pending_lines_ = 0;
}

void MainFrame::update_buttons() {
  const bool running = runner_ && !runner_->finished();
  start_->Enable(!running);
  pause_->Enable(running);
  const wxString pause = running && runner_->paused() ? _("Resume") : _("Pause");
  if (pause_->GetLabel() != pause) pause_->SetLabel(pause);
  stop_->Enable(running);
  undo_->Enable(running && can_undo_);
  redo_->Enable(running && can_redo_);
  undo_item_->Enable(running && can_undo_);
  redo_item_->Enable(running && can_redo_);
  const bool yams = running && book_->GetSelection() == 1;
  best_box_->Enable(yams);
  advice_->Enable(running && book_->GetSelection() == 0);
  rolled_->Enable(yams);
  yams_advice_->Enable(yams);
  game_->Enable(!running && !resume_game_);
  source_->Enable(!running);
}

void MainFrame::drain_events() {
  std::vector<std::pair<s::Event, std::shared_ptr<const GameView>>> events;
  {
    std::lock_guard lock(inbox_mutex_);
    events.swap(inbox_);
    drain_posted_ = false;
  }
  if (events.empty()) return;
  for (const auto& [event, view] : events) handle_event(event, view);
  const std::shared_ptr<const GameView>& view = events.back().second;
  if (view->kind == s::GameKind::Irma)
    irma_panel_->show_game(view);
  else
    yams_panel_->show_game(view);
  live_view_->show_game(view);
  if (runner_ && runner_->paused()) show_dropped_frame();
  update_buttons();  // once per burst (a hold shows as "Resume")
}

void MainFrame::show_dropped_frame() {
  std::optional<Dropped> dropped;
  {
    std::lock_guard lock(dropped_mutex_);
    dropped.swap(dropped_);
  }
  if (!dropped || dropped->generation != generation_ || dropped->number < shown_frame_) return;
  shown_frame_ = dropped->number;
  const FrameSeen& frame = dropped->frame;
  if (frame.step.picture) last_picture_ = frame.step.picture;
  if (!frame.image_path.empty()) last_image_path_ = frame.image_path;
  live_view_->show_frame(frame_image(frame), frame.step);
}

void MainFrame::handle_event(const s::Event& event, const std::shared_ptr<const GameView>& view) {
  log(describe(event));
  can_undo_ = view->can_undo;
  can_redo_ = view->can_redo;
  if (std::holds_alternative<s::Unstable>(event)) set_recognition(_("moving"));
  if (std::holds_alternative<s::Stable>(event)) set_recognition(_("stable"));
  if (const auto* lost = std::get_if<s::CameraLost>(&event)) {
    ++stats_.camera_lost;
    stats_.at_lost.push_back(irma_snapshot(*view));
    set_recognition(_("camera lost"));
    live_view_->set_message(wxString::Format(_("Camera lost: %s"), wxString::FromUTF8(lost->error)));
  }
  if (std::holds_alternative<s::CameraReconnected>(event)) {
    ++stats_.camera_back;
    stats_.at_back.push_back(irma_snapshot(*view));
    set_recognition(_("camera back"));
    live_view_->set_message({});
  }
  if (const auto* refused = std::get_if<s::Refused>(&event)) {
    ++stats_.refusals;
    if (refused->irma) {
      stats_.last_refused = refused->irma->cell;
      irma_panel_->show_refusal({refused->irma->cell, refused->cells});
      live_view_->show_refusal({refused->irma->cell, refused->cells});
    }
  }
  if (const auto* accepted = std::get_if<s::Accepted>(&event)) {
    stats_.last_accepted = accepted->move.cell;
    irma_panel_->show_refusal({});
    live_view_->show_refusal({});
    set_recognition(_("stable"));
  }
  if (std::holds_alternative<s::Corrected>(event)) ++stats_.corrections;
  if (std::holds_alternative<s::Redone>(event)) {
    ++stats_.redos;
    irma_panel_->show_refusal({});
    live_view_->show_refusal({});
  }
  if (std::holds_alternative<s::Undone>(event)) {
    ++stats_.undos;
    irma_panel_->show_refusal({});
    live_view_->show_refusal({});
  }
  if (const auto* refused = std::get_if<s::CommandRefused>(&event)) {
    ++stats_.command_refusals;
    stats_.last_command_refusal = refused->command + ": " + refused->message;
  }
  if (const auto* over = std::get_if<s::GameOver>(&event)) stats_.game_over = *over;
}

void MainFrame::handle_frame(FrameSeen frame, wxImage image, long number) {
  if (number < shown_frame_) {  // older than the dropped frame shown while the game was held
    frame_pending_ = false;
    return;
  }
  shown_frame_ = number;
  if (frame.step.picture) {
    last_picture_ = frame.step.picture;
    ++stats_.pictures;
  }
  if (!frame.image_path.empty()) last_image_path_ = frame.image_path;
  live_view_->show_frame(image, frame.step);
  live_view_->Update();  // draw now, to time it
  const auto now = std::chrono::steady_clock::now();
  if (!stats_.first_frame_ms) {
    stats_.first_frame_ms = std::chrono::duration<double, std::milli>(now - stats_.start_pressed).count();
    stats_.first_frame_since_launch_ms = std::chrono::duration<double, std::milli>(now - launched_).count();
  }
  const double now_ms = std::chrono::duration<double, std::milli>(now.time_since_epoch()).count();
  stats_.overlay_ms.push_back(now_ms - frame.captured_ms);
  stats_.recognition_ms.push_back(frame.recognised_ms - frame.captured_ms);
  frame_pending_ = false;
}

void MainFrame::handle_end(const std::string& reason, const std::string& error) {
  stats_.running = false;
  stats_.end_reason = reason;
  stats_.end_error = error;
  if (!error.empty()) {
    log(wxString::Format(_("The game stopped: %s"), wxString::FromUTF8(error)));
    set_recognition(_("stopped"));
  } else if (reason == "game-over") {
    log(_("The game is over and saved."));
    set_recognition(_("game over"));
  } else if (reason == "end-of-source") {
    log(_("The source has no more frames; the game is saved and can be resumed."));
    set_recognition(_("end of source"));
  } else {
    log(_("Stopped; the game is saved and can be resumed."));
    set_recognition(_("stopped"));
  }
  SetStatusText(_("Ready"), kStatusGame);
  update_buttons();
  if (on_game_end) on_game_end(reason);
}

}  // namespace arbitre::gui
