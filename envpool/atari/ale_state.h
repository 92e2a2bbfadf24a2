// What ALE's cloneState(include_rng=true) leaves out of an emulator's state
// and a snapshot needs (atari_env.h): the sticky actions, the actions
// StellaEnvironment repeats with probability repeat_action_probability
// (private members), and the TIA's frame in progress: its two frame
// buffers, which a frame the game leaves short greys out from, and, where
// the 6502 ran a whole emulated frame without ending the TV frame (a game
// that thinks for several frames: TicTacToe3d), where drawing stands.
#ifndef ENVPOOL_ATARI_ALE_STATE_H_
#define ENVPOOL_ATARI_ALE_STATE_H_

#include <cstdint>
#include <vector>

#include "ale/ale_interface.hpp"

namespace envpool::atari {

struct StickyActions {
  int32_t player_a = 0;
  int32_t player_b = 0;
  float paddle_a = 0.0F;
  float paddle_b = 0.0F;
};

StickyActions GetStickyActions(const ale::StellaEnvironment& environment);
void SetStickyActions(const StickyActions& actions,
                      ale::StellaEnvironment* environment);

struct TiaFrame {
  // The TIA's current and previous frame buffers, one after the other.
  std::vector<uint8_t> buffers;
  // Whether the TV frame is unfinished, and its unfinished part greyed
  // out; where the next pixel goes (an offset into the current buffer);
  // frames ended so far.
  bool partial = false;
  bool greyed = false;
  int64_t pointer = 0;
  int32_t frames = 0;
};

TiaFrame GetTiaFrame(const ale::ALEInterface& ale);
// Throws std::invalid_argument where `frame` does not fit the TIA.
void SetTiaFrame(const TiaFrame& frame, ale::ALEInterface* ale);

}  // namespace envpool::atari

#endif  // ENVPOOL_ATARI_ALE_STATE_H_
