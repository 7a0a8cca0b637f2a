#include "d10.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace arbitre::tools::scenegen {

namespace {

constexpr std::array<int, 10> kDigitAtAzimuth = {0, 7, 4, 1, 6, 9, 2, 5, 8, 3};
constexpr double kDeg = M_PI / 180.0;

int wrap_degrees(int a) {
  return ((a % 360) + 360) % 360;
}
int upper_ring(int azimuth) {
  return 2 + (wrap_degrees(azimuth) - 36) / 72;
}
int lower_ring(int azimuth) {
  return 7 + wrap_degrees(azimuth) / 72;
}

Vec3 triangle_centroid(Vec3 a, Vec3 b, Vec3 c) {
  return (a + b + c) * (1.0 / 3.0);
}
double triangle_area(Vec3 a, Vec3 b, Vec3 c) {
  return 0.5 * norm(cross(b - a, c - a));
}

Vec3 slerp(Vec3 a, Vec3 b, double t) {
  const double angle = std::acos(std::clamp(dot(a, b), -1.0, 1.0));
  if (angle < 1e-9) return a;
  const double s = std::sin(angle);
  return normalized(a * (std::sin((1 - t) * angle) / s) + b * (std::sin(t * angle) / s));
}

}  // namespace

D10 D10::make(double ring_radius, double pole_ratio, double rounding) {
  D10 die;
  const double c36 = std::cos(36 * kDeg);
  die.ring_radius = ring_radius;
  die.pole_height = pole_ratio * ring_radius;
  die.ring_height = die.pole_height * (1 - c36) / (1 + c36);
  die.rounding = rounding;
  die.vertices[0] = {0, die.pole_height, 0};
  die.vertices[1] = {0, -die.pole_height, 0};
  for (int i = 0; i < 5; ++i) {
    const double up = (36 + 72 * i) * kDeg, down = 72 * i * kDeg;
    die.vertices[2 + i] = {ring_radius * std::cos(up), die.ring_height, ring_radius * std::sin(up)};
    die.vertices[7 + i] = {ring_radius * std::cos(down), -die.ring_height,
                           ring_radius * std::sin(down)};
  }
  for (int j = 0; j < 10; ++j) {
    Face& face = die.faces[j];
    const int phi = 36 * j;
    int pole, wing_a, wing_b, far;
    if (j % 2 == 0) {
      pole = 0, wing_a = upper_ring(phi - 36), wing_b = upper_ring(phi + 36), far = lower_ring(phi);
    } else {
      pole = 1, wing_a = lower_ring(phi - 36), wing_b = lower_ring(phi + 36), far = upper_ring(phi);
    }
    const Vec3 p = die.vertices[pole], f = die.vertices[far];
    Vec3 n = normalized(cross(die.vertices[wing_a] - p, die.vertices[wing_b] - p));
    if (dot(n, p + f) < 0) n = -n;
    face.normal = n;
    face.up = normalized(p - f);
    face.right = cross(n, face.up);
    const bool a_is_right = dot(die.vertices[wing_a] - f, face.right) > 0;
    const int right = a_is_right ? wing_a : wing_b, left = a_is_right ? wing_b : wing_a;
    face.corners = {pole, right, far, left};
    const Vec3 r = die.vertices[right], l = die.vertices[left];
    const double a1 = triangle_area(p, r, f), a2 = triangle_area(p, f, l);
    face.centre =
        (triangle_centroid(p, r, f) * a1 + triangle_centroid(p, f, l) * a2) * (1.0 / (a1 + a2));
    face.digit = kDigitAtAzimuth[j];
    face.opposite = (j + 5) % 10;
  }
  die.inradius = dot(die.faces[0].normal, die.vertices[0]);
  for (const Face& face : die.faces) {
    for (int i = 0; i < 4; ++i) {
      const int a = face.corners[i], b = face.corners[(i + 1) % 4];
      const std::pair<int, int> edge{std::min(a, b), std::max(a, b)};
      if (std::find(die.edges.begin(), die.edges.end(), edge) == die.edges.end()) {
        die.edges.push_back(edge);
      }
    }
  }
  return die;
}

int D10::face_of_digit(int digit) const {
  for (int j = 0; j < 10; ++j) {
    if (faces[j].digit == digit) return j;
  }
  return -1;
}

int D10::top_face(const Mat3& rotation) const {
  int best = 0;
  for (int j = 1; j < 10; ++j) {
    if ((rotation * faces[j].normal).y > (rotation * faces[best].normal).y) best = j;
  }
  return best;
}

