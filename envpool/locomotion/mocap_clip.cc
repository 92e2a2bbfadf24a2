#include "envpool/locomotion/mocap_clip.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {
namespace {

// A cursor over the file's bytes; every read past the end is an error that
// names the file.
class Reader {
 public:
  Reader(const std::string& bytes, const std::string& source)
      : bytes_(bytes), source_(source) {}

  void Need(std::size_t n) const {
    if (n > bytes_.size() - at_) {
      throw std::runtime_error(source_ +
                               " ends too early: not an EPMOCAP1 clip file");
    }
  }
  // The next sizeof(T) bytes as a T (the file is little-endian, as the
  // machines the wheels are built for).
  template <typename T>
  T Next() {
    Need(sizeof(T));
    T value{};
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  uint32_t U32() { return Next<uint32_t>(); }
  double F64() { return Next<double>(); }
  std::string Bytes(std::size_t n) {
    Need(n);
    std::string out = bytes_.substr(at_, n);
    at_ += n;
    return out;
  }
  std::string Name() { return Bytes(U32()); }
  void Floats(std::size_t n, std::vector<float>* out) {
    if (n > (bytes_.size() - at_) / 4) {
      Need(bytes_.size() + 1);  // throws
    }
    out->resize(n);
    std::memcpy(out->data(), bytes_.data() + at_, 4 * n);
    at_ += 4 * n;
  }

 private:
  const std::string& bytes_;
  const std::string& source_;
  std::size_t at_ = 0;
};

}  // namespace

const float* MocapClip::At(const std::string& field, int frame, int dim) const {
  const auto found = fields.find(field);
  if (found == fields.end() || found->second.dim != dim || frame < 0 ||
      frame >= frames) {
    throw std::runtime_error("mocap clip " + name + " has no field " + field +
                             " of width " + std::to_string(dim) + " at frame " +
                             std::to_string(frame));
  }
  return found->second.values.data() +
         static_cast<std::size_t>(frame) * static_cast<std::size_t>(dim);
}

MocapClip ParseMocapClip(const std::string& bytes, const std::string& name,
                         const std::string& source) {
  static_assert(sizeof(float) == 4 && sizeof(double) == 8,
                "the clip file holds IEEE float32 and float64");
  Reader reader(bytes, source);
  if (reader.Bytes(8) != "EPMOCAP1") {
    throw std::runtime_error(source + " is not an EPMOCAP1 clip file");
  }
  const uint32_t clips = reader.U32();
  for (uint32_t c = 0; c < clips; ++c) {
    MocapClip clip;
    clip.name = reader.Name();
    clip.frames = static_cast<int>(reader.U32());
    clip.dt = reader.F64();
    const uint32_t count = reader.U32();
    for (uint32_t f = 0; f < count; ++f) {
      const std::string field = reader.Name();
      MocapClip::Field& out = clip.fields[field];
      out.dim = static_cast<int>(reader.U32());
      reader.Floats(static_cast<std::size_t>(clip.frames) *
                        static_cast<std::size_t>(out.dim),
                    &out.values);
    }
    if (clip.name == name) {
      return clip;
    }
  }
  throw std::runtime_error(source + " has no mocap clip " + name);
}

const MocapClip& FamilyMocapClip(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, MocapClip> clips;
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = clips.find(name);
  if (found == clips.end()) {
    const std::string bytes =
        mujoco_common::ReadModelText(LocomotionAssets(), kMocapClipFile);
    found =
        clips.emplace(name, ParseMocapClip(bytes, name, kMocapClipFile)).first;
  }
  return found->second;
}

}  // namespace envpool::locomotion
