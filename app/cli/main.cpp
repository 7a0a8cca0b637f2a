// arbitre — the command line. Prints JSON on stdout, human errors on stderr; exit 0 on
// success, 2 on bad input (bad file, bad field, bad argument), 1 on an internal failure.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <string>

#include "app/cli/irma_commands.h"
#include "data/input_error.h"
#include "scoring/irma/advisor.h"

namespace {

constexpr int kBadInput = 2;

void print(const nlohmann::json& value) {
  std::cout << value.dump(2) << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace arbitre;
  CLI::App app{
      "Arbitre: the referee and score keeper of Le jeu d'Irma, Le Yams impossible, "
      "Irmgard and Rummoli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arbitre 0.1.0");

  auto* demo = app.add_subcommand("demo", "Replay the bundled Irma game through the referee");
  bool demo_json = false;
  demo->add_flag("--json", demo_json, "Print the verdicts as JSON instead of words");

  auto* irma = app.add_subcommand("irma", "Le jeu d'Irma: referee, legal cells, advisor");
  irma->require_subcommand(1);
  std::string game_path;
  std::string colour;
  int simulations = scoring::irma::AdvisorParams{}.simulations;
  std::uint64_t seed = 1;
  std::string player = "advisor";

  auto* check =
      irma->add_subcommand("check", "Replay a game record: every move's verdict and the score");
  check->add_option("GAME", game_path, "Game record (JSON)")->required();

  auto* legal = irma->add_subcommand("legal", "Legal cells for the next pion");
  legal->add_option("GAME", game_path, "Game record (JSON)")->required();
  legal->add_option("COLOUR", colour, "Colour of the drawn pion")->required();

  auto* advise = irma->add_subcommand("advise", "Rank the legal cells by expected final score");
  advise->add_option("GAME", game_path, "Game record (JSON)")->required();
  advise->add_option("COLOUR", colour, "Colour of the drawn pion")->required();
  advise->add_option("--simulations", simulations, "Playouts per legal cell")
      ->capture_default_str();
  advise->add_option("--seed", seed, "Seed of the playouts")->capture_default_str();

  auto* play = irma->add_subcommand("play", "Play a solo game and print its record");
  play->add_option("--player", player, "random, greedy or advisor")->capture_default_str();
  play->add_option("--seed", seed, "Seed of the draws")->capture_default_str();
  play->add_option("--simulations", simulations, "Advisor playouts per legal cell")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "arbitre: " << e.what() << "\nRun 'arbitre --help' for usage.\n";
    return kBadInput;
  }

  try {
    if (demo->parsed()) {
      const auto game = data::irma::parse_record(data::irma::demo_record_text(), "irma-demo.json");
      if (demo_json) {
        print(app::irma::check_record(game));
      } else {
        std::cout << app::irma::demo_text(game);
      }
    } else if (check->parsed()) {
      print(app::irma::check_record(data::irma::load_record(game_path)));
    } else if (legal->parsed()) {
      print(app::irma::legal(data::irma::load_record(game_path), colour));
    } else if (advise->parsed()) {
      print(app::irma::advise(data::irma::load_record(game_path), colour, simulations, seed));
    } else if (play->parsed()) {
      print(app::irma::play(player, seed, simulations));
    }
  } catch (const data::InputError& e) {
    std::cerr << "arbitre: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "arbitre: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
