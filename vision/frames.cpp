#include "vision/frames.h"

#include <chrono>
#include <filesystem>

#include "vision/common/image_io.h"

namespace arbitre::vision {

std::optional<std::string> sequence_frame(const std::string& pattern, int index,
                                          std::string* error) {
  const auto fail = [&](const std::string& message) -> std::optional<std::string> {
    if (error) *error = pattern + ": " + message;
    return std::nullopt;
  };
  std::string name;
  int numbers = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      name += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      name += '%';
      ++i;
      continue;
    }
    // %[0][width]d
    std::size_t j = i + 1;
    const bool zeros = j < pattern.size() && pattern[j] == '0';
    if (zeros) ++j;
    std::size_t width = 0;
    while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9' && width < 100)
      width = width * 10 + static_cast<std::size_t>(pattern[j++] - '0');
    if (j >= pattern.size() || pattern[j] != 'd' || width >= 100) {
      return fail("an image sequence's pattern takes one number written %d, %4d or %04d");
    }
    if (++numbers > 1) return fail("an image sequence's pattern takes one number, not several");
    std::string digits = std::to_string(index);
    if (digits.size() < width) digits.insert(0, width - digits.size(), zeros ? '0' : ' ');
    name += digits;
    i = j;
  }
  if (numbers == 0) return fail("an image sequence's pattern needs a number (%04d)");
  return name;
}

std::optional<SourceSpec> parse_source(const std::string& text, std::string* error) {
  const auto fail = [&](const std::string& message) -> std::optional<SourceSpec> {
    if (error) *error = message;
    return std::nullopt;
  };
  if (text.empty()) return fail("an empty source");
  SourceSpec spec;
  spec.text = text;
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 3) return fail("camera index " + text + " is out of range");
    spec.kind = SourceSpec::Kind::Camera;
    spec.index = std::stoi(text);
    return spec;
  }
  for (const char* scheme : {"http://", "https://", "rtsp://"}) {
    if (text.rfind(scheme, 0) == 0) {
      spec.kind = SourceSpec::Kind::Url;
      return spec;
    }
  }
  if (text.find('%') != std::string::npos) {
    spec.kind = SourceSpec::Kind::Sequence;
    const std::filesystem::path folder = std::filesystem::path(text).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder)) return fail(folder.string() + ": no such folder");
    std::string problem;
    if (!sequence_frame(text, 0, &problem)) return fail(problem);
    return spec;
  }
  if (!std::filesystem::exists(text)) return fail(text + ": no such file");
  spec.kind = SourceSpec::Kind::File;
  return spec;
}

FrameSource::FrameSource(SourceSpec spec, SourceParams params) : spec_(std::move(spec)), params_(params) {}

bool FrameSource::open() {
  capture_.release();
  if (spec_.kind == SourceSpec::Kind::Sequence) {
    // Numbered from 0, or from 1 when there is no frame 0 (as OpenCV's backend reads them).
    for (const int first : {0, 1}) {
      const std::optional<std::string> name = sequence_frame(spec_.text, first, &error_);
      if (!name) return false;
      if (std::filesystem::exists(*name)) {
        next_index_ = first;
        return true;
      }
    }
    error_ = spec_.text + ": no frame numbered 0 or 1";
    return false;
  }
  try {
    switch (spec_.kind) {
      case SourceSpec::Kind::Camera:
        capture_.open(spec_.index, cv::CAP_V4L2);
        if (capture_.isOpened()) {
          capture_.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'));
          capture_.set(cv::CAP_PROP_FRAME_WIDTH, params_.width);
          capture_.set(cv::CAP_PROP_FRAME_HEIGHT, params_.height);
        }
        break;
      case SourceSpec::Kind::Url:
        capture_.open(spec_.text, cv::CAP_FFMPEG,
                      {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, params_.open_timeout_ms, cv::CAP_PROP_READ_TIMEOUT_MSEC,
                       params_.read_timeout_ms});
        break;
      case SourceSpec::Kind::Sequence:  // read by next_in_sequence
        break;
      case SourceSpec::Kind::File:
        capture_.open(spec_.text, cv::CAP_ANY);
        break;
    }
  } catch (const cv::Exception& e) {
    error_ = spec_.text + ": " + e.msg;
    return false;
  }
  if (!capture_.isOpened()) {
    error_ = spec_.text + ": cannot open the source";
    return false;
  }
  return true;
}

