#include "entry_table.h"

#include <cstring>

namespace icd {

Proc find_entry(std::span<const NamedEntry> table, const char* name) {
  for (const NamedEntry& e : table)
    if (std::strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

VendorEntries::VendorEntries(std::span<const NamedEntry> core,
                             std::span<const ExtensionEntry> extensions)
    : core_(core), extensions_(extensions), dispatch_index_(extensions.size(), -1) {}

int VendorEntries::slot(const char* name) const {
  if (!name) return -1;
  for (size_t i = 0; i < extensions_.size(); ++i)
    if (std::strcmp(extensions_[i].name, name) == 0) return static_cast<int>(i);
  return -1;
}

void* VendorEntries::function(const char* name) const {
  if (Proc f = find_entry(core_, name)) return reinterpret_cast<void*>(f);
  const int s = slot(name);
  return s >= 0 ? reinterpret_cast<void*>(extensions_[static_cast<size_t>(s)].fn) : nullptr;
}

void* VendorEntries::stub(const char* name) const {
  const int s = slot(name);
  return s >= 0 ? reinterpret_cast<void*>(extensions_[static_cast<size_t>(s)].stub) : nullptr;
}

void VendorEntries::set_dispatch_index(const char* name, int index) {
  if (const int s = slot(name); s >= 0) dispatch_index_[static_cast<size_t>(s)] = index;
}

}  // namespace icd