Mesh rounded_mesh(const D10& die, int arc_steps) {
  Mesh mesh;
  const double rho = die.rounding;
  const double shrink = (die.inradius - rho) / die.inradius;
  // Points are keyed by (vertex, direction key): face f's normal is key f, the inner samples of
  // the arc between the faces of edge e are 10 + e * arc_steps + j, a corner's centre 100000.
  std::map<std::pair<int, int>, int> index;
  const auto point = [&](int vertex, int key, Vec3 direction) {
    const auto [it, added] = index.try_emplace({vertex, key}, static_cast<int>(mesh.points.size()));
    if (added) {
      mesh.points.push_back(die.vertices[vertex] * shrink + direction * rho);
      mesh.normals.push_back(direction);
    }
    return it->second;
  };
  // Edges between faces: faces f < g sharing vertices a, b.
  struct FaceEdge {
    int f, g, a, b;
  };
  std::vector<FaceEdge> face_edges;
  for (int f = 0; f < 10; ++f) {
    for (int g = f + 1; g < 10; ++g) {
      std::vector<int> shared;
      for (int v : die.faces[f].corners) {
        const auto& cg = die.faces[g].corners;
        if (std::find(cg.begin(), cg.end(), v) != cg.end()) shared.push_back(v);
      }
      if (shared.size() == 2) face_edges.push_back({f, g, shared[0], shared[1]});
    }
  }
  // The arc from face f's normal to face g's: keys and directions, j = 0..arc_steps.
  const auto arc = [&](int e, int vertex, bool from_f) {
    const FaceEdge& fe = face_edges[e];
    std::vector<int> ids;
    for (int j = 0; j <= arc_steps; ++j) {
      const Vec3 nf = die.faces[fe.f].normal, ng = die.faces[fe.g].normal;
      const Vec3 direction = slerp(nf, ng, static_cast<double>(j) / arc_steps);
      const int key = j == 0 ? fe.f : j == arc_steps ? fe.g : 10 + e * arc_steps + j;
      ids.push_back(point(vertex, key, direction));
    }
    if (!from_f) std::reverse(ids.begin(), ids.end());
    return ids;
  };
  for (int f = 0; f < 10; ++f) {
    const auto& c = die.faces[f].corners;
    std::array<int, 4> ids{};
    for (int i = 0; i < 4; ++i) ids[i] = point(c[i], f, die.faces[f].normal);
    mesh.triangles.push_back({ids[0], ids[1], ids[2]});
    mesh.triangles.push_back({ids[0], ids[2], ids[3]});
  }
  for (int e = 0; e < static_cast<int>(face_edges.size()); ++e) {
    const auto at_a = arc(e, face_edges[e].a, true), at_b = arc(e, face_edges[e].b, true);
    for (int j = 0; j < arc_steps; ++j) {
      mesh.triangles.push_back({at_a[j], at_b[j], at_b[j + 1]});
      mesh.triangles.push_back({at_a[j], at_b[j + 1], at_a[j + 1]});
    }
  }
  for (int v = 0; v < 12; ++v) {
    // The faces round this corner, in angular order about its direction.
    const Vec3 axis = normalized(die.vertices[v]);
    const Vec3 t1 = normalized(cross(axis, std::abs(axis.y) < 0.9 ? Vec3{0, 1, 0} : Vec3{1, 0, 0}));
    const Vec3 t2 = cross(axis, t1);
    std::vector<std::pair<double, int>> around;
    Vec3 sum;
    for (int f = 0; f < 10; ++f) {
      const auto& c = die.faces[f].corners;
      if (std::find(c.begin(), c.end(), v) == c.end()) continue;
      const Vec3 d = die.faces[f].centre - die.vertices[v];
      around.push_back({std::atan2(dot(d, t2), dot(d, t1)), f});
      sum = sum + die.faces[f].normal;
    }
    std::sort(around.begin(), around.end());
    const int centre = point(v, 100000, normalized(sum));
    for (std::size_t i = 0; i < around.size(); ++i) {
      const int f = around[i].second, g = around[(i + 1) % around.size()].second;
      for (int e = 0; e < static_cast<int>(face_edges.size()); ++e) {
        const FaceEdge& fe = face_edges[e];
        if (!((fe.f == f && fe.g == g) || (fe.f == g && fe.g == f))) continue;
        const auto ids = arc(e, v, fe.f == f);
        for (int j = 0; j < arc_steps; ++j) mesh.triangles.push_back({centre, ids[j], ids[j + 1]});
      }
    }
  }
  return mesh;
}

