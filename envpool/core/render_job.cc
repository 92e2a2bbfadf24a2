#include "envpool/core/render_job.h"

#include <exception>
#include <stdexcept>

namespace envpool {

void RenderJob::Begin(uint8_t* rgb, int width, int height, int camera_id,
                      int frames) {
  // The frames reach the drawing threads through the scheduler's lock (or
  // are drawn on this thread), which orders these writes before their reads.
  rgb_ = rgb;
  width_ = width;
  height_ = height;
  camera_id_ = camera_id;
  frame_bytes_ =
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3;
  std::lock_guard<std::mutex> lock(mu_);
  error_.clear();
  left_ = frames;
}

void RenderJob::Draw(Env* env, int env_id, int frame) {
  std::string error;
  try {
    env->Render(width_, height_, camera_id_,
                rgb_ + static_cast<std::size_t>(frame) * frame_bytes_);
  } catch (const std::exception& e) {
    error = "env " + std::to_string(env_id) + ": " + e.what();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!error.empty() && error_.empty()) {
    error_ = error;
  }
  if (--left_ == 0) {
    done_.notify_all();
  }
}

void RenderJob::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [this] { return left_ == 0 || stopped_; });
}

void RenderJob::StopDrawing() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  done_.notify_all();
}

void RenderJob::ThrowIfFailed() {
  std::lock_guard<std::mutex> lock(mu_);
  if (left_ > 0) {
    throw std::runtime_error("the pool was closed while rendering");
  }
  if (!error_.empty()) {
    throw std::runtime_error(error_);
  }
}

}  // namespace envpool
