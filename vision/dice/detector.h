// Reading the ten d10 of Le Yams impossible in a table image — the stages (internal to vision/):
//   find_candidates  a sliding-window detector (HOG of the lightness + a linear SVM) over a
//                    pyramid of scales, non-maximum suppression
//   examine          every candidate's face crop, classified at four turns: die or not; the
//                    common die size; at most ten dice, re-centred
//   read_faces       the top face located (learned shift from the die's centre), its crop
//                    searched over `rotations` turns: the digit upright, its value, or cocked
//   decide_colours   red or white by the crop's redness, bounded by five dice of each colour
//   assign_zones     tray / kept / table from the calibrated zones
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>
#include <opencv2/objdetect.hpp>
#include <string>
#include <vector>

#include "vision/common/cnn.h"
#include "vision/common/mlp.h"
#include "vision/dice.h"
#include "vision/observation.h"

namespace arbitre::vision::dice {

// A polygon in image pixels.
using Polygon = std::vector<cv::Point2d>;

// Where the tray and the kept area are, in image coordinates (a one-time calibration, or the
// play mat's zones projected). An empty tray polygon means "no zones": every die is on the Table.
// With a tray and no kept polygon, every die outside the tray is Kept.
struct Zones {
  Polygon tray;
  Polygon kept;
};

// The reader's thresholds, with their defaults (set on development scenes: docs/vision.md).
struct Params {
  double min_radius = 0.0135;  // smallest die radius the detector looks for, x image width
  double max_radius = 0.075;   // largest
  double level_step = 1.25;    // scale ratio between pyramid levels
  int deferred_levels = 0;     // the finest levels, scanned only when the common die size of the
                               // others is within size_tolerance of theirs (then all as if at once;
                               // 1 saves a sixth of the time but reads otherwise: off, see docs)
  double scan_threshold = -0.6;  // SVM score a window needs to become a candidate
  bool scan_by_opencv = false;   // the windows scored by cv::HOGDescriptor::detect instead of
                                 // scan_hog (hog_scan.h: the same scores to a few thousandths;
                                 // the scan 19 ms a frame instead of 11)
  int resize_reads = 4;  // fewer dice read than this: the dice chosen again at the size of the
                         // surer candidates larger than size_tolerance (detect; 0: off)
  double faint_threshold = -1.5;  // then the windows at the common size scoring this or more,
  int faint_candidates = 4;       // not examined yet, away from every candidate of that size:
  double faint_presence = 0.7;    // this many more examined, kept at this presence or more
  // Then the places where a die's worth of red stands out from the table round it, away from
  // every candidate of the common size left standing: the strongest `colour_places` peaks of the
  // image's Lab a* over about a die's disc less its a* over `colour_surround` radii round it (box
  // filters on the image sampled to four pixels a radius), at least `colour_contrast` (0: not),
  // re-centred and examined, kept at `colour_presence` or more. The window scan scores a plain
  // red die low on a striped or bright table, where its colour still shows (since 2026-12-05,
  // thirty-sixth session: with the plain check below, dice missed 56 -> 43 and images with a die
  // missed, doubled or invented 46 -> 37 on thirteen sets; the contrast 5-12, the surround 2-4,
  // the presence 0.5-0.55 and 3-10 places alike).
  double colour_contrast = 8;
  double colour_surround = 3;
  int colour_places = 6;
  double colour_presence = 0.55;
  double suppression = 1.0;      // x radius: weaker candidates closer than this are dropped
  int max_candidates = 20;       // examined at most (the strongest)
  double second_pass = 1.45;     // then the windows within this factor of the common die size,
  int second_candidates = 10;    // suppressed among themselves, this many more examined (0: off)
  double part_size = 0;          // a candidate smaller than this x a die's radius (0: off),
  double part_distance = 0.5;    // closer than this x that radius to its centre, is a part of it
  double radius_spread = 1.15;   // a die's radius is kept within this factor of the median's
  int refine_steps = 4;          // re-centring: +- this many 2-pixel steps at the window's scale
  double min_spacing = 1.0;      // x the common radius: a die closer to a surer one is the same die
                                 // (1.1 until 2026-12-06, forty-eighth session, when the common
                                 // radius was the level's: 0.83-1.09 x the true one, 10th-90th
                                 // percentile, against 0.88-1.03 measured)
  double respace_from = 0.9;     // ... unless it is this far or more from every die chosen and,
                                 // re-centred, min_spacing away (0: off)
  bool size_vote = false;        // the size most presence agrees with instead of the median (worse)
  double size_tolerance = 1.7;   // a candidate's radius within this factor of the median die's
  // A candidate as plain as a bare table is none, whatever its presence: within plain_reach x
  // its radius, the grey's standard deviation under plain_contrast and the mean Sobel gradient
  // under plain_gradient (0: not). Of 12,946 dice seen on thirteen sets the plainest has 14 and
  // 46; the presence networks took patches of bare wood (2-8 and 5-15) for dice at 0.5-0.9 (since
  // 2026-12-05, thirty-sixth session).
  double plain_contrast = 10;
  double plain_gradient = 25;
  double plain_reach = 0.8;
  // A die left unread (not cocked) across which `ruled_count` or more straight edges at least
  // `ruled_length` x its radius long run, within `ruled_through` x its radius of its centre
  // (ruled_edges, in a square reaching 2 radii each way), read nothing, as a die of too little
  // presence does (empty_*: the dice chosen again without it; ruled_length 0: not). Half the dice
  // reported where none lies on 1,300 images sat on the grid of the score sheet beside the table
  // (since 2026-12-06, forty-seventh session).
  double ruled_length = 1.5;
  double ruled_through = 0.6;
  int ruled_count = 2;
  double min_presence = 0.45;    // share of the forest's votes (not "no die") to keep a candidate
  int examine_turns = 4;         // turns of each candidate's crop the forests see (mean votes)
  int rotations = 16;            // turns searched for the upright digit (models with no axis)
  int axis_turns = 3;            // with the axis regressor: turns tried around each of the two
  double axis_step = 15;         // directions of the predicted digit axis, this many degrees apart
  bool pool = false;        // with the axis: a value's mean share over the crops of the best way
                            // (turns and shifts) decides, not the single best crop (no better: off)
  bool net_veto = true;     // with a digit network: the forest alone reads, and a value the
                            // network does not find most likely at the same crop is unread
  double net_weight = 0.5;  // with a digit network: its share in the mean with the forest
  bool use_cnn = true;  // with a digit convolutional network: it reads the digit (not the forest)
  double cnn_cocked = 0.5;          // its mean "cocked" probability over the axis crops that flags
                                    // a die cocked
  double cnn_confidence = 0.7;      // with it, the value's mean probability over the crops of the
  double cnn_margin = 0.15;         // best way (always pooled) needed, and over the next value
                                    // (0.5 and 0.3 with one digit network, until 2026-12-03;
                                    // 0.35 until the sixtieth session, 2026-12-07: a die read
                                    // under 0.7 along its axis is read better by the steps that
                                    // read an unread die, docs/benchmarks.md)
  int full_turns = 36;              // with it, a die not read along the axis: turns of the
                                    // whole circle searched (0: off), its reading taken when
  double full_confidence = 0.6;     // its mean is at least this (and surer than along the axis;
                                    // 0.9 with one digit network, until 2026-12-03), and at
                                    // that stage cnn_confidence too: one under it is left to the
                                    // steps that read an unread die
  bool answer_search = true;        // with it, a die still unread is searched so at each of the
  double answer_gap = 0.05;         // two answers for its top face when they lie this far apart
  double answer_cocked = 0.25;      // (x radius), unless its "cocked" probability is this high
  bool neighbour_search = true;     // with it, fewer than ten dice: places where a die touching
  double neighbour_distance = 1.2;  // one found would lie (on `neighbour_rings` rings round it,
  int neighbour_rings = 3;          // the first this x the die radius from it, each further one
  double neighbour_ring_step = 0.25;  // this x the radius further out and turned half a step,
  int neighbour_directions = 24;      // this many directions on each) become candidates when its
  double neighbour_no_die = 0.99;     // "no die" probability there is at most this; then again
  int neighbour_rounds = 3;           // round the dice so added, up to this many rounds in all
  int neighbour_refine_steps = 2;     // its places re-centred within +- this many steps (as
                                      // refine_steps), and kept where they are when re-centred
  double neighbour_keep = 0.03;       // onto a die chosen with "no die" at most this (0: never)
  bool search_resized = true;       // ... and so do the places of candidates of the wrong size
  double search_unsure = 0.2;       // ... and of candidates "not a die" of at least this presence
  bool search_faint = true;         // ... and "faint" (false: not, as until 2026-12-06)
  double cnn_presence = 0.25;    // its share in a candidate's presence (1 - "not a die"), with the
                                 // reader forest's, over the examine stage's turns
  double presence_net = 0.35;    // with a presence network: its share in the presence,
  int presence_turns = 1;        // the mean over its crops at this many turns
  bool use_axis_cnn = true;      // with an axis network: it gives the digit's axis
  bool use_face_cnn = true;      // with a face network: the top face is the mean of its answer
  int face_steps = 3;            // (applied this many times) and the locator's forests'
  int locate_steps = 2;          // applications of the face locator (0: read at the die's centre)
  int centre_steps = 3;          // with a centre network: applied this many times (0: not asked)
  // x radius: the shifts of the crop tried at the best turn (0: none; 0.08 until the face network)
  double face_offset = 0;
  int face_rings = 1;            // rings of 8 shifts (at 1, 2, ... x face_offset)
  double min_confidence = 0.35;  // share for the best digit, else unreadable (value 0)
  double min_margin = 0.1;       // over the best other value, else unreadable
  double cocked_share =
      0.3;                 // mean share of "cocked" votes (over the turns) that flags a die cocked
  double cocked_vote = 0;  // share of the cocked forest's votes (mean of four turns) that does
                           // too (0: the forest is not asked; on 1,075 scenes at 0.45 it
                           // flagged 4 flat dice and no cocked one)
  // A die's redness is its Lab a* and `red_yellow` x its b* (above neutral) over the crop's
  // middle; `red_threshold` of it means red (within the 5 + 5 bounds). Red dice, opaque or glass,
  // are an orange red; a clear white die (pale smoky-blue glass) over a red lining shows a bluer
  // red, as red by a* alone (since 2026-12-06, forty-fifth session: a* alone and 14 until then;
  // with b* twice, on 700 scenes 13 dice of textured scenes got their colour right and 1 wrong).
  double red_yellow = 2;
  double red_threshold = 35;
  // Two dice within a radius of each other whose top faces as read lie within `faces_apart` x
  // the radius of each other are one die seen twice, once from a window between it and a die it
  // touches that the centre network moved only part of the way onto it: the one whose face lies
  // nearer its own centre is kept, and the dice are chosen once more without the other, as for
  // respace_after (0: off; since 2026-12-07, sixty-second session).
  double faces_apart = 0.25;
  double respace_after = 0.5;   // a die re-centred this close (x radius) to a surer one is that
                                // die (dropped; 0: off)
  // A candidate turned down as an eleventh, when a die chosen is then dropped (re-centred onto a
  // surer one) and fewer than ten are left, is one of the places of the search beside the dice
  // (re-centred as they are, competing with them by presence; false: it stays out, as until
  // 2026-12-06, forty-eighth session, and the search alone fills the place).
  bool recall_eleventh = true;
  double empty_presence = 0.8;  // a die of less presence whose likeliest value has less than this
  double empty_best = 0.1;      // probability (unread, not cocked) read nothing: the dice are
  bool empty_again = true;      // chosen again without it, taken when they read more dice (or
                                // as many, and find more, or as many whose presence sums
  bool empty_tie_first = true;  // higher; false: as many, as until 2026-12-04)
  // The same when a die was turned down as an eleventh (one of the eleven is no die): a die of
  // less presence than this whose likeliest value has less than empty_crowded_best.
  double empty_crowded_presence = 0.9;
  double empty_crowded_best = 0.2;
  // When the dice chosen again without those that read nothing are taken, a die they read
  // nothing on either, new to them and less sure (presence) than one given up that lies clear of
  // the others, gives its place back to it: the dice are chosen once more so (taken as the
  // choice again is; false: not, as until 2026-12-06, forty-ninth session).
  bool empty_give_back = true;
  // On the tie of empty_tie_first, the presence summed over the dice each choice has where the
  // other has none (false: over all the dice, as until 2026-12-06, forty-ninth session).
  bool empty_tie_apart = true;
  // A die chosen whose centre, re-centred (refine_centre, the centre network), lands within half
  // a radius of a place that read nothing is that place again: it stays out too (false: only the
  // window's own centre is compared, as until 2026-12-07, fifty-eighth session, and a window
  // beside a die that read nothing may bring it back).
  bool empty_recentred = true;
  double colour_gap = 3;        // ten dice: other than five red only when the redness falls this
                                // many times further there than between the fifth and sixth
  bool textures = false;        // the game is played with textured dice: tell frosted/transparent
  // With a clear network (trained on transparent dice): a die left unread, not cocked, that the
  // texture forest calls at least `clear_gate` (0 any, 1 frosted or transparent, 2 transparent) is
  // read again through the whole circle (full_turns) at its top face as the clear face network
  // finds it from the die's centre (`clear_locate` steps; 0: not asked), then, if that reads
  // nothing, where it was read; each crop's reading the digit networks' mean and the clear
  // network's (the clear pair's mean when the model has two), the clear network's share
  // `clear_weight` (0: off; 0.5 until the thirty-fourth session, when the clear network was
  // trained with weight decay; 0.65 until the fortieth, when the second clear network came),
  // taken at this mean and margin.
  int clear_gate = 1;
  double clear_weight = 0.8;
  // A white die read (not cocked) that the texture forest calls transparent is left unread, to be
  // read again as above, when the clear network, shown it where and as it was read, gives the
  // value read less than `clear_veto` (0: not asked): the digit networks read the digits of its
  // other faces, seen through its body (since 2026-12-05, thirty-fourth session: 0.15-0.5 alike
  // on 800 images).
  double clear_veto = 0.3;
  // Then, still unread, read once more at the surest of those places with the grey of its disc
  // of stretch_reach x the radius stretched from its stretch_low-th to its stretch_high-th
  // fraction over the whole range (stretch_high <= stretch_low: not): a glossy red die whose top
  // face a light's highlight washes out to a pale pink, its gold or white digit faint on it (since
  // 2026-12-05, thirty-sixth session: 0.2-0.4 and 0.95-0.995 alike on the 800 looked-at images).
  double stretch_low = 0.2;
  double stretch_high = 0.98;
  double stretch_reach = 0.45;
  // Then, a red die still unread, read once more on 255 - a* (Lab) instead of its grey, at the
  // surest of those places and then at the others in turn, taken at full_confidence and
  // cnn_margin: a gold digit on a face a light's highlight pales to pink is about as light as the
  // face, but far less red (since 2026-12-07, fifty-ninth session).
  bool redness_plane = true;
  // (0.6 until the fortieth session: the mean of the clear pair is less often sure, and less
  // often wrong when it is)
  double clear_confidence = 0.55;
  double clear_margin = 0.2;
  int clear_locate = 3;
  // A die left unread (not cocked) is read again through the whole circle, first where the other
  // dice read put a flat die's top face (the shift k p - (a, b) of fit_face_shift over the dice
  // read, tilt_dice and tilt_outlier), taken at clear_confidence and clear_margin; a transparent
  // one with the clear network mixed in, and then at the places above. Only with the centre
  // network (centre_steps), as face_check: the shifts are measured from its centres.
  bool fit_unread = true;
  // The fit (fit_face_shift) with each read die's digit axis (c u; false: k p - (a, b) alone; off:
  // with the reader's centres and faces it moved nothing beyond noise on 500 images, 2026-12-04).
  bool fit_axis = false;
  // Then, when none of those read, at `fit_ring_places` places round the fitted place,
  // `fit_ring` x the radius off, unless the digit networks' "cocked" share is answer_cocked or
  // more (0: not; since 2026-12-04, twenty-seventh session).
  double fit_ring = 0.08;
  int fit_ring_places = 4;
  // A die read at a place `face_check` x its radius or more off where the other dice read put a
  // flat die's top face (fit_face_shift) is left unread (check_reread, below; 0: not checked).
  // For this check every die's
  // centre and face are placed once more by the centre and face networks with their crops at
  // `refine_turns` turns (0: not; 4 is what they are placed with), and a die is off only when its
  // face so placed and its face as read both lie off (0.3 without, until 2026-12-04; 0.25 until
  // the size network, thirtieth session).
  double face_check = 0.2;
  // An opaque die (the texture forest's word) is off when its face placed again alone lies
  // `face_check_opaque` x its radius or more off (0: as the others): the face network places an
  // opaque die's face surely, a clear one's poorly (since 2026-12-04, twenty-seventh session;
  // 0.22 until the size network).
  double face_check_opaque = 0.18;
  // A die whose faces (as read and placed again) both lie face_check or more off where the others
  // put it and that the lean network takes for leaning (lean_bound, asked as the check asks it) is
  // left out of the other dice's fits when there are at most `check_leave_out` such dice (0: none
  // left out; since 2026-12-06, forty-eighth session): a die leaning on a flat one, counted in
  // that one's fit, moved where its face is expected by 0.1 radius, and the lean network, shown
  // that place, took the flat die for leaning.
  int check_leave_out = 1;
  int refine_turns = 8;
  // A die whose face as read lies within `refine_from` x its radius of where the other dice as
  // read put it is not placed again (0: every die read is; since 2026-12-04, twenty-seventh
  // session: a third of the dice, 0.9 ms a frame).
  double refine_from = 0.05;
  // With the fine networks: the centre and face placed again of a die whose face so placed
  // still lies `fine_from` x its radius or more off are placed once more by them, `fine_steps`
  // times (0: not), with their crops at `fine_turns` turns.
  int fine_steps = 1;
  double fine_from = 0.12;
  int fine_turns = 4;
  // A die the check finds off is read again where the fit puts its top face, through the whole
  // circle, and taken when that reads at full_confidence and cnn_margin (false: left unread, since
  // 2026-12-04, twenty-eighth session: the reading there took 10 leaning dice as values for 10
  // flat dice right and 3 read wrong on seeds 7700 and 7900's 200 scenes).
  bool check_reread = false;
  // Only a die whose faces, as read and as placed again, both lie `check_reread_from` x its radius
  // or more off (0: none) is read again so: a flat die read on a side face (its face 0.5-0.7 off),
  // where a leaning die's upward face lies 0.15-0.4 off (since 2026-12-05, thirty-seventh
  // session).
  double check_reread_from = 0.4;
  // And a die the lean network, asked from the check's own centre (as for lean_bound), takes for
  // flat, its "leans" under `check_reread_flat` (0: none; since 2026-12-05, forty-first session):
  // the check's two points (the centre and the face, each placed by a network) are off for a flat
  // die now and then, where the network sees the whole die.
  double check_reread_flat = 0.25;
  // A die read again so that the texture forest calls frosted or transparent (clear_gate) is read
  // with the clear networks mixed in, at clear_confidence and clear_margin, as a die left unread
  // is (read_unread; false: the digit networks alone, at full_confidence and cnn_margin, as until
  // the forty-first session).
  bool check_reread_clear = true;
  // A die the check finds off has its centre placed once more by the centre networks from crops
  // `check_wider` x its radius (0: not), and is not off when its faces lie within the bounds of
  // where the fit puts them from that centre: a die's radius as found is often too small (a fifth
  // of the dice are seen at 0.85 x theirs or less: it is kept within radius_spread of the
  // frame's), and the centre network, its crop then cut inside the die's outline, places the
  // centre off (since 2026-12-04, twenty-ninth session).
  double check_wider = 1.15;
  // An opaque die still off has its centre placed again by the centre network,
  // `check_from_face` steps (0: not), from where a flat die's centre would lie under its top face
  // as placed again (that face less the fitted shift), and is not off when its faces lie within
  // the bounds from there and the lean network, asked from the centre before, takes it for flat:
  // the centre network is drawn off a die's centre toward a die it touches, or where a tray wall
  // hides its lower part. Only when that face and that centre lie within check_from_face_reach x
  // the radius of where the die is reported (further, the face read is a neighbour's). Since the
  // thirty-seventh session (2026-12-05).
  int check_from_face = 1;
  double check_from_face_reach = 0.6;
  // The dice the check leaves unread for lying off are judged once more, each against the fit of
  // the dice it left read, from the check's centre and with its bounds (false: not; since the
  // fifty-sixth session, 2026-12-07): two leaning dice in a frame, both counted in each flat
  // die's first fit, can draw it 0.15-0.25 radius off a flat die's place. A die's reading is given
  // back when its faces lie near that fit's place and the lean network takes it for flat both
  // from there and from the first fit's place (from the second alone it took two leaning dice
  // for flat). On 500 looked-at images flat dice 4,717 -> 4,722, rolls 429 -> 432, leaning dice
  // flagged 179 -> 179; on 600 new ones nothing changed.
  bool check_second = true;
  // With a size network: once the dice are centred, each die's radius is measured by the size
  // network from crops at `size_turns` turns round its centre, `size_steps` times (0: not), and
  // kept within `size_bound` x (or / ) the radius it was found at; the reading again of the dice
  // left unread, the face check (its bounds are in radii) and the leaning check then use it, and
  // the overlay draws it (since 2026-12-04, thirtieth session: the window scan finds a die's
  // radius 10% off, median, the network 3%).
  int size_steps = 1;
  int size_turns = 8;
  double size_bound = 1.5;
  // With `size_first` above 0, before the dice are chosen: the common radius (the window scan's
  // level the surest candidates agree on, the levels 1.25 x apart) is the median of what the size
  // network measures of the `size_first` surest candidates of that size (at least three), within
  // size_bound of it, so that the size and spacing tests and the search beside the dice use the
  // dice's own size (0: the level). The level lies 15% or more off the dice's median radius in
  // one image of five, and there the opaque dice fail twice as often. An option since the
  // forty-sixth session, by default since the forty-seventh (2026-12-06): on 1,300 images, 27
  // flat dice more read right (12,224 -> 12,251 of 12,509), 22 rolls more (1,080 -> 1,102), 12
  // images fewer with a die missed, doubled or invented (35 -> 23); the median frame 27.9 -> 29.0
  // ms on one core (the size network on 40 crops). 2 turns instead of size_turns' 8, or taken
  // only when 10% off the level, read less.
  int size_first = 5;
  // With a lean network: a die read whose faces the face check finds where a flat die's would be
  // is still left unread when the lean network, shown the die from where the check placed its
  // centre and where the other dice put a flat die's top face (lean_crop), says it leans with
  // `lean_bound` or more (0: not asked; since 2026-12-04, thirty-first session); with
  // `lean_from` above 0, only a die whose face placed again lies that far off where the fit puts
  // it (x its radius) is asked (0: every die the check passes; 0.08 asks a third of the dice and
  // flagged 3 leaning dice fewer, 5 flat dice more read, on 800 images). 0.8 since the
  // forty-second session's lean network (trained on the reader's own questions besides: it calls
  // fewer flat dice leaning, and at 0.8 flags more leaning dice than the one before at 0.9).
  double lean_bound = 0.8;
  double lean_from = 0;
  // A die the digit networks call cocked that the lean network says leans with less than
  // `lean_flat` is taken for flat and left unread, to be read again with the others (0: not;
  // since 2026-12-04, thirty-first session: the digit networks call a flat die seen from a low
  // camera cocked now and then, its side faces showing as large as its top one).
  double lean_flat = 0.5;
  // With a top network: a die read (not cocked) whose top face, where the top network finds it
  // from the die's centre (`tilt_locate` steps), lies `tilt_residual` x its radius or more off
  // where the other dice's top faces put a flat die's, and whose top face as read (the face
  // network's and the forests') lies `tilt_face_residual` or more off where the other dice's read
  // faces put it, is cocked (0: off). A flat die's top face lies above its centre, so
  // its shift from the centre (x radius) is, over the image, a linear function of where the die
  // lies: k (x, y) - (a, b), fitted to the other dice read (at least `tilt_dice` of them;
  // refitted without those `tilt_outlier` off, twice: tilt_residuals). A die leaning 15-40
  // degrees has its top face 0.16-0.37 radius off (the ground truth's, seeds 5600 and 7100).
  double tilt_residual = 0;  // kLeaningResidual with DiceDetectOptions::leaning
  int tilt_locate = 3;
  int tilt_dice = 4;
  double tilt_outlier = 0.15;
  bool tilt_robust = true;  // the fit started from the best of all and all but one (since the
                            // thirty-second session, 2026-12-04; fit_face_shift's `robust`)
  double tilt_face_residual = 0.25;
  Zones zones;
};

// Params::tilt_residual for DiceDetectOptions::leaning (chosen on seeds 5600, 5800 and 7100).
inline constexpr double kLeaningResidual = 0.2;

// The detector window and the face crop, shared with training (tools/train_dice).
inline constexpr int kWindow = 32;              // pixels, square
inline constexpr double kWindowRadius = 11.0;   // a die's radius inside the window, pixels
inline constexpr int kWindowFeatures = 324;     // HOG: 3x3 blocks of 2x2 cells x 9 bins
inline constexpr int kCrop = 48;                // face crop, pixels
inline constexpr double kCropRadius = 0.8;      // the crop spans +- this x the die's radius
inline constexpr int kCropHog = 7 * 7 * 4 * 9;  // cells of 6 px, blocks of 12 px, stride 6
inline constexpr int kCropThumb = 12;           // a 12x12 thumbnail of the crop's lightness
inline constexpr int kFaceFeatures = kCropHog + kCropThumb * kCropThumb;
// The face locator's: the unturned crop's, then the die's place in the image (x, y from the
// centre, in image widths) and its radius (in image widths).
inline constexpr int kLocateFeatures = kFaceFeatures + 3;

// Classes of the reader: 0 a die turned wrong (digit not upright), 1..10 the value upright,
// 11 a cocked die, 12 not a die.
inline constexpr int kWrongTurn = 0;
inline constexpr int kCockedClass = 11;
inline constexpr int kNoDie = 12;
inline constexpr int kReaderClasses = 13;

// The digit convolutional network's input: a grey crop kCnnSide pixels square spanning
// +- kCnnRadius x the die's radius around the top face, turned like face_crop.
inline constexpr int kCnnSide = 28;
inline constexpr double kCnnRadius = 0.7;

// The face network's input: a grey crop kCnnSide pixels square spanning +- kFaceSpan x the
// die's radius around where the die is thought to be, then (a model trained since the mark) the
// mark of face_mark, kFacePlanes planes in all; its classes: how far the top face's
// centre lies along the crop's x axis, in kFaceBins bins of kFaceStep x the radius, bin b
// centred on (b - kFaceBins / 2) x kFaceStep (the ends hold anything further).
inline constexpr double kFaceSpan = 1.1;
inline constexpr int kFaceBins = 15;
inline constexpr double kFaceStep = 0.08;
inline constexpr int kFacePlanes = 2;  // the crop, then a mark toward the image's centre

// The fine networks' (the fine face network's and the fine centre network's): the face
// network's planes and classes at a finer grain, from where the face and centre networks put a
// die's top face and centre; bins of kFineStep x the radius (+-0.175, the ends hold anything
// further). The fine face network's crop spans +- kFineFaceSpan x the radius round the face
// (kFineFaceSide pixels: 0.03 radius a pixel, where the face network's is 0.08), the fine
// centre network's the face network's +- kFaceSpan (the die's outline) at kFineCentreSide.
inline constexpr double kFineStep = 0.025;
inline constexpr double kFineFaceSpan = 0.6;
inline constexpr int kFineFaceSide = 40;
inline constexpr int kFineCentreSide = 48;

// The presence network's input: a grey crop kCnnSide pixels square spanning +- kPresenceSpan x
// the candidate's radius around its centre (the die's outline and what lies around it); its
// classes: 0 not a die, 1 a die centred there at about that size.
inline constexpr double kPresenceSpan = 1.4;

// The size network's input: a grey crop kSizeSide pixels square spanning +- kSizeSpan x the
// radius a die is thought to have, round where its centre is thought to be (the whole die at
// 0.7 x its radius, its outline and what lies round it); its classes: log(the die's radius / the
// crop's) in kSizeBins bins of kSizeStep, bin b centred on (b - kSizeBins / 2) x kSizeStep
// (+-0.35: 0.70-1.42 x; the ends hold anything further).
inline constexpr double kSizeSpan = 1.6;
inline constexpr int kSizeSide = 32;
inline constexpr int kSizeBins = 15;
inline constexpr double kSizeStep = 0.05;

// The lean network's input (lean_crop): a grey crop spanning +- kLeanSpan x a die's radius round
// its centre, as many pixels square as the network was trained at (its shape's side: train_dice
// --lean-side, kLeanSide unless told; the committed network's is 56), turned so that where a flat
// die's top face would lie (the fit of the other dice's faces) is along the crop's x axis, then a
// plane with a dot there; its classes: 0 the die lies flat, 1 it leans (cocked).
inline constexpr double kLeanSpan = 1.4;
inline constexpr int kLeanSide = 40;
inline constexpr int kLeanPlanes = 2;

// The axis network's classes: the digit's axis (its rotation modulo 180 degrees) in bins of
// 180 / kAxisBins degrees, bin b centred on b x that.
inline constexpr int kAxisBins = 12;

// The texture classifier's features of a face crop: Lab mean and spread in the middle and in the
// ring around it, and the middle's mean gradient (see texture_features).
inline constexpr int kTextureFeatures = 13;

struct Model {
  cv::Mat window_weights;  // 1 x (kWindowFeatures + 1) float: w, then the bias
  cv::Ptr<cv::ml::RTrees> reader;
  cv::Ptr<cv::ml::RTrees> face_x, face_y;  // the top face's centre from the die's (x radius)
  cv::Ptr<cv::ml::RTrees> texture;         // 0 none, 1 frosted, 2 transparent
  cv::Ptr<cv::ml::RTrees> cocked;          // 0 flat, 1 cocked, on the examine crops
  // The digit's axis (up or down: an angle modulo 180 degrees) at the located top face, as
  // cos(2a) and sin(2a) of the digit's rotation a (the locator's features at the face).
  cv::Ptr<cv::ml::RTrees> axis_c, axis_s;
  // The digit forest, used along the axis: wrong turn (half a turn round), value 1..10, cocked
  // (the reader's classes, trained only on crops at the located face along the digit's axis).
  cv::Ptr<cv::ml::RTrees> digits;
  // The digit network: the same classes and features as the digit forest, which it replaces
  // when the model has one (softmax probabilities instead of vote shares).
  Mlp digit_net;
  // The digit convolutional network: the same classes, from the grey crop (cnn_crop); when the
  // model has one it reads the digit, the forests still tell cocked dice.
  Cnn digit_cnn;
  // A second digit network (optional), trained on other renders: wherever a value is read (along
  // the axis, through the whole circle, at the face answers), the mean of the two answers; the
  // presence and the search beside the dice take the first network's "no die" alone.
  Cnn digit_cnn_2;
  // The clear network (optional): the digit network's layers and classes on a crop of its own
  // side and planes (clear_crops: the committed one 40 pixels, in colour), trained on
  // transparent dice alone (their other faces' digits show through the body).
  Cnn clear_cnn;
  // A second clear network (optional; only beside a first, of its planes): trained the same way
  // at a side of its own (the committed one 56 pixels; since the fortieth session). Wherever the
  // clear network is asked (clear_probabilities), the mean of the pair's answers, each from its
  // own crops.
  Cnn clear_cnn_2;
  // The clear face network (optional): the face network trained on transparent dice alone; with
  // the clear network, where a transparent die left unread is read again.
  Cnn clear_face_cnn;
  // The axis convolutional network: the digit's axis at the located top face, from the unturned
  // grey crop (cnn_crop at turn 0), as one of kAxisBins directions modulo 180 degrees; when the
  // model has one it replaces the axis forests.
  Cnn axis_cnn;
  // The face network: how far the top face lies from a point on the die, along the crop's x
  // axis (kFaceBins classes); the crop turned a quarter turn gives the other axis. When the model
  // has one the top face is the mean of its answer and the face locator's forests'.
  Cnn face_cnn;
  // The centre network (optional): the face network's shape and input, taught every die's centre
  // (a cocked die's too) instead of its top face. Each die chosen is put at its answer from the
  // candidate's centre (which the window scan finds only in steps of about a fifth of the
  // radius): the spacing, the search beside the dice, the top face and where the die is reported
  // (DieSighting x, y and its zone) start from there.
  Cnn centre_cnn;
  // The top network (optional): the face network's shape and input, taught every die's most
  // upward face, a cocked die's too (the face network is taught a cocked die's centre). Where it
  // puts a die's top face against where the other dice's put a flat die's tells a leaning die
  // (Params::tilt_*).
  Cnn top_cnn;
  // The fine face and fine centre networks (optional): the top face (a cocked die's most upward
  // one) and the centre placed again to kFineStep from where the face and centre networks put
  // them (kFineFaceSpan / kFineFaceSide, kFaceSpan / kFineCentreSide crops). The face check
  // (Params::fine_steps) measures with them.
  Cnn fine_face_cnn, fine_centre_cnn;
  // The presence network: whether a candidate is a die at its centre and size, from a wider
  // crop than the reader's; when the model has one its "not a die" is averaged into the
  // presence (Params::presence_net).
  Cnn presence_cnn;
  // The size network (optional): a die's radius from a crop round its centre at the radius it is
  // thought to have (kSizeSpan / kSizeSide), where the window scan finds it only in steps of a
  // level and within Params::radius_spread of the frame's common radius.
  Cnn size_cnn;
  // The lean network (optional): whether a die leans, from a crop round its centre turned toward
  // where a flat die's top face would lie, with a dot there (lean_crop; Params::lean_bound).
  Cnn lean_cnn;
  bool empty() const { return window_weights.empty() || !reader || !reader->isTrained(); }
};

// Candidate::why of a die turned down because ten were chosen (the game has ten dice).
inline constexpr const char* kEleventh = "an eleventh";

struct Candidate {
  cv::Point2d centre;      // image pixels
  double radius = 0;       // image pixels
  double score = 0;        // the window detector's
  double presence = 0;     // share of votes that it is a die (examine)
  bool kept = false;       // among the dice reported
  bool neighbour = false;  // proposed by the search beside the dice found (neighbour_search)
  bool centred = false;    // put where the centre network finds the centre (the dice chosen first)
  std::string why;         // when not kept
};

struct Timing {
  double candidates_ms = 0, examine_ms = 0, read_ms = 0, other_ms = 0;
  double total() const { return candidates_ms + examine_ms + read_ms + other_ms; }
  Timing& operator+=(const Timing& o) {
    candidates_ms += o.candidates_ms, examine_ms += o.examine_ms, read_ms += o.read_ms;
    other_ms += o.other_ms;
    return *this;
  }
};

struct Detection {
  DiceObservation observation;
  std::vector<Candidate> candidates;  // every candidate examined
  std::vector<int> die_candidate;     // for each observed die, its candidate
  std::vector<double> rotation_deg;   // for each die, the digit's up direction (clockwise from up)
  std::vector<cv::Point2d> face;      // for each die, where its top face was read
  std::vector<double> redness;        // for each die, Lab a* above neutral
  // For each die: the cocked forest's share, the reader's mean "cocked" share (the digit networks'
  // with them), the best value's share and the best other value's (what the flat / cocked /
  // unread decision was made on).
  std::vector<std::array<double, 4>> cocked_evidence;
  std::vector<int> best_value;       // for each die, the likeliest value (also when not given)
  // For each die: how far (x radius) its top face lies off a flat die's where the others' put it
  // (Params::tilt_*; -1 when not measured).
  std::vector<double> tilt;
  std::vector<cv::Point2d> top;  // for each die, its top face as the top network finds it (or -1)
  // For each die, its centre and top face as the face check measured them (placed again, or as
  // read; empty when the check placed none again: refine_turns 0, or no check).
  std::vector<cv::Point2d> check_centre, check_face;
  // For each die the check judged: how far its face as read and its face placed again lie off a
  // flat die's (x radius), and the lean network's "leans", all from the check's own centre (-1
  // when not judged; with the defaults the check asks that question anyway: a diagnostic,
  // dice_eval --dice-csv).
  std::vector<cv::Vec3d> check_first;
  // Each question put to the lean network (uncock_flat, the face check): the die, the centre
  // and radius asked from, the shift toward where a flat die's top face would lie (x radius),
  // and its "leans" (train_dice --lean-hard trains it on these, the reader's own questions).
  struct LeanAsk {
    std::size_t die = 0;
    cv::Point2d centre;
    double radius = 0;
    cv::Point2d shift;
    double leans = 0;
  };
  std::vector<LeanAsk> lean_asked;
  std::vector<cv::Point2d> emptied;  // dice whose reading was empty (see empty_presence)
  double die_radius = 0;             // the common radius (median), image pixels
  Timing timing;
};

// The reader's parameters for the public options (zones, textures), the rest at their defaults.
Params params_for(const DiceDetectOptions& options);

// The trained model (vision/models/dice_digits.tar.xz, embedded); empty when none is built in.
const Model& default_model();

// A model written by tools/train_dice (YAML); empty when the file holds none. Its networks run
// their convolutions in 8 bits (Cnn::quicken), as the reader runs them.
Model load_model(const std::string& path);
// The same from an opened storage (a file, or the embedded text).
Model read_model(const cv::FileStorage& storage);
// `model` with its networks' convolutions in 8 bits (`quick`) or in floats, as they were trained
// (tools/train_dice asks the reader its questions so, to reproduce the committed model; the
// benches measure the float reader with it).
Model with_quick_networks(Model model, bool quick);

// For each die, how far its top face's shift from its centre (`shifts`, x its radius) lies off
// the linear function k p - (a, b) of its place p (`places`) fitted to the other dice's (least
// squares, then again without those more than `outlier` off, twice, keeping at least `min_dice`);
// -1 when fewer than `min_dice` others (at least 2) are given. A flat die's top face lies above
// its centre, and seen through the camera that shift grows linearly from where the camera looks
// straight down (Params::tilt_*). With `axes` (each die's digit up direction, fit_face_shift's),
// the fit k p - (a, b) + c u. `robust`: see fit_face_shift.
std::vector<double> tilt_residuals(const std::vector<cv::Point2d>& places,
                                   const std::vector<cv::Point2d>& shifts, int min_dice,
                                   double outlier, const std::vector<cv::Point2d>& axes = {},
                                   bool robust = false);
// The fit itself: k, a, b of the shift k p - (a, b) over the dice `use` (least squares, then
// again without those more than `outlier` off, twice, keeping at least `min_dice`, at least 2);
// false when too few dice are given or the fit is singular. With `robust` (Params::tilt_robust)
// the first fit is the best of the fit of all and the fits without each die in turn (the most
// dice within `outlier` of it, then the least squared distance): one die read far off no longer
// pulls the fit so far that the dice read right lie off it.
bool fit_face_shift(const std::vector<cv::Point2d>& places, const std::vector<cv::Point2d>& shifts,
                    std::vector<std::size_t> use, int min_dice, double outlier, cv::Vec3d& m,
                    bool robust = false);
// The shift the fit `m` gives a flat die at `place` (its centre / the image's width).
inline cv::Point2d face_shift(const cv::Vec3d& m, cv::Point2d place) {
  return {m[0] * place.x - m[1], m[0] * place.y - m[2]};
}
// With each die's digit axis too (`axes`: the unit vector of the digit's up direction in the
// image, one per place; empty: as above, c = 0): k, a, b, c of the shift k p - (a, b) + c u. The
// top face's point (where its digit lies) is not straight above the die's centre: it lies off
// along the kite's long axis, which the digit stands along, by a length the die's shape sets
// (since 2026-12-04, twenty-seventh session: with the ground truth's centres, faces and axes,
// the fit's residual over 1,918 flat dice goes from 0.038 radius, median, to 0.014).
bool fit_face_shift(const std::vector<cv::Point2d>& places, const std::vector<cv::Point2d>& shifts,
                    const std::vector<cv::Point2d>& axes, std::vector<std::size_t> use,
                    int min_dice, double outlier, cv::Vec4d& m, bool robust = false);
inline cv::Point2d face_shift(const cv::Vec4d& m, cv::Point2d place, cv::Point2d axis) {
  return {m[0] * place.x - m[1] + m[3] * axis.x, m[0] * place.y - m[2] + m[3] * axis.y};
}
// The camera's angle from straight overhead (degrees) that the fit `m` of where the dice read put
// a flat die's top face tells (fit_face_shift, without the axes' term): a flat die's top face lies
// above its centre, so its shift from the centre (x the die's radius) where the camera looks, the
// image's centre, grows with the camera's tilt. On 2,300 rendered images (cameras 0-35 degrees
// from overhead) that shift is about kTiltShiftBias + kTiltShiftPerSine x sin(tilt)
// (docs/benchmarks.md, fifty-first session). `size`: the image's.
constexpr double kTiltShiftBias = 0.048, kTiltShiftPerSine = 0.51;
double camera_tilt_from_fit(const cv::Vec4d& m, cv::Size size);
// The unit vector of a digit's up direction `rotation_deg` (clockwise from up) in the image.
inline cv::Point2d digit_up(double rotation_deg) {
  const double a = rotation_deg * M_PI / 180.0;
  return {std::sin(a), -std::cos(a)};
}

// The HOG descriptor of the window detector.
cv::HOGDescriptor window_hog();
// cv::resize(src, dst, size, 0, 0, cv::INTER_AREA), the same bytes, faster for a grey image
// shrunk by a factor that is not a whole number (the scan's levels); otherwise cv::resize.
void shrink_area(const cv::Mat& src, cv::Size size, cv::Mat& dst);
// cv::resize(src, dst, cv::Size(), factor, factor, cv::INTER_AREA), the same way (the crops of
// the networks, shrunk before they are turned).
void shrink_area(const cv::Mat& src, double factor, cv::Mat& dst);
// Every window scoring above the threshold at every level, strongest first (no suppression).
std::vector<Candidate> scan_windows(const cv::Mat& bgr, const Params& params, const Model& model);
// The same at the pyramid's levels first .. last - 1 only (0: the finest; last < 0: to the
// coarsest), level by level, unsorted.
std::vector<Candidate> scan_levels(const cv::Mat& bgr, const Params& params, const Model& model,
                                   int first, int last);
// The strongest windows after suppression (at most `limit`), among those of radius within
// [min_radius, max_radius] image pixels (0: any).
std::vector<Candidate> suppress(const std::vector<Candidate>& windows, const Params& params,
                                int limit, double min_radius = 0, double max_radius = 0);
// Scores for every window at every level, strongest first after suppression.
std::vector<Candidate> find_candidates(const cv::Mat& bgr, const Params& params,
                                       const Model& model);
// The face crop (kCrop x kCrop) around `centre`, turned so that a digit whose top points
// `angle_deg` clockwise from image-up stands upright, scaled so that kCropRadius x `radius`
// spans half the crop.
cv::Mat face_crop(const cv::Mat& bgr, cv::Point2d centre, double radius, double angle_deg);
// The digit network's input (kCnnSide x kCnnSide bytes, row by row, into `out`) from the grey
// image, turned like face_crop, spanning +- `span` x `radius` (the face network's: kFaceSpan).
void cnn_crop(const cv::Mat& grey, cv::Point2d centre, double radius, double angle_deg,
              unsigned char* out, double span = kCnnRadius);
// The same crop at several turns `angles`, into rows first, first + 1, ... of `rows` (8-bit,
// side x side columns: kCnnSide but for the clear network's); the neighbourhood is averaged down
// once for all of them.
void cnn_crops(const cv::Mat& grey, cv::Point2d centre, double radius,
               const std::vector<double>& angles, cv::Mat& rows, int first,
               double span = kCnnRadius, int side = kCnnSide);
// The clear network's input planes of the image: the lightness `grey`, or for a network of three
// planes the image's blue, green and red.
std::vector<cv::Mat> clear_planes(const cv::Mat& bgr, const cv::Mat& grey, const Cnn& net);
// Its crops: the digit network's (+- kCnnRadius x `radius` round `centre`, at each of `angles`)
// at the network's side, plane after plane, one row per angle into `rows`.
void clear_crops(const std::vector<cv::Mat>& planes, cv::Point2d centre, double radius,
                 const std::vector<double>& angles, const Cnn& net, cv::Mat& rows);
// The clear network's probabilities (one row per angle) for its crops at `at`, at each of
// `angles`; with a second clear network in the model, the mean of the pair's, each from crops of
// its own side.
cv::Mat clear_probabilities(const std::vector<cv::Mat>& planes, cv::Point2d at, double radius,
                            const std::vector<double>& angles, const Model& model);
// The reader's features of a face crop (kFaceFeatures floats).
void face_features(const cv::Mat& crop, float* out);
// The face network's second plane (kCnnSide x kCnnSide bytes into `out`, or `side` square): a
// bright mark, on a dark plane, toward the image's centre from `centre`, further the further it is,
// turned like the crop by `angle_deg` (where the camera is, which the crop alone does not tell).
void face_mark(cv::Size image, cv::Point2d centre, double angle_deg, unsigned char* out,
               int side = kCnnSide);
// The face locator's features for a die at `centre` of radius `radius` (kLocateFeatures floats).
void locate_features(const cv::Mat& bgr, cv::Point2d centre, double radius, float* out);
// Where the top face's centre is, from the die's centre: the locator applied `steps` times.
cv::Point2d locate_face(const cv::Mat& bgr, cv::Point2d centre, double radius, int steps,
                        const Model& model);
// The same with the face network (the model must have one), from the grey image: each step, the
// crop at four quarter turns (each with its face_mark when the network has that plane) gives the
// shift along both axes twice.
cv::Point2d locate_face_cnn(const cv::Mat& grey, cv::Point2d centre, double radius, int steps,
                            const Model& model);
// The same for several dice at once (one batch through the network per step).
std::vector<cv::Point2d> locate_faces_cnn(const cv::Mat& grey,
                                          const std::vector<cv::Point2d>& centres,
                                          const std::vector<double>& radii, int steps,
                                          const Model& model);
// The same with the centre network (the model must have one): where each die's centre is.
std::vector<cv::Point2d> locate_centres_cnn(const cv::Mat& grey,
                                            const std::vector<cv::Point2d>& centres,
                                            const std::vector<double>& radii, int steps,
                                            const Model& model);
// The fine networks (the model must have them): each die's top face from `faces` (a cocked
// die's most upward face) and its centre from `centres`, placed again to kFineStep, `steps`
// times, with crops at `turns` turns.
std::vector<cv::Point2d> locate_fine_faces_cnn(const cv::Mat& grey,
                                               const std::vector<cv::Point2d>& faces,
                                               const std::vector<double>& radii, int steps,
                                               int turns, const Model& model);
std::vector<cv::Point2d> locate_fine_centres_cnn(const cv::Mat& grey,
                                                 const std::vector<cv::Point2d>& centres,
                                                 const std::vector<double>& radii, int steps,
                                                 int turns, const Model& model);
// The lean network's input for a die at `centre` of `radius` whose top face, were it flat, would
// lie `shift` x its radius from its centre: kLeanPlanes planes of `side` x `side` bytes written
// to `out`, mirrored across the shift's axis when `mirror` (the mirror image of a die that leans
// leans too, of a flat one lies flat).
void lean_crop(const cv::Mat& grey, cv::Point2d centre, double radius, cv::Point2d shift,
               bool mirror, unsigned char* out, int side = kLeanSide);
// The lean network's "leans" (the model must have one), the mean of its answers for the crop and
// its mirror image.
double lean_share(const cv::Mat& grey, cv::Point2d centre, double radius, cv::Point2d shift,
                  const Model& model);
// The size network (the model must have one): each die's radius from a crop round its centre in
// `centres` at its radius in `radii`, `steps` times (each from the radius the step before
// found), with crops at `turns` turns (the mean of their answers, in log).
std::vector<double> measure_sizes_cnn(const cv::Mat& grey, const std::vector<cv::Point2d>& centres,
                                      const std::vector<double>& radii, int steps, int turns,
                                      const Model& model);
// The same with the top network (the model must have one): where each die's most upward face is,
// a cocked die's too.
std::vector<cv::Point2d> locate_tops_cnn(const cv::Mat& grey,
                                         const std::vector<cv::Point2d>& centres,
                                         const std::vector<double>& radii, int steps,
                                         const Model& model);
// The digit's axis at the top face `face` (degrees clockwise from image-up, in [0, 180)): the
// digit stands upright when the crop is turned by it or by it + 180: the axis network's (from
// the lightness `grey`) when the model has one and `use_cnn`, else the axis forests'. -1 without
// either.
double digit_axis(const cv::Mat& bgr, const cv::Mat& grey, cv::Point2d face, double radius,
                  const Model& model, bool use_cnn = true);
// The texture classifier's features of a face crop (kTextureFeatures floats).
void texture_features(const cv::Mat& crop, float* out);
// Lab a* and `yellow` x b* above neutral over the crop's middle (redness of the die's body;
// Params::red_yellow).
double redness(const cv::Mat& crop, double yellow);
// Whether the disc of `radius` round `centre` is as plain as a bare table (Params::plain_*).
bool plain(const cv::Mat& grey, cv::Point2d centre, double radius, const Params& params);

// How many straight edges at least Params::ruled_length x `radius` long run within
// Params::ruled_through x `radius` of `centre` (Canny edges, probabilistic Hough): the lines of a
// ruled score sheet. A die's own edges are shorter than its diameter, and the table's lines stop
// at its outline.
int ruled_edges(const cv::Mat& grey, cv::Point2d centre, double radius, const Params& params);
// Where a die's worth of red stands out from the table round it (dice of `radius` pixels),
// strongest first (Params::colour_contrast, colour_surround, colour_places).
std::vector<cv::Point2d> red_places(const cv::Mat& bgr, double radius, const Params& params);
// Which dice are red, from their redness: above params.red_threshold, bounded by the five dice
// of each colour (decide_colours).
std::vector<bool> red_dice(const std::vector<double>& redness, const Params& params);

// The neighbourhood refine_centre scores: the grey image around `centre` scaled so that a die
// of `radius` is kWindowRadius, kWindow + 2 reach + 16 pixels square, `centre` at its middle;
// empty when it would hold too little of the image.
cv::Mat refine_neighbourhood(const cv::Mat& grey, cv::Point2d centre, double radius, int reach);
// The centre near `centre` where the window detector scores best at the die size `radius`
// (image pixels; `grey` is the image's lightness).
cv::Point2d refine_centre(const cv::Mat& grey, cv::Point2d centre, double radius,
                          const Params& params, const Model& model);

// A die read through the whole circle at `at` as a die left unread is read again at one of its
// places (read_unread): full_turns turns from `start_deg`, each turn's value the mean over it and
// its two neighbours, the digit networks' probabilities, with `clear` the clear networks' mixed
// in at clear_weight (the texture forest is not asked: `clear` says whether the die is clear).
// The likeliest value, how sure (`best`) and the next value's (`second`); taken by the reader at
// clear_confidence and clear_margin. For measuring where the reader loses a transparent die
// (dice_eval --clear-at-truth: each one read at its true top face).
struct CircleReading {
  int value = 0;
  double best = 0, second = 0;
};
CircleReading read_whole_circle(const cv::Mat& bgr, cv::Point2d at, double radius, double start_deg,
                                bool clear, const Params& params = {},
                                const Model& model = default_model());
// Whether a reading with the clear networks mixed in is taken: its likeliest value's share
// `best` at clear_confidence or more, ahead of the next value's `second` by clear_margin.
bool clear_reading_taken(double best, double second, const Params& params);

// Runs every stage on a BGR image.
Detection detect(const cv::Mat& bgr, const Params& params = {},
                 const Model& model = default_model());

// The detection drawn over the image: every die's value (or "?", "cocked"), colour and digit
// direction; rejected candidates crossed out with the reason; zones outlined.
cv::Mat draw_overlay(const cv::Mat& bgr, const Detection& detection, const Params& params = {});

// The zone a point lies in.
DieZone zone_of(cv::Point2d point, const Zones& zones);

}  // namespace arbitre::vision::dice
