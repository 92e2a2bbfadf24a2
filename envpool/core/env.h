// The env base class and the registry of env types.
//
// An env family implements one class per env:
//
//   class CartPoleEnv : public envpool::Env {
//    public:
//     static envpool::Options DefaultOptions();        // options + defaults
//     static void Declare(const envpool::Options&, envpool::EnvSpec*,
//                         Fields* fields);              // arrays it uses
//     CartPoleEnv(const envpool::Options&, const Fields&);  // once per pool
//     void Reset() override;                            // start an episode
//     void Step(const envpool::ActionView&) override;   // advance one step
//     void Write(const envpool::Output&) override;      // observation, info
//   };
//
// and registers it with `envpool::RegisterEnv<CartPoleEnv>("CartPole")`.
// The pool owns seeding, episode counting, truncation, autoreset and the
// output batch; an env only knows its own dynamics.
#ifndef ENVPOOL_CORE_ENV_H_
#define ENVPOOL_CORE_ENV_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array.h"
#include "envpool/core/options.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"

namespace envpool {

// What an env type exposes.  `state` holds the arrays an env writes on every
// reset and step: "obs" (or several "obs:<key>") and "info:<key>" extras.
struct EnvSpec {
  Schema state;
  Schema action;
  DType reward_dtype = DType::kFloat32;
  int max_num_players = 1;
  // What Env::Render can draw: "rgb_array" and/or "ansi", the frame size
  // (Declare resolves the render_width/render_height options, 0 meaning
  // the reference's own size) and the reference's frames per second.
  std::vector<std::string> render_modes;
  int render_width = 0;
  int render_height = 0;
  int render_fps = 0;
  // Whether a step's work runs outside the thread that steps the env, which
  // mostly waits for it (ViZDoom: each env's engine is a process of its
  // own). An async pool with the default threads then has
  // min(batch_size, cores) workers, not one fewer (see Pool).
  bool steps_elsewhere = false;
  // Whether the env saves and restores its state (Env::SaveState and
  // LoadState; snapshot.h).
  bool snapshots = false;
};

class Block;

// Where one env writes the result of one reset or step: a slot of a batch.
class Output {
 public:
  Output(Block* block, int slot, int player_row) noexcept
      : block_(block), slot_(slot), player_row_(player_row) {}

  template <typename T>
  T* Get(Field<T> field, int player = 0) const {
    return static_cast<T*>(Row(field.index, player));
  }
  void SetReward(double reward, int player = 0) const;

  int slot() const { return slot_; }
  int player_row() const { return player_row_; }

 private:
  void* Row(int state_index, int player) const;

  Block* block_;
  int slot_;
  int player_row_;
};

// The action an env received, read through the typed handles of its spec.
// An action array declared per_player holds one row per player: `player`
// picks the row (player 0 for the others).
class ActionView {
 public:
  // `fields`: each array's first row; `player_strides`: the bytes from one
  // player's row to the next (0 for arrays with one row per env), or null
  // when no array is per player.
  explicit ActionView(
      const std::vector<const void*>* fields,
      const std::vector<std::size_t>* player_strides = nullptr) noexcept
      : fields_(fields), player_strides_(player_strides) {}
  template <typename T>
  const T* Get(Field<T> field, int player = 0) const {
    const auto* first = static_cast<const uint8_t*>((*fields_)[field.index]);
    const std::size_t stride =
        player_strides_ == nullptr ? 0 : (*player_strides_)[field.index];
    return reinterpret_cast<const T*>(first + stride * player);
  }
  template <typename T>
  T Scalar(Field<T> field, int player = 0) const {
    return *Get(field, player);
  }

 private:
  const std::vector<const void*>* fields_;
  const std::vector<std::size_t>* player_strides_;
};

class Env {
 public:
  Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  virtual ~Env() = default;

  virtual void Reset() = 0;
  virtual void Step(const ActionView& action) = 0;
  virtual void Write(const Output& out) = 0;
  // Multi-player envs report how many player rows their next Write fills,
  // and write one reward per player. An env with an action declared
  // per_player always has spec.max_num_players players (the caller sends
  // that many action rows per env); the pool reports any other count as
  // the env's error.
  virtual int NumPlayers() const { return 1; }
  virtual void WriteReward(const Output& out) const { out.SetReward(reward_); }

  // Rendering, between steps (the pool never renders an env in flight):
  // `rgb` is height x width x 3 bytes, the size the spec declared;
  // camera_id -1 is the env's default view. An env that renders overrides
  // these and lists its modes in EnvSpec::render_modes.
  virtual void Render(int /*width*/, int /*height*/, int /*camera_id*/,
                      uint8_t* /*rgb*/) {
    throw std::logic_error("this env has no rgb_array rendering");
  }
  virtual std::string RenderText() {
    throw std::logic_error("this env has no ansi rendering");
  }

  // Test hooks, not part of the spec: the full internal state as numbers,
  // so alignment tests can put a reference env (or this one) into the same
  // state.  Envs that support them override both.
  virtual std::vector<double> GetState() const { return {}; }
  virtual void SetState(const std::vector<double>& /*state*/) {
    throw std::logic_error("this env does not support SetState");
  }

