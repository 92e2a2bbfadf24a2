#include "envpool/atari/ale_state.h"

#include <algorithm>
#include <stdexcept>

#include "ale/emucore/Console.hxx"
#include "ale/emucore/MediaSrc.hxx"
#include "ale/emucore/OSystem.hxx"
#include "ale/emucore/TIA.hxx"

namespace envpool::atari {
namespace {

// StellaEnvironment keeps the sticky actions private. An explicit
// instantiation may name private members (the standard exempts it from
// access checks); these hand out pointers to them.
template <typename Tag, typename Tag::Type kMember>
struct MemberOf {
  friend typename Tag::Type Member(Tag /*tag*/) { return kMember; }
};

struct PlayerAAction {
  using Type = ale::Action ale::StellaEnvironment::*;
  friend Type Member(PlayerAAction);
};
struct PlayerBAction {
  using Type = ale::Action ale::StellaEnvironment::*;
  friend Type Member(PlayerBAction);
};
struct PaddleAStrength {
  using Type = float ale::StellaEnvironment::*;
  friend Type Member(PaddleAStrength);
};
struct PaddleBStrength {
  using Type = float ale::StellaEnvironment::*;
  friend Type Member(PaddleBStrength);
};

struct TiaPartialFrame {
  using Type = bool ale::stella::TIA::*;
  friend Type Member(TiaPartialFrame);
};
struct TiaFrameGreyed {
  using Type = bool ale::stella::TIA::*;
  friend Type Member(TiaFrameGreyed);
};
struct TiaFramePointer {
  using Type = uint8_t* ale::stella::TIA::*;
  friend Type Member(TiaFramePointer);
};
struct TiaFrameCounter {
  using Type = int ale::stella::TIA::*;
  friend Type Member(TiaFrameCounter);
};

template struct MemberOf<TiaPartialFrame,
                         &ale::stella::TIA::myPartialFrameFlag>;
template struct MemberOf<TiaFrameGreyed, &ale::stella::TIA::myFrameGreyed>;
template struct MemberOf<TiaFramePointer, &ale::stella::TIA::myFramePointer>;
template struct MemberOf<TiaFrameCounter, &ale::stella::TIA::myFrameCounter>;
template struct MemberOf<PlayerAAction,
                         &ale::StellaEnvironment::m_player_a_action>;
template struct MemberOf<PlayerBAction,
                         &ale::StellaEnvironment::m_player_b_action>;
template struct MemberOf<PaddleAStrength,
                         &ale::StellaEnvironment::m_paddle_a_strength>;
template struct MemberOf<PaddleBStrength,
                         &ale::StellaEnvironment::m_paddle_b_strength>;

// The TIA allocates each frame buffer as 160 x 300 bytes.
constexpr std::size_t kFrameBufferBytes = 160 * 300;

}  // namespace

StickyActions GetStickyActions(const ale::StellaEnvironment& environment) {
  StickyActions out;
  out.player_a = static_cast<int32_t>(environment.*Member(PlayerAAction{}));
  out.player_b = static_cast<int32_t>(environment.*Member(PlayerBAction{}));
  out.paddle_a = environment.*Member(PaddleAStrength{});
  out.paddle_b = environment.*Member(PaddleBStrength{});
  return out;
}

void SetStickyActions(const StickyActions& actions,
                      ale::StellaEnvironment* environment) {
  environment->*Member(PlayerAAction{}) =
      static_cast<ale::Action>(actions.player_a);
  environment->*Member(PlayerBAction{}) =
      static_cast<ale::Action>(actions.player_b);
  environment->*Member(PaddleAStrength{}) = actions.paddle_a;
  environment->*Member(PaddleBStrength{}) = actions.paddle_b;
}

// The console's video source is its TIA.
ale::stella::TIA& TiaOf(const ale::ALEInterface& ale) {
  return static_cast<ale::stella::TIA&>(
      ale.theOSystem->console().mediaSource());
}

TiaFrame GetTiaFrame(const ale::ALEInterface& ale) {
  const ale::stella::TIA& tia = TiaOf(ale);
  TiaFrame out;
  out.buffers.resize(2 * kFrameBufferBytes);
  std::copy_n(tia.currentFrameBuffer(), kFrameBufferBytes, out.buffers.begin());
  std::copy_n(tia.previousFrameBuffer(), kFrameBufferBytes,
              out.buffers.begin() + kFrameBufferBytes);
  out.partial = tia.*Member(TiaPartialFrame{});
  out.greyed = tia.*Member(TiaFrameGreyed{});
  out.pointer = tia.*Member(TiaFramePointer{}) - tia.currentFrameBuffer();
  out.frames = tia.*Member(TiaFrameCounter{});
  return out;
}

void SetTiaFrame(const TiaFrame& frame, ale::ALEInterface* ale) {
  if (frame.buffers.size() != 2 * kFrameBufferBytes || frame.pointer < 0 ||
      frame.pointer > static_cast<int64_t>(kFrameBufferBytes)) {
    throw std::invalid_argument("a TIA frame of another size");
  }
  ale::stella::TIA& tia = TiaOf(*ale);
  std::copy_n(frame.buffers.begin(), kFrameBufferBytes,
              tia.currentFrameBuffer());
  std::copy_n(frame.buffers.begin() + kFrameBufferBytes, kFrameBufferBytes,
              tia.previousFrameBuffer());
  tia.*Member(TiaPartialFrame{}) = frame.partial;
  tia.*Member(TiaFrameGreyed{}) = frame.greyed;
  tia.*Member(TiaFramePointer{}) = tia.currentFrameBuffer() + frame.pointer;
  tia.*Member(TiaFrameCounter{}) = frame.frames;
}

}  // namespace envpool::atari
