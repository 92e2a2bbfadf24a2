// The machine's core-to-core latency, for benchmark/worker.py's `share`
// (through ctypes; tests and benchmarks only, as _random.so).
//
// On a virtual machine the latency between two vCPUs is not fixed: on the
// 2-core machine the project is developed on, a cache line passes from one
// to the other and back in 55-95 ns most of the time, and in 330 ns and more
// for seconds at a time (presumably while the hypervisor runs the two on
// cores that share no cache). Threads of one pool pass lines (actions, the
// queues, the batch) from core to core in every batch; processes that share
// nothing do not. A measurement that compares the two reads the latency
// beside each slice, so that it can tell the phases apart.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace {

struct alignas(64) Line {
  std::atomic<int> value{0};
};

}  // namespace

// Nanoseconds of one round trip of a cache line between this thread and a
// second one (started here, on whichever core the kernel gives it): the
// mean over `trips` trips, once the second thread answers. Negative for
// trips < 1.
extern "C" double envpool_round_trip_ns(int trips) {
  if (trips < 1) {
    return -1.0;
  }
  Line line;
  // Odd values are this thread's, even ones the other's; -1 ends it.
  std::thread other([&line] {
    int seen = 0;
    while (true) {
      const int v = line.value.load(std::memory_order_acquire);
      if (v < 0) {
        return;
      }
      if (v != seen && (v & 1) == 1) {
        seen = v + 1;
        line.value.store(v + 1, std::memory_order_release);
      }
    }
  });
  auto trip = [&line](int v) {
    line.value.store(v, std::memory_order_release);
    while (line.value.load(std::memory_order_acquire) != v + 1) {
    }
  };
  int v = 1;
  // Until the other one runs (as many trips again, at most 1000).
  for (int k = 0; k < std::min(trips, 1000); ++k, v += 2) {
    trip(v);
  }
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < trips; ++k, v += 2) {
    trip(v);
  }
  const auto end = std::chrono::steady_clock::now();
  line.value.store(-1, std::memory_order_release);
  other.join();
  return std::chrono::duration<double, std::nano>(end - start).count() / trips;
}
