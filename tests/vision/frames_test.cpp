// Frame sources: image sequences, video files, and a network camera that goes away and comes
// back (an MJPEG-over-HTTP server on the loopback address, in this test).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <thread>

#include "vision/frames.h"

namespace v = arbitre::vision;
namespace fs = std::filesystem;

namespace {

cv::Mat picture(int k) {
  cv::Mat image(120, 160, CV_8UC3, cv::Scalar(40, 90, 140));
  cv::circle(image, {20 + 20 * k, 60}, 12, cv::Scalar(30, 30, 220), cv::FILLED);
  return image;
}

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(FrameSources, SpecsAreRecognised) {
  std::string error;
  EXPECT_EQ(v::parse_source("0")->kind, v::SourceSpec::Kind::Camera);
  EXPECT_EQ(v::parse_source("2")->index, 2);
  EXPECT_EQ(v::parse_source("http://192.0.2.1:8080/video")->kind, v::SourceSpec::Kind::Url);
  EXPECT_EQ(v::parse_source("rtsp://camera.local/stream")->kind, v::SourceSpec::Kind::Url);
  EXPECT_FALSE(v::parse_source("/nonexistent/video.mp4", &error).has_value());
  EXPECT_THAT(error, ::testing::HasSubstr("no such file"));
  EXPECT_FALSE(v::parse_source("/nonexistent/%04d.png", &error).has_value());
  EXPECT_FALSE(v::parse_source("", &error).has_value());
  // An image sequence's pattern: one number, nothing else of printf's.
  const std::string folder = fs::temp_directory_path().string();
  EXPECT_EQ(v::parse_source(folder + "/%04d.png")->kind, v::SourceSpec::Kind::Sequence);
  for (const char* bad : {"/%s.png", "/%04d_%04d.png", "/%x.png", "/100%.png", "/%-4d.png"}) {
    EXPECT_FALSE(v::parse_source(folder + bad, &error).has_value()) << bad;
    EXPECT_THAT(error, ::testing::HasSubstr("pattern")) << bad;
  }
  EXPECT_EQ(v::sequence_frame("a/%04d.png", 7), "a/0007.png");
  EXPECT_EQ(v::sequence_frame("a/%d.png", 12345), "a/12345.png");
  EXPECT_EQ(v::sequence_frame("a/%3d.png", 7), "a/  7.png");
  EXPECT_EQ(v::sequence_frame("a/100%%_%02d.png", 3), "a/100%_03.png");
}

TEST(FrameSources, ImageSequenceGivesEveryFrameThenEnds) {
  const fs::path dir = temp_dir("sequence");
  for (int k = 0; k < 3; ++k) cv::imwrite((dir / cv::format("%04d.png", k)).string(), picture(k));
  v::FrameSource source(*v::parse_source((dir / "%04d.png").string()));
  cv::Mat frame;
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(source.next(frame, k), v::FrameStatus::Frame);
    EXPECT_EQ(frame.size(), cv::Size(160, 120));
  }
  EXPECT_EQ(source.next(frame, 3), v::FrameStatus::Ended);
  EXPECT_EQ(source.next(frame, 4), v::FrameStatus::Ended);
}

// Numbered from 1 when there is no frame 0; the sequence ends at the first number missing
// (a frame after a gap is not read) and at an image that cannot be read.
TEST(FrameSources, ImageSequenceFromOneEndsAtAGapOrABadImage) {
  const fs::path dir = temp_dir("sequence-from-one");
  for (const int k : {1, 2, 4}) cv::imwrite((dir / cv::format("%03d.png", k)).string(), picture(k));
  v::FrameSource source(*v::parse_source((dir / "%03d.png").string()));
  cv::Mat frame;
  EXPECT_EQ(source.next(frame, 0), v::FrameStatus::Frame);
  EXPECT_EQ(source.next(frame, 1), v::FrameStatus::Frame);
  EXPECT_EQ(source.next(frame, 2), v::FrameStatus::Ended);

  std::ofstream(dir / "003.png") << "not an image";
  v::FrameSource broken(*v::parse_source((dir / "%03d.png").string()));
  EXPECT_EQ(broken.next(frame, 0), v::FrameStatus::Frame);
  EXPECT_EQ(broken.next(frame, 1), v::FrameStatus::Frame);
  EXPECT_EQ(broken.next(frame, 2), v::FrameStatus::Ended);
  EXPECT_THAT(broken.last_error(), ::testing::HasSubstr("003.png: cannot read the image"));

  v::FrameSource empty(*v::parse_source((dir / "%05d.png").string()));
  EXPECT_EQ(empty.next(frame, 0), v::FrameStatus::Ended);
  EXPECT_THAT(empty.last_error(), ::testing::HasSubstr("no frame numbered 0 or 1"));
}

