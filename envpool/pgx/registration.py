"""Ids of the pgx family: pgx 2.6.0's games, seed-exact with its JAX keys.

An id is registered only once its game plays pgx's episodes exactly for the
keys of docs/pgx.md (tests/test_pgx.py compares whole games).
"""

from envpool.python.registry import register

for task_id, env_class in (
    ("TicTacToe-v1", "PgxTicTacToe"),
    ("ConnectFour-v1", "PgxConnectFour"),
    ("Othello-v1", "PgxOthello"),
    ("Hex-v1", "PgxHex"),
    ("Play2048-v1", "PgxPlay2048"),
    ("KuhnPoker-v1", "PgxKuhnPoker"),
    ("LeducHoldem-v1", "PgxLeducHoldem"),
    ("AnimalShogi-v1", "PgxAnimalShogi"),
    ("Backgammon-v1", "PgxBackgammon"),
    ("Chess-v1", "PgxChess"),
    ("GardnerChess-v1", "PgxGardnerChess"),
    ("SparrowMahjong-v1", "PgxSparrowMahjong"),
    ("Shogi-v1", "PgxShogi"),
):
    register(task_id, family="pgx", env_class=env_class)
for size in (9, 13, 19):
    register(f"Go{size}x{size}-v1", family="pgx", env_class="PgxGo", board_size=size)
    # pgx's Go with a repeating move illegal rather than lost (docs/pgx.md).
    register(
        f"ChineseGo{size}x{size}-v1",
        family="pgx",
        env_class="PgxGo",
        board_size=size,
        rules="chinese",
    )

SMOKE_TEST_ID = "TicTacToe-v1"
