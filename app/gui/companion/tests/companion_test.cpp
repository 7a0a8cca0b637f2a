// The companion windows under a virtual X server: a temporary store filled through the import
// path of `arbitre import`, the history window checked against the store and the referee, the
// sheet exports, the calibration assistant driven to its save and read back the way `arbitre
// watch` reads it, and screenshots in English and French.
#include <gtest/gtest.h>
#include <zlib.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <wx/app.h>
#include <wx/dcmemory.h>
#include <wx/filename.h>
#include <wx/image.h>
#include <wx/init.h>
#include <wx/log.h>
#include <wx/numformatter.h>
#include <wx/translation.h>
#include <wx/uiaction.h>
#include <wx/debug.h>
#include <wx/utils.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <thread>

#include "app/gui/companion/calibration.h"
#include "app/gui/companion/history.h"
#include "app/gui/screen_grab.h"
#include "app/gui/companion/pdf_image.h"
#include "app/session/calibration.h"
#include "app/session/game_log.h"
#include "data/irma/record_json.h"
#include "data/yams/record_json.h"
#include "referee/irma/record.h"
#include "scoring/irma/score.h"
#include "scoring/yams/sheet.h"

namespace fs = std::filesystem;
namespace c = arbitre::app::gui::companion;
namespace ds = arbitre::data::store;
namespace s = arbitre::app::session;
namespace ri = arbitre::referee::irma;
namespace ry = arbitre::referee::yams;

