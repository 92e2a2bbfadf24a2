// The pgx family's Python module: registers its env types with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/pgx/animal_shogi.h"
#include "envpool/pgx/backgammon.h"
#include "envpool/pgx/chess.h"
#include "envpool/pgx/gardner_chess.h"
#include "envpool/pgx/go.h"
#include "envpool/pgx/hex.h"
#include "envpool/pgx/line_games.h"
#include "envpool/pgx/othello.h"
#include "envpool/pgx/play2048.h"
#include "envpool/pgx/poker.h"
#include "envpool/pgx/shogi.h"
#include "envpool/pgx/sparrow_mahjong.h"

PYBIND11_MODULE(_pgx, m) {
  using namespace envpool::pgx;  // NOLINT
  envpool::RegisterEnv<TicTacToeEnv>("PgxTicTacToe");
  envpool::RegisterEnv<ConnectFourEnv>("PgxConnectFour");
  envpool::RegisterEnv<OthelloEnv>("PgxOthello");
  envpool::RegisterEnv<HexEnv>("PgxHex");
  envpool::RegisterEnv<GoEnv>("PgxGo");
  envpool::RegisterEnv<AnimalShogiEnv>("PgxAnimalShogi");
  envpool::RegisterEnv<BackgammonEnv>("PgxBackgammon");
  envpool::RegisterEnv<ChessEnv>("PgxChess");
  envpool::RegisterEnv<GardnerChessEnv>("PgxGardnerChess");
  envpool::RegisterEnv<Play2048Env>("PgxPlay2048");
  envpool::RegisterEnv<KuhnPokerEnv>("PgxKuhnPoker");
  envpool::RegisterEnv<LeducHoldemEnv>("PgxLeducHoldem");
  envpool::RegisterEnv<SparrowMahjongEnv>("PgxSparrowMahjong");
  envpool::RegisterEnv<ShogiEnv>("PgxShogi");
}
