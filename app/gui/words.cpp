#include "app/gui/words.h"

#include <wx/intl.h>

#include <type_traits>

#include "referee/yams/dice.h"

namespace arbitre::gui {
namespace {

wxString from_utf8(std::string_view text) {
  return wxString::FromUTF8(text.data(), text.size());
}

wxString box_name(s::ry::Box box) {
  return from_utf8(s::ry::display_name(box));
}

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};

}  // namespace

wxString colour_name(s::ri::Colour colour) {
  switch (colour) {
    case s::ri::Colour::Red:
      return _("red");
    case s::ri::Colour::Orange:
      return _("orange");
    case s::ri::Colour::Green:
      return _("green");
    case s::ri::Colour::White:
      return _("white");
  }
  return {};
}

wxString series_name(s::ri::SeriesKind kind) {
  switch (kind) {
    // TRANSLATORS: Irma series keep their French names where the rules do (paire, brelan, suite).
    case s::ri::SeriesKind::Pair:
      return _("pair");
    case s::ri::SeriesKind::Brelan:
      return _("brelan");
    case s::ri::SeriesKind::Suite:
      return _("suite");
  }
  return {};
}

wxString cell_text(s::ri::Cell cell) {
  return wxString::Format("%d,%d", cell.row, cell.col);
}

wxString irma_reason(std::string_view code, const std::string& fallback) {
  if (code == "not-adjacent") return _("the pion must touch a pion already down");
  if (code == "occupied") return _("the cell is already taken");
  if (code == "outside-rectangle") return _("the pion would leave the 5x7 rectangle");
  if (code == "carre") return _("four in a row (a carré) is forbidden");
  if (code == "repeated-series") return _("a series cannot repeat the kind of the last one scored");
  if (code == "white-next-to-white") return _("two white pions may not touch");
  if (code == "game-over") return _("the game is over");
  if (code == "not-blocked") return _("the pion has a legal cell: the game is not blocked");
  if (code == "pion-in-hand") return _("the refused pion must be placed again first");
  if (code == "not-the-draw") return _("this is not the colour to place now");
  if (code == "bag-empty") return _("the bag has no pion of this colour left");
  return fallback.empty() ? from_utf8(code) : from_utf8(fallback);
}

wxString yams_reason(std::string_view code, const std::string& fallback) {
  if (code == "game-over") return _("the game is over");
  if (code == "too-many-rolls") return _("no roll is left in this turn");
  if (code == "keep-on-first-roll") return _("the first roll throws all ten dice");
  if (code == "kept-die-changed") return _("a die set aside shows another face");
  if (code == "die-swapped") return _("a die changed colour: it is not the same die");
  if (code == "die-unkept") return _("a die set aside was rolled again");
  if (code == "bad-dice") return _("the dice must be five red and five white");
  if (code == "no-roll-yet") return _("roll the dice first");
  if (code == "declare-after-fifth-roll")
    return _("a sixth roll is declared after the fifth roll only");
  if (code == "not-declarable") return _("this box cannot be declared");
  if (code == "already-declared") return _("a box is already declared");
  if (code == "box-filled") return _("this box is already filled");
  if (code == "declared-box-only") return _("only the declared box may be filled");
  if (code == "sixth-roll-pending") return _("the declared sixth roll has not been rolled yet");
  return fallback.empty() ? from_utf8(code) : from_utf8(fallback);
}

