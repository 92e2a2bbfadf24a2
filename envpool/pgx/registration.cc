// The pgx family's Python module: registers its env types with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/pgx/line_games.h"

PYBIND11_MODULE(_pgx, m) {
  using namespace envpool::pgx;  // NOLINT
  envpool::RegisterEnv<TicTacToeEnv>("PgxTicTacToe");
  envpool::RegisterEnv<ConnectFourEnv>("PgxConnectFour");
}
