// The toy_text family's Python module: registers its env types with the
// shared core when Python imports it.
#include <pybind11/pybind11.h>

#include <string>

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
  pybind11::object asset_dir = pybind11::module_::import("envpool.toy_text")
                                   .attr("gymnasium_asset_dir")();
  ToyTextAssetDir() =
      asset_dir.is_none() ? std::string() : asset_dir.cast<std::string>();
  envpool::RegisterEnv<CatchEnv>("Catch");
  envpool::RegisterEnv<FrozenLakeEnv>("FrozenLake");
  envpool::RegisterEnv<TaxiEnv>("Taxi");
  envpool::RegisterEnv<NChainEnv>("NChain");
  envpool::RegisterEnv<CliffWalkingEnv>("CliffWalking");
  envpool::RegisterEnv<BlackjackEnv>("Blackjack");
}
