// arbitre — the command line. Prints JSON on stdout, human errors on stderr; exit 0 on
// success, 2 on bad input (bad file, bad field, bad argument), 1 on an internal failure.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>

#include "app/cli/detect_commands.h"
#include "app/cli/dice_commands.h"
#include "app/cli/irma_commands.h"
#include "app/cli/store_commands.h"
#include "app/cli/watch_commands.h"
#include "app/cli/yams_commands.h"
#include "data/input_error.h"
#include "scoring/irma/advisor.h"
#include "scoring/yams/advisor.h"
#include "vision/mat_file.h"
#include "vision/memory.h"
#include "vision/observation.h"

namespace {

constexpr int kBadInput = 2;

void print(const nlohmann::json& value) { std::cout << value.dump(2) << "\n"; }
void print(const nlohmann::ordered_json& value) { std::cout << value.dump(2) << "\n"; }

}  // namespace

int main(int argc, char** argv) {
  arbitre::vision::keep_freed_memory();  // frames read at a steady pace: vision/memory.h
  using namespace arbitre;
  CLI::App app{
      "Arbitre: the referee and score keeper of Le jeu d'Irma, Le Yams impossible, "
      "Irmgard and Rummoli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arbitre 0.1.0");

  auto* demo = app.add_subcommand("demo", "Replay the bundled Irma and Yams games through the referee");
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

  auto* yams = app.add_subcommand("yams", "Le Yams impossible: score sheet, turn referee, advisor");
  yams->require_subcommand(1);
  std::vector<std::string> dice;
  bool first_roll = false;
  int samples = scoring::yams::AdvisorParams{}.samples;
  int players = 1;
  std::string yams_player = "advisor";

  auto* score = yams->add_subcommand("score", "Every box's score for ten dice");
  score->add_option("DICE", dice, "Ten dice like 7r 10w 3rg 1wt (value, r/w, optional g/t)")->required();
  score->add_flag("--first-roll", first_roll, "The turn's first roll (x3 for Yams, Suites, Combinaisons)");

  auto* yams_check = yams->add_subcommand("check", "Replay a game record: every turn and every sheet");
  yams_check->add_option("GAME", game_path, "Game record (JSON)")->required();

  auto* yams_advise = yams->add_subcommand("advise", "Which dice to keep, or which box to fill");
  yams_advise->add_option("STATE", game_path, "Position or game record (JSON)")->required();
  yams_advise->add_option("--samples", samples, "Sampled rerolls per option")->capture_default_str();
  yams_advise->add_option("--seed", seed, "Seed of the samples")->capture_default_str();

  auto* yams_play = yams->add_subcommand("play", "Play a whole game and print its record");
  yams_play->add_option("--player", yams_player, "greedy or advisor")->capture_default_str();
  yams_play->add_option("--seed", seed, "Seed of the dice")->capture_default_str();
  yams_play->add_option("--players", players, "Number of players")->capture_default_str();
  yams_play->add_option("--samples", samples, "Advisor samples per option")->capture_default_str();

  auto* detect = app.add_subcommand("detect", "Recognise one image of the table");
  detect->require_subcommand(1);
  std::string image_path;
  std::string overlay_path;
  auto* detect_pions = detect->add_subcommand("pions", "Irma pions: cell, colour, position, confidence");
  detect_pions->add_option("IMAGE", image_path, "Image file (PNG, JPEG, ...)")->required();
  detect_pions->add_option("--overlay", overlay_path, "Also write the debug overlay to this PNG");
  std::string calibration_path;
  detect_pions->add_option("--calibration", calibration_path, "Colour calibration written by 'calibrate pions'");
  std::string zones_path;
  auto* detect_dice = detect->add_subcommand("dice", "The ten d10: value, colour, cocked, zone, position, confidence");
  detect_dice->add_option("IMAGE", image_path, "Image file (PNG, JPEG, ...)")->required();
  detect_dice->add_option("--overlay", overlay_path, "Also write the debug overlay to this PNG");
  detect_dice->add_option("--zones", zones_path, "Tray and kept zones (JSON polygons in image pixels)");
  bool dice_textures = false;
  detect_dice->add_flag("--textures", dice_textures,
                        "The dice are textured: report frosted or transparent");

  auto* calibrate = app.add_subcommand("calibrate", "Calibrate the colours from an image");
  calibrate->require_subcommand(1);
  std::string calibration_out;
  auto* calibrate_pions = calibrate->add_subcommand("pions", "An image showing one pion of each colour");
  calibrate_pions->add_option("IMAGE", image_path, "Image file")->required();
  calibrate_pions->add_option("--out", calibration_out, "Where to save the calibration (JSON)")->required();

  auto* mat = app.add_subcommand("mat", "Write the printable play mat (ArUco markers at the corners)");
  std::string mat_out;
  std::string mat_size = "a4";
  mat->add_option("--out", mat_out, "Output file, .pdf (vector) or .png (300 dpi)")->required();
  mat->add_option("--size", mat_size, "Paper size: a4 or a3")->capture_default_str();

  auto* watch = app.add_subcommand(
      "watch", "Referee a game live (camera or script -> referee -> store): one JSON line per event");
  app::watch::WatchOptions watch_options;
  watch->add_option("--game", watch_options.game, "irma or yams");
  watch->add_option("--source", watch_options.source,
                    "Camera index, video file, image sequence (frames/%04d.jpg) or URL")
      ->capture_default_str();
  watch->add_option("--players", watch_options.players, "The players in turn order: A,B")
      ->delimiter(',');
  watch->add_option("--db", watch_options.db, "Game store file (default: in the user's data directory)");
  watch->add_flag("--resume", watch_options.resume, "Resume the newest unfinished game");
  watch->add_flag("--auto", watch_options.automatic, "Yams: fill the advisor's best box when no roll is left");
  watch->add_option("--script", watch_options.script, "Scripted observations (JSON) instead of a camera");
  watch->add_flag("--demo", watch_options.demo, "Play the bundled games through the whole loop");
  watch->add_option("--fps", watch_options.fps, "Frames per second of a video file or an image sequence");
  watch->add_option("--calibration", watch_options.calibration,
                    "Irma: colours from 'calibrate pions'; Yams: dice zones (JSON polygons). Kept "
                    "in the store for this source: later sessions start calibrated");
  watch->add_flag("--textures", watch_options.textures,
                  "Yams: the dice have textures (frosted/transparent)");
  watch->footer(
      "Commands, one a line on stdin while the game runs:\n"
      "  undo                     undo the last move, refused try or correction (again and again)\n"
      "  redo                     do again the last thing undone (a new move or correction clears it)\n"
      "  abandon, quit            end the game without a result / stop (the game can be resumed)\n"
      "  Irma: fix cell R C COLOUR (or empty), blocked COLOUR\n"
      "  Yams: box ID, box (the advisor's), declare ID, roll, fix die N VALUE (7r, 10w, 3rg)");

  std::string db;
  std::int64_t game_id = 0;
  std::string export_format = "json";
  std::string import_path;
  auto* games = app.add_subcommand("games", "List the stored games");
  auto* show = app.add_subcommand("show", "A stored game: record, sheets, totals");
  show->add_option("GAME_ID", game_id, "Game id (see 'arbitre games')")->required();
  auto* records = app.add_subcommand("records", "Best scores, averages and completion rates per player and game");
  auto* export_game = app.add_subcommand("export", "A stored game as a record (json) or a table (csv)");
  export_game->add_option("GAME_ID", game_id, "Game id (see 'arbitre games')")->required();
  export_game->add_option("--format", export_format, "json or csv")->capture_default_str();
  auto* import_game = app.add_subcommand("import", "Store a game record file (checked by the referee first)");
  import_game->add_option("FILE", import_path, "Game record (JSON)")->required();
  for (auto* command : {games, show, records, export_game, import_game}) {
    command->add_option("--db", db, "Game store file (default: in the user's data directory)");
  }

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
    if (watch->parsed()) {
      return app::watch::run(watch_options, std::cout);
    } else if (games->parsed()) {
      print(app::store_cli::games(db));
    } else if (show->parsed()) {
      print(app::store_cli::show(db, game_id));
    } else if (records->parsed()) {
      print(app::store_cli::records(db));
    } else if (export_game->parsed()) {
      std::cout << app::store_cli::export_game(db, game_id, export_format);
    } else if (import_game->parsed()) {
      print(app::store_cli::import_file(db, import_path));
    } else if (demo->parsed()) {
      const auto game = data::irma::parse_record(data::irma::demo_record_text(), "irma-demo.json");
      const auto yams_game = data::yams::parse_record(data::yams::demo_record_text(), "yams-demo.json");
      if (demo_json) {
        nlohmann::ordered_json both;
        both["irma"] = nlohmann::ordered_json::parse(app::irma::check_record(game).dump());
        both["yams"] = app::yams::check_record(yams_game);
        print(both);
      } else {
        std::cout << app::irma::demo_text(game) << "\n" << app::yams::demo_text(yams_game);
      }
    } else if (check->parsed()) {
      print(app::irma::check_record(data::irma::load_record(game_path)));
    } else if (legal->parsed()) {
      print(app::irma::legal(data::irma::load_record(game_path), colour));
    } else if (advise->parsed()) {
      print(app::irma::advise(data::irma::load_record(game_path), colour, simulations, seed));
    } else if (play->parsed()) {
      print(app::irma::play(player, seed, simulations));
    } else if (mat->parsed()) {
      vision::write_mat_file(mat_out, mat_size);
      print(nlohmann::json{{"mat", mat_out}, {"size", mat_size}});
    } else if (detect_pions->parsed()) {
      print(app::detect::pions(image_path, overlay_path, calibration_path));
    } else if (detect_dice->parsed()) {
      const auto seen = app::detect::dice(image_path, overlay_path, zones_path, dice_textures);
      print(seen);
      // The camera seen too far from overhead: a hint (docs/vision.md, "Where to put the camera").
      if (seen["camera_tilt_deg"].is_number() &&
          seen["camera_tilt_deg"].get<double>() > vision::kDiceSurestTiltDeg)
        std::cerr << "arbitre: the camera looks at the table about "
                  << std::lround(seen["camera_tilt_deg"].get<double>())
                  << " degrees from overhead; dice are read surest within "
                  << vision::kDiceSurestTiltDeg << " (docs/vision.md)\n";
    } else if (calibrate_pions->parsed()) {
      print(app::detect::calibrate_pions(image_path, calibration_out));
    } else if (score->parsed()) {
      print(app::yams::score(dice, first_roll));
    } else if (yams_check->parsed()) {
      print(app::yams::check_record(data::yams::load_record(game_path)));
    } else if (yams_advise->parsed()) {
      print(app::yams::advise(data::yams::load_position(game_path), samples, seed));
    } else if (yams_play->parsed()) {
      print(app::yams::play(yams_player, seed, players, samples));
    }
  } catch (const data::InputError& e) {
    std::cerr << "arbitre: " << e.what() << "\n";
    return kBadInput;
  } catch (const vision::ImageFileError& e) {
    std::cerr << "arbitre: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "arbitre: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