TEST(FrameSources, VideoFileGivesEveryFrameThenEnds) {
  const fs::path file = temp_dir("video") / "clip.avi";
  cv::VideoWriter writer(file.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, {160, 120});
  ASSERT_TRUE(writer.isOpened());
  for (int k = 0; k < 5; ++k) writer.write(picture(k));
  writer.release();
  v::FrameSource source(*v::parse_source(file.string()));
  cv::Mat frame;
  int frames = 0;
  while (source.next(frame, frames) == v::FrameStatus::Frame) ++frames;
  EXPECT_EQ(frames, 5);
}

TEST(FrameSources, UnreachableCameraIsRetriedNotFatal) {
  // Nothing listens on this loopback port: opening fails at once, the source waits and retries.
  v::SourceParams params;
  params.retry_seconds = 1.0;
  params.open_timeout_ms = 500;
  v::FrameSource source(*v::parse_source("http://127.0.0.1:9/video.mjpg"), params);
  cv::Mat frame;
  EXPECT_EQ(source.next(frame, 0.0), v::FrameStatus::Waiting);
  EXPECT_EQ(source.next(frame, 0.5), v::FrameStatus::Waiting);  // not yet time to retry
  EXPECT_EQ(source.next(frame, 1.5), v::FrameStatus::Waiting);  // retried, still nobody
  EXPECT_FALSE(source.last_error().empty());
}

namespace {

// A listening socket on the loopback address, on a free port (written to `port`).
int listen_on_loopback(int& port) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  port = ntohs(address.sin_port);
  listen(listener, 4);
  return listener;
}

// The next client of an MJPEG stream, its request answered; -1 when the listener is closed.
int accept_stream_client(int listener) {
  const int client = accept(listener, nullptr, nullptr);
  if (client < 0) return -1;
  char request[2048];
  (void)recv(client, request, sizeof request, 0);
  const std::string header = "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n";
  send(client, header.data(), header.size(), MSG_NOSIGNAL);
  return client;
}

// One JPEG frame of the stream.
void send_jpeg_part(int client, const std::vector<unsigned char>& jpeg) {
  const std::string part =
      "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(jpeg.size()) + "\r\n\r\n";
  send(client, part.data(), part.size(), MSG_NOSIGNAL);
  send(client, jpeg.data(), jpeg.size(), MSG_NOSIGNAL);
  send(client, "\r\n", 2, MSG_NOSIGNAL);
}

