// Blackjack: gymnasium 1.4's toy_text Blackjack (Sutton and Barto, example
// 5.1) with an infinite deck: cards 1 (ace) to 9 and four 10-valued ranks
// (10, J, Q, K), drawn with replacement.  The player hits (action 1) until
// sticking (action 0) or going bust (reward -1); on stick the dealer draws
// up to 17 or more and the higher score wins (+1 / 0 / -1).  sab: a player's
// natural (ace and ten) beats any dealer hand but a natural; otherwise, with
// natural, a winning natural pays 1.5.  The observation is (player sum,
// dealer's showing card, player holds a usable ace).
//
// Draws as gymnasium's: every card is np_random.choice(deck), deck = [1, ..,
// 9, 10, 10, 10, 10]; a reset deals the dealer's two cards, then the
// player's two, then draws the face-up card's suit (choice of 4) and, when
// that card is worth 10, its face (choice of J, Q, K), which only rendering
// uses; a hit draws one card, a stick the dealer's cards up to 17 or more.
#ifndef ENVPOOL_TOY_TEXT_BLACKJACK_H_
#define ENVPOOL_TOY_TEXT_BLACKJACK_H_

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/toy_text/sprites.h"

namespace envpool::toy_text {

class BlackjackEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"natural", false}, {"sab", true}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    fields->obs = spec->state.Add<int32_t>("obs", {3}, {0.0}, {31.0});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 2);
    // gymnasium's SCREEN_SIZE
    DeclareRendering(options, spec, {"rgb_array"}, 384, 376, 4);
  }

  BlackjackEnv(const Options& options, const Fields& fields)
      : natural_(options.Get<bool>("natural")), sab_(options.Get<bool>("sab")) {
    fields_ = fields;
  }

  void Reset() override {
    dealer_.clear();
    dealer_.push_back(DrawCard());
    dealer_.push_back(DrawCard());
    player_.clear();
    player_.push_back(DrawCard());
    player_.push_back(DrawCard());
    // The face-up card's suit and, for a 10, its face: drawn for rendering.
    suit_ = static_cast<int>(np_random_.Choice(4));
    face_ = dealer_[0] == 10 ? static_cast<int>(np_random_.Choice(3)) : -1;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    if (action.Scalar(fields_.action) != 0) {  // hit
      player_.push_back(DrawCard());
      terminated_ = Sum(player_) > 21;
      reward_ = terminated_ ? -1.0 : 0.0;
      return;
    }
    // stick: the dealer plays out the hand.
    terminated_ = true;
    while (Sum(dealer_) < 17) {
      dealer_.push_back(DrawCard());
    }
    int player = Score(player_);
    int dealer = Score(dealer_);
    reward_ = player > dealer ? 1.0 : (player < dealer ? -1.0 : 0.0);
    if (sab_) {
      if (IsNatural(player_) && !IsNatural(dealer_)) {
        reward_ = 1.0;
      }
    } else if (natural_ && IsNatural(player_) && reward_ == 1.0) {
      reward_ = 1.5;
    }
  }

  void Write(const Output& out) override {
    int32_t* obs = out.Get(fields_.obs);
    obs[0] = Sum(player_);
    obs[1] = dealer_[0];
    obs[2] = UsableAce(player_) ? 1 : 0;
  }

  // gymnasium's rgb_array frame (draw_table): the felt, the dealer's label
  // and showing value in small digits, the face-up card and the hidden
  // one, the player's label, the player's sum in big digits centred, and
  // the usable-ace label.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    static const char kSuits[] = {'C', 'D', 'H', 'S'};
    static const char kFaces[] = {'J', 'Q', 'K'};
    Surface surface(width, height);
    surface.Fill({196, 216, 158});
    auto digits = [&](int number, const char* size, int gap, int x, int y) {
      for (char digit : std::to_string(number)) {
        const RgbaImage& image =
            Sprite(std::string("blackjack/digit_") + size + "_" + digit);
        surface.Blit(image, x, y);
        x += image.width + gap;
      }
    };
    // centred on the screen, on the art's 4-pixel grid
    auto centred_x = [&](int w) { return (width - w) / 2 / 4 * 4; };
    const RgbaImage& dealer_label = Sprite("blackjack/label_dealer");
    surface.Blit(dealer_label, 40, 32);
    const int showing = dealer_[0];
    digits(showing, "small", 4, 40 + dealer_label.width + 12, 32);
    std::string card = showing == 1 ? std::string("A")
                       : showing == 10
                           ? std::string(1, kFaces[face_ < 0 ? 0 : face_])
                           : std::to_string(showing);
    surface.Blit(Sprite("blackjack/card_" + card + kSuits[suit_]), 96, 72);
    surface.Blit(Sprite("blackjack/card_back"), 208, 72);
    surface.Blit(Sprite("blackjack/label_player"), 40, 208);
    const int sum = Sum(player_);
    const int n = static_cast<int>(std::to_string(sum).size());
    const int digit_width = Sprite("blackjack/digit_big_0").width;
    digits(sum, "big", 12, centred_x(n * digit_width + (n - 1) * 12), 248);
    if (UsableAce(player_)) {
      const RgbaImage& label = Sprite("blackjack/label_usable_ace");
      surface.Blit(label, centred_x(label.width), 328);
    }
    surface.CopyTo(rgb);
  }

  // [number of player cards, player cards..., number of dealer cards,
  //  dealer cards...], cards as values 1..10 in the order drawn.
  std::vector<double> GetState() const override {
    std::vector<double> state;
    state.push_back(static_cast<double>(player_.size()));
    state.insert(state.end(), player_.begin(), player_.end());
    state.push_back(static_cast<double>(dealer_.size()));
    state.insert(state.end(), dealer_.begin(), dealer_.end());
    return state;
  }
  void SetState(const std::vector<double>& state) override {
    std::vector<int> player;
    std::vector<int> dealer;
    std::size_t pos = 0;
    if (!ReadHand(state, &pos, &player) || !ReadHand(state, &pos, &dealer) ||
        pos != state.size() || Sum(player) > 31) {
      throw std::invalid_argument(
          "Blackjack state is [n, n player cards, m, m dealer cards] with "
          "1 <= n, m <= 32, cards in 1..10 and a player sum of at most 31");
    }
    player_ = std::move(player);
    dealer_ = std::move(dealer);
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(player_, dealer_, suit_, face_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&player_, &dealer_, &suit_, &face_);
  }

 private:
  // np_random.choice(deck): 13 equally likely ranks, ace, 2..9 and four
  // worth 10.
  int DrawCard() {
    static const std::vector<int> kDeck = {1, 2, 3,  4,  5,  6, 7,
                                           8, 9, 10, 10, 10, 10};
    return np_random_.Choice(kDeck);
  }

  static int RawSum(const std::vector<int>& hand) {
    int sum = 0;
    for (int card : hand) {
      sum += card;
    }
    return sum;
  }
  static bool UsableAce(const std::vector<int>& hand) {
    for (int card : hand) {
      if (card == 1) {
        return RawSum(hand) + 10 <= 21;
      }
    }
    return false;
  }
  static int Sum(const std::vector<int>& hand) {
    return RawSum(hand) + (UsableAce(hand) ? 10 : 0);
  }
  static int Score(const std::vector<int>& hand) {
    int sum = Sum(hand);
    return sum > 21 ? 0 : sum;
  }
  static bool IsNatural(const std::vector<int>& hand) {
    return hand.size() == 2 &&
           ((hand[0] == 1 && hand[1] == 10) || (hand[0] == 10 && hand[1] == 1));
  }

  static bool ReadHand(const std::vector<double>& state, std::size_t* pos,
                       std::vector<int>* hand) {
    if (*pos >= state.size()) {
      return false;
    }
    double n = state[(*pos)++];
    if (n != std::floor(n) || n < 1 || n > 32 || *pos + n > state.size()) {
      return false;
    }
    for (int i = 0; i < static_cast<int>(n); ++i) {
      double card = state[(*pos)++];
      if (card != std::floor(card) || card < 1 || card > 10) {
        return false;
      }
      hand->push_back(static_cast<int>(card));
    }
    return true;
  }

  Fields fields_;
  bool natural_;
  bool sab_;
  std::vector<int> player_ = {10, 10};
  std::vector<int> dealer_ = {10, 10};
  // The face-up card's suit (C, D, H, S) and, for a 10, face (J, Q, K; -1:
  // none drawn), as gymnasium draws them at a reset.
  int suit_ = 0;
  int face_ = -1;
};

}  // namespace envpool::toy_text

#endif  // ENVPOOL_TOY_TEXT_BLACKJACK_H_
