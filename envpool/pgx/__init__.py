"""pgx's board and card games (TicTacToe, ConnectFour, ...) in C++."""
