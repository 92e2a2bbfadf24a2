// Stands in for Abseil's StrSplit in labmaze's sources, which split a text
// grid into its non-empty lines and nothing else.
#ifndef THIRD_PARTY_LABMAZE_ABSL_STRINGS_STR_SPLIT_H_
#define THIRD_PARTY_LABMAZE_ABSL_STRINGS_STR_SPLIT_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace absl {

struct SkipEmpty {};

// The pieces of `text` between the `delimiter`s, empty ones left out.
inline std::vector<std::string_view> StrSplit(std::string_view text,
                                              char delimiter,
                                              SkipEmpty /*skip*/) {
  std::vector<std::string_view> pieces;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(delimiter, begin);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    if (end > begin) {
      pieces.push_back(text.substr(begin, end - begin));
    }
    begin = end + 1;
  }
  return pieces;
}

}  // namespace absl

#endif  // THIRD_PARTY_LABMAZE_ABSL_STRINGS_STR_SPLIT_H_