std::string pov_mesh2(const Mesh& mesh, const std::string& name) {
  std::ostringstream s;
  s.precision(8);
  s << "#declare " << name << " = mesh2 {\n vertex_vectors { " << mesh.points.size();
  for (const Vec3& p : mesh.points) s << ", " << pov(p);
  s << " }\n normal_vectors { " << mesh.normals.size();
  for (const Vec3& n : mesh.normals) s << ", <" << n.x << ", " << n.y << ", " << n.z << ">";
  s << " }\n face_indices { " << mesh.triangles.size();
  for (const auto& t : mesh.triangles) s << ", <" << t[0] << ", " << t[1] << ", " << t[2] << ">";
  s << " }\n inside_vector <0.2718, 0.9003, 0.3397>\n}\n";
  return s.str();
}

ConvexBody posed_body(const D10& die, const Mat3& rotation, Vec3 translation) {
  ConvexBody body;
  for (const Vec3& v : die.vertices) body.vertices.push_back(rotation * v + translation);
  for (const auto& face : die.faces) {
    const Vec3 n = rotation * face.normal;
    body.planes.push_back({n, die.inradius + dot(n, translation)});
    body.faces.push_back({face.corners.begin(), face.corners.end()});
  }
  for (const auto& [a, b] : die.edges) {
    body.edge_directions.push_back(normalized(rotation * (die.vertices[b] - die.vertices[a])));
    body.edges.push_back({a, b});
  }
  return body;
}

ConvexBody box_body(const Mat3& rotation, Vec3 centre, Vec3 half_size) {
  ConvexBody body;
  const Vec3 ax = rotation.column(0), ay = rotation.column(1), az = rotation.column(2);
  for (const double sx : {-1.0, 1.0}) {
    for (const double sy : {-1.0, 1.0}) {
      for (const double sz : {-1.0, 1.0}) {
        body.vertices.push_back(centre + ax * (sx * half_size.x) + ay * (sy * half_size.y) +
                                az * (sz * half_size.z));
      }
    }
  }
  const std::array<std::pair<Vec3, double>, 3> axes = {
      {{ax, half_size.x}, {ay, half_size.y}, {az, half_size.z}}};
  for (const auto& [axis, half] : axes) {
    body.planes.push_back({axis, dot(axis, centre) + half});
    body.planes.push_back({-axis, -dot(axis, centre) + half});
    body.edge_directions.push_back(axis);
  }
  // Vertex i has bits (sx, sy, sz) = (i >> 2, i >> 1, i) & 1, in the planes' order.
  body.faces = {{4, 5, 7, 6}, {0, 1, 3, 2}, {2, 3, 7, 6}, {0, 1, 5, 4}, {1, 3, 7, 5}, {0, 2, 6, 4}};
  for (int i = 0; i < 8; ++i) {
    for (int bit : {1, 2, 4}) {
      if (!(i & bit)) body.edges.push_back({i, i | bit});
    }
  }
  return body;
}

double separation(const ConvexBody& a, const ConvexBody& b) {
  double best = -1e9;
  const auto test = [&](Vec3 axis) {
    double amin = 1e9, amax = -1e9, bmin = 1e9, bmax = -1e9;
    for (const Vec3& v : a.vertices) {
      const double p = dot(v, axis);
      amin = std::min(amin, p), amax = std::max(amax, p);
    }
    for (const Vec3& v : b.vertices) {
      const double p = dot(v, axis);
      bmin = std::min(bmin, p), bmax = std::max(bmax, p);
    }
    best = std::max(best, std::max(bmin - amax, amin - bmax));
  };
  for (const auto& [n, d] : a.planes) test(n);
  for (const auto& [n, d] : b.planes) test(n);
  for (const Vec3& ea : a.edge_directions) {
    for (const Vec3& eb : b.edge_directions) {
      const Vec3 c = cross(ea, eb);
      if (norm(c) > 1e-6) test(normalized(c));
    }
  }
  return best;
}

namespace {

// The distance between segments [p0, p1] and [q0, q1].
double segment_distance(Vec3 p0, Vec3 p1, Vec3 q0, Vec3 q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  double s = 0, t = 0;
  const double c = dot(d1, r), b = dot(d1, d2), denom = a * e - b * b;
  s = denom > 1e-20 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0, s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1, s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  return norm((p0 + d1 * s) - (q0 + d2 * t));
}

// The distance from p to the body's faces where p projects inside a face, else infinity.
double face_distance(Vec3 p, const ConvexBody& body) {
  double best = 1e9;
  for (std::size_t f = 0; f < body.faces.size(); ++f) {
    const auto& [n, offset] = body.planes[f];
    const auto& loop = body.faces[f];
    int positive = 0, negative = 0;
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Vec3 a = body.vertices[loop[i]], b = body.vertices[loop[(i + 1) % loop.size()]];
      const double side = dot(cross(b - a, p - a), n);
      (side >= 0 ? positive : negative) += 1;
    }
    if (positive == 0 || negative == 0) best = std::min(best, std::abs(dot(n, p) - offset));
  }
  return best;
}

}  // namespace

