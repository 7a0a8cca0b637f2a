// The ten-sided die (d10) as a pentagonal trapezohedron, and convex bodies for placing dice.
//
// Geometry (die frame, centred on the origin, y along the axis through the two poles):
//   poles T = (0, +H, 0) and B = (0, -H, 0); an upper ring of five vertices (r cos a, +h, r sin a)
//   at a = 36, 108, ..., 324 degrees and a lower ring (r cos a, -h, r sin a) at a = 0, 72, ...,
//   288 degrees, with h = H (1 - cos 36) / (1 + cos 36), which is exactly what makes every face
//   planar. Face j (j = 0..9) faces azimuth 36 j degrees: for even j it is the kite (T, upper
//   ring at 36 j +- 36, lower ring at 36 j), for odd j (B, lower ring at 36 j +- 36, upper ring at
//   36 j). All ten are congruent kites (two long edges meeting at the pole, two short edges
//   meeting at the far vertex) for any H / r; the ratio only sets how pointed the die is.
//   The solid is centrally symmetric: face j and face j + 5 are parallel, on opposite sides.
// Numbering, as on real dice: reading the zigzag of faces by increasing azimuth with the even
//   pole on top gives 0 7 4 1 6 9 2 5 8 3, so the even digits meet at T and the odd ones at B,
//   and opposite faces sum to 9. A digit is printed upright when its top points to its own
//   pole, so odd and even digits are upside down relative to each other. 6 and 9 carry an
//   underline. A printed 0 counts 10.
// Rounded edges: the die drawn is the Minkowski sum of the trapezohedron shrunk by `rounding`
//   with a ball of that radius, so its flat faces stay in the trapezohedron's planes (a die at
//   rest lies on a face's plane and the opposite face is horizontal), edges are cylinders and
//   corners spheres; it is emitted as one closed smooth triangle mesh.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "common.h"

namespace arbitre::tools::scenegen {

struct D10 {
  struct Face {
    std::array<int, 4> corners{};  // vertices: pole, right wing, far vertex, left wing
    Vec3 normal;                   // outward, unit
    Vec3 centre;                   // the kite's area centroid; the digit is centred here
    Vec3 up;                       // in the face, toward the pole: the digit's top
    Vec3 right;                    // cross(normal, up): the digit's reading direction
    int digit = 0;                 // printed 0..9
    int opposite = 0;              // the parallel face on the other side
    int value() const { return digit == 0 ? 10 : digit; }
  };

  double ring_radius = 0.008;       // r, metres
  double pole_height = 0.01;        // H
  double ring_height = 0;           // h
  double rounding = 0;              // radius of the rounded edges
  double inradius = 0;              // distance from the centre to every face plane
  std::array<Vec3, 12> vertices{};  // 0 = T, 1 = B, 2..6 upper ring, 7..11 lower ring
  std::array<Face, 10> faces{};
  std::vector<std::pair<int, int>> edges;  // vertex index pairs, 20 of them

  // A die of ring radius `ring_radius`, pole height `pole_ratio` x ring radius, edges rounded
  // with radius `rounding`.
  static D10 make(double ring_radius, double pole_ratio, double rounding);
  int face_of_digit(int digit) const;
  // The face whose outward normal, turned by `rotation`, points most upward.
  int top_face(const Mat3& rotation) const;
};

struct Mesh {
  std::vector<Vec3> points, normals;  // one normal per point
  std::vector<std::array<int, 3>> triangles;
};
// The rounded die as a closed mesh; each rounded edge is cut into `arc_steps` strips.
Mesh rounded_mesh(const D10& die, int arc_steps);
// `#declare name = mesh2 {...}` with smooth normals and an inside vector (usable in CSG).
std::string pov_mesh2(const Mesh& mesh, const std::string& name);

// A convex body in world coordinates, for contact and overlap tests.
struct ConvexBody {
  std::vector<Vec3> vertices;
  std::vector<std::pair<Vec3, double>> planes;  // outward unit normal n, offset d: n.p <= d inside
  std::vector<Vec3> edge_directions;            // edge directions
  std::vector<std::vector<int>> faces;          // vertex loops, in the planes' order
  std::vector<std::pair<int, int>> edges;       // vertex index pairs
};
ConvexBody posed_body(const D10& die, const Mat3& rotation, Vec3 translation);
ConvexBody box_body(const Mat3& rotation, Vec3 centre, Vec3 half_size);
// The largest gap between the bodies' projections over the separating-axis candidates (face
// normals of both, cross products of their edges): positive when they are apart (by at least
// that much), negative when they overlap.
double separation(const ConvexBody& a, const ConvexBody& b);
// The Euclidean distance between the bodies, 0 when they touch or overlap.
double distance(const ConvexBody& a, const ConvexBody& b);
// Whether the segment from `from` to `to` (excluding its last `end_margin` metres) passes
// through the body.
bool blocks(const ConvexBody& body, Vec3 from, Vec3 to, double end_margin);

// Checks the geometry (planar convex congruent kites, numbering, rest poses, closed mesh);
// writes one line per check to `report`; returns whether all passed.
bool d10_self_test(std::string& report);

}  // namespace arbitre::tools::scenegen