void FrameSource::drain(cv::Mat& frame) {
  using Clock = std::chrono::steady_clock;
  bool skipped = false;
  for (int k = 0; k < params_.drain_max; ++k) {
    const auto start = Clock::now();
    bool grabbed = false;
    try {
      grabbed = capture_.grab();
    } catch (const cv::Exception&) {
      grabbed = false;
    }
    // The stream ended or broke while skipping: give the newest frame decoded; the next read
    // reports the loss.
    if (!grabbed) break;
    skipped = true;
    // A frame that had to be waited for is the camera's latest: stop there.
    if (std::chrono::duration<double, std::milli>(Clock::now() - start).count() >= params_.fresh_ms) break;
  }
  if (!skipped) return;
  cv::Mat newest;
  try {
    if (capture_.retrieve(newest) && !newest.empty()) frame = newest;
  } catch (const cv::Exception&) {
  }
}

// The sequence's frames in order, until a number is missing or an image cannot be read.
FrameStatus FrameSource::next_in_sequence(cv::Mat& frame) {
  if (next_index_ < 0 && !open()) {
    ended_ = true;
    return FrameStatus::Ended;
  }
  const std::optional<std::string> name = sequence_frame(spec_.text, next_index_, &error_);
  if (!name || !std::filesystem::exists(*name)) {
    ended_ = true;
    return FrameStatus::Ended;
  }
  try {
    frame = load_image(*name);  // the readers' own checks: corrupt, empty, too large
  } catch (const ImageFileError& e) {
    // Its message names the file first: the problem after it.
    std::string why = e.what();
    if (why.rfind(*name + ": ", 0) == 0) why.erase(0, name->size() + 2);
    error_ = *name + ": cannot read the image (" + why + ")";
    frame.release();
    ended_ = true;
    return FrameStatus::Ended;
  }
  ++next_index_;
  ever_opened_ = true;
  return FrameStatus::Frame;
}

FrameStatus FrameSource::next(cv::Mat& frame, double now) {
  if (ended_) return FrameStatus::Ended;
  if (spec_.kind == SourceSpec::Kind::Sequence) return next_in_sequence(frame);
  if (!capture_.isOpened()) {
    if (now < next_attempt_) return FrameStatus::Waiting;
    if (!open()) {
      next_attempt_ = now + params_.retry_seconds;
      if (!spec_.live()) {
        ended_ = true;
        return FrameStatus::Ended;
      }
      if (ever_opened_ && !lost_) {
        lost_ = true;
        return FrameStatus::Lost;
      }
      return FrameStatus::Waiting;
    }
  }
  bool got = false;
  const auto read_start = std::chrono::steady_clock::now();
  try {
    got = capture_.read(frame) && !frame.empty();
  } catch (const cv::Exception& e) {
    error_ = spec_.text + ": " + e.msg;
  }
  // A frame that came at once was waiting in a backlog: skip to the newest. One that had to be
  // waited for is the camera's latest already (and skipping would wait for the one after it).
  const double read_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - read_start).count();
  if (got && spec_.kind == SourceSpec::Kind::Url && read_ms < params_.fresh_ms) drain(frame);
  if (got) {
    const bool back = lost_;
    lost_ = false;
    ever_opened_ = true;
    return back ? FrameStatus::Reconnected : FrameStatus::Frame;
  }
  capture_.release();
  if (!spec_.live()) {
    ended_ = true;
    return FrameStatus::Ended;
  }
  if (error_.empty()) error_ = spec_.text + ": no frame";
  next_attempt_ = now + params_.retry_seconds;
  if (!lost_) {
    lost_ = true;
    return FrameStatus::Lost;
  }
  return FrameStatus::Waiting;
}

}  // namespace arbitre::vision
