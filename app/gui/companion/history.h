// History and records: a window over the game store with three pages.
//  - Games: every stored game (newest first); the chosen game's score sheet, replayed step by
//    step over its event log (first, previous, next, last), exported as PNG or PDF, or printed.
//  - Records: per player and game, games played, finished, best score, average, completion rate.
//  - Chart: the scores over time, one line per player, for Irma or Yams.
// It opens its own connection to the store (a Store is used from one thread; the main window's
// session runs on a worker), and only reads.
#pragma once

#include <wx/choice.h>
#include <wx/frame.h>
#include <wx/listctrl.h>
#include <wx/notebook.h>
#include <wx/stattext.h>

#include <memory>
#include <optional>
#include <string>

#include "app/gui/companion/history_model.h"
#include "app/gui/companion/score_chart.h"
#include "app/gui/companion/score_sheet.h"

namespace arbitre::app::gui::companion {

class HistoryFrame : public wxFrame {
 public:
  enum class Page { Games, Records, Chart };

  // Opens the store at `store_path` (data::store::default_store_path() for the user's). Throws
  // data::store::StoreError when it cannot be opened.
  HistoryFrame(wxWindow* parent, const std::string& store_path);
  ~HistoryFrame() override;

  // Reads the games and records again (after a game was played).
  void reload();
  void show_page(Page page);

  // The games list, newest first; selecting one shows its sheet at the last step.
  int game_count() const;
  bool select_game(ds::GameId id);
  std::optional<ds::GameId> selected_game() const;
  // Replay: the step shown (events replayed) and the number of steps.
  bool step_to(std::size_t step);
  bool next_step() { return replay_ && step_to(replay_->position() + 1); }
  bool previous_step() { return replay_ && replay_->position() > 0 && step_to(replay_->position() - 1); }
  std::size_t step() const { return replay_ ? replay_->position() : 0; }
  std::size_t steps() const { return replay_ ? replay_->size() : 0; }
  const SheetModel& sheet() const { return sheet_panel_->sheet(); }
  wxString step_text() const { return step_label_->GetLabel(); }
  // The last problem shown in the status line ("" when none).
  wxString problem() const { return problem_; }

  // Export of the sheet shown. Return the problem in words, or "".
  wxString export_png(const wxString& path) const { return save_sheet_png(sheet(), path); }
  wxString export_pdf(const wxString& path) const { return save_sheet_pdf(sheet(), path); }
  // The same through a file dialog, and printing through the print dialog (the menus' and the
  // buttons' actions); without a game chosen they say so in the status line.
  void on_export(bool pdf);
  void on_print();

  const wxListCtrl& games_list() const { return *games_; }
  const wxListCtrl& records_list() const { return *records_; }
  void show_chart(ds::GameKind kind);
  const ScoreChart& chart() const { return *chart_; }

 private:
  wxWindow* make_games_page(wxNotebook* book);
  wxWindow* make_records_page(wxNotebook* book);
  wxWindow* make_chart_page(wxNotebook* book);
  void fill_games();
  void fill_records();
  void show_step();
  void report(const wxString& problem);

  std::unique_ptr<ds::Store> store_;
  std::vector<ds::Game> games_data_;
  std::unique_ptr<GameReplay> replay_;
  wxString problem_;

  wxNotebook* book_ = nullptr;
  wxListCtrl* games_ = nullptr;
  wxListCtrl* records_ = nullptr;
  SheetPanel* sheet_panel_ = nullptr;
  wxStaticText* step_label_ = nullptr;
  wxStaticText* status_ = nullptr;
  wxChoice* chart_kind_ = nullptr;
  ScoreChart* chart_ = nullptr;
};

}  // namespace arbitre::app::gui::companion
