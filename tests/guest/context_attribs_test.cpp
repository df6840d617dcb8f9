// eglCreateContext attribute lists and what a host can serve.
#include <gtest/gtest.h>

#include "egl/context_attribs.h"

namespace icd {
namespace {

const RenderCaps kCaps{32, 45, 45};

ContextRequest parse(EGLenum api, std::initializer_list<EGLint> attribs) {
  std::vector<EGLint> list(attribs);
  list.push_back(EGL_NONE);
  return parse_context_attribs(api, list.data());
}

TEST(ContextAttribs, GlesVersions) {
  auto r = parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.major, 3);
  EXPECT_EQ(r.minor, 2);
  EXPECT_EQ(r.profile, wire::Profile::kNone);
  EXPECT_EQ(check_context_request(r, nullptr, kCaps), EGL_SUCCESS);

  // GLES 1 (the default version) needs a host that offers it; 2.1 does not
  // exist; 3.2 needs a host that has it.
  EXPECT_EQ(check_context_request(parse(EGL_OPENGL_ES_API, {}), nullptr, kCaps), EGL_BAD_MATCH);
  EXPECT_EQ(check_context_request(parse(EGL_OPENGL_ES_API, {}), nullptr, RenderCaps{32, 45, 45, true}),
            EGL_SUCCESS);
  EXPECT_EQ(check_context_request(parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 1}),
                                  nullptr, kCaps),
            EGL_BAD_MATCH);
  EXPECT_EQ(check_context_request(r, nullptr, RenderCaps{31, 0, 0}), EGL_BAD_MATCH);
}

TEST(ContextAttribs, ConfigMustBeRenderableForTheVersion) {
  Config es2_only;
  es2_only.renderable_type = EGL_OPENGL_ES2_BIT;
  auto es3 = parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_CLIENT_VERSION, 3});
  EXPECT_EQ(check_context_request(es3, &es2_only, kCaps), EGL_BAD_MATCH);
  auto es2 = parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_CLIENT_VERSION, 2});
  EXPECT_EQ(check_context_request(es2, &es2_only, kCaps), EGL_SUCCESS);
  auto gl = parse(EGL_OPENGL_API, {});
  EXPECT_EQ(check_context_request(gl, &es2_only, kCaps), EGL_BAD_MATCH);
  auto es1 = parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_CLIENT_VERSION, 1});
  EXPECT_EQ(check_context_request(es1, &es2_only, RenderCaps{32, 45, 45, true}), EGL_BAD_MATCH);
}

TEST(ContextAttribs, DesktopProfiles) {
  auto legacy = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 1});
  EXPECT_EQ(legacy.profile, wire::Profile::kCompatibility);
  auto core = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5});
  EXPECT_EQ(core.profile, wire::Profile::kCore);
  EXPECT_EQ(check_context_request(core, nullptr, kCaps), EGL_SUCCESS);
  auto compat = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT});
  EXPECT_EQ(compat.profile, wire::Profile::kCompatibility);
  auto too_new = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6});
  EXPECT_EQ(check_context_request(too_new, nullptr, kCaps), EGL_BAD_MATCH);
  auto no_profile = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                                           EGL_CONTEXT_OPENGL_PROFILE_MASK, 0});
  EXPECT_EQ(no_profile.error, EGL_BAD_MATCH);
  auto both_profiles = parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                              EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT |
                                                  EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT});
  EXPECT_EQ(both_profiles.error, EGL_BAD_MATCH);
}

TEST(ContextAttribs, FlagsAndBadAttributes) {
  auto r = parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_FLAGS_KHR,
                                     EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR, EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.flags, 3u);
  // The flag bits of forward compatibility and robust access are OpenGL's only.
  EXPECT_EQ(parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR}).error,
            EGL_BAD_ATTRIBUTE);
  EXPECT_TRUE(parse(EGL_OPENGL_API, {EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR}).ok());
  // Forward compatibility reaches the host, whose GL_CONTEXT_FLAGS then say so.
  EXPECT_EQ(parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
                                   EGL_TRUE}).flags,
            wire::kContextForwardCompatible);
  EXPECT_EQ(parse(EGL_OPENGL_API, {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_FLAGS_KHR,
                                   EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR}).flags,
            wire::kContextForwardCompatible);
  EXPECT_EQ(parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT}).error,
            EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(parse(EGL_OPENGL_ES_API, {0x7777, 0}).error, EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_FLAGS_KHR, 0x100}).error, EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(parse(EGL_OPENGL_ES_API, {EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, 5}).error,
            EGL_BAD_ATTRIBUTE);
  // EGL_KHR_context_flush_control: the host makes the context so.
  EXPECT_EQ(parse(EGL_OPENGL_API, {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR}).flags,
            wire::kContextReleaseNone);
  EXPECT_EQ(parse(EGL_OPENGL_API, {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR}).flags, 0u);
  EXPECT_EQ(parse(EGL_OPENGL_API, {EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, 3}).error, EGL_BAD_ATTRIBUTE);
}

}  // namespace
}  // namespace icd