namespace {

const std::string kSource = ARBITRE_SOURCE_DIR;
const std::string kIrmaDemo = kSource + "/data/demo/irma-demo.json";
const std::string kYamsDemo = kSource + "/data/demo/yams-demo.json";
std::string g_language = "en";

// Lets the windows lay out and paint.
void pump(int ms = 300) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    wxTheApp->Yield(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("arbitre-companion-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The window as it is on the (virtual) screen, as ${build}/tests/gui/screenshots/LANG/companion-NAME.png
// (the layout of the main window's GUI test, which tests/gui/copy_screenshots.cmake copies).
void screenshot(wxTopLevelWindow& window, const std::string& name) {
  window.Raise();
  window.Refresh();
  window.Update();
  pump(400);
  const wxImage image = arbitre::gui::grab_screen(window.GetScreenRect());
  ASSERT_TRUE(image.IsOk()) << "cannot read the screen";
  const fs::path dir = fs::path(ARBITRE_SCREENSHOT_DIR) / g_language;
  fs::create_directories(dir);
  const fs::path path = dir / ("companion-" + name + ".png");
  ASSERT_TRUE(image.SaveFile(wxString(path.string()), wxBITMAP_TYPE_PNG)) << path;
  // A screenshot of nothing (a black or uniform screen) is a failure, not a picture.
  std::set<unsigned> colours;
  for (int y = 0; y < image.GetHeight(); y += 7) {
    for (int x = 0; x < image.GetWidth(); x += 7) {
      colours.insert((image.GetRed(x, y) << 16) | (image.GetGreen(x, y) << 8) | image.GetBlue(x, y));
    }
  }
  EXPECT_GT(colours.size(), 20u) << path << " looks empty";
  // Each picture is of what was asked, not a stale one: no two screenshots are alike.
  static std::set<std::string> seen;
  std::ostringstream bytes;
  for (int y = 0; y < image.GetHeight(); y += 3) {
    for (int x = 0; x < image.GetWidth(); x += 3) bytes << image.GetRed(x, y) << image.GetGreen(x, y) << image.GetBlue(x, y);
  }
  EXPECT_TRUE(seen.insert(bytes.str()).second) << path << " is the same picture as an earlier screenshot";
}

int pixels_near(const wxImage& image, const wxColour& colour, int tolerance = 40) {
  int count = 0;
  for (int y = 0; y < image.GetHeight(); ++y) {
    for (int x = 0; x < image.GetWidth(); ++x) {
      if (std::abs(image.GetRed(x, y) - colour.Red()) + std::abs(image.GetGreen(x, y) - colour.Green()) +
              std::abs(image.GetBlue(x, y) - colour.Blue()) <=
          tolerance) {
        ++count;
      }
    }
  }
  return count;
}

int non_white(const wxImage& image) { return image.GetWidth() * image.GetHeight() - pixels_near(image, *wxWHITE, 30); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A store with: the Irma demo twice (finished), the Yams demo twice (finished), and the Irma
// demo's first ten events (running) -- through the import of `arbitre import`.
struct Games {
  std::string db;
  ds::GameId irma = 0, yams = 0, running = 0;
};

Games fill_store(const fs::path& dir) {
  Games out;
  out.db = (dir / "arbitre.db").string();
  ds::Store store = ds::Store::open(out.db);
  const s::PreparedImport irma = s::prepare_import(kIrmaDemo);
  const s::PreparedImport yams = s::prepare_import(kYamsDemo);
  s::store_import(store, irma);
  s::store_import(store, yams);
  out.irma = s::store_import(store, irma);
  out.yams = s::store_import(store, yams);
  s::PreparedImport partial = irma;
  partial.events.resize(10);
  partial.over = false;
  partial.results.clear();
  out.running = s::store_import(store, partial);
  return out;
}

class Companion : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name() + g_language);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

}  // namespace

TEST_F(Companion, HistoryListsTheStoreAndReplaysStepByStep) {
  const Games games = fill_store(dir_);
  ds::Store store = ds::Store::open(games.db);
  auto* frame = new c::HistoryFrame(nullptr, games.db);
  frame->Show();
  pump();

  // The list: every game, newest first, as the store lists them.
  const std::vector<ds::Game> stored = store.list_games();
  ASSERT_EQ(frame->game_count(), static_cast<int>(stored.size()));
  ASSERT_EQ(stored.size(), 5u);
  for (int row = 0; row < frame->game_count(); ++row) {
    EXPECT_EQ(static_cast<ds::GameId>(frame->games_list().GetItemData(row)), stored[static_cast<std::size_t>(row)].id);
  }

  // Irma: the last step is the stored result; every earlier step is the referee's score after
  // that many moves of the record.
  ASSERT_TRUE(frame->select_game(games.irma));
  const ds::Game irma_game = store.game(games.irma);
  ASSERT_EQ(frame->steps(), static_cast<std::size_t>(irma_game.event_count));
  EXPECT_EQ(frame->step(), frame->steps());
  ASSERT_EQ(frame->sheet().irma.size(), 1u);
  EXPECT_EQ(frame->sheet().irma[0].score, *irma_game.seats[0].score);
  EXPECT_EQ(frame->sheet().irma[0].score, 54);  // the demo's ground truth

  const arbitre::data::irma::GameRecord record = arbitre::data::irma::load_record(kIrmaDemo);
  std::vector<int> scores;
  std::vector<bool> legal;
  std::vector<std::string> reasons;
  ri::State state;
  ri::replay(record.players[0].record, state, [&](const ri::Move&, const ri::Verdict& v, const ri::State& after) {
    scores.push_back(arbitre::scoring::irma::score(after));
    legal.push_back(v.legal());
    reasons.emplace_back(ri::to_string(v.reason));
  });
  ASSERT_EQ(scores.size(), frame->steps());
  for (const std::size_t k : {std::size_t{1}, std::size_t{7}, std::size_t{20}, scores.size() / 2, scores.size() - 1}) {
    ASSERT_TRUE(frame->step_to(k));
    EXPECT_EQ(frame->sheet().irma[0].score, scores[k - 1]) << "step " << k;
    EXPECT_EQ(frame->sheet().irma[0].moves.size(), k);
    EXPECT_EQ(frame->sheet().irma[0].moves.back().legal, legal[k - 1]) << "step " << k;
    EXPECT_TRUE(frame->step_text().Contains(wxString::Format("%zu", k))) << frame->step_text();
    // The step says what the event was: a refusal with the referee's reason.
    EXPECT_EQ(frame->step_text().Contains("(" + reasons[k - 1] + ")"), !legal[k - 1]) << frame->step_text();
  }
  ASSERT_FALSE(legal[6]);  // the demo's seventh move is a refused try (repeated-series)
  // Previous and next move one event.
  ASSERT_TRUE(frame->step_to(12));
  ASSERT_TRUE(frame->previous_step());
  EXPECT_EQ(frame->step(), 11u);
  EXPECT_EQ(frame->sheet().irma[0].score, scores[10]);
  ASSERT_TRUE(frame->next_step());
  ASSERT_TRUE(frame->next_step());
  EXPECT_EQ(frame->step(), 13u);
  EXPECT_EQ(frame->sheet().irma[0].score, scores[12]);
  ASSERT_TRUE(frame->step_to(0));
  EXPECT_TRUE(frame->sheet().irma[0].moves.empty());
  EXPECT_FALSE(frame->previous_step());
  ASSERT_TRUE(frame->step_to(20));
  screenshot(*frame, "history-irma");

  // Yams: each player's sheet, 34 boxes and totals; a middle step is the referee's sheet after
  // that many moves.
  ASSERT_TRUE(frame->select_game(games.yams));
  const ds::Game yams_game = store.game(games.yams);
  const c::SheetModel& last = frame->sheet();
  ASSERT_EQ(last.yams.size(), yams_game.seats.size());
  for (std::size_t p = 0; p < last.yams.size(); ++p) {
    EXPECT_EQ(last.yams[p].name, yams_game.seats[p].name);
    EXPECT_EQ(last.yams[p].totals.grand, *yams_game.seats[p].score);
    int filled = 0;
    for (const auto& box : last.yams[p].boxes) filled += box.has_value();
    EXPECT_EQ(filled, ry::kBoxCount);
  }
  const arbitre::data::yams::GameRecord yams_record = arbitre::data::yams::load_record(kYamsDemo);
  ASSERT_EQ(yams_record.moves.size(), frame->steps());
  const std::size_t middle = frame->steps() / 2;
  ry::State yams_state = ry::initial_state(yams_record.options, static_cast<int>(yams_record.players.size()));
  for (std::size_t k = 0; k < middle; ++k) ry::play(yams_state, yams_record.moves[k].move);
  ASSERT_TRUE(frame->step_to(middle));
  for (std::size_t p = 0; p < yams_record.players.size(); ++p) {
    const auto totals = arbitre::scoring::yams::totals(yams_state.sheets[p]);
    EXPECT_EQ(frame->sheet().yams[p].totals.grand, totals.grand) << "player " << p << " step " << middle;
    EXPECT_GT(totals.grand, 0);
  }
  screenshot(*frame, "history-yams");

  // The running game replays to its tenth event.
  ASSERT_TRUE(frame->select_game(games.running));
  EXPECT_EQ(frame->steps(), 10u);
  EXPECT_EQ(frame->sheet().irma[0].moves.size(), 10u);
  EXPECT_TRUE(frame->problem().empty()) << frame->problem();

  // Records: as the store computes them.
  const std::vector<ds::PlayerRecord> records = store.records();
  frame->show_page(c::HistoryFrame::Page::Records);
  ASSERT_EQ(frame->records_list().GetItemCount(), static_cast<int>(records.size()));
  for (std::size_t r = 0; r < records.size(); ++r) {
    const long row = static_cast<long>(r);
    EXPECT_EQ(frame->records_list().GetItemText(row, 0), wxString::FromUTF8(records[r].player));
    EXPECT_EQ(frame->records_list().GetItemText(row, 2), wxString::Format("%d", records[r].games));
    EXPECT_EQ(frame->records_list().GetItemText(row, 3), wxString::Format("%d", records[r].finished));
    ASSERT_TRUE(records[r].best.has_value());
    EXPECT_EQ(frame->records_list().GetItemText(row, 4), wxString::Format("%lld", static_cast<long long>(*records[r].best)));
    EXPECT_EQ(frame->records_list().GetItemText(row, 5), wxNumberFormatter::ToString(*records[r].average, 1));
    EXPECT_EQ(frame->records_list().GetItemText(row, 6),
              wxString::Format("%d%%", static_cast<int>(records[r].completion_rate * 100 + 0.5)));
    if (records[r].kind == ds::GameKind::Irma) {
      EXPECT_EQ(records[r].games, 3);  // two finished, one running
      EXPECT_EQ(frame->records_list().GetItemText(row, 4), "54");
      EXPECT_EQ(frame->records_list().GetItemText(row, 6), "67%");
    }
  }
  screenshot(*frame, "history-records");

  // The chart: one series per player of the kind, one point per finished game, each drawn.
  frame->show_page(c::HistoryFrame::Page::Chart);
  frame->show_chart(ds::GameKind::Yams);
  ASSERT_EQ(frame->chart().series().size(), yams_game.seats.size());
  for (std::size_t i = 0; i < frame->chart().series().size(); ++i) {
    EXPECT_EQ(frame->chart().series()[i].points.size(), 2u);
  }
  const wxImage chart = frame->chart().render(wxSize(800, 500)).ConvertToImage();
  for (std::size_t i = 0; i < frame->chart().series().size(); ++i) {
    EXPECT_GT(pixels_near(chart, c::ScoreChart::series_colour(i), 30), 150) << "series " << i << " not drawn";
  }
  screenshot(*frame, "history-chart");
  frame->show_chart(ds::GameKind::Irma);
  EXPECT_EQ(frame->chart().series().size(), 1u);
  EXPECT_EQ(frame->chart().series()[0].points.size(), 2u);  // the running game is not a point

  frame->Destroy();
  pump(100);
}

TEST_F(Companion, ExportsTheSheetAsPngPdfAndPrintout) {
  const Games games = fill_store(dir_);
  auto* frame = new c::HistoryFrame(nullptr, games.db);
  ASSERT_TRUE(frame->select_game(games.yams));

  const fs::path png = dir_ / "sheet.png";
  ASSERT_EQ(frame->export_png(wxString(png.string())), wxString());
  wxImage image;
  ASSERT_TRUE(image.LoadFile(wxString(png.string()), wxBITMAP_TYPE_PNG));
  const wxSize size = c::sheet_size(frame->sheet());
  EXPECT_EQ(image.GetSize(), size);
  EXPECT_GT(size.y, 40 * 18);  // the 34 boxes and the totals
  EXPECT_GT(non_white(image), size.x * size.y / 20) << "the sheet is nearly blank";

  // The PDF: well formed (xref where startxref says), one picture of the sheet at twice its size.
  const fs::path pdf = dir_ / "sheet.pdf";
  ASSERT_EQ(frame->export_pdf(wxString(pdf.string())), wxString());
  const std::string bytes = read_file(pdf);
  ASSERT_EQ(bytes.rfind("%PDF-1.4\n", 0), 0u);
  ASSERT_EQ(bytes.substr(bytes.size() - 6), "%%EOF\n");
  const std::size_t at = bytes.rfind("startxref\n");
  ASSERT_NE(at, std::string::npos);
  const std::size_t xref = std::stoul(bytes.substr(at + 10));
  EXPECT_EQ(bytes.compare(xref, 4, "xref"), 0);
  const std::string width = "/Width " + std::to_string(size.x * 2) + " /Height " + std::to_string(size.y * 2);
  ASSERT_NE(bytes.find(width), std::string::npos) << width;
  const std::size_t length_at = bytes.find("/FlateDecode /Length ");
  const std::size_t length = std::stoul(bytes.substr(length_at + 21));
  const std::size_t stream = bytes.find("stream\n", length_at) + 7;
  std::vector<unsigned char> rgb(static_cast<std::size_t>(size.x * 2) * size.y * 2 * 3);
  uLongf unpacked = rgb.size();
  ASSERT_EQ(uncompress(rgb.data(), &unpacked, reinterpret_cast<const Bytef*>(bytes.data() + stream), length), Z_OK);
  EXPECT_EQ(unpacked, rgb.size());
  EXPECT_EQ(bytes.compare(stream + length, 10, "\nendstream"), 0);

  // Irma too.
  ASSERT_TRUE(frame->select_game(games.irma));
  EXPECT_EQ(frame->export_pdf(wxString((dir_ / "irma.pdf").string())), wxString());
  EXPECT_EQ(frame->export_png(wxString((dir_ / "irma.png").string())), wxString());
  ASSERT_TRUE(image.LoadFile(wxString((dir_ / "irma.png").string()), wxBITMAP_TYPE_PNG));
  EXPECT_GT(pixels_near(image, wxColour(205, 40, 40), 20), 100) << "no red pion on the Irma sheet";
  EXPECT_NE(frame->export_png("/nonexistent-dir/x.png"), wxString());
  EXPECT_FALSE(c::write_pdf_image((dir_ / "bad.pdf").string(), {1, 2}, 5, 5).empty());

  // The printout draws the sheet on the page it is given.
  c::SheetPrintout printout(frame->sheet());
  wxBitmap page(620, 877, 24);
  {
    wxMemoryDC dc(page);
    dc.SetBackground(*wxWHITE_BRUSH);
    dc.Clear();
    printout.SetDC(&dc);
    printout.SetPageSizePixels(620, 877);
    printout.SetPaperRectPixels(wxRect(0, 0, 620, 877));
    printout.SetPPIScreen(96, 96);
    printout.SetPPIPrinter(72, 72);
    EXPECT_TRUE(printout.HasPage(1));
    EXPECT_FALSE(printout.HasPage(2));
    EXPECT_TRUE(printout.OnPrintPage(1));
  }
  EXPECT_GT(non_white(page.ConvertToImage()), 5000);
  frame->Destroy();
  pump(50);
}

TEST_F(Companion, HistoryReportsAnUnknownGame) {
  const Games games = fill_store(dir_);
  auto* frame = new c::HistoryFrame(nullptr, games.db);
  EXPECT_FALSE(frame->select_game(999));
  EXPECT_FALSE(frame->problem().empty());
  EXPECT_FALSE(frame->step_to(1));
  frame->Destroy();
  pump(50);
}

namespace {

// A frame of the table seen at an angle with the printed mat on it: the 300 dpi mat PNG warped so
// that its corners land on `quad` (top left, top right, bottom right, bottom left) on a brown table.
void table_with_mat(const std::string& mat_png, const std::array<cv::Point2f, 4>& quad, const std::string& out) {
  const cv::Mat mat = cv::imread(mat_png, cv::IMREAD_COLOR);
  ASSERT_FALSE(mat.empty());
  const float w = static_cast<float>(mat.cols), h = static_cast<float>(mat.rows);
  const cv::Point2f from[4] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
  cv::Mat frame(720, 1280, CV_8UC3, cv::Scalar(60, 85, 120));
  cv::warpPerspective(mat, frame, cv::getPerspectiveTransform(from, quad.data()), frame.size(), cv::INTER_AREA,
                      cv::BORDER_TRANSPARENT);
  ASSERT_TRUE(cv::imwrite(out, frame));
}

// One pion of each colour (red, orange, green, white) on a brown table, with shadows.
wxImage four_pions() {
  wxBitmap bitmap(1280, 720, 24);
  {
    wxMemoryDC dc(bitmap);
    dc.SetBackground(wxBrush(wxColour(150, 110, 70)));
    dc.Clear();
    const wxColour colours[] = {{200, 40, 40}, {235, 120, 20}, {40, 160, 60}, {230, 230, 225}};
    dc.SetPen(*wxTRANSPARENT_PEN);
    for (int k = 0; k < 4; ++k) {
      const wxPoint at(560 + (k % 2) * 80, 320 + (k / 2) * 80);
      dc.SetBrush(wxBrush(wxColour(80, 60, 40)));
      dc.DrawCircle(at + wxPoint(4, 4), 34);
      dc.SetBrush(wxBrush(colours[k]));
      dc.DrawCircle(at, 34);
    }
  }
  return bitmap.ConvertToImage();
}

}  // namespace

TEST_F(Companion, CalibrationAssistantSavesWhatWatchReads) {
  const std::string db = (dir_ / "arbitre.db").string();
  const std::string camera = "/dev/video-test";
  // The frame handed over as an image is written to a temporary file: its own directory here,
  // to check that nothing is left behind.
  const fs::path temp = dir_ / "temp";
  fs::create_directories(temp);
  const char* const old_tmpdir = std::getenv("TMPDIR");
  const std::string saved_tmpdir = old_tmpdir ? old_tmpdir : "";
  setenv("TMPDIR", temp.c_str(), 1);
  auto* assistant = new c::CalibrationAssistant(nullptr, db, camera);
  assistant->Show();
  pump();
  screenshot(*assistant, "calibration-mat");

  // 1. The mat, as PDF and PNG.
  const fs::path mat_pdf = dir_ / "mat.pdf", mat_png = dir_ / "mat.png";
  ASSERT_TRUE(assistant->write_mat(wxString(mat_pdf.string()), "a4")) << assistant->problem();
  EXPECT_EQ(read_file(mat_pdf).rfind("%PDF", 0), 0u);
  ASSERT_TRUE(assistant->write_mat(wxString(mat_png.string()), "a4")) << assistant->problem();
  EXPECT_FALSE(assistant->write_mat(wxString((dir_ / "mat.gif").string()), "a4"));
  EXPECT_FALSE(assistant->problem().empty());

  // 2. Found in a frame: the sheet's corners where it was pasted.
  assistant->show_step(c::CalibrationAssistant::Step::Find);
  EXPECT_FALSE(assistant->find_mat());  // no frame yet
  const std::array<cv::Point2f, 4> quad = {cv::Point2f(300, 90), cv::Point2f(1010, 120), cv::Point2f(1090, 650),
                                            cv::Point2f(210, 610)};
  const fs::path table = dir_ / "table.png";
  table_with_mat(mat_png.string(), quad, table.string());
  ASSERT_TRUE(assistant->set_frame_file(wxString(table.string())));
  ASSERT_TRUE(assistant->find_mat()) << assistant->problem();
  ASSERT_TRUE(assistant->mat().has_value());
  EXPECT_EQ(assistant->mat()->markers, 4);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(assistant->mat()->corners[k].first, quad[k].x, 4) << "corner " << k;
    EXPECT_NEAR(assistant->mat()->corners[k].second, quad[k].y, 4) << "corner " << k;
  }
  screenshot(*assistant, "calibration-find");

  // 3. The colours, from a frame handed over as an image (as the live view would).
  assistant->show_step(c::CalibrationAssistant::Step::Colours);
  ASSERT_TRUE(assistant->set_frame(wxImage(wxString(table.string()))));
  EXPECT_FALSE(assistant->measure_colours());  // the mat has no pions
  EXPECT_FALSE(assistant->problem().empty());
  // A rendered table with a whole board (tests/data/pions) is refused, saying why.
  ASSERT_TRUE(assistant->set_frame_file(wxString(kSource + "/tests/data/pions/0000.jpg")));
  EXPECT_FALSE(assistant->measure_colours());
  EXPECT_TRUE(assistant->problem().Contains("exactly one pion of each colour")) << assistant->problem();
  ASSERT_TRUE(assistant->set_frame(four_pions()));
  ASSERT_TRUE(assistant->measure_colours()) << assistant->problem();
  const auto& lab = assistant->colours()->colour;
  EXPECT_GT(lab[0][1], lab[2][1]);  // red is redder than green
  EXPECT_GT(lab[3][0], lab[0][0]);  // white is lighter than red
  const wxColour red = c::lab_to_colour(lab[0]);
  EXPECT_GT(red.Red(), red.Green() + 40);
  screenshot(*assistant, "calibration-colours");

  // 4. The dice zones: the tray clicked on the frame with the mouse, the kept area given.
  assistant->show_step(c::CalibrationAssistant::Step::Zones);
  pump();
  wxWindow* view = nullptr;
  for (wxWindow* child : assistant->GetChildren()) {
    if (child->IsShown() && child->GetClassInfo()->IsKindOf(wxCLASSINFO(wxPanel)) && child->GetSize().x > 400) view = child;
  }
  ASSERT_NE(view, nullptr);
  const wxSize view_size = view->GetClientSize();
  const double scale = std::min(view_size.x / 1280.0, view_size.y / 720.0);
  const double x0 = (view_size.x - 1280 * scale) / 2, y0 = (view_size.y - 720 * scale) / 2;
  const std::pair<double, double> tray[] = {{100, 100}, {500, 110}, {480, 600}, {120, 580}};
  wxUIActionSimulator mouse;
  for (const auto& [fx, fy] : tray) {
    const wxPoint at = view->ClientToScreen(wxPoint(static_cast<int>(x0 + fx * scale), static_cast<int>(y0 + fy * scale)));
    mouse.MouseMove(at);
    pump(60);
    mouse.MouseClick();
    pump(120);
  }
  ASSERT_EQ(assistant->zones().tray.size(), 4u) << "the clicks did not reach the frame";
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(assistant->zones().tray[k].first, tray[k].first, 3 / scale + 1);
    EXPECT_NEAR(assistant->zones().tray[k].second, tray[k].second, 3 / scale + 1);
  }
  assistant->set_active_zone(c::CalibrationAssistant::Zone::Kept);
  assistant->add_zone_point(800, 150);
  assistant->add_zone_point(1200, 150);
  EXPECT_FALSE(assistant->save());  // a kept area of two points
  assistant->add_zone_point(1200, 600);
  assistant->add_zone_point(800, 600);
  screenshot(*assistant, "calibration-zones");

