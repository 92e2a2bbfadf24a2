// One rule for what an action may be, whichever way it comes in: the Python
// binding's numpy arrays and the XLA custom call's buffers are checked and
// written by the same routine, so the same bad action gets the same error
// (std::invalid_argument, a ValueError in Python) on both paths.
#ifndef ENVPOOL_CORE_ACTION_CHECK_H_
#define ENVPOOL_CORE_ACTION_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/array.h"

namespace envpool {

class Pool;

// The element type of the values a caller passes, named as numpy names
// them: kind 'b' (bool), 'i' (signed), 'u' (unsigned) or 'f' (floating),
// and the size in bytes.
struct ElementType {
  char kind = 'f';
  int size = 8;
};

// Whether the routine reads `type`: bool, integers of 1, 2, 4 or 8 bytes,
// floats of 2, 4 or 8 bytes. Callers convert (or refuse) the others.
bool IsReadable(ElementType type);

// The values one action field gets for the `n` envs of a send: C-contiguous
// elements of `type`, in the shape the caller gave.
struct ActionValues {
  ElementType type;
  const void* data = nullptr;
  std::vector<int64_t> shape;
};

// Checks `values` as the action array `spec` of `task_id` for the envs
// `ids` (n of them), each taking `rows_per_env` rows (its players' for an
// array declared per_player, else 1). Throws std::invalid_argument naming
// the env (and player) and what the env takes:
// - the shape must be (n, *spec.shape), or (n,) for a one-element array;
//   with several rows per env, (n * rows_per_env, *spec.shape), the rows of
//   an env consecutive in player order, or (n, rows_per_env, *spec.shape);
// - a discrete array takes whole numbers in 0..num_values-1 (floats too,
//   as EnvPool's examples send np.ones(n));
// - another integer array takes whole numbers;
// - a floating array takes finite values.
// `values.type` must be readable (IsReadable).
void CheckAction(const ArraySpec& spec, const std::string& task_id,
                 const int* ids, int n, const ActionValues& values,
                 int rows_per_env = 1);

// CheckAction for field `field` of `pool`'s action (its rows per env:
// Pool::ActionRowsPerEnv), then writes the values, converted to the field's
// dtype, into the action rows of the envs `ids`; nothing is written when the
// check fails.
void CheckAndWriteAction(Pool* pool, int field, const int* ids, int n,
                         const ActionValues& values);

// Python's repr of a float ("0.5", "1.899999976158142", "inf", "nan",
// "1e+20"), the way an action's value is written in the messages above.
std::string PythonFloatRepr(double x);

}  // namespace envpool

#endif  // ENVPOOL_CORE_ACTION_CHECK_H_
