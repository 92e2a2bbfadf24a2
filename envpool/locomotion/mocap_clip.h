// One clip of DeepMind's fit of the CMU motion capture data to the CMU
// humanoid, as dm_control's mocap loader gives it (mocap/loader.py,
// trajectory.py): frames of float32 fields (joints, joints_velocity,
// velocity, angular_velocity, ...), read from the envpool-assets wheel's
// mocap_2019.bin that the family ships as assets/mocap/mocap_2019.bin.
//
// The file: "EPMOCAP1", a u32 clip count, then per clip its name (u32
// length, bytes), u32 frames, f64 dt, u32 field count, and per field its
// name, u32 dim and frames x dim float32 values (frame-major), all
// little-endian.
#ifndef ENVPOOL_LOCOMOTION_MOCAP_CLIP_H_
#define ENVPOOL_LOCOMOTION_MOCAP_CLIP_H_

#include <map>
#include <string>
#include <vector>

namespace envpool::locomotion {

// The family's clip file, relative to its asset folder.
inline constexpr const char* kMocapClipFile = "mocap/mocap_2019.bin";

struct MocapClip {
  std::string name;
  int frames = 0;
  double dt = 0.0;
  struct Field {
    int dim = 0;
    std::vector<float> values;  // frames x dim
  };
  std::map<std::string, Field> fields;

  // The field's `dim` values at `frame`; throws std::runtime_error naming
  // the clip when the field is not there or is not `dim` wide.
  const float* At(const std::string& field, int frame, int dim) const;
};

// The clip `name` of the bytes of a clip file; `source` names the file in
// errors (std::runtime_error) when the bytes are not such a file or have no
// such clip.
MocapClip ParseMocapClip(const std::string& bytes, const std::string& name,
                         const std::string& source);

// The clip `name` of the family's clip file, read and parsed once per
// process and name. A missing file is a std::invalid_argument naming it and
// the fix.
const MocapClip& FamilyMocapClip(const std::string& name);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_MOCAP_CLIP_H_
