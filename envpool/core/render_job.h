// One Pool::Render call: a frame of each of several envs, drawn into the
// caller's buffer by whichever threads take the frames, and the first error
// among them.
#ifndef ENVPOOL_CORE_RENDER_JOB_H_
#define ENVPOOL_CORE_RENDER_JOB_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "envpool/core/env.h"

namespace envpool {

class RenderJob {
 public:
  // Starts a job of `frames` frames of width x height x 3 bytes, frame k at
  // rgb + k x (its size). One job at a time: the pool serializes Render.
  void Begin(uint8_t* rgb, int width, int height, int camera_id, int frames);
  // Draws frame `frame` of the env (any thread); an exception is kept,
  // naming env `env_id`.
  void Draw(Env* env, int env_id, int frame);
  // Waits until every frame is drawn or no thread will draw any more.
  void Wait();
  // No thread will draw again (the pool has joined its workers): a Wait
  // returns, whatever is left.
  void StopDrawing();
  // Throws std::runtime_error when a frame was left undrawn or an env's
  // Render threw (the first such error).
  void ThrowIfFailed();

 private:
  uint8_t* rgb_ = nullptr;
  std::size_t frame_bytes_ = 0;
  int width_ = 0;
  int height_ = 0;
  int camera_id_ = -1;
  std::mutex mu_;
  std::condition_variable done_;
  std::string error_;     // guarded by mu_
  int left_ = 0;          // frames not yet drawn, guarded by mu_
  bool stopped_ = false;  // guarded by mu_
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_RENDER_JOB_H_
