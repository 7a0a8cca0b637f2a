#include "app/gui/companion/history_model.h"

#include <algorithm>
#include <map>

#include "referee/irma/record.h"
#include "scoring/irma/score.h"

namespace arbitre::app::gui::companion {
namespace {

namespace ri = referee::irma;
namespace ry = referee::yams;

std::vector<std::string> seated(const ds::Game& game) {
  std::vector<std::string> names;
  for (const ds::Seat& seat : game.seats) names.push_back(seat.name);
  return names;
}

IrmaSheetPlayer irma_player(const session::IrmaGame::Player& player) {
  IrmaSheetPlayer out;
  out.name = player.name;
  out.pions = player.state.board.pions();
  ri::State state;
  ri::replay(player.record, state,
             [&](const ri::Move& move, const ri::Verdict& verdict, const ri::State& after) {
               IrmaMoveLine line;
               line.number = static_cast<int>(out.moves.size()) + 1;
               line.move = ri::to_text(move);
               line.legal = verdict.legal();
               if (!line.legal) line.reason = std::string(ri::to_string(verdict.reason));
               line.marker = verdict.marker ? ri::marker_value(*verdict.marker) : 0;
               line.score = scoring::irma::score(after);
               out.moves.push_back(line);
             });
  out.score = scoring::irma::score(player.state);
  out.markers = scoring::irma::markers_total(player.state);
  out.bonus = scoring::irma::bonus(player.state);
  out.plus = scoring::irma::has_plus(player.state);
  out.completed = player.state.status == ri::Status::Completed;
  out.blocked = player.state.status == ri::Status::Blocked;
  return out;
}

}  // namespace

GameReplay::GameReplay(ds::Store& store, ds::GameId id)
    : game_(store.game(id)), events_(store.events(id)) {
  restart();
}

void GameReplay::restart() {
  const std::string where = "game " + std::to_string(game_.id) + ": options";
  irma_.reset();
  yams_.reset();
  if (game_.kind == ds::GameKind::Irma) {
    irma_.emplace(session::irma_options_from_json(game_.options, where), seated(game_));
  } else {
    yams_.emplace(session::yams_options_from_json(game_.options, where), seated(game_));
  }
  position_ = 0;
}

void GameReplay::seek(std::size_t step) {
  step = std::min(step, events_.size());
  if (step < position_) restart();
  if (step == position_) return;
  const std::vector<ds::Event> part(events_.begin() + static_cast<std::ptrdiff_t>(position_),
                                    events_.begin() + static_cast<std::ptrdiff_t>(step));
  try {
    if (irma_) {
      session::replay_events(*irma_, part, game_.id);
    } else {
      session::replay_events(*yams_, part, game_.id);
    }
  } catch (...) {
    restart();  // a half-replayed game is not a step of the log
    throw;
  }
  position_ = step;
}

const ds::Event* GameReplay::last_event() const {
  return position_ == 0 ? nullptr : &events_[position_ - 1];
}

SheetModel sheet_model(const GameReplay& replay) {
  SheetModel out;
  out.game = replay.game().id;
  out.kind = replay.game().kind;
  out.started_at = replay.game().started_at;
  out.step = replay.position();
  out.steps = replay.size();
  if (const session::IrmaGame* irma = replay.irma()) {
    for (const session::IrmaGame::Player& player : irma->players()) out.irma.push_back(irma_player(player));
  } else if (const session::YamsGame* yams = replay.yams()) {
    for (std::size_t p = 0; p < yams->players().size(); ++p) {
      const ry::Sheet& sheet = yams->state().sheets[p];
      YamsSheetPlayer player;
      player.name = yams->players()[p];
      for (int b = 0; b < ry::kBoxCount; ++b) {
        const auto& entry = sheet.boxes[static_cast<std::size_t>(b)];
        if (entry) player.boxes[static_cast<std::size_t>(b)] = entry->score;
      }
      player.totals = scoring::yams::totals(sheet);
      out.yams.push_back(player);
    }
  }
  return out;
}

std::string short_time(const std::string& stamp) {
  if (stamp.size() < 16 || stamp[10] != 'T') return stamp;
  return stamp.substr(0, 10) + " " + stamp.substr(11, 5);
}

std::vector<ScoreSeries> score_series(const std::vector<ds::Game>& games, ds::GameKind kind) {
  std::vector<const ds::Game*> finished;
  for (const ds::Game& game : games) {
    if (game.kind == kind && game.status == ds::GameStatus::Finished) finished.push_back(&game);
  }
  std::sort(finished.begin(), finished.end(), [](const ds::Game* a, const ds::Game* b) {
    const std::string& ea = a->ended_at ? *a->ended_at : a->started_at;
    const std::string& eb = b->ended_at ? *b->ended_at : b->started_at;
    return ea != eb ? ea < eb : a->id < b->id;
  });
  std::map<std::string, ScoreSeries> by_player;
  for (const ds::Game* game : finished) {
    for (const ds::Seat& seat : game->seats) {
      if (!seat.score) continue;
      ScoreSeries& series = by_player[seat.name];
      series.player = seat.name;
      series.points.push_back({game->id, game->ended_at.value_or(game->started_at), *seat.score});
    }
  }
  std::vector<ScoreSeries> out;
  for (auto& [name, series] : by_player) out.push_back(std::move(series));
  return out;
}

}  // namespace arbitre::app::gui::companion
