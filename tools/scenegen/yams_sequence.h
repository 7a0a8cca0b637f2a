// A whole game of Le Yams impossible seen by a fixed webcam: every roll of a game record as the
// dice settled, rendered as consecutive frames of one table (scenegen --yams-record). What
// `arbitre watch --demo --game yams` plays through the real loop (data/demo/recordings/yams/).
//
// The bundled demo table, one scene for the whole game: a tray (its walls and felt lining drawn
// by the seed) with the kept row in front of it, toward the player and the camera; the ten dice
// matte with printed digits in one clear font (DejaVu Sans Bold; white digits on the red dice,
// black on the white ones); a pale linen tablecloth; a warm key light with soft shadows and a
// fill, no hotspot, no distractors; a 40-degree lens 10-14 degrees from vertical, on the
// player's side, backed off until the tray and every die of the game are in view.
//
// The frames: the empty table; then for every turn a hand over the tray holding the ten dice
// (`hand_frames`), the first roll as it settled (`settle_frames`); before every later roll the
// dice the record keeps that were still in the tray moved to the end of the kept row
// (`settle_frames`, when any moved), a hand over the tray holding the dice to roll (they leave
// the table, a kept die that is rolled again included), and the roll as it settled. The dice
// show the record's values; kept dice keep their faces and places. A rolled die never lands
// within 15 mm of a die of its colour and value that lay in the tray before (the session tells a
// roll from dice left lying by that). What the camera cannot see comes as commands at the frame
// before which the player types them: `declare ID`, `box ID`, and `roll` for a roll with every
// die kept. Identical frames are identical files. Every hand shot is one picture, rendered once:
// the game's first, the fist over the tray with the table empty (the kept row, too, is hidden
// for that frame); the loop needs only "something moving" there, and 323 hand pictures of their
// own made a third of the demo game's pictures.
#pragma once

#include <cstdint>
#include <string>

#include "common.h"
#include "data/yams/record_json.h"
#include "irma_sequence.h"

namespace arbitre::tools::scenegen {

// The frames' clock and counts, JPEG quality, sensor noise and preview length are the Irma
// recording's (irma_sequence.h; its tiles and size_share do not apply): empty_frames of the
// empty table, hand_frames of a hand over the tray before each roll, settle_frames of each
// settled state (the session needs 0.8 s and 3 frames: 3 at 2 fps).
using YamsSequenceOptions = IrmaSequenceOptions;

// The pictures (Shot: irma_sequence.h) and the truth: fps, players, "scores" (a list of
// {player, score}: the record replayed through the referee and the sheet), "zones" (the tray's
// rim and the kept area in image pixels, as `arbitre detect dice --zones` reads them),
// "commands" ({frame, command}: typed before that frame is shown, or at the end), the scene.
// Each shot's truth: "kind" (empty, hand, aside, rolled), "turn", "player", "roll" (1-6, the
// roll it leads to or shows), "dice" ({id, value, colour, zone, x, y} per die on the table).
// Throws std::invalid_argument when a roll cannot be laid out.
IrmaSequence make_yams_sequence(const data::yams::GameRecord& record, std::uint64_t seed, int width,
                                int height, const YamsSequenceOptions& options);

// Rendered by render_irma_sequence: DIR/NNNN.jpg, one file per frame, and DIR/truth.json.

// Plans the bundled demo game's sequence (no rendering) and checks that every hand shot repeats
// the first one's picture (same_as, the same scene, no dice in its truth) and that no other shot
// repeats one. Writes one line per check to `report`.
bool yams_sequence_self_test(std::string& report);

}  // namespace arbitre::tools::scenegen
