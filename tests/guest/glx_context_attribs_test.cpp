// glXCreateContextAttribsARB attribute lists and what a host can serve,
// OpenGL ES profiles (GLX_EXT_create_context_es_profile) included.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "glx/context_attribs.h"

namespace icd::glx {
namespace {

const RenderCaps kCaps{32, 45, 45};

ContextRequest parse(std::initializer_list<int> attribs) {
  std::vector<int> list(attribs);
  list.push_back(None);
  return parse_context_attribs(list.data());
}

TEST(GlxContextAttribs, EsProfileGetsTheVersionAskedFor) {
  auto r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES2_PROFILE_BIT_EXT,
                  GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_MINOR_VERSION_ARB, 0});
  ASSERT_EQ(r.error, 0);
  HostContext host = host_context_for(r, kCaps);
  ASSERT_EQ(r.error, 0);
  EXPECT_TRUE(host.gles);
  EXPECT_EQ(host.major, 2);
  EXPECT_EQ(host.minor, 0);
  r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES_PROFILE_BIT_EXT,
             GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 2});
  host = host_context_for(r, kCaps);
  ASSERT_EQ(r.error, 0);
  EXPECT_TRUE(host.gles);
  EXPECT_EQ(host.major * 10 + host.minor, 32);
}

TEST(GlxContextAttribs, EsVersionsThatDoNotExistOrAreNotCarried) {
  for (int minor : {1, 3}) {  // OpenGL ES 2.1 and 2.3 do not exist
    auto r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES_PROFILE_BIT_EXT,
                    GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_MINOR_VERSION_ARB, minor});
    EXPECT_EQ(r.error, BadMatch);
  }
  // OpenGL ES 1.1 exists, but its commands are not carried.
  auto r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES_PROFILE_BIT_EXT,
                  GLX_CONTEXT_MAJOR_VERSION_ARB, 1, GLX_CONTEXT_MINOR_VERSION_ARB, 1});
  ASSERT_EQ(r.error, 0);
  host_context_for(r, kCaps);
  EXPECT_EQ(r.error, BadMatch);
  // Beyond what the host offers.
  r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES_PROFILE_BIT_EXT,
             GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 2});
  host_context_for(r, RenderCaps{30, 45, 45});
  EXPECT_EQ(r.error, BadMatch);
}

// GLX_ARB_context_flush_control: none or flush; any other value is BadValue.
TEST(GlxContextAttribs, ReleaseBehaviour) {
  EXPECT_TRUE(parse({GLX_CONTEXT_RELEASE_BEHAVIOR_ARB, GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB}).release_none);
  auto flush = parse({GLX_CONTEXT_RELEASE_BEHAVIOR_ARB, GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB});
  EXPECT_EQ(flush.error, 0);
  EXPECT_FALSE(flush.release_none);
  EXPECT_FALSE(parse({}).release_none);
  EXPECT_EQ(parse({GLX_CONTEXT_RELEASE_BEHAVIOR_ARB, 7}).error, BadValue);
}

TEST(GlxContextAttribs, EsProfileWithAnotherProfileIsRefused) {
  auto r = parse({GLX_CONTEXT_PROFILE_MASK_ARB,
                  GLX_CONTEXT_ES_PROFILE_BIT_EXT | GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                  GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 2});
  if (r.error == 0) host_context_for(r, kCaps);
  EXPECT_NE(r.error, 0);
}

TEST(GlxContextAttribs, DesktopRequestsStayDesktop) {
  auto r = parse({GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                  GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3});
  HostContext host = host_context_for(r, kCaps);
  ASSERT_EQ(r.error, 0);
  EXPECT_FALSE(host.gles);
  EXPECT_TRUE(host.core);
}

}  // namespace
}  // namespace icd::glx
