#include "envpool/mujoco_common/model_view.h"

#include <cstddef>
#include <stdexcept>
#include <utility>

namespace envpool::mujoco_common {

ModelView::ModelView(SharedModel shared,
                     std::initializer_list<WrittenArray> written)
    : shared_(std::move(shared)), model_() {
  if (shared_ == nullptr) {
    throw std::invalid_argument("ModelView needs a model to view");
  }
  model_ = *shared_;
  own_arrays_.reserve(written.size());
  for (const WrittenArray& array : written) {
    const mjtNum* source = shared_.get()->*array.array;
    const std::size_t size =
        static_cast<std::size_t>(shared_.get()->*array.rows) *
        static_cast<std::size_t>(array.columns);
    own_arrays_.emplace_back(source, source + size);
    model_.*array.array = own_arrays_.back().data();
  }
}

}  // namespace envpool::mujoco_common
