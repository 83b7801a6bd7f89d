#!/usr/bin/env python3
"""Plays one full chess game against `tenfold uci` through python-chess's UCI client.

The engine plays itself (default) or a random mover, under a clock with an increment,
until the game ends by python-chess's rules (checkmate, stalemate, repetition, 50 moves,
insufficient material). Every engine move is checked for legality by python-chess, and
the clocks are kept here: an engine that overstays its time loses on time.

    scripts/python_chess_game.py [--engine target/release/tenfold] [--opponent self|random]
                                 [--time-ms 2000] [--inc-ms 10] [--seed 1] [--max-plies 600]

Prints the PGN and a final line `result <1-0|0-1|1/2-1/2> <reason>`; exits 1 if the
engine made an illegal move, lost on time or crashed.
"""

import argparse
import random
import subprocess
import sys
import time

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - installs the client the first time
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "chess"])
    import chess
    import chess.engine
    import chess.pgn


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tenfold")
    ap.add_argument("--opponent", choices=["self", "random"], default="self")
    ap.add_argument("--time-ms", type=int, default=2000)
    ap.add_argument("--inc-ms", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=600)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    engine = chess.engine.SimpleEngine.popen_uci([a.engine, "uci"])
    engine.configure({"Threads": a.threads, "Hash": 16})
    board = chess.Board()
    clock = {chess.WHITE: a.time_ms / 1000.0, chess.BLACK: a.time_ms / 1000.0}
    inc = a.inc_ms / 1000.0
    engine_sides = {chess.WHITE, chess.BLACK} if a.opponent == "self" else {chess.WHITE}
    result, reason = None, None
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < a.max_plies:
            side = board.turn
            if side in engine_sides:
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                    white_inc=inc, black_inc=inc,
                )
                t0 = time.monotonic()
                played = engine.play(board, limit)
                spent = time.monotonic() - t0
                clock[side] -= spent
                if clock[side] <= 0:
                    result = "0-1" if side == chess.WHITE else "1-0"
                    reason = f"{'White' if side == chess.WHITE else 'Black'} lost on time"
                    break
                clock[side] += inc
                move = played.move
                if move is None or move not in board.legal_moves:
                    print(f"illegal or missing engine move {move} in {board.fen()}", file=sys.stderr)
                    return 1
            else:
                move = rng.choice(list(board.legal_moves))
            board.push(move)
    finally:
        engine.quit()

    if result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            result, reason = "1/2-1/2", f"stopped after {a.max_plies} plies"
        else:
            result, reason = outcome.result(), outcome.termination.name.lower()
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = "tenfold"
    game.headers["Black"] = "tenfold" if a.opponent == "self" else "random"
    game.headers["Result"] = result
    print(game)
    print(f"result {result} {reason}")
    print(f"clocks white {clock[chess.WHITE]:.3f}s black {clock[chess.BLACK]:.3f}s")
    return 1 if "on time" in (reason or "") else 0


if __name__ == "__main__":
    sys.exit(main())
