#include "app/gui/companion/history.h"

#include <wx/button.h>
#include <wx/filedlg.h>
#include <wx/intl.h>
#include <wx/numformatter.h>
#include <wx/panel.h>
#include <wx/print.h>
#include <wx/sizer.h>

#include "data/input_error.h"

namespace arbitre::app::gui::companion {
namespace {

wxString utf8(const std::string& text) { return wxString::FromUTF8(text); }

wxString kind_word(ds::GameKind kind) { return kind == ds::GameKind::Irma ? _("Irma") : _("Yams"); }

wxString status_word(ds::GameStatus status) {
  switch (status) {
    case ds::GameStatus::Running: return _("running");
    case ds::GameStatus::Finished: return _("finished");
    case ds::GameStatus::Abandoned: return _("abandoned");
  }
  return {};
}

wxString event_word(ds::EventKind kind) {
  switch (kind) {
    case ds::EventKind::Move: return _("move");
    case ds::EventKind::Roll: return _("roll");
    case ds::EventKind::Box: return _("box filled");
    case ds::EventKind::Declare: return _("sixth roll declared");
    case ds::EventKind::Refusal: return _("refused");
    case ds::EventKind::Correction: return _("correction");
    case ds::EventKind::Undo: return _("undo");
    case ds::EventKind::Redo: return _("redo");
  }
  return {};
}

wxString when(const std::string& stamp) { return utf8(short_time(stamp)); }

// What an event did, in words, as the session reads it back (action_from_event).
wxString event_words(const ds::Game& game, const ds::Event& event) {
  namespace s = session;
  const wxString player = utf8(event.payload.value("player", std::string()));
  wxString what;
  try {
    if (game.kind == ds::GameKind::Irma) {
      const s::IrmaGame::Action action = s::IrmaGame::action_from_event(event.kind, event.payload);
      switch (action.kind) {
        case s::IrmaGame::Action::Kind::Place: what = pion_words(action.colour, action.cell); break;
        case s::IrmaGame::Action::Kind::Block: what = pion_words(action.colour, std::nullopt); break;
        case s::IrmaGame::Action::Kind::Fix:
          what = wxString::Format(_("the cell %d,%d corrected"), action.cell.row, action.cell.col);
          break;
        case s::IrmaGame::Action::Kind::Undo:
        case s::IrmaGame::Action::Kind::Redo: what = utf8(event.payload.value(event.kind == ds::EventKind::Undo ? "undid" : "redid", std::string())); break;
      }
    } else {
      const s::YamsGame::Action action = s::YamsGame::action_from_event(event.kind, event.payload);
      switch (action.kind) {
        case s::YamsGame::Action::Kind::Roll: what = utf8(referee::yams::to_text(action.dice)); break;
        case s::YamsGame::Action::Kind::Declare:
        case s::YamsGame::Action::Kind::Fill: what = utf8(std::string(referee::yams::display_name(action.box))); break;
        case s::YamsGame::Action::Kind::FixDie:
          what = wxString::Format(_("die %d corrected to %s"), action.die, utf8(referee::yams::to_text(action.value)));
          break;
        case s::YamsGame::Action::Kind::Undo:
        case s::YamsGame::Action::Kind::Redo: what = utf8(event.payload.value(event.kind == ds::EventKind::Undo ? "undid" : "redid", std::string())); break;
      }
    }
  } catch (const std::exception&) {
    // The replay itself reports an event that does not read; here it just has no details.
  }
  wxString text = event_word(event.kind);
  if (!what.empty()) text += ": " + what;
  if (event.kind == ds::EventKind::Refusal) text += " (" + utf8(event.payload.value("reason", std::string())) + ")";
  return player.empty() ? text : player + ", " + text;
}

}  // namespace

HistoryFrame::HistoryFrame(wxWindow* parent, const std::string& store_path)
    : wxFrame(parent, wxID_ANY, _("History and records"), wxDefaultPosition, wxDefaultSize),
      store_(std::make_unique<ds::Store>(ds::Store::open(store_path))) {
  auto* root = new wxPanel(this);
  book_ = new wxNotebook(root, wxID_ANY);
  book_->AddPage(make_games_page(book_), _("Games"));
  book_->AddPage(make_records_page(book_), _("Records"));
  book_->AddPage(make_chart_page(book_), _("Chart"));
  status_ = new wxStaticText(root, wxID_ANY, wxString());
  status_->SetForegroundColour(wxColour(170, 20, 20));
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(book_, wxSizerFlags(1).Expand().Border());
  sizer->Add(status_, wxSizerFlags().Expand().Border(wxLEFT | wxRIGHT | wxBOTTOM));
  root->SetSizer(sizer);
  SetClientSize(FromDIP(wxSize(1220, 760)));
  // Left and right arrows step through the replay (when the games list has not the focus).
  Bind(wxEVT_CHAR_HOOK, [this](wxKeyEvent& event) {
    const bool games_page = book_->GetSelection() == static_cast<int>(Page::Games);
    if (games_page && event.GetKeyCode() == WXK_LEFT && FindFocus() != games_) {
      previous_step();
    } else if (games_page && event.GetKeyCode() == WXK_RIGHT && FindFocus() != games_) {
      next_step();
    } else {
      event.Skip();
    }
  });
  reload();
}

HistoryFrame::~HistoryFrame() = default;

wxWindow* HistoryFrame::make_games_page(wxNotebook* book) {
  auto* page = new wxPanel(book);
  games_ = new wxListCtrl(page, wxID_ANY, wxDefaultPosition, FromDIP(wxSize(470, -1)),
                          wxLC_REPORT | wxLC_SINGLE_SEL);
  // TRANSLATORS: columns of the games list.
  games_->AppendColumn(_("#"));
  games_->AppendColumn(_("Game"));
  games_->AppendColumn(_("Status"));
  games_->AppendColumn(_("Players and scores"));
  games_->AppendColumn(_("Started"));
  games_->AppendColumn(_("Events"));
  games_->Bind(wxEVT_LIST_ITEM_SELECTED, [this](wxListEvent& event) {
    select_game(static_cast<ds::GameId>(games_->GetItemData(event.GetIndex())));
  });

  sheet_panel_ = new SheetPanel(page);
  step_label_ = new wxStaticText(page, wxID_ANY, _("Choose a game in the list."));
  auto* buttons = new wxBoxSizer(wxHORIZONTAL);
  const auto button = [&](const wxString& label, auto action) {
    auto* b = new wxButton(page, wxID_ANY, label, wxDefaultPosition, wxDefaultSize, wxBU_EXACTFIT);
    b->Bind(wxEVT_BUTTON, [action](wxCommandEvent&) { action(); });
    buttons->Add(b, wxSizerFlags().Border(wxRIGHT, 4));
  };
  // TRANSLATORS: replay buttons: to the start, one event back, one event on, to the end.
  button(_("|< First"), [this] { step_to(0); });
  button(_("< Previous"), [this] { previous_step(); });
  button(_("Next >"), [this] { next_step(); });
  button(_("Last >|"), [this] { step_to(steps()); });
  buttons->AddSpacer(FromDIP(16));
  button(_("Export PNG..."), [this] { on_export(false); });
  button(_("Export PDF..."), [this] { on_export(true); });
  button(_("Print..."), [this] { on_print(); });

  auto* right = new wxBoxSizer(wxVERTICAL);
  right->Add(buttons, wxSizerFlags().Border(wxBOTTOM));
  right->Add(step_label_, wxSizerFlags().Border(wxBOTTOM));
  right->Add(sheet_panel_, wxSizerFlags(1).Expand());
  auto* sizer = new wxBoxSizer(wxHORIZONTAL);
  sizer->Add(games_, wxSizerFlags().Expand().Border(wxRIGHT));
  sizer->Add(right, wxSizerFlags(1).Expand());
  page->SetSizer(sizer);
  return page;
}

wxWindow* HistoryFrame::make_records_page(wxNotebook* book) {
  auto* page = new wxPanel(book);
  records_ = new wxListCtrl(page, wxID_ANY, wxDefaultPosition, wxDefaultSize, wxLC_REPORT);
  // TRANSLATORS: columns of the records list.
  records_->AppendColumn(_("Player"));
  records_->AppendColumn(_("Game"));
  records_->AppendColumn(_("Games"), wxLIST_FORMAT_RIGHT);
  records_->AppendColumn(_("Finished"), wxLIST_FORMAT_RIGHT);
  records_->AppendColumn(_("Best score"), wxLIST_FORMAT_RIGHT);
  records_->AppendColumn(_("Average"), wxLIST_FORMAT_RIGHT);
  records_->AppendColumn(_("Completion rate"), wxLIST_FORMAT_RIGHT);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(new wxStaticText(page, wxID_ANY,
                              _("Best score and average are over the finished games; the completion "
                                "rate is the share of games played to the end.")),
             wxSizerFlags().Border(wxBOTTOM));
  sizer->Add(records_, wxSizerFlags(1).Expand());
  page->SetSizer(sizer);
  return page;
}

wxWindow* HistoryFrame::make_chart_page(wxNotebook* book) {
  auto* page = new wxPanel(book);
  chart_kind_ = new wxChoice(page, wxID_ANY);
  chart_kind_->Append(game_name(ds::GameKind::Irma));
  chart_kind_->Append(game_name(ds::GameKind::Yams));
  chart_kind_->SetSelection(0);
  chart_kind_->Bind(wxEVT_CHOICE, [this](wxCommandEvent&) {
    show_chart(chart_kind_->GetSelection() == 1 ? ds::GameKind::Yams : ds::GameKind::Irma);
  });
  chart_ = new ScoreChart(page);
  auto* sizer = new wxBoxSizer(wxVERTICAL);
  sizer->Add(chart_kind_, wxSizerFlags().Border(wxBOTTOM));
  sizer->Add(chart_, wxSizerFlags(1).Expand());
  page->SetSizer(sizer);
  return page;
}

void HistoryFrame::reload() {
  problem_.clear();
  status_->SetLabel(wxString());
  try {
    games_data_ = store_->list_games();
    fill_games();
    fill_records();
    show_chart(chart_kind_->GetSelection() == 1 ? ds::GameKind::Yams : ds::GameKind::Irma);
  } catch (const std::exception& e) {
    report(utf8(e.what()));
  }
}

void HistoryFrame::fill_games() {
  games_->DeleteAllItems();
  for (const ds::Game& game : games_data_) {
    const long row = games_->InsertItem(games_->GetItemCount(), wxString::Format("%lld", static_cast<long long>(game.id)));
    games_->SetItemData(row, static_cast<long>(game.id));
    games_->SetItem(row, 1, kind_word(game.kind));
    games_->SetItem(row, 2, status_word(game.status));
    wxString players;
    for (const ds::Seat& seat : game.seats) {
      if (!players.empty()) players += ", ";
      players += utf8(seat.name);
      if (seat.score) players += wxString::Format(" %lld", static_cast<long long>(*seat.score));
    }
    games_->SetItem(row, 3, players);
    games_->SetItem(row, 4, when(game.started_at));
    games_->SetItem(row, 5, wxString::Format("%lld", static_cast<long long>(game.event_count)));
  }
  for (int c = 0; c < games_->GetColumnCount(); ++c) games_->SetColumnWidth(c, wxLIST_AUTOSIZE_USEHEADER);
}

void HistoryFrame::fill_records() {
  records_->DeleteAllItems();
  for (const ds::PlayerRecord& record : store_->records()) {
    const long row = records_->InsertItem(records_->GetItemCount(), utf8(record.player));
    records_->SetItem(row, 1, kind_word(record.kind));
    records_->SetItem(row, 2, wxString::Format("%d", record.games));
    records_->SetItem(row, 3, wxString::Format("%d", record.finished));
    records_->SetItem(row, 4, record.best ? wxString::Format("%lld", static_cast<long long>(*record.best)) : wxString("-"));
    records_->SetItem(row, 5, record.average ? wxNumberFormatter::ToString(*record.average, 1) : wxString("-"));
    records_->SetItem(row, 6, wxString::Format("%d%%", static_cast<int>(record.completion_rate * 100 + 0.5)));
  }
  for (int c = 0; c < records_->GetColumnCount(); ++c) records_->SetColumnWidth(c, wxLIST_AUTOSIZE_USEHEADER);
}

void HistoryFrame::show_page(Page page) { book_->SetSelection(static_cast<std::size_t>(page)); }

int HistoryFrame::game_count() const { return games_->GetItemCount(); }

std::optional<ds::GameId> HistoryFrame::selected_game() const {
  if (!replay_) return std::nullopt;
  return replay_->game().id;
}

bool HistoryFrame::select_game(ds::GameId id) {
  if (replay_ && replay_->game().id == id) return true;
  try {
    auto replay = std::make_unique<GameReplay>(*store_, id);
    replay->seek(replay->size());
    replay_ = std::move(replay);
  } catch (const std::exception& e) {
    report(wxString::Format(_("Game %lld cannot be shown: %s"), static_cast<long long>(id), utf8(e.what())));
    return false;
  }
  for (long row = 0; row < games_->GetItemCount(); ++row) {
    if (static_cast<ds::GameId>(games_->GetItemData(row)) == id &&
        !(games_->GetItemState(row, wxLIST_STATE_SELECTED) & wxLIST_STATE_SELECTED)) {
      games_->SetItemState(row, wxLIST_STATE_SELECTED, wxLIST_STATE_SELECTED);
      games_->EnsureVisible(row);
    }
  }
  problem_.clear();
  status_->SetLabel(wxString());
  show_step();
  return true;
}

bool HistoryFrame::step_to(std::size_t step) {
  if (!replay_ || step > replay_->size()) return false;
  try {
    replay_->seek(step);
  } catch (const std::exception& e) {
    report(utf8(e.what()));
    return false;
  }
  show_step();
  return true;
}

void HistoryFrame::show_step() {
  sheet_panel_->set_sheet(sheet_model(*replay_));
  wxString text = wxString::Format(_("Step %zu of %zu"), replay_->position(), replay_->size());
  if (const ds::Event* event = replay_->last_event()) {
    // TRANSLATORS: after "Step 3 of 41": what the event was, then when it was stored.
    text += wxString::Format(_(": %s, at %s"), event_words(replay_->game(), *event), when(event->created_at));
  }
  step_label_->SetLabel(text);
}

void HistoryFrame::report(const wxString& problem) {
  problem_ = problem;
  status_->SetLabel(problem);
  Layout();
}

void HistoryFrame::on_export(bool pdf) {
  if (!replay_) {
    report(_("Choose a game first."));
    return;
  }
  const wxString name = wxString::Format("arbitre-game-%lld.%s", static_cast<long long>(replay_->game().id),
                                         pdf ? "pdf" : "png");
  wxFileDialog dialog(this, pdf ? _("Export the score sheet as PDF") : _("Export the score sheet as PNG"),
                      wxString(), name, pdf ? _("PDF files (*.pdf)|*.pdf") : _("PNG images (*.png)|*.png"),
                      wxFD_SAVE | wxFD_OVERWRITE_PROMPT);
  if (dialog.ShowModal() != wxID_OK) return;
  const wxString problem = pdf ? export_pdf(dialog.GetPath()) : export_png(dialog.GetPath());
  if (!problem.empty()) report(problem);
}

void HistoryFrame::on_print() {
  if (!replay_) {
    report(_("Choose a game first."));
    return;
  }
  wxPrinter printer;
  SheetPrintout printout(sheet());
  if (!printer.Print(this, &printout, true) && wxPrinter::GetLastError() == wxPRINTER_ERROR) {
    report(_("The sheet could not be printed."));
  }
}

void HistoryFrame::show_chart(ds::GameKind kind) {
  chart_kind_->SetSelection(kind == ds::GameKind::Yams ? 1 : 0);
  chart_->set_series(score_series(games_data_, kind), kind);
}

}  // namespace arbitre::app::gui::companion
