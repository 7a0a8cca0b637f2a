// The one place where the session meets OpenCV: vision's frame sources and the pion and dice
// readers (stage headers of vision/, used here so that no cv::Mat reaches the session's headers).
#include "app/session/camera_source.h"

#include <chrono>
#include <thread>

#include <opencv2/imgproc.hpp>

#include "data/input_error.h"
#include "vision/dice/detector.h"
#include "vision/frames.h"
#include "vision/pions/detector.h"

namespace arbitre::app::session {
namespace {

// Frames from a source, timed, each read by the game's reader (read()).
class Camera : public ObservationSource {
 public:
  Camera(const vision::SourceSpec& spec, const CameraOptions& options)
      : frames_(spec), spec_text_(spec.text), live_(spec.live()), start_(std::chrono::steady_clock::now()) {
    fps_ = options.fps > 0 ? options.fps
                           : spec.kind == vision::SourceSpec::Kind::Sequence ? 10.0 : 30.0;
    pictures_ = options.pictures;
  }

  SourceStep next() override {
    if (pending_) {
      SourceStep step = std::move(*pending_);
      pending_.reset();
      return step;
    }
    const double now = live_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()
                             : static_cast<double>(frame_index_) / fps_;
    cv::Mat frame;
    SourceStep step;
    step.seconds = now;
    switch (frames_.next(frame, now)) {
      case vision::FrameStatus::Frame:
        return observe(frame, now);
      case vision::FrameStatus::Reconnected:
        pending_ = observe(frame, now);
        step.kind = SourceStep::Kind::Reconnected;
        return step;
      case vision::FrameStatus::Waiting:
        if (live_ && frame_index_ == 0 && !warned_ && now > kFirstFrameSeconds) {
          warned_ = true;  // say once that the camera does not open, then keep trying
          step.kind = SourceStep::Kind::Lost;
          step.text = frames_.last_error().empty() ? spec_text_ + ": no frame yet" : frames_.last_error();
          return step;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        step.kind = SourceStep::Kind::Waiting;
        return step;
      case vision::FrameStatus::Lost:
        step.kind = SourceStep::Kind::Lost;
        step.text = frames_.last_error();
        return step;
      case vision::FrameStatus::Ended:
        step.kind = SourceStep::Kind::Ended;
        return step;
    }
    step.kind = SourceStep::Kind::Ended;
    return step;
  }


 protected:
  // What the game's reader sees in one frame.
  virtual void read(const cv::Mat& frame, SourceStep& step) = 0;

 private:
  SourceStep observe(const cv::Mat& frame, double now) {
    ++frame_index_;
    SourceStep step;
    step.kind = SourceStep::Kind::Observation;
    step.seconds = now;
    if (pictures_ && !frame.empty()) {
      auto picture = std::make_shared<Picture>();
      picture->captured_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
      picture->width = frame.cols;
      picture->height = frame.rows;
      picture->rgb.resize(static_cast<std::size_t>(frame.cols) * frame.rows * 3);
      cv::Mat rgb(frame.rows, frame.cols, CV_8UC3, picture->rgb.data());
      if (frame.channels() == 1) {
        cv::cvtColor(frame, rgb, cv::COLOR_GRAY2RGB);
      } else if (frame.channels() == 4) {
        cv::cvtColor(frame, rgb, cv::COLOR_BGRA2RGB);
      } else {
        cv::cvtColor(frame, rgb, cv::COLOR_BGR2RGB);
      }
      step.picture = std::move(picture);
    }
    read(frame, step);
    return step;
  }

  static constexpr double kFirstFrameSeconds = 5;  // a live source silent this long is reported

  vision::FrameSource frames_;
  std::string spec_text_;
  bool live_;
  bool warned_ = false;
  bool pictures_ = false;
  double fps_ = 10;
  std::chrono::steady_clock::time_point start_;
  long frame_index_ = 0;
  std::optional<SourceStep> pending_;
};

class PionCamera : public Camera {
 public:
  PionCamera(const vision::SourceSpec& spec, const CameraOptions& options) : Camera(spec, options) {
    params_.calibration = options.calibration;
  }

 protected:
  void read(const cv::Mat& frame, SourceStep& step) override {
    step.pions = vision::pions::detect(frame, params_).observation;
  }

 private:
  vision::pions::Params params_;
};

class DiceCamera : public Camera {
 public:
  DiceCamera(const vision::SourceSpec& spec, const CameraOptions& options)
      : Camera(spec, options),
        params_(vision::dice::params_for({"", options.zones, options.textures})) {}

 protected:
  void read(const cv::Mat& frame, SourceStep& step) override {
    step.dice = vision::dice::detect(frame, params_).observation;
  }

 private:
  vision::dice::Params params_;
};

}  // namespace

std::unique_ptr<ObservationSource> open_camera(const std::string& spec, data::store::GameKind kind,
                                               const CameraOptions& options) {
  std::string error;
  const auto source = vision::parse_source(spec, &error);
  if (!source) throw data::InputError("--source: " + error);
  if (kind == data::store::GameKind::Yams) return std::make_unique<DiceCamera>(*source, options);
  return std::make_unique<PionCamera>(*source, options);
}

}  // namespace arbitre::app::session
