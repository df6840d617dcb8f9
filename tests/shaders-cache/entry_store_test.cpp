#include "shaders_cache/entry_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "shaders_cache/content_hash.h"

namespace shaders_cache {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bytes_of(const std::string& s) {
  auto b = std::as_bytes(std::span(s.data(), s.size()));
  return {b.begin(), b.end()};
}

std::string key_of(const std::string& s) { return ContentHash().add(s).hex(); }

class EntryStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/conduit-store-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    folder_ = root_ + "/programs/host";
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string root_, folder_;
};

TEST_F(EntryStoreTest, GivesBackWhatItStored) {
  EntryStore store(folder_, 1 << 20);
  EXPECT_FALSE(store.get(key_of("a")));
  ASSERT_TRUE(store.put(key_of("a"), bytes_of("program a")));
  auto got = store.get(key_of("a"));
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, bytes_of("program a"));
  EXPECT_EQ(store.stats().entries, 1u);
  // Made private: renderers and other users have no business here.
  EXPECT_EQ(fs::status(folder_).permissions() & fs::perms::all, fs::perms::owner_all);
}

TEST_F(EntryStoreTest, RefusesNamesThatAreNoContentKeys) {
  EntryStore store(folder_, 1 << 20);
  EXPECT_FALSE(store.put("../escape", bytes_of("x")));
  EXPECT_FALSE(store.put(std::string(64, 'A'), bytes_of("x")));
  EXPECT_FALSE(store.get("../../etc/passwd"));
  EXPECT_FALSE(fs::exists(root_ + "/programs/escape"));
}

TEST_F(EntryStoreTest, DamagedEntryIsAMissAndGoes) {
  EntryStore store(folder_, 1 << 20);
  const std::string key = key_of("b");
  ASSERT_TRUE(store.put(key, bytes_of("a program binary of some length")));
  const std::string path = folder_ + "/" + key;
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('\x55');
  }
  EXPECT_FALSE(store.get(key));
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(EntryStoreTest, TruncatedEntryIsAMiss) {
  EntryStore store(folder_, 1 << 20);
  const std::string key = key_of("c");
  ASSERT_TRUE(store.put(key, bytes_of("a program binary of some length")));
  fs::resize_file(folder_ + "/" + key, 60);
  EXPECT_FALSE(store.get(key));
  ASSERT_TRUE(store.put(key, bytes_of("again")));
  fs::resize_file(folder_ + "/" + key, 10);  // not even a header
  EXPECT_FALSE(store.get(key));
}

TEST_F(EntryStoreTest, EntryCopiedUnderAnotherKeyIsAMiss) {
  EntryStore store(folder_, 1 << 20);
  ASSERT_TRUE(store.put(key_of("d"), bytes_of("d's binary")));
  fs::copy_file(folder_ + "/" + key_of("d"), folder_ + "/" + key_of("e"));
  EXPECT_FALSE(store.get(key_of("e")));
  EXPECT_TRUE(store.get(key_of("d")));
}

TEST_F(EntryStoreTest, EvictsWhatWasUsedLongestAgo) {
  const std::string payload(1000, 'p');
  EntryStore store(folder_, 3 * (1000 + 56));  // three entries
  ASSERT_TRUE(store.put(key_of("1"), bytes_of(payload)));
  ASSERT_TRUE(store.put(key_of("2"), bytes_of(payload)));
  ASSERT_TRUE(store.put(key_of("3"), bytes_of(payload)));
  // Distinct times even on coarse clocks: "1" used last, "2" oldest.
  const auto past = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(folder_ + "/" + key_of("2"), past);
  fs::last_write_time(folder_ + "/" + key_of("3"), past + std::chrono::minutes(1));
  fs::last_write_time(folder_ + "/" + key_of("1"), past + std::chrono::minutes(2));
  ASSERT_TRUE(store.get(key_of("2")));  // a hit renews it: "3" is now the oldest
  ASSERT_TRUE(store.put(key_of("4"), bytes_of(payload)));
  EXPECT_TRUE(store.get(key_of("1")));
  EXPECT_TRUE(store.get(key_of("2")));
  EXPECT_FALSE(store.get(key_of("3")));
  EXPECT_TRUE(store.get(key_of("4")));
  EXPECT_LE(store.stats().bytes, 3u * (1000 + 56));
}

TEST_F(EntryStoreTest, LeavesNoTemporaryFilesAndClears) {
  EntryStore store(folder_, 1 << 20);
  ASSERT_TRUE(store.put(key_of("f"), bytes_of("f")));
  std::ofstream(folder_ + "/.tmp-left") << "half written by a host that died";
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(folder_)) files += e.path().filename().string().starts_with(".tmp-") ? 0 : 1;
  EXPECT_EQ(files, 1u);
  EXPECT_EQ(store.clear(), 2u);
  EXPECT_TRUE(fs::is_empty(folder_));
}

TEST_F(EntryStoreTest, ScopeFoldersAreListed) {
  EntryStore(folder_, 1 << 20).put(key_of("g"), bytes_of("g"));
  EntryStore(root_ + "/programs/guest-x", 1 << 20).put(key_of("g"), bytes_of("g"));
  auto folders = scope_folders(root_ + "/programs");
  ASSERT_EQ(folders.size(), 2u);
  EXPECT_EQ(folders[0], root_ + "/programs/guest-x");
}

}  // namespace
}  // namespace shaders_cache
