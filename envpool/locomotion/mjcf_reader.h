// A small reader of MJCF text: the elements, their attributes in file order
// and their children, comments dropped. The soccer walkers other than
// BoxHead are read from the dm-control wheel's own model files (ant.xml) and
// re-written under the player's prefix, as Composer attaches them, rather
// than copied into this project by hand.
#ifndef ENVPOOL_LOCOMOTION_MJCF_READER_H_
#define ENVPOOL_LOCOMOTION_MJCF_READER_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace envpool::locomotion {

struct MjcfElement {
  std::string tag;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<MjcfElement> children;

  // The attribute's value, or "" when the element has none.
  std::string Get(const std::string& key) const;
  // The first child with this tag, or nullptr.
  const MjcfElement* Child(const std::string& tag) const;
};

// The root element of `text`. Throws std::runtime_error naming `source` and
// the offset when the text is not the well-formed XML MJCF files are
// (elements, attributes in double or single quotes, comments, an optional
// declaration).
MjcfElement ParseMjcf(const std::string& text, const std::string& source);

// The top-level element `tag` of a walker's file (`root`, read from
// `source`); throws std::runtime_error "<source> has no <tag>: not
// dm_control's <walker>" when the file has none.
const MjcfElement& WalkerSection(const MjcfElement& root, const char* tag,
                                 const std::string& source,
                                 const std::string& walker);

// How an element of a walker's file is written into an episode's model, as
// Composer attaches the walker under its namespace ("home0/", "walker/").
struct PrefixRules {
  std::string prefix;
  // Composer writes class="<prefix>" on every element that takes a class
  // and has none, unless a body above it has a childclass.
  bool add_class = false;
  // Changes an element's attributes (unprefixed) before it is written:
  // a team colour, contacts turned off.
  std::function<void(const MjcfElement& element,
                     std::vector<std::pair<std::string, std::string>>*)>
      edit;
};

// Appends `element` and its children at `indent` spaces, every name and
// reference to another element prefixed.
void AppendPrefixed(const MjcfElement& element, const PrefixRules& rules,
                    int indent, std::string* xml);

// The MuJoCo skin file `skin` (binary .skn: counts, vertices, texture
// coordinates, faces, then per bone its body's name in 40 bytes, bind pose
// and vertex weights) with every bone's body name prefixed, as Composer's
// mjcf.skin.serialize writes it for the attached walker. Throws
// std::runtime_error naming `source` when the bytes are not such a file or
// a prefixed name does not fit its 40 bytes.
std::string PrefixedSkin(const std::string& skin, const std::string& source,
                         const std::string& prefix);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_MJCF_READER_H_
