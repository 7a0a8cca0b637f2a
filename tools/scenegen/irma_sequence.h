// A whole game of Le jeu d'Irma seen by a fixed webcam: the board after each move of a game record,
// rendered as consecutive frames of one scene (scenegen --irma-record). What `arbitre watch
// --demo` plays through the real loop (data/demo/recordings/irma/).
//
// One scene for the whole game, chosen by the seed within an ordinary, readable setup: dark blue
// felt, matte pions (28 mm apart; round discs 88% of the pitch across, or with --tiles square
// tiles, the demo's choice: 80%, laid with little jitter), a warm key light with soft shadows
// and a fill, no lamp hotspot, no distractors, a long lens (35 degrees) 5-12 degrees from
// vertical, turned at most 8 degrees, backed off until every cell the game uses is in view.
//
// The frames: the empty table; then for every placement of the record a hand over the board
// reaching for the cell (the pion in its fingers) for `hand_frames` frames, then the board with
// the pion placed for `settle_frames` frames. A refused try stays where it was tried (on top of
// the pion there, for an occupied cell) until the next move, when the hand takes it to the cell
// it is then placed on. A blocking claim shows nothing (the camera cannot see one; it is listed
// in the truth as unseen). Identical frames are identical files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common.h"
#include "data/irma/record_json.h"

namespace arbitre::tools::scenegen {

struct IrmaSequenceOptions {
  double fps = 2;          // the clock the frames are meant for (truth.json "fps")
  int empty_frames = 3;    // the empty table at the start
  int hand_frames = 1;     // a hand over the table before each placement
  int settle_frames = 3;   // each board, as it settles
  int quality = 80;        // JPEG quality
  double noise_sigma = 1.5;  // sensor noise (fixed per picture: identical frames stay identical)
  bool tiles = false;        // square tiles instead of discs
  double size_share = 0.88;  // a pion's width, as a share of the pitch
  int max_shots = 0;         // render only the first pictures (a preview); 0: all
};

// One picture of the sequence, shown for `frames` consecutive frames. `scene.truth` holds its
// ground truth: "kind" (empty, hand, placed), "move" (index in the record, -1 for the empty
// table), the pions on the table (record cells, colour, image position; "stacked" for a try on an
// occupied cell), for "placed" the referee's verdict and the score after the move.
struct Shot {
  Scene scene;
  int frames = 1;
  int same_as = -1;  // an earlier shot whose picture this one repeats: its bytes, not rendered again
};

struct IrmaSequence {
  std::vector<Shot> shots;
  nlohmann::json truth;  // everything but the shots: fps, players, scores, the scene's setup, ...
};

// The sequence of a solo game record (throws std::invalid_argument for several players). The
// final scores in the truth come from replaying the record through the referee and the scoring.
IrmaSequence make_irma_sequence(const data::irma::GameRecord& record, std::uint64_t seed,
                                int width, int height, const IrmaSequenceOptions& options);

// Renders every shot once (POV-Ray, seeded sensor noise, JPEG at options.quality), writes its
// frames as DIR/NNNN.jpg from 0000 on (the same bytes for every frame of a shot) and
// DIR/truth.json (the sequence's truth plus, per shot, its frame range). Returns the number of
// frames written, -1 when POV-Ray failed.
int render_irma_sequence(const IrmaSequence& sequence, const std::filesystem::path& dir,
                         const RenderSettings& settings, std::uint64_t seed,
                         const IrmaSequenceOptions& options);

}  // namespace arbitre::tools::scenegen