wxString describe(const s::Event& event) {
  return std::visit(
      Overloaded{
          [](const s::Started& e) -> wxString {
            if (e.resumed)
              return wxString::Format(_("Game resumed (%lld events replayed); %s to play"),
                                      static_cast<long long>(e.replayed), from_utf8(e.to_move));
            return wxString::Format(_("New game; %s to play"), from_utf8(e.to_move));
          },
          [](const s::Unstable&) -> wxString { return {}; },
          [](const s::Stable&) -> wxString { return {}; },
          [](const s::BoardChanged& e) -> wxString {
            return wxString::Format(_("The table does not match the game: %zu pions more, %zu "
                                      "missing, %zu of another colour"),
                                    e.added.size(), e.removed.size(), e.recoloured.size());
          },
          [](const s::DiceUnreadable& e) -> wxString {
            if (e.reason == "cocked") return _("A die is cocked: roll it again");
            if (e.reason == "refused")
              return _(
                  "Roll refused: the camera may have misread a die; correct it, or roll again");
            if (e.reason == "count")
              return wxString::Format(_("%d dice seen, ten expected"), e.seen);
            if (e.reason == "colours")
              return wxString::Format(_("%zu dice of one colour seen, five of each expected"),
                                      e.dice.size());
            return _("Some dice cannot be read");
          },
          [](const s::CameraAdvice& e) -> wxString {
            if (e.past)
              return wxString::Format(
                  _("The camera looks about %d° from overhead: dice are read surest within %d°"),
                  e.degrees, e.surest_within);
            // TRANSLATORS: the camera, moved, is now near enough overhead; the number is the
            // angle in degrees from straight overhead within which dice are read surest.
            return wxString::Format(_("The camera is within %d° of overhead: dice are read surest"),
                                    e.surest_within);
          },
          [](const s::CameraLost& e) -> wxString {
            return wxString::Format(_("Camera lost (%s); the game is kept, waiting for it"),
                                    from_utf8(e.error));
          },
          [](const s::CameraReconnected&) -> wxString {
            return _("Camera back; the game goes on");
          },
          [](const s::Accepted& e) -> wxString {
            if (!e.move.cell)
              return wxString::Format(_("%s: blocked with a %s pion"), from_utf8(e.player),
                                      colour_name(e.move.colour));
            wxString line = wxString::Format(_("%s: %s pion at %s"), from_utf8(e.player),
                                             colour_name(e.move.colour), cell_text(*e.move.cell));
            if (e.marker)
              line += wxString::Format(_(" — %s %s: +%d"), series_name(*e.marker),
                                       colour_name(e.move.colour), s::ri::marker_value(*e.marker));
            line += wxString::Format(_(" (score %d)"), e.score);
            return line;
          },
          [](const s::Refused& e) -> wxString {
            const wxString why =
                e.yams ? yams_reason(e.reason, e.message) : irma_reason(e.reason, e.message);
            if (e.irma && e.irma->cell)
              // TRANSLATORS: player, colour, cell, then why the referee refused the placement.
              return wxString::Format(_("%s: %s pion at %s refused — %s"), from_utf8(e.player),
                                      colour_name(e.irma->colour), cell_text(*e.irma->cell), why);
            // TRANSLATORS: a move the referee refused, then why.
            return wxString::Format(_("Refused: %s"), why);
          },
          [](const s::Corrected& e) -> wxString {
            wxString line = wxString::Format(_("Correction: %s"), from_utf8(e.fix));
            if (!e.legal) line += wxString::Format(_(" — now refused: %s"), irma_reason(e.reason));
            return line;
          },
          [](const s::Undone& e) -> wxString {
            return wxString::Format(_("Undone: %s"), from_utf8(e.undid));
          },
          [](const s::Redone& e) -> wxString {
            // TRANSLATORS: the log line of a redo; %s is what was done again ("red 2,3", "box
            // brelan").
            return wxString::Format(_("Redone: %s"), from_utf8(e.redid));
          },
          [](const s::Rolled& e) -> wxString {
            wxString line = wxString::Format(_("%s: roll %d: %s"), from_utf8(e.player), e.roll,
                                             from_utf8(s::ry::to_text(e.dice)));
            if (e.best)
              line +=
                  wxString::Format(_(" — best box now: %s (%d)"), box_name(*e.best), e.best_points);
            return line;
          },
          [](const s::Declared& e) -> wxString {
            return wxString::Format(_("%s declares a sixth roll for %s"), from_utf8(e.player),
                                    box_name(e.box));
          },
          [](const s::Filled& e) -> wxString {
            wxString line =
                wxString::Format(_("%s: %s: +%d"), from_utf8(e.player), box_name(e.box), e.points);
            if (e.first_roll) line += _(" (first roll)");
            if (e.sixth_success)
              line += *e.sixth_success ? _(" (sixth roll made)") : _(" (sixth roll missed)");
            return line;
          },
          [](const s::SheetUpdate& e) -> wxString {
            if (e.next.empty())
              return wxString::Format(_("%s: total %d"), from_utf8(e.player), e.totals.grand);
            return wxString::Format(_("%s: total %d; %s to play"), from_utf8(e.player),
                                    e.totals.grand, from_utf8(e.next));
          },
          [](const s::PlayerOver& e) -> wxString {
            wxString line;
            if (e.completed)
              line = wxString::Format(_("%s completed the rectangle: %d points (bonus %d)"),
                                      from_utf8(e.player), e.score, e.bonus);
            else
              line = wxString::Format(_("%s is blocked: %d points"), from_utf8(e.player), e.score);
            if (!e.next.empty()) line += wxString::Format(_("; %s plays now"), from_utf8(e.next));
            return line;
          },
          [](const s::GameOver& e) -> wxString {
            wxString line = _("Game over:");
            for (const s::FinalScore& score : e.scores)
              line += wxString::Format(" %s %d;", from_utf8(score.player), score.score);
            if (e.winner)
              line += wxString::Format(_(" %s wins"), from_utf8(*e.winner));
            else
              line += _(" a tie");
            return line;
          },
          [](const s::CommandRefused& e) -> wxString {
            return wxString::Format(_("Command “%s” refused: %s"), from_utf8(e.command),
                                    from_utf8(e.message));
          },
          [](const s::Stopped& e) -> wxString {
            return wxString::Format(_("Stopped (%s)"), from_utf8(e.reason));
          },
      },
      event);
}

}  // namespace arbitre::gui
