// Reading Irma pions in a table image — the stages (internal to vision/):
//   normalise      scale the frame to a working width, divide out uneven light, Lab colour
//   table_model    the table's colours, from the image border
//   find_candidates  blobs that differ from the table, merged blobs split by size
//   fit_lattice    (vision/common/lattice.h) the cells of the candidates, in perspective
//   classify_cells every cell around the fitted board: empty, red, orange, green or white
//   constrain      the game's own limits: one 8-connected group inside a 5x7 rectangle
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "vision/common/cnn.h"
#include "vision/common/lattice.h"
#include "vision/common/mlp.h"
#include "vision/observation.h"

namespace arbitre::vision::pions {

struct Params {
  int working_width = 640;         // pixels; frames are scaled down to this width
  double border_band = 0.08;       // share of each side sampled for the table's colours
  int table_clusters = 4;          // colours of the table (k-means)
  double lightness_weight = 0.5;   // of L against a and b in colour distances (shadows)
  double flatten_gain = 0.08;      // uneven light whose gain varies more than this is divided out (0: never)
  double min_distance = 10;        // Lab distance from the table that makes a pixel foreground
  double seam_gradient = 4.0;      // x the median gradient: pixels on stronger edges are seams
  double core_share = 0.45;        // of a pion's radius: the distance-transform level of cores
  // A pion's radius from each region's deepest point (not from every ridge point).
  bool region_radius = true;
  double radius_percentile = 0.6;  // ... the percentile of those taken as a pion's radius
  // Lab a: the light's white (the brightest pixels' colour) is kept within +- this of grey on the
  // green-magenta axis, since lights lie near the blackbody locus (0: as found).
  double white_max_a = 6;
  // Lab b: ... and at most this yellow (0: as found); see docs/vision.md, stage 2.
  double white_max_b = 20;
  double white_max_blue = 10;  // Lab b: ... and at most this blue, b >= -this (0: as found)
  double white_retry = 5;   // Lab a, b: when the brightest greyish pixels' colour is this far from
                            // the light's white, the board is read again with it (0: never)
  double white_retry_chroma = 15;  // ... greyish: within this chroma of grey
  int white_retry_pions = 8;       // ... when the first reading found at most this many pions
  // When the first reading found at most `object_retry_pions` pions, the board is read again
  // without the table's colours that hold at most this share of the border band and lie at least
  // object_retry_distance (weighted Lab) from its commonest: a pencil or a cup across the band
  // (0: never). That reading is kept when it finds more pions.
  double object_retry_share = 0.1;
  double object_retry_distance = 20;
  int object_retry_pions = 2;
  double object_retry_grow = 0.1;  // ... unless the foreground grows by more than this share of the frame
  // When the first reading found no pion, the candidates are sought again with the foreground
  // threshold lowered to `faint_retry_noise` x the table's own noise (the 90th percentile of the
  // border band's distances from its colours, edges of its pattern left out), at least
  // `faint_retry_floor`: a green tile on green felt, a white one on a checkered cloth's light
  // squares, within min_distance of the table (0: never). The board is read again through them
  // when they are at most `faint_retry_candidates`, and that reading kept when it finds pions,
  // each read with at least `faint_retry_confidence` (on an empty table, the lowered threshold
  // finds a patterned cloth's squares, read as pions at about 0.5).
  double faint_retry_noise = 1.5;
  double faint_retry_floor = 4;
  double faint_retry_confidence = 0.7;
  int faint_retry_candidates = 8;
  double width_colour_stop = 30;   // Lab (L halved): a width ray also ends where the colour is this
                                   // far from the centre's (0: edges only)
  bool any_single = true;  // when no core looks like one pion, the compact ones stand for one
  double min_area_share = 0.2;     // of a single pion's core, to keep a core
  double max_core_aspect = 3;      // a thin core this much longer than wide: no pion (0: never)
  int max_split = 15;              // pions a merged core may hold (more: a cup, no pions)
  double min_confidence = 0.4;     // share of the trees seeing a pion, to report one
  int max_cells = 150;             // cells examined at most
  double min_spacing = 0.5;        // of a pion's width: candidates closer together are clutter
  double merge_split = 0.5;  // ... those split from one blob and all within this share of a width
                             // are merged for a second reading, kept when it finds more (0: never)
  double min_pitch_share = 0.85;   // of a pion's width: a finer lattice is refused
  double pitch_range_low = 0.85;   // the pitches the lattice fit considers, as shares of a pion's width
  double pitch_range_high = 1.8;
  double pitch_range_many = 2.2;       // ... up to this many widths when more than kSparsePoints
                                       // candidates are fitted (a width measured short: glossy
                                       // discs' highlights; at most pitch_range_high: never wider)
  double expected_pitch_share = 1.25;  // the likeliest pitch (on a tie), as a share of the width
  int far_pairs = 2;                   // the lattice fit's far_pairs (vision/common/lattice.h)
  bool hypothesis_steps = true;  // the lattice fit's hypothesis_steps (vision/common/lattice.h)
  // A lattice through at most this many candidates: the board read through the likeliest other
  // lattice too, kept when it finds more pions (0: never).
  int alternative_inliers = 8;
  bool alternative_pieces = true;  // ... also when its pions make more than one 8-connected
                                   // piece, and on a tie, the reading in fewer pieces kept
  bool knight_retry = true;  // a lattice from a knight's move: the board read through its mirror
                             // image too, the better kept
  int parity_points = 6;           // from this many candidates all on one parity of a lattice, the one sqrt(2) coarser turned 45 degrees is taken (0: never)
  // A lattice the parity rule made coarser: the board read through the finer one too, the finer
  // reading kept when it finds more pions.
  bool finer_retry = true;
  int read_parity_pions = 6;  // from this many pions read all on one parity of the lattice, the
                              // board is read through the likeliest other lattice too, the
                              // better reading kept (0: never)
  int lone_readings = 4;      // no pion read though there were candidates: the board read through
                              // the lattice of each of this many candidates alone (the likeliest
                              // pions first), the reading with the most pions kept (0: never)
  bool lone_crowded = true;  // ... a crowded candidate too (a pion split in two by a cloth's edges)
  int lone_inliers = 4;      // ... and also when the lattice went through at most this many
                             // candidates (0: only with no pion read)
  double recentre = 0.2;  // an empty cell is examined again at 4 points this far (pitch) from its
                          // node, diagonally (0: never)
  double recentre_low = 0.02;      // ... when its presence is at least this
  double recentre_accept = 0.7;    // ... a pion taken at the surest point with this presence
  int recentre_beside = 2;  // ... and dropped when this many of the 3 cells on the side it was
                            // shifted to hold pions read (0: never)
  // Candidates off the lattice tried on a node by a refitted map, at most (0: never) ...
  int extend_rounds = 8;
  // ... the map refitted through the placed candidates read as pions only, not those examined
  // as empty (a striped cloth's): they neither pull the map nor veto it (false: every one).
  bool extend_through_pions = true;
  double extend_reach = 0.6;       // ... when within this share of a pitch of a node beside a pion found
  bool extend_bridge = true;  // ... or of a node a cell further, when the new map shows a pion on
                              // the cell between too
  double single_angle_step = 6;    // degrees: a lone candidate's lattice is turned by this step to find its neighbours (0: never)
  double edge_weight = 6;          // lattice score points lost at 45 degrees from square tiles' edges (0: edges unused)
  // Long thin things (a pencil) found where the foreground (at half the working size) opened by a
  // disc of thing_opening x a pion's width loses a piece at least thing_length widths long and at
  // most thing_thickness thick; the pixels of their hues are left out of the colour of the cells
  // they lie over (0: never).
  double thing_opening = 0.6;
  double thing_length = 1.5;
  double thing_thickness = 0.6;
  // The lattice fit's edge_knight: a pair a knight's move apart proposes a lattice along square
  // tiles' edges this clear (vision/common/lattice.h; 0: never).
  double edge_knight = 0.3;
  // The lattice fit's parity_edges (vision/common/lattice.h; 0: the parity rule regardless).
  double parity_edges = 0.7;
  double grow_contrast = 1.0;      // a found pion's distance from the table (x threshold) to grow from
  double grow_faint = 0.7;  // ... and a fainter pion's neighbours examined too when it is this
                            // sure (0: never)
  int faint_steps = 3;      // ... along a chain of at most this many faint pions (1: one step)
  double grow_faint_again = 0.9;  // ... each after the first this sure
  // A cell read as a pion this close to the table's colours (x threshold) is a pion only from
  // this presence (0: as any other); see drop_faint.
  double faint_contrast = 0.1;
  double faint_presence = 0.55;
  // ... and a white under this contrast (0: never) too when it is `faint_lighter` (L) lighter
  // than the median of the board's other whites.
  double faint_lighter_contrast = 0.2;
  double faint_lighter = 5;
  int hole_neighbours = 3;  // see fill_holes (0: never)
  double hole_contrast = 2.5;
  double hole_presence = 0.3;
  double bridge_confidence = 0.3;   // a cell between two groups of pions holds one when this share of the trees sees one (0: never)
  double net_weight = 0.3;  // with a cell network in the model: its share in the mean with the forest's vote shares (0: the forest alone)
  double net_min_confidence = 0.45;  // with the network: the mean's share for any pion, to report one
  double patch_weight = 0.5;  // with a patch network: its share in a cell's presence (0: unused)
  double patch_low = 0.1;     // ... asked only about cells whose presence (forest and network) is
  double patch_high = 0.9;    //     within these bounds: the cells they are unsure of
  int patch_views = 4;        // the patch network's probability averaged over this many of the
                              // patch's 8 symmetries (1: as it is; 4: its turns; 8: and mirrored)
  bool keep_patches = false;  // every examined cell keeps its network patch (training, diagnostics)
  // Lab a, b: pions this close in colour are read one colour (0: never); see recolour_twins.
  double twin_distance = 4;
  double twin_lightness = 6;  // ... when their lightness is this close too
  // With a colour-context forest in the model: a pion takes the colour it gives when at least this
  // share of its trees agree (0: never); see recolour_context.
  double context_share = 0.5;
  double pale_distance = 10;  // Lab a, b: a pion read white this far from the other whites' median may be pale (0: never)
  double pale_share = 0.3;     // ... and takes its likeliest other colour when that holds this share of white's (at pale_distance; x (pale_distance / distance)^2 farther)
  double apart_distance = 10;  // Lab a, b: a pion read red, orange or green this far from the others of its colour may be misread (0: never)
  double apart_ratio = 0.3;     // ... and takes another colour whose pions lie within this share of that distance
  double apart_share = 0.1;     // ... when that colour holds this share of the colour read
  double hue_margin = 5;  // degrees: a pion read red (orange) whose hue from the light's white lies
                          // this much nearer the other pions read orange (red) than its own
                          // colour's takes that colour (0: never); see recolour_hue
  double hue_alone = 12;  // degrees: ... and the only pion read its colour, within this of the
                          // others' hue (0: never)
  double hue_min_chroma = 25;  // Lab: ... when its chroma (from the light's white) is at least this
  // Lab: a paler cell, of chroma at least this (and under hue_min_chroma), takes the other colour
  // only when its hue lies at least hue_pale_margin degrees nearer theirs (0: never), and never
  // alone; see recolour_hue.
  double hue_pale_chroma = 8;
  double hue_pale_margin = 45;
  int join_group = 1;  // a group of pions apart from the board joins it, inside its 5x7 window, from this size (0: never)
  // When given, a calibration decides each pion's colour: with calibration_sigma (Lab), its
  // distance from each colour's calibrated look weighed against the reader's own reading (the
  // classifier's share and the colour the scene's steps gave); 0: the nearest calibrated colour
  // alone, the scene's colour steps skipped (see detect()).
  std::optional<ColourCalibration> calibration;
  double calibration_sigma = 20;
};

struct Candidate {
  cv::Point2d centre;  // working pixels
  double area = 0;     // of the blob it came from, per pion
  bool single = false; // a core of one pion's area (not split from a larger blob)
  int core = -1;       // the candidates split from one blob share this number (-1: not split)
};

// Features of one cell for the classifier, and their count: 23 of colour and contrast, then
// the shape of the cell's neighbourhood — a histogram of oriented gradients over the patch
// rectified to lattice coordinates (kPatchPixels square over kPatchCells cells), which sees a
// tile's outline or a disc's rim even when its colour is the table's.
inline constexpr int kColourFeatures = 23;
inline constexpr int kPatchPixels = 24;
inline constexpr double kPatchCells = 1.5;
inline constexpr int kShapeFeatures = 2 * 2 * 4 * 9;  // 2x2 blocks of 2x2 cells, 9 orientations
inline constexpr int kCellFeatures = kColourFeatures + kShapeFeatures + 1;
using CellFeatures = std::array<float, kCellFeatures>;
// The patch network's input: the cell's neighbourhood rectified to lattice coordinates in colour
// (8-bit Lab as OpenCV gives it, kNetPatchPixels square over kNetPatchCells cells, row by row,
// the L plane, then a, then b).
inline constexpr int kNetPatchPixels = 32;
inline constexpr double kNetPatchCells = 1.5;
inline constexpr int kPatchPlanes = 3;
inline constexpr int kNetPatchSize = kPatchPlanes * kNetPatchPixels * kNetPatchPixels;

// Classes of a cell: 0 empty, then 1 + referee::irma::Colour.
inline constexpr int kCellClasses = 5;

struct Timing {
  double normalise_ms = 0, table_ms = 0, candidates_ms = 0, lattice_ms = 0, classify_ms = 0;
  Timing& operator+=(const Timing& o) {
    normalise_ms += o.normalise_ms, table_ms += o.table_ms, candidates_ms += o.candidates_ms;
    lattice_ms += o.lattice_ms, classify_ms += o.classify_ms;
    return *this;
  }
};

// Everything the stages found, for the CLI, the overlay, the evaluation and training.
struct Detection {
  PionObservation observation;
  double scale = 1;  // working pixels per image pixel
  double pion_radius = 0;  // working pixels, from the candidates' cores
  double pion_width = 0;   // working pixels, from the edges around the candidates
  std::vector<Candidate> candidates;
  LatticeFit lattice;
  struct Cell {
    cv::Point lattice;       // (i, j)
    cv::Point2d centre;      // working pixels
    CellFeatures features{};
    std::vector<unsigned char> patch;  // kNetPatchSize bytes with Params::keep_patches, or when the patch network was asked (else empty)
    int label = 0;           // class
    double confidence = 0;
    double presence = 0;     // share of the trees that see a pion, whatever its colour
    int likeliest = 0;       // the pion class most trees see (0: no tree sees one)
    std::array<float, kCellClasses> shares{};  // each class's share (empty first; all 0 with the fixed rule)
    bool off_node = false;  // read at a point around its node (Params::recentre), not on it
  };
  std::vector<Cell> cells;  // every cell examined
  int off_node_pions = 0;   // pions of the observation read around their nodes, not on them
  Timing timing;
};

// What a calibration records of a cell: lightness relative to the white x100, a and b relative
// to it.
std::array<double, 3> calibration_descriptor(const CellFeatures& features);

// The cell classifier: a random forest and, optionally, a small neural network on the same
// features and classes beside it. With a network, a cell's class shares are the mean of the
// network's probabilities and the forest's vote shares (weighted by `Params::net_weight`);
// without one, the forest's votes alone (a forest converts implicitly: a model without a
// network). Optionally too, a patch network: a convolutional network (vision/common/cnn.h) on
// the cell's rectified patch, two classes (empty, pion), that sees the pion's outline and
// shading where its colour is the table's; its pion probability is mixed into the cell's
// presence (`Params::patch_weight`).
struct CellModel {
  cv::Ptr<cv::ml::RTrees> forest;
  Mlp net;
  Cnn patch_net;
  // The colour-context forest (recolour_context): a pion's colour from its colour features and
  // those of the other pions of the board; none in older models.
  cv::Ptr<cv::ml::RTrees> context;
  CellModel() = default;
  CellModel(cv::Ptr<cv::ml::RTrees> trees) : forest(std::move(trees)) {}  // NOLINT: implicit
  bool trained() const { return forest && forest->isTrained(); }
};

// A cell model from a storage: the forest (its first top-level node, as RTrees::save writes it),
// the network under "cell_net" when there is one of the right shape (kCellFeatures inputs,
// kCellClasses classes; otherwise none), the patch network under "cell_patch_net" when there
// is one of the right shape (kNetPatchPixels side, kPatchPlanes channels, 2 classes) and the
// colour-context forest under "colour_context" when there is one of kContextFeatures variables.
// From a file: an empty model when it cannot be read.
CellModel read_cell_model(const cv::FileStorage& storage);
CellModel load_cell_model(const std::string& path);
// Writes the forest (as RTrees::save does), the network, if any, as "cell_net", the patch
// network, if any, as "cell_patch_net", and the colour-context forest, if any, as "colour_context".
void save_cell_model(const std::string& path, const CellModel& model);

// Class shares (one row of kCellClasses per row of `samples`, each summing to 1): the forest's
// vote shares, or with a network `net_weight` x its probabilities + (1 - net_weight) x those.
cv::Mat cell_shares(const CellModel& model, const cv::Mat& samples, double net_weight);

// View `view` (0-7) of a network patch (kNetPatchSize bytes, as Detection::Cell::patch) into
// `out` (as many bytes): each plane turned by 0, 90, 180, 270 degrees clockwise (views 0-3), or
// mirrored (transposed) and then turned (views 4-7). The patch network is trained on views 0-3.
void patch_view(const unsigned char* patch, int view, unsigned char* out);

// The patch network's probability of a pion in `patch` (kNetPatchSize bytes, as
// Detection::Cell::patch), averaged over the first `views` (1-8) of the patch's eight
// symmetries: turned 0, 90, 180, 270 degrees, then mirrored (transposed) and turned again. The
// network was trained on the four turns of patches from scenes as rendered and mirrored; its
// answers for them differ where it is unsure. With 4 or 8 views the answer is the same for the
// patch turned (with 8, mirrored too).
double patch_presence(const Cnn& net, const std::vector<unsigned char>& patch, int views);

// The trained cell classifier (vision/models/pion_cells.yml, embedded), or an empty model when
// none is built in.
const CellModel& default_cell_model();

// The light over a table is rarely even: a lamp's hotspot, a window on one side, vignetting.
// The table's colour then drifts across the frame, and the colours sampled in the border band
// no longer describe its middle (a hotspot on green felt becomes "foreground" the size of ten
// pions). flatten_light models each channel's gain over the frame as a smooth field, the
// exponential of a quadratic in x and y (in the log of a channel a multiplicative light is
// additive), fitted to the pixels that look like one of the border's colours once the current
// field is divided out (three rounds; far pixels and the worst residuals are left out: pions,
// cups and shadows are not table), and divides it out of the 8-bit BGR image in place when it
// varies by more than `params.flatten_gain` over the frame. The field is 1 on average over the
// border band, so the border's colours are unchanged. The first stage of detect().
void flatten_light(cv::Mat& bgr, const Params& params = {});

// A cell read as a pion that does not stand out from the table's colours (its distance from the
// nearest of them under `params.faint_contrast` of the foreground threshold) is a pion only when
// at least `params.faint_presence` of the vote sees one: a light square of a checkered cloth,
// the size of a tile and beside the board, was read as a white pion at presences of 0.46-0.55,
// where a true pion the table's colour is read surely or not at all (docs/benchmarks.md). So is
// a white under `params.faint_lighter_contrast` that is more than `params.faint_lighter` lighter
// than the median of the other cells read white: the cloth's white square in a gap between white
// tiles, brighter than they are. The step of detect() before bridge_groups, which may still
// take such a cell between two groups.
void drop_faint(std::vector<Detection::Cell>& cells, const Params& params = {});

// A board is one 8-connected group of pions: a cell examined as empty that touches pions of
// two groups (the pion between two parts of the board, pale or on a pattern) is taken as a pion
// of its likeliest colour when at least `params.bridge_confidence` of the trees see one (less
// than `params.min_confidence`). The step of detect() before the board's window is chosen.
void bridge_groups(std::vector<Detection::Cell>& cells, const Params& params = {});

// A cell examined as empty with pions on at least `params.hole_neighbours` of its four sides,
// whose colour stands far from the table's (`params.hole_contrast` x the threshold) and where
// at least `params.hole_presence` of the vote sees a pion, is a pion of its likeliest colour: a
// tile of an unusual shade in the middle of a board of touching tiles (an empty cell there shows
// the table). The step of detect() after bridge_groups (0 neighbours: never).
void fill_holes(std::vector<Detection::Cell>& cells, const Params& params = {});

// Two pions whose colours are all but the same (a, b within `params.twin_distance`, lightness
// within `params.twin_lightness`) are pions of one colour, whatever each was read alone: two
// pastel reds under a cool light were read one red, one white. Every group of such pions
// (chained) read in more than one colour takes the colour whose shares summed over the group
// are largest. The step of detect() after recolour_hue: the rules that judge a pion against the
// others of its colour have had their say (0: never).
void recolour_twins(std::vector<Detection::Cell>& cells, const Params& params = {});

// A pale pion (a pastel set, under a lamp's hotspot, a glossy highlight) can look white when
// judged alone; beside the scene's white pions it does not: the whites under one light share
// one colour. A cell read white whose a, b lie at least `params.pale_distance` from the median
// of the other cells read white, and whose likeliest other colour holds at least
// `params.pale_share` x (pale_distance / distance)^2 of white's share (the farther from the
// whites, the less of the vote the colour needs), takes that colour. The step of detect() after
// bridge_groups (not with a calibration of calibration_sigma 0, which decides every colour
// itself).
void recolour_pale(std::vector<Detection::Cell>& cells, const Params& params = {});

// Likewise for the colours: the pions of one colour under one light look alike. A cell read red,
// orange or green whose a, b lie at least `params.apart_distance` from the median of the other
// cells read that colour, and within `params.apart_ratio` of that distance from the median of
// the cells read another colour (white included), takes that colour when its share is at least
// `params.apart_share` of the colour read. The step of detect() after recolour_pale.
void recolour_apart(std::vector<Detection::Cell>& cells, const Params& params = {});

// Red and orange under one light differ by hue: a lamp's hotspot or a glossy highlight adds white
// to a pion, which moves its a, b and chroma far (a red disc turns coral) but its hue, measured
// from the light's white, little. A cell read red or orange, of chroma at least
// `params.hue_min_chroma`, takes the other of the two colours when its hue lies at least
// `params.hue_margin` degrees nearer the median hue of the other cells read that colour than the
// median hue of the other cells read its own; or, when no other cell is read its own colour,
// within `params.hue_alone` degrees of the other colour's. A paler cell (chroma from
// `params.hue_pale_chroma` up to hue_min_chroma, a pion washed out by a hotspot: its hue is
// noisier) takes the other colour only when its hue lies `params.hue_pale_margin` degrees nearer
// theirs, and only beside cells of its own colour; the medians are still taken over the cells
// of chroma hue_min_chroma or more. One cell at a time, the one most out of place first, the
// medians taken again after each (a misread cell must not become the reference that moves the
// right ones). With hue_margin and hue_alone both 0 the step does nothing, pale cells included.
// The step of detect() after recolour_apart.
void recolour_hue(std::vector<Detection::Cell>& cells, const Params& params = {});

// The colour-context features of pion `k` of `cells` (a cell read as a pion, label 1-4): its own
// colour from the light's white (a, b, lightness share, chroma, hue as sine and cosine) and its
// lightness, then for each colour the other pions read that colour: how many (at most 10), the
// nearest one in a, b (its a, b and lightness share less this pion's, and how far), and their
// median a, b less this pion's (-999 when there are none). kContextFeatures numbers.
inline constexpr int kContextFeatures = 7 + 4 * 7;
std::array<float, kContextFeatures> context_features(const std::vector<Detection::Cell>& cells,
                                                     std::size_t k);

// The pions of one board under one light: a pale orange beside the board's whites, a red washed
// out by a hotspot beside the other reds, look like the colour they are, where alone they can
// look like another. With a colour-context forest in `model` (trained by `train_pions --context`
// on the pions the reader reports, labelled by the ground truth), every pion takes the colour the
// forest gives from its context features when at least `params.context_share` of the trees
// agree. The features are all taken from the colours as read before the step (no pion's new
// colour moves another's). The step of detect() after recolour_twins (0: never; not with a
// calibration of calibration_sigma 0).
void recolour_context(std::vector<Detection::Cell>& cells, const CellModel& model,
                      const Params& params = {});

// The pions of a calibration image (one of each colour shown): the cells read as pions at least
// `params.min_confidence` sure must be exactly four; each takes a colour by the permutation of
// the four colours over them that the classifier's shares favour most (the largest product of
// each pion's share of the colour it takes), so that a pale red read orange beside the true
// orange is still the red — when every pion holds at least `min_share` of the colour it takes.
// Per colour (red, orange, green, white), the index in `cells` of its pion; none when there are
// not four pions or no permutation is that likely (two reds shown: the second red's share of
// orange is all but 0).
std::optional<std::array<std::size_t, 4>> calibration_pions(
    const std::vector<Detection::Cell>& cells, double min_share = 0.1, const Params& params = {});
// The calibration a detection of a calibration image gives: each colour's descriptor
// (calibration_descriptor) measured on its pion of calibration_pions; none when it has none.
std::optional<ColourCalibration> calibration_of(const Detection& d, const Params& params = {});

// Runs every stage on a BGR image. With an untrained `model`, cells are labelled by a fixed rule
// (used to bootstrap training data).
Detection detect(const cv::Mat& bgr, const Params& params = {},
                 const CellModel& model = default_cell_model());

// Draws the detection on the image: reported pions with their cell and colour, rejected
// candidates crossed out, the lattice.
cv::Mat draw_overlay(const cv::Mat& bgr, const Detection& detection);

}  // namespace arbitre::vision::pions
