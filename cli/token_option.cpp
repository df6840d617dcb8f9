#include <cstdio>
#include <string>

#include "commands.h"
#include "wire/transport.h"

namespace cli {

bool read_token_option(const char* command, const std::string& file, std::string* token) {
  if (file.empty()) return true;
  auto read = wire::read_token_file(file);
  if (!read) {
    std::fprintf(stderr, "%s: %s\n", command, read.error().detail.c_str());
    return false;
  }
  *token = std::move(*read);
  return true;
}

}  // namespace cli
