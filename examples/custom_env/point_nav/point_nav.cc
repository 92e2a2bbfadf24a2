// The package's native library: registers its env class with envpool.
#include "point_nav/point_nav.h"

#include "envpool/core/plugin.h"

ENVPOOL_PLUGIN() { envpool::RegisterEnv<point_nav::PointNavEnv>("PointNav"); }