// A server on the loopback address: `serve` runs on its own thread with the listening socket
// and a flag raised when the server is being destroyed.
class LoopbackServer {
 public:
  explicit LoopbackServer(std::function<void(int listener, const std::atomic<bool>& stop)> serve) {
    listener_ = listen_on_loopback(port_);
    thread_ = std::thread([this, serve = std::move(serve)] { serve(listener_, stop_); });
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;
  ~LoopbackServer() {
    stop_ = true;
    shutdown(listener_, SHUT_RDWR);
    close(listener_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A network camera: serves `frames` JPEG frames as MJPEG over HTTP to each of `connections`
// clients in turn, closing the connection after each batch.
LoopbackServer mjpeg_server(int frames, int connections) {
  return LoopbackServer([frames, connections](int listener, const std::atomic<bool>&) {
    std::vector<unsigned char> jpeg;
    cv::imencode(".jpg", picture(2), jpeg);
    for (int c = 0; c < connections; ++c) {
      const int client = accept_stream_client(listener);
      if (client < 0) return;
      for (int f = 0; f < frames; ++f) send_jpeg_part(client, jpeg);
      close(client);
    }
  });
}

}  // namespace

TEST(FrameSources, NetworkCameraDisconnectIsReportedThenReconnected) {
  const LoopbackServer server = mjpeg_server(30, 2);
  v::SourceParams params;
  params.retry_seconds = 0;
  params.open_timeout_ms = 3000;
  params.read_timeout_ms = 1000;
  v::FrameSource source(*v::parse_source("http://127.0.0.1:" + std::to_string(server.port()) + "/video.mjpg"),
                        params);
  cv::Mat frame;
  std::vector<v::FrameStatus> seen;
  for (int step = 0; step < 200 && seen.size() < 200; ++step) {
    const v::FrameStatus status = source.next(frame, step);
    if (seen.empty() || seen.back() != status) seen.push_back(status);
    if (status == v::FrameStatus::Reconnected) break;
  }
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[0], v::FrameStatus::Frame);
  EXPECT_THAT(seen, ::testing::Contains(v::FrameStatus::Lost));
  EXPECT_EQ(seen.back(), v::FrameStatus::Reconnected);
  EXPECT_EQ(frame.size(), cv::Size(160, 120));
}

namespace {

// Frame k of the burst test: grey level 4k, so that it survives JPEG.
cv::Mat numbered(int k) { return cv::Mat(120, 160, CV_8UC3, cv::Scalar::all(4 * k)); }
int number_of(const cv::Mat& frame) { return static_cast<int>(std::lround(cv::mean(frame)[0] / 4)); }

// A network camera that has fallen behind: `burst` frames (0 .. burst-1) sent at once, as
// FFmpeg's probe or a slow reader piles them up, then one new frame every 50 ms up to `last`.
LoopbackServer burst_server(int burst, int last) {
  return LoopbackServer([burst, last](int listener, const std::atomic<bool>& stop) {
    const int client = accept_stream_client(listener);
    if (client < 0) return;
    for (int k = 0; k <= last && !stop; ++k) {
      std::vector<unsigned char> jpeg;
      cv::imencode(".jpg", numbered(k), jpeg);
      send_jpeg_part(client, jpeg);
      if (k >= burst) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    close(client);
  });
}

// The frame numbers a source gives for its first `reads` frames from burst_server(40, 60).
std::vector<int> first_frames(int drain_max, int reads) {
  const LoopbackServer server = burst_server(40, 60);
  v::SourceParams params;
  params.open_timeout_ms = 3000;
  params.read_timeout_ms = 2000;
  params.drain_max = drain_max;
  v::FrameSource source(*v::parse_source("http://127.0.0.1:" + std::to_string(server.port()) + "/video.mjpg"),
                        params);
  std::vector<int> numbers;
  cv::Mat frame;
  for (int step = 0; step < 100 && static_cast<int>(numbers.size()) < reads; ++step) {
    if (source.next(frame, step) == v::FrameStatus::Frame) numbers.push_back(number_of(frame));
  }
  return numbers;
}

}  // namespace

TEST(FrameSources, ANetworkCameraGivesItsNewestFrameNotWhatPiledUp) {
  // 40 frames piled up, then the camera's pace: the frames given skip the pile (at once, unless
  // the test was held up for more than fresh_ms while skipping: then within the next reads).
  const std::vector<int> newest = first_frames(600, 3);
  ASSERT_EQ(newest.size(), 3u);
  EXPECT_GE(newest.back(), 39);
  EXPECT_GT(newest[1], newest[0]);
  EXPECT_GT(newest[2], newest[1]);
  // Without the skipping, the pile comes first, frame by frame.
  const std::vector<int> in_order = first_frames(0, 3);
  ASSERT_EQ(in_order.size(), 3u);
  EXPECT_LT(in_order[0], 39);
  EXPECT_EQ(in_order[1], in_order[0] + 1);
}