  // 5. Saved, and read back the way `arbitre watch --source CAMERA` reads it.
  assistant->show_step(c::CalibrationAssistant::Step::Save);
  ASSERT_TRUE(assistant->save()) << assistant->problem();
  screenshot(*assistant, "calibration-save");
  const auto colours = *assistant->colours();
  const auto zones = assistant->zones();
  assistant->Destroy();
  pump(50);
  if (old_tmpdir) {
    setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_TRUE(fs::is_empty(temp)) << "a temporary frame was left in " << temp;

  ds::Store store = ds::Store::open(db);
  const s::CameraCalibration irma = s::calibration_for(store, camera, ds::GameKind::Irma, "");
  EXPECT_EQ(irma.from, "store");
  ASSERT_TRUE(irma.colours.has_value());
  for (std::size_t k = 0; k < 4; ++k) {
    for (std::size_t j = 0; j < 3; ++j) EXPECT_NEAR(irma.colours->colour[k][j], colours.colour[k][j], 0.006);
  }
  const s::CameraCalibration yams = s::calibration_for(store, camera, ds::GameKind::Yams, "");
  ASSERT_TRUE(yams.zones.has_value());
  EXPECT_EQ(yams.zones->tray, zones.tray);
  EXPECT_EQ(yams.zones->kept, zones.kept);
  EXPECT_FALSE(s::calibration_for(store, "another-camera", ds::GameKind::Irma, "").colours.has_value());
}

TEST_F(Companion, CalibrationAssistantRefusesNothingAndBadFrames) {
  const std::string db = (dir_ / "arbitre.db").string();
  auto* assistant = new c::CalibrationAssistant(nullptr, db, "cam");
  EXPECT_FALSE(assistant->save());
  EXPECT_FALSE(assistant->problem().empty());
  EXPECT_FALSE(assistant->set_frame_file(wxString((dir_ / "missing.png").string())));
  assistant->add_zone_point(1, 1);
  assistant->add_zone_point(2, 1);
  EXPECT_FALSE(assistant->save());  // a tray of two points
  assistant->Destroy();
  pump(50);
  ds::Store store = ds::Store::open(db);
  EXPECT_FALSE(store.latest_calibration("cam", s::kZonesCalibration).has_value());
}

namespace {

class TestApp : public wxApp {
 public:
  bool OnInit() override { return true; }
};

// Runs every test in English, then again in French with the app's catalogue (the
// screenshots of both languages), checking that the catalogue is really in use.
int run_in(const std::string& language) {
  g_language = language;
  auto* translations = new wxTranslations;
  wxTranslations::Set(translations);
  if (language != "en") {
    wxFileTranslationsLoader::AddCatalogLookupPathPrefix(ARBITRE_GUI_LOCALE_DIR);
    translations->SetLanguage(language);
    if (!translations->AddCatalog("arbitre-gui")) {
      std::fprintf(stderr, "the %s catalogue of arbitre-gui is missing\n", language.c_str());
      return 1;
    }
    if (_("History and records") == "History and records") {
      std::fprintf(stderr, "the %s catalogue does not translate\n", language.c_str());
      return 1;
    }
  }
  return RUN_ALL_TESTS();
}

}  // namespace

// A failed wx assertion is a test failure, not a dialog waiting for a click that never comes.
void on_wx_assert(const wxString& file, int line, const wxString& function, const wxString& condition,
                  const wxString& message) {
  ADD_FAILURE() << "wx assertion " << condition << " failed in " << function << " (" << file << ":" << line
                << "): " << message;
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  wxApp::SetInstance(new TestApp);
  if (!wxEntryStart(argc, argv) || !wxTheApp->CallOnInit()) {
    std::fprintf(stderr, "wx could not start (no display?)\n");
    return 1;
  }
  wxInitAllImageHandlers();
  wxSetAssertHandler(on_wx_assert);
  delete wxLog::SetActiveTarget(new wxLogStderr);  // wx's messages on stderr, not in dialogs
  int result = run_in("en");
  if (result == 0) result = run_in("fr");
  wxTheApp->OnExit();
  wxEntryCleanup();
  return result;
}
