#include "envpool/locomotion/mjcf_reader.h"

#include <cctype>
#include <cstddef>
#include <stdexcept>

namespace envpool::locomotion {
namespace {

class Reader {
 public:
  Reader(const std::string& text, const std::string& source)
      : text_(text), source_(source) {}

  MjcfElement Root() {
    SkipMisc();
    MjcfElement root = Element();
    SkipMisc();
    if (pos_ != text_.size()) {
      Fail("text after the root element");
    }
    return root;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw std::runtime_error("cannot read MJCF " + source_ + " at offset " +
                             std::to_string(pos_) + ": " + what);
  }

  bool StartsWith(const char* prefix) const {
    return text_.compare(pos_, std::char_traits<char>::length(prefix),
                         prefix) == 0;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }

  void SkipPast(const char* end) {
    const std::size_t at = text_.find(end, pos_);
    if (at == std::string::npos) {
      Fail(std::string("no closing ") + end);
    }
    pos_ = at + std::char_traits<char>::length(end);
  }

  // Space, comments and declarations between elements.
  void SkipMisc() {
    for (;;) {
      SkipSpace();
      if (StartsWith("<!--")) {
        SkipPast("-->");
      } else if (StartsWith("<?")) {
        SkipPast("?>");
      } else {
        return;
      }
    }
  }

  std::string Name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' &&
          c != '-' && c != ':' && c != '.') {
        break;
      }
      ++pos_;
    }
    if (pos_ == start) {
      Fail("a name was expected");
    }
    return text_.substr(start, pos_ - start);
  }

  MjcfElement Element() {
    if (!StartsWith("<")) {
      Fail("an element was expected");
    }
    ++pos_;
    MjcfElement element;
    element.tag = Name();
    for (;;) {
      SkipSpace();
      if (StartsWith("/>")) {
        pos_ += 2;
        return element;
      }
      if (StartsWith(">")) {
        ++pos_;
        break;
      }
      std::string key = Name();
      SkipSpace();
      if (!StartsWith("=")) {
        Fail("'=' was expected after attribute " + key);
      }
      ++pos_;
      SkipSpace();
      if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
        Fail("a quoted value was expected for attribute " + key);
      }
      const char quote = text_[pos_++];
      const std::size_t end = text_.find(quote, pos_);
      if (end == std::string::npos) {
        Fail("unterminated value of attribute " + key);
      }
      element.attributes.emplace_back(std::move(key),
                                      text_.substr(pos_, end - pos_));
      pos_ = end + 1;
    }
    for (;;) {
      SkipMisc();
      if (StartsWith("</")) {
        pos_ += 2;
        if (Name() != element.tag) {
          Fail("mismatched closing tag of <" + element.tag + ">");
        }
        SkipSpace();
        if (!StartsWith(">")) {
          Fail("'>' was expected");
        }
        ++pos_;
        return element;
      }
      if (pos_ >= text_.size()) {
        Fail("<" + element.tag + "> is not closed");
      }
      element.children.push_back(Element());
    }
  }

  const std::string& text_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string MjcfElement::Get(const std::string& key) const {
  for (const auto& [name, value] : attributes) {
    if (name == key) {
      return value;
    }
  }
  return "";
}

const MjcfElement* MjcfElement::Child(const std::string& tag) const {
  for (const MjcfElement& child : children) {
    if (child.tag == tag) {
      return &child;
    }
  }
  return nullptr;
}

MjcfElement ParseMjcf(const std::string& text, const std::string& source) {
  return Reader(text, source).Root();
}

}  // namespace envpool::locomotion
