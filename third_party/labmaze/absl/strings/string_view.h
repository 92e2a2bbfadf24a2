// Stands in for Abseil's string_view header in labmaze's sources: C++17's.
#ifndef THIRD_PARTY_LABMAZE_ABSL_STRINGS_STRING_VIEW_H_
#define THIRD_PARTY_LABMAZE_ABSL_STRINGS_STRING_VIEW_H_

#include <string_view>

namespace absl {
using std::string_view;
}  // namespace absl

#endif  // THIRD_PARTY_LABMAZE_ABSL_STRINGS_STRING_VIEW_H_
