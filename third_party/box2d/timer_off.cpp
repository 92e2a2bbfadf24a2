// b2Timer without the clock. Box2D times parts of every step (b2World::Step's
// profile, each b2TimeOfImpact call) with gettimeofday, only to fill
// b2World::GetProfile() and the b2_toiTime statistics; nothing here reads
// them, and the clock calls were about 2% of a BipedalWalker step. The
// simulation does not depend on these values: the engine's other platforms
// build the same three functions without a clock.
#include <Box2D/Common/b2Timer.h>

b2Timer::b2Timer() {}

void b2Timer::Reset() {}

float32 b2Timer::GetMilliseconds() const { return 0.0f; }
