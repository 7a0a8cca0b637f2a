#include "app/cli/irma_commands.h"

#include <iomanip>
#include <sstream>

#include "app/session/irma_game.h"
#include "data/input_error.h"
#include "scoring/irma/advisor.h"
#include "scoring/irma/score.h"

namespace arbitre::app::irma {
namespace {

namespace ri = referee::irma;
namespace si = scoring::irma;
using nlohmann::json;

json cell_json(ri::Cell cell) {
  return json::array({cell.row, cell.col});
}

json cells_json(const std::vector<ri::Cell>& cells) {
  json out = json::array();
  for (const ri::Cell cell : cells) out.push_back(cell_json(cell));
  return out;
}

json marker_json(const std::optional<ri::SeriesKind>& marker) {
  return marker ? json(ri::marker_value(*marker)) : json(nullptr);
}


json bag_json(const ri::State& state) {
  json bag = json::object();
  for (const ri::Colour colour : ri::kAllColours) {
    bag[std::string(ri::to_string(colour))] = state.remaining(colour);
  }
  return bag;
}

json move_verdict_json(std::size_t index, const ri::Move& move, const ri::Verdict& verdict,
                       const ri::State& after) {
  json out = data::irma::move_to_json(move);
  out["move"] = index + 1;
  out["legal"] = verdict.legal();
  if (!verdict.legal()) {
    out["reason"] = std::string(ri::to_string(verdict.reason));
    out["cells"] = cells_json(verdict.cells);
  } else if (move.cell) {
    json series = json::array();
    for (const ri::Series& s : verdict.series) {
      series.push_back(
          {{"kind", std::string(ri::to_string(s.kind))}, {"cells", cells_json(s.cells)}});
    }
    out["series"] = series;
    out["marker"] = marker_json(verdict.marker);
    if (verdict.marker) {
      if (const auto warning = si::stock_warning(after, *verdict.marker)) {
        out["warning"] = warning->message;
      }
    }
  }
  out["score"] = si::score(after);
  return out;
}

json summary_json(const ri::State& state) {
  json out = app::session::irma_totals_json(state);
  out["over"] = ri::is_over(state);
  out["bag"] = bag_json(state);
  out["board"] = board_json(state.board);
  return out;
}

json check_one(const ri::Record& record, ri::State& state) {
  json moves = json::array();
  std::size_t index = 0;
  ri::replay(record, state,
             [&](const ri::Move& move, const ri::Verdict& verdict, const ri::State& after) {
               moves.push_back(move_verdict_json(index++, move, verdict, after));
             });
  json out = {{"moves", moves}};
  out.update(summary_json(state));
  return out;
}

// The solo record and the state after it, with the colour of the next pion checked against the
// bag and against a refused pion still in hand.
struct Position {
  const ri::Record* record;
  ri::State state;
  ri::Colour colour;
};

Position position(const data::irma::GameRecord& game, const std::string& colour_text) {
  if (!game.solo())
    throw data::InputError("this command takes a solo record (\"moves\"), not \"players\"");
  Position pos{&game.players.front().record, {}, ri::Colour::Red};
  const auto colour = ri::colour_from_string(colour_text);
  if (!colour) {
    throw data::InputError("COLOUR: unknown colour \"" + colour_text +
                           "\" (expected red, orange, green or white)");
  }
  pos.colour = *colour;
  std::optional<ri::Colour> in_hand;  // a refused pion the player must place again
  ri::replay(*pos.record, pos.state, [&](const ri::Move& move, const ri::Verdict& verdict, const ri::State&) {
    const bool refused = !verdict.legal() && verdict.reason != ri::Reason::GameOver;
    in_hand = refused ? std::optional<ri::Colour>(move.colour) : std::nullopt;
  });
  if (ri::is_over(pos.state)) return pos;
  if (in_hand && *in_hand != *colour) {
    throw data::InputError("COLOUR: the refused " + std::string(ri::to_string(*in_hand)) +
                           " pion is still in hand");
  }
  if (pos.state.remaining(*colour) <= 0) {
    throw data::InputError("COLOUR: no " + std::string(ri::to_string(*colour)) +
                           " pion left in the bag");
  }
  return pos;
}

}  // namespace

json board_json(const referee::irma::Board& board) {
  namespace ri = referee::irma;
  json rows = json::array();
  if (board.empty()) return rows;
  const ri::Cell top_left = board.top_left();
  for (int r = 0; r < board.height(); ++r) {
    std::string row;
    for (int c = 0; c < board.width(); ++c) {
      const auto colour = board.at({top_left.row + r, top_left.col + c});
      row += colour ? static_cast<char>(std::toupper(ri::to_string(*colour)[0])) : '.';
    }
    rows.push_back(row);
  }
  return rows;
}

json check_record(const data::irma::GameRecord& game) {
  if (game.solo()) {
    ri::State state;
    return check_one(game.players.front().record, state);
  }
  json players = json::array();
  std::vector<si::PlayerResult> results;
  for (const auto& player : game.players) {
    ri::State state;
    json entry = {{"name", player.name}};
    entry.update(check_one(player.record, state));
    players.push_back(entry);
    results.push_back({player.name, si::score(state), si::has_plus(state)});
  }
  const auto winner = si::winner(results);
  return {{"players", players},
          {"winner", winner ? json(results[*winner].name) : json(nullptr)},
          {"tie", !winner.has_value()}};
}

json legal(const data::irma::GameRecord& game, const std::string& colour_text) {
  const Position pos = position(game, colour_text);
  json out = {{"colour", std::string(ri::to_string(pos.colour))},
              {"over", ri::is_over(pos.state)},
              {"anywhere", !ri::is_over(pos.state) && pos.state.board.empty()}};
  std::vector<ri::Placement> placements;
  ri::legal_placements(pos.state, pos.colour, placements);
  json cells = json::array();
  for (const ri::Placement& p : placements) {
    cells.push_back({{"row", p.cell.row}, {"col", p.cell.col}, {"marker", marker_json(p.marker)}});
  }
  out["cells"] = cells;
  out["count"] = placements.size();
  out["blocked"] = !ri::is_over(pos.state) && placements.empty();
  return out;
}

json advise(const data::irma::GameRecord& game, const std::string& colour_text, int simulations,
            std::uint64_t seed) {
  if (simulations < 1) throw data::InputError("--simulations: must be at least 1");
  const Position pos = position(game, colour_text);
  si::Rng rng(seed);
  const auto values = si::advise(pos.state, pos.colour, {simulations}, rng);
  json ranking = json::array();
  for (const si::CellValue& v : values) {
    ranking.push_back({{"row", v.cell.row},
                       {"col", v.cell.col},
                       {"marker", marker_json(v.marker)},
                       {"expected", std::round(v.expected * 1000) / 1000},
                       {"std_error", std::round(v.std_error * 1000) / 1000},
                       {"completion", std::round(v.completion * 1000) / 1000}});
  }
  return {{"colour", std::string(ri::to_string(pos.colour))},
          {"score", si::score(pos.state)},
          {"over", ri::is_over(pos.state)},
          {"blocked", !ri::is_over(pos.state) && values.empty()},
          {"simulations", simulations},
          {"seed", seed},
          {"ranking", ranking}};
}

json play(const std::string& player, std::uint64_t seed, int simulations) {
  if (player != "random" && player != "greedy" && player != "advisor") {
    throw data::InputError("--player: expected random, greedy or advisor, not \"" + player + "\"");
  }
  if (simulations < 1) throw data::InputError("--simulations: must be at least 1");
  si::Rng draws(seed);
  si::Rng own(seed ^ 0x5bd1e995ULL);
  ri::Record record;
  ri::State state = ri::initial_state(record.options);
  si::play_out(
      state, draws,
      [&](const ri::State& s, ri::Colour colour, const std::vector<ri::Placement>& legal, si::Rng&) {
        if (player == "random") return si::choose_random(legal, own);
        if (player == "greedy") return si::choose_greedy(s, colour, legal);
        return si::advise(s, colour, {simulations}, own).front().cell;
      },
      [&](const ri::Move& move) { record.moves.push_back(move); });
  json out = data::irma::record_to_json(record);
  std::ostringstream comment;
  comment << player << " player, seed " << seed << ": " << si::score(state) << " points, "
          << (state.status == ri::Status::Completed ? "completed" : "blocked");
  out["comment"] = comment.str();
  return out;
}

std::string demo_text(const data::irma::GameRecord& game) {
  std::ostringstream out;
  const ri::Record& record = game.players.front().record;
  out << "Le jeu d'Irma: replaying the bundled game record (" << record.moves.size()
      << " moves) through the referee.\n\n";
  ri::State state;
  std::size_t index = 0;
  ri::replay(record, state,
             [&](const ri::Move& move, const ri::Verdict& verdict, const ri::State& after) {
               out << std::setw(3) << ++index << ". " << std::left << std::setw(22)
                   << ri::to_text(move) << std::right;
               if (!verdict.legal()) {
                 out << "REFUSED " << ri::to_string(verdict.reason);
                 if (!verdict.cells.empty()) {
                   out << " (";
                   for (std::size_t i = 0; i < verdict.cells.size(); ++i) {
                     out << (i ? " " : "") << referee::to_text(verdict.cells[i]);
                   }
                   out << ")";
                 }
               } else if (move.is_block_claim()) {
                 out << "blocked: no legal cell, the game ends";
               } else if (verdict.marker) {
                 out << to_string(*verdict.marker) << " +" << ri::marker_value(*verdict.marker);
               } else {
                 out << "placed, no series";
               }
               out << "   score " << si::score(after) << "\n";
             });
  out << "\nFinal board:\n";
  for (const auto& row : board_json(state.board)) out << "  " << row.get<std::string>() << "\n";
  out << "\nScore: " << si::markers_total(state) << " in markers";
  if (state.status == ri::Status::Completed) out << " + 5 bonus (rectangle completed, \"plus\")";
  if (state.status == ri::Status::Blocked) out << " (blocked: premature end, no bonus)";
  out << " = " << si::score(state) << "\n";
  return out.str();
}

}  // namespace arbitre::app::irma
