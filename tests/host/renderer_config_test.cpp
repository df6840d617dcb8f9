// What the supervisor tells a renderer at its start: a renderer keeps only
// the drivers' environment, so a choice the host made from its own
// (CONDUIT_PATIENCE) must travel in the renderer's configuration.
#include <gtest/gtest.h>

#include <cstdlib>

#include "renderer_config.h"

namespace {

bool patience_given_with(const char* value) {
  ::setenv("CONDUIT_PATIENCE", value, 1);
  auto config = host::config_from_json(host::to_json(host::RendererConfig{}));
  ::unsetenv("CONDUIT_PATIENCE");
  EXPECT_TRUE(config) << config.error().describe();
  return config && config->transport.patient_waits.value_or(false);
}

TEST(RendererConfig, CarriesTheHostsPatience) {
  EXPECT_TRUE(patience_given_with("1"));
  EXPECT_FALSE(patience_given_with("0"));
}

TEST(RendererConfig, AnExplicitChoiceWinsOverTheEnvironment) {
  host::RendererConfig c;
  c.transport.patient_waits = false;
  ::setenv("CONDUIT_PATIENCE", "1", 1);
  auto config = host::config_from_json(host::to_json(c));
  ::unsetenv("CONDUIT_PATIENCE");
  ASSERT_TRUE(config) << config.error().describe();
  EXPECT_EQ(config->transport.patient_waits, std::optional<bool>(false));
}

}  // namespace
