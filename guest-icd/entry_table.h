// Entry points by name, as libglvnd's EGL and GLX vendor interfaces and the
// Vulkan loader ask for them: each front lists its functions in tables,
// searched alike.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace icd {

// The type every entry point travels as; its caller casts it back.
using Proc = void (*)();

template <typename F>
Proc proc(F f) {
  return reinterpret_cast<Proc>(f);
}

struct NamedEntry {
  const char* name;
  Proc fn;
};

// The entry called `name` in `table`, or null.
Proc find_entry(std::span<const NamedEntry> table, const char* name);

// An extension function libglvnd dispatches: ours, and the stub libglvnd
// calls, which finds the vendor and calls its entry.
struct ExtensionEntry {
  const char* name;
  Proc fn;
  Proc stub;
};

// A libglvnd vendor's entry points (EGL and GLX alike): the core functions
// libglvnd calls as they are, and the extension functions it calls through
// stubs of ours, which dispatch by the index libglvnd gives each one.
class VendorEntries {
 public:
  VendorEntries(std::span<const NamedEntry> core, std::span<const ExtensionEntry> extensions);

  // getProcAddress: a core or extension function of this vendor, or null.
  void* function(const char* name) const;
  // getDispatchAddress: the stub of an extension function, or null.
  void* stub(const char* name) const;
  // setDispatchIndex.
  void set_dispatch_index(const char* name, int index);
  // The index extension `slot` is dispatched by; -1 until libglvnd gave one.
  int dispatch_index(size_t slot) const { return dispatch_index_[slot]; }

 private:
  // The position of an extension function in `extensions_`, or -1.
  int slot(const char* name) const;

  std::span<const NamedEntry> core_;
  std::span<const ExtensionEntry> extensions_;
  std::vector<int> dispatch_index_;
};

}  // namespace icd
