#include "envpool/locomotion/mjcf_reader.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

// Attributes whose value names another element of the walker: Composer
// prefixes them with the walker's namespace as it does the names.
bool IsReference(const std::string& key) {
  static const char* const kReferences[] = {
      "name",    "class",  "childclass", "material", "target", "joint",
      "site",    "body1",  "body2",      "texture",  "mesh",   "objname",
      "refname", "tendon", "geom1",      "geom2",    "body"};
  for (const char* reference : kReferences) {
    if (key == reference) {
      return true;
    }
  }
  return false;
}

bool TakesClass(const std::string& tag) {
  return tag != "body" && tag != "default" && tag != "freejoint" &&
         tag != "exclude" && tag != "pair";
}

void AppendElement(const MjcfElement& element, const PrefixRules& rules,
                   int indent, bool in_childclass, std::string* xml) {
  auto attributes = element.attributes;
  if (rules.edit) {
    rules.edit(element, &attributes);
  }
  const std::string pad(indent, ' ');
  *xml += pad + "<" + element.tag;
  bool has_class = false;
  for (const auto& [key, value] : attributes) {
    has_class = has_class || key == "class";
    *xml += " " + key + "=\"" +
            (IsReference(key) ? rules.prefix + value : value) + "\"";
  }
  if (rules.add_class && !has_class && !in_childclass &&
      TakesClass(element.tag)) {
    *xml += " class=\"" + rules.prefix + "\"";
  }
  if (element.children.empty()) {
    *xml += "/>\n";
    return;
  }
  *xml += ">\n";
  const bool below_childclass =
      in_childclass || !element.Get("childclass").empty();
  for (const MjcfElement& child : element.children) {
    AppendElement(child, rules, indent + 2, below_childclass, xml);
  }
  *xml += pad + "</" + element.tag + ">\n";
}

}  // namespace

void AppendPrefixed(const MjcfElement& element, const PrefixRules& rules,
                    int indent, std::string* xml) {
  AppendElement(element, rules, indent, false, xml);
}

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

const MjcfElement& WalkerSection(const MjcfElement& root, const char* tag,
                                 const std::string& source,
                                 const std::string& walker) {
  const MjcfElement* section = root.Child(tag);
  if (section == nullptr) {
    throw std::runtime_error(source + " has no <" + tag +
                             ">: not dm_control's " + walker);
  }
  return *section;
}

std::string PrefixedSkin(const std::string& skin, const std::string& source,
                         const std::string& prefix) {
  constexpr std::size_t kNameLength = 40;
  auto fail = [&source] {
    throw std::runtime_error(source + " is not a MuJoCo skin file");
  };
  auto read_int = [&](std::size_t at) {
    if (at + 4 > skin.size()) {
      fail();
    }
    int32_t value = 0;
    std::memcpy(&value, skin.data() + at, 4);
    return static_cast<std::size_t>(value);
  };
  const std::size_t nvertex = read_int(0), ntexcoord = read_int(4);
  const std::size_t nface = read_int(8), nbone = read_int(12);
  std::size_t at = 16 + 4 * (3 * nvertex + 2 * ntexcoord + 3 * nface);
  if (at > skin.size()) {
    fail();
  }
  std::string out = skin.substr(0, at);
  for (std::size_t b = 0; b < nbone; ++b) {
    if (at + kNameLength > skin.size()) {
      fail();
    }
    const std::string name(skin.c_str() + at,
                           strnlen(skin.c_str() + at, kNameLength));
    const std::string prefixed = prefix + name;
    if (prefixed.size() > kNameLength) {
      throw std::runtime_error("the skin's body name " + prefixed +
                               " is longer than a skin file holds");
    }
    out += prefixed + std::string(kNameLength - prefixed.size(), '\0');
    at += kNameLength;
    const std::size_t count = read_int(at + 4 * 7);
    const std::size_t size = 4 * 7 + 4 + 8 * count;
    if (at + size > skin.size()) {
      fail();
    }
    out += skin.substr(at, size);
    at += size;
  }
  return out;
}

}  // namespace envpool::locomotion
