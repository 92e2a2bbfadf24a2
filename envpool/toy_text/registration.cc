// The toy_text family's Python module: registers its env types with the
// shared core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/toy_text/blackjack.h"
#include "envpool/toy_text/catch.h"
#include "envpool/toy_text/cliff_walking.h"
#include "envpool/toy_text/frozen_lake.h"
#include "envpool/toy_text/nchain.h"
#include "envpool/toy_text/sprites.h"
#include "envpool/toy_text/taxi.h"

PYBIND11_MODULE(_toy_text, m) {
  using namespace envpool::toy_text;  // NOLINT
  envpool::RegisterEnv<CatchEnv>("Catch");
  envpool::RegisterEnv<FrozenLakeEnv>("FrozenLake");
  envpool::RegisterEnv<TaxiEnv>("Taxi");
  envpool::RegisterEnv<NChainEnv>("NChain");
  envpool::RegisterEnv<CliffWalkingEnv>("CliffWalking");
  envpool::RegisterEnv<BlackjackEnv>("Blackjack");
}
