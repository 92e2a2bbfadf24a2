// The highway family's Python module: registers its env types with the
// shared core when Python imports it, after finding numpy's float64 kernels
// (envpool/core/numpy_kernels.h says why) and how numpy's BLAS rounds small
// products (envpool/core/numpy_blas.h).
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/core/numpy_kernels_loader.h"
#include "envpool/highway/exit_env.h"
#include "envpool/highway/highway_env.h"
#include "envpool/highway/intersection_env.h"
#include "envpool/highway/lane_keeping_env.h"
#include "envpool/highway/merge_env.h"
#include "envpool/highway/parking_env.h"
#include "envpool/highway/racetrack_env.h"
#include "envpool/highway/roundabout_env.h"
#include "envpool/highway/two_way_env.h"
#include "envpool/highway/u_turn_env.h"

PYBIND11_MODULE(_highway, m) {
  envpool::numpy_kernels::LoadNumpyKernels();
  m.def("numpy_kernels", &envpool::numpy_kernels::LoadedNumpyKernels,
        "The numpy ufuncs whose float64 loops the envs call (the rest: libm).");
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::RegisterEnv<envpool::highway::HighwayEnv>("Highway");
  envpool::RegisterEnv<envpool::highway::MergeEnv>("Merge");
  envpool::RegisterEnv<envpool::highway::MergeGenericEnv>("MergeGeneric");
  envpool::RegisterEnv<envpool::highway::ExitEnv>("Exit");
  envpool::RegisterEnv<envpool::highway::RoundaboutEnv>("Roundabout");
  envpool::RegisterEnv<envpool::highway::RoundaboutGenericEnv>(
      "RoundaboutGeneric");
  envpool::RegisterEnv<envpool::highway::TwoWayEnv>("TwoWay");
  envpool::RegisterEnv<envpool::highway::UTurnEnv>("UTurn");
  envpool::RegisterEnv<envpool::highway::IntersectionEnv>("Intersection");
  envpool::RegisterEnv<envpool::highway::IntersectionContinuousEnv>(
      "IntersectionContinuous");
  envpool::RegisterEnv<envpool::highway::LaneKeepingEnv>("LaneKeeping");
  envpool::RegisterEnv<envpool::highway::IntersectionMultiAgentEnv>(
      "IntersectionMultiAgent");
  envpool::RegisterEnv<envpool::highway::ParkingEnv>("Parking");
  envpool::RegisterEnv<envpool::highway::RacetrackEnv>("Racetrack");
  envpool::RegisterEnv<envpool::highway::RacetrackLargeEnv>("RacetrackLarge");
  envpool::RegisterEnv<envpool::highway::RacetrackOvalEnv>("RacetrackOval");
}