double distance(const ConvexBody& a, const ConvexBody& b) {
  if (separation(a, b) <= 0) return 0;
  double best = 1e9;
  for (const auto& [a0, a1] : a.edges) {
    for (const auto& [b0, b1] : b.edges) {
      best = std::min(
          best, segment_distance(a.vertices[a0], a.vertices[a1], b.vertices[b0], b.vertices[b1]));
    }
  }
  for (const Vec3& p : a.vertices) best = std::min(best, face_distance(p, b));
  for (const Vec3& p : b.vertices) best = std::min(best, face_distance(p, a));
  return best;
}

bool blocks(const ConvexBody& body, Vec3 from, Vec3 to, double end_margin) {
  const Vec3 d = to - from;
  double t0 = 0, t1 = 1 - end_margin / norm(d);
  for (const auto& [n, offset] : body.planes) {
    const double start = dot(n, from) - offset;  // <= 0 inside
    const double rate = dot(n, d);
    if (std::abs(rate) < 1e-15) {
      if (start > 0) return false;
      continue;
    }
    const double t = -start / rate;
    if (rate > 0)
      t1 = std::min(t1, t);
    else
      t0 = std::max(t0, t);
    if (t0 >= t1) return false;
  }
  return t0 < t1;
}

bool d10_self_test(std::string& report) {
  std::ostringstream out;
  bool all = true;
  const auto check = [&](bool ok, const std::string& what) {
    out << (ok ? "ok   " : "FAIL ") << what << "\n";
    all = all && ok;
  };
  for (const double ratio : {1.15, 1.25, 1.35, 1.809017}) {
    const D10 die = D10::make(0.008, ratio, 0.0005);
    char title[64];
    std::snprintf(title, sizeof title, "[pole/ring %.3f] ", ratio);
    const std::string t = title;
    const double eps = 1e-12;
    bool planar = true, convex = true;
    for (const auto& face : die.faces) {
      for (int v : face.corners) {
        planar = planar && std::abs(dot(face.normal, die.vertices[v]) - die.inradius) < eps;
      }
      for (const Vec3& v : die.vertices)
        convex = convex && dot(face.normal, v) < die.inradius + eps;
    }
    check(planar, t + "every face's 4 corners lie in its plane, all planes at the inradius");
    check(convex, t + "convex: every vertex is on or behind every face plane");
    check(die.edges.size() == 20 && 12 - 20 + 10 == 2, t + "12 vertices, 20 edges, 10 faces");
    // Congruent kites: the same long and short edges and diagonals on every face.
    const auto measures = [&](const D10::Face& f) {
      const auto v = [&](int i) { return die.vertices[f.corners[i]]; };
      return std::array<double, 6>{norm(v(1) - v(0)), norm(v(3) - v(0)), norm(v(2) - v(1)),
                                   norm(v(2) - v(3)), norm(v(2) - v(0)), norm(v(3) - v(1))};
    };
    const auto m0 = measures(die.faces[0]);
    bool kites = std::abs(m0[0] - m0[1]) < eps && std::abs(m0[2] - m0[3]) < eps && m0[0] > m0[2];
    bool congruent = true;
    for (const auto& face : die.faces) {
      const auto m = measures(face);
      for (int i = 0; i < 6; ++i) congruent = congruent && std::abs(m[i] - m0[i]) < eps;
    }
    check(kites, t + "faces are kites: two long edges at the pole, two short at the far vertex");
    check(congruent, t + "the ten kites are congruent (edges and diagonals equal)");
    bool opposite = true, poles = true, order = true, frames = true;
    for (int j = 0; j < 10; ++j) {
      const auto& face = die.faces[j];
      const auto& other = die.faces[face.opposite];
      opposite = opposite && face.digit + other.digit == 9 &&
                 norm(face.normal + other.normal) < eps && other.opposite == j;
      poles = poles && face.corners[0] == (face.digit % 2 == 0 ? 0 : 1);
      // Reading the zigzag by azimuth goes left to right for a viewer facing the die, even pole up.
      const double phi = 36 * j * kDeg;
      const Vec3 viewer_right{-std::sin(phi), 0, std::cos(phi)};
      order = order && dot(die.faces[(j + 1) % 10].centre - face.centre, viewer_right) > 0;
      // The digit's frame: up toward its pole, a proper rotation (the glyph is not mirrored).
      const Vec3 to_pole = die.vertices[face.corners[0]] - face.centre;
      const double det = dot(face.right, cross(face.up, -face.normal));
      frames = frames && dot(face.up, to_pole) > 0.99 * norm(to_pole) && std::abs(det - 1) < 1e-9 &&
               std::abs(dot(face.up, face.normal)) < eps;
    }
    check(opposite, t + "opposite faces are parallel and their digits sum to 9");
    check(poles, t + "even digits meet at one pole, odd digits at the other");
    check(order, t + "zigzag order 0 7 4 1 6 9 2 5 8 3 left to right with the even pole up");
    check(frames, t + "each digit's top points to its own pole; glyph frames are rotations");
    // At rest on any face, with any yaw, the opposite face is up and horizontal.
    bool rest = true;
    for (int j = 0; j < 10; ++j) {
      for (const double yaw : {0.0, 1.0, 2.5}) {
        const Mat3 r = Mat3::yaw(yaw) * Mat3::align(die.faces[j].normal, {0, -1, 0});
        const auto& up = die.faces[die.faces[j].opposite];
        double top = -1e9, bottom = 1e9;
        for (const Vec3& v : die.vertices) {
          top = std::max(top, (r * v).y), bottom = std::min(bottom, (r * v).y);
        }
        bool flat = norm(r * up.normal - Vec3{0, 1, 0}) < 1e-12;
        for (int v : up.corners) flat = flat && std::abs((r * die.vertices[v]).y - top) < eps;
        for (int v : die.faces[j].corners) {
          flat = flat && std::abs((r * die.vertices[v]).y - bottom) < eps;
        }
        rest = rest && flat && die.top_face(r) == die.faces[j].opposite &&
               std::abs(top - die.inradius) < eps;
      }
    }
    check(rest,
          t + "resting on any face, the opposite face is the top, horizontal, at the inradius");
    // The rounded mesh: closed, inside the sharp solid, its flat faces in the face planes.
    const Mesh mesh = rounded_mesh(die, 4);
    std::map<std::pair<int, int>, int> uses;
    for (const auto& tri : mesh.triangles) {
      for (int i = 0; i < 3; ++i) {
        const int a = tri[i], b = tri[(i + 1) % 3];
        ++uses[{std::min(a, b), std::max(a, b)}];
      }
    }
    bool closed = true;
    for (const auto& [edge, n] : uses) closed = closed && n == 2;
    bool inside = true;
    for (const Vec3& p : mesh.points) {
      for (const auto& face : die.faces)
        inside = inside && dot(face.normal, p) < die.inradius + eps;
    }
    const std::size_t expected_points = 40 + 20 * 2 * 3 + 12;
    check(closed && mesh.points.size() == expected_points,
          t + "rounded mesh is closed (every edge shared by two triangles)");
    check(inside, t + "rounded mesh lies within the sharp trapezohedron");
    // Contact tests.
    const ConvexBody a = posed_body(die, Mat3{}, {0, 0, 0});
    const ConvexBody far = posed_body(die, Mat3::yaw(0.3), {0.05, 0, 0});
    const ConvexBody near = posed_body(die, Mat3::yaw(0.3), {0.004, 0, 0});
    const ConvexBody box = box_body(Mat3{}, {0.1, 0, 0}, {0.01, 0.02, 0.03});
    const double gap = 0.1 - 0.01 - die.ring_radius;  // box face to the ring vertex at azimuth 0
    check(std::abs(distance(a, box) - gap) < 1e-12 && distance(a, near) == 0 &&
              std::abs(distance(a, posed_body(die, Mat3{}, {0, 0.05, 0})) -
                       (0.05 - 2 * die.pole_height)) < 1e-12,
          t + "exact distances (die to box face, pole to pole)");
    check(separation(a, far) > 0 && separation(a, near) < 0 &&
              blocks(a, {0, 0.1, 0}, {0, -0.1, 0}, 0) &&
              !blocks(a, {0.1, 0.1, 0}, {0.1, -0.1, 0}, 0),
          t + "separating-axis and segment tests");
  }
  report = out.str();
  return all;
}

}  // namespace arbitre::tools::scenegen
