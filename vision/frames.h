// Frame sources behind one interface: a webcam by index (V4L2, MJPG where offered), a video
// file, an image sequence (frames/%04d.png), a network camera URL (MJPEG over HTTP, RTSP). A
// live source that fails is reported lost, then reopened every few seconds; nothing throws.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

#include <optional>
#include <string>

namespace arbitre::vision {

struct SourceSpec {
  enum class Kind { Camera, File, Sequence, Url } kind = Kind::Camera;
  std::string text;  // as given
  int index = 0;     // Camera
  bool live() const { return kind == Kind::Camera || kind == Kind::Url; }
};

// "0" -> camera 0; "http://...", "https://...", "rtsp://..." -> URL; a path with a printf
// pattern ("frames/%04d.png") -> image sequence; any other path -> video file. nullopt with
// `error` for an empty or unreadable spec.
std::optional<SourceSpec> parse_source(const std::string& text, std::string* error = nullptr);

// The file name of frame `index` of an image sequence's pattern: its one number ("%d", "%4d",
// "%04d") written in, "%%" for a per cent sign. nullopt (with `error`) for a pattern with no
// number, more than one, or any other conversion.
std::optional<std::string> sequence_frame(const std::string& pattern, int index,
                                          std::string* error = nullptr);

struct SourceParams {
  int open_timeout_ms = 5000;
  int read_timeout_ms = 3000;
  double retry_seconds = 2.0;  // between attempts to reopen a lost live source
  int width = 1280;            // asked of cameras
  int height = 720;
  // A network stream hands over what FFmpeg has buffered (its probe reads seconds ahead when it
  // opens a stream; a reader slower than the camera falls behind): when a frame read from a URL
  // comes at once (within `fresh_ms`), the frames behind it that come at once too are skipped,
  // up to `drain_max`, and the newest is given; a frame that had to be waited for is given as
  // it is. 0: every frame, in order.
  int drain_max = 600;
  double fresh_ms = 15;
};

enum class FrameStatus {
  Frame,        // `frame` holds a new frame
  Waiting,      // not open yet, or lost and not time to retry yet
  Lost,         // a live source stopped delivering (reported once)
  Reconnected,  // a lost live source is back (`frame` holds its first frame)
  Ended,        // a file or sequence has no more frames
};

class FrameSource {
 public:
  FrameSource(SourceSpec spec, SourceParams params = {});
  // One step of the capture loop at `now` seconds (monotonic).
  FrameStatus next(cv::Mat& frame, double now);
  const std::string& last_error() const { return error_; }
  const SourceSpec& spec() const { return spec_; }

 private:
  bool open();
  void drain(cv::Mat& frame);
  FrameStatus next_in_sequence(cv::Mat& frame);
  SourceSpec spec_;
  SourceParams params_;
  cv::VideoCapture capture_;
  // An image sequence is read here, not by OpenCV's image-sequence backend, which tries the
  // file after the last and warns on the console that it cannot read it.
  int next_index_ = -1;  // the next frame's number; -1 until opened
  bool ever_opened_ = false;
  bool lost_ = false;
  bool ended_ = false;
  double next_attempt_ = 0;
  std::string error_;
};

}  // namespace arbitre::vision