  // Snapshots (snapshot.h): every member the env's next steps depend on,
  // written and read in one order. Only called where the spec declares
  // `snapshots`, and never while the env is in flight.
  virtual void SaveState(StateWriter* /*writer*/) const {
    throw std::logic_error("this env does not save its state");
  }
  virtual void LoadState(StateReader* /*reader*/) {
    throw std::logic_error("this env does not load a state");
  }
  // What the Env base class owns of an env's state: its generators, the
  // last reward and the episode's flags (the pool's part of a snapshot).
  void SaveBaseState(StateWriter* writer) const {
    writer->Put(np_random_, rng_, reward_, terminated_, truncated_);
  }
  void LoadBaseState(StateReader* reader) {
    reader->Get(&np_random_, &rng_, &reward_, &terminated_, &truncated_);
  }

  // The pool seeds each env with its seed (seed + i), before its first
  // reset and on reset(seed=...).
  void Seed(uint64_t seed) {
    np_random_ = random::Generator(seed);
    rng_.seed(seed);
    OnSeed(seed);
  }
  bool terminated() const { return terminated_; }
  bool truncated() const { return truncated_; }
  double reward() const { return reward_; }
  // The pool tells each env its index (env_id) before seeding it.
  void SetEnvId(int env_id) { env_id_ = env_id; }

 protected:
  // Called after each Seed, for envs whose reference derives its generators
  // from the seed in its own way (ale-py splits it in two).
  virtual void OnSeed(uint64_t /*seed*/) {}

  // numpy.random.Generator(PCG64(SeedSequence(seed))): gymnasium's
  // np_random after reset(seed=seed). An env that draws what its reference
  // draws, in the same order, reproduces the reference's episodes.
  random::Generator np_random_{uint64_t{0}};
  // For envs whose reference draws are not numpy's.
  std::mt19937_64 rng_;
  int env_id_ = 0;
  double reward_ = 0.0;
  bool terminated_ = false;
  // Set by an env whose reference ends episodes on a step limit of its own
  // (minigrid's max_steps); the pool's max_episode_steps applies as well.
  bool truncated_ = false;
};

// For Declare: the env renders in `modes` at the reference's `width` x
// `height` (any other size too when `any_size`), `fps` frames per second.
// Resolves render_width/render_height (0: the reference's size) into the
// spec and checks render_mode and render_camera_id; a bad value throws
// std::invalid_argument naming the option.
void DeclareRendering(const Options& options, EnvSpec* spec,
                      std::vector<std::string> modes, int width, int height,
                      int fps, bool any_size = false, int num_cameras = 0);

// What a pool needs of an env class under given options, declared once per
// pool: the arrays its envs write and read, and how to build env `env_id`
// with the declared handles (its own options where they vary per env:
// per_env_options.h).
struct EnvFactory {
  EnvSpec spec;
  std::function<std::unique_ptr<Env>(int env_id)> create;
};

// A registered env class: its options and how to prepare a pool of it.
struct EnvClass {
  std::string name;
  Options defaults;
  std::function<EnvFactory(const Options&)> prepare;
};

// Options every env takes, handled by the pool rather than the env.
Options CommonOptions();

void RegisterEnvClass(EnvClass env_class);
// Throws std::invalid_argument naming the registered classes when unknown.
const EnvClass& FindEnvClass(const std::string& name);
std::vector<std::string> RegisteredEnvClasses();

// The folder a family's native code reads its files from (models, sprites,
// fonts): what the family's registration.py declares as ASSET_DIR, handed
// over by Python before it loads the family's module. "" when the family
// declares none or the package that provides it is missing; a C++ test sets
// it itself.
void SetFamilyAssetDir(const std::string& family, const std::string& dir);
std::string FamilyAssetDir(const std::string& family);

// The handles `E` declares under `options` (and its spec, when asked for):
// what a pool hands each env it builds. For tests and tools that build an
// env outside a pool: `E env(options, DeclareFields<E>(options));`.
template <typename E>
typename E::Fields DeclareFields(const Options& options,
                                 EnvSpec* spec = nullptr) {
  EnvSpec unused;
  typename E::Fields fields;
  E::Declare(options, spec != nullptr ? spec : &unused, &fields);
  return fields;
}

// Registers `E`, which provides DefaultOptions(), a static Declare(options,
// spec, fields) and a constructor taking the options and the declared fields.
template <typename E>
void RegisterEnv(const std::string& name) {
  EnvClass env_class;
  env_class.name = name;
  env_class.defaults = CommonOptions();
  const Options own = E::DefaultOptions();
  for (const auto& [key, value] : own.items()) {
    env_class.defaults.Define(key, value);
  }
  env_class.prepare = [](const Options& options) {
    auto fields = std::make_shared<typename E::Fields>();
    EnvFactory factory;
    E::Declare(options, &factory.spec, fields.get());
    factory.create = [options, fields](int /*env_id*/) -> std::unique_ptr<Env> {
      return std::make_unique<E>(options, *fields);
    };
    return factory;
  };
  RegisterEnvClass(std::move(env_class));
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_ENV_H_
