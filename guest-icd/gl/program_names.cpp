// GLSL names GL resolves (OpenGL 4.6 7.3.1.1, OpenGL ES 3.2 7.3.1.1): an
// active variable by its name; an array of basic type by its name or its
// first element's; element k as "name[k]", k a decimal without leading
// zeros. "gl_" names are GL's own: the host is asked.
#include "gl/program_names.h"

#include <charconv>
#include <vector>

namespace icd {
namespace {

constexpr std::string_view kFirst = "[0]";
constexpr GLuint kInvalidIndex = 0xFFFFFFFFu;

// The name up to its first subscript or member.
std::string_view leading_identifier(std::string_view name) { return name.substr(0, name.find_first_of("[.")); }

// "a[0]" -> "a"; none for names that are not an array's first element.
std::optional<std::string_view> array_base(std::string_view name) {
  if (!name.ends_with(kFirst)) return std::nullopt;
  return name.substr(0, name.size() - kFirst.size());
}

struct Element {
  std::string_view base;
  uint32_t index;
};

// "a[12]" -> {"a", 12}; none unless the subscript is a plain decimal.
std::optional<Element> last_element(std::string_view name) {
  if (!name.ends_with(']')) return std::nullopt;
  const size_t open = name.rfind('[');
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  const std::string_view digits = name.substr(open + 1, name.size() - open - 2);
  if (digits.empty() || digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  uint32_t index = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return Element{name.substr(0, open), index};
}

bool shares_leading_identifier(const std::vector<wire::ReflectedVariable>& list, std::string_view name) {
  const std::string_view lead = leading_identifier(name);
  for (const auto& v : list) {
    if (leading_identifier(v.name) == lead) return true;
  }
  return false;
}

// `past_end`: the answer for an element past an array's end, when GL's is known.
std::optional<GLint> locate(const wire::ProgramReflection& r, const std::vector<wire::ReflectedVariable>& list,
                            std::string_view name, std::optional<GLint> past_end) {
  if (!r.interface_known || name.empty() || name.starts_with("gl_")) return std::nullopt;
  for (const auto& v : list) {
    if (v.name == name || array_base(v.name) == name) return v.location;
  }
  if (auto e = last_element(name)) {
    for (const auto& v : list) {
      if (array_base(v.name) != e->base) continue;
      if (e->index >= static_cast<uint32_t>(v.size)) return past_end;
      if (!v.elements_follow || v.location < 0) return std::nullopt;
      return v.location + static_cast<GLint>(e->index);
    }
  }
  if (shares_leading_identifier(list, name)) return std::nullopt;
  return -1;
}

}  // namespace

std::optional<GLint> uniform_location(const wire::ProgramReflection& r, std::string_view name) {
  return locate(r, r.uniforms, name, -1);
}

// GL places no attribute past an array's end either, but drivers differ in
// how they read such names: the host is asked.
std::optional<GLint> attrib_location(const wire::ProgramReflection& r, std::string_view name) {
  return locate(r, r.attributes, name, std::nullopt);
}

std::optional<GLuint> uniform_block_index(const wire::ProgramReflection& r, std::string_view name) {
  if (!r.interface_known || name.empty() || name.starts_with("gl_")) return std::nullopt;
  for (size_t i = 0; i < r.blocks.size(); ++i) {
    if (r.blocks[i] == name) return static_cast<GLuint>(i);
  }
  for (const auto& b : r.blocks) {
    if (leading_identifier(b) == leading_identifier(name)) return std::nullopt;
  }
  return kInvalidIndex;
}

std::optional<GLint> program_value(const wire::ProgramReflection& r, GLenum pname) {
  for (auto [p, value] : r.values) {
    if (p == pname) return value;
  }
  return std::nullopt;
}

}  // namespace icd
