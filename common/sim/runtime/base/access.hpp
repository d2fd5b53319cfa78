// One memory access of lab code, as each entry point describes it (a load or store hook of the
// instrumentation, a CUDA atomic, a C++ or libcu++ atomic) to the one path every access takes
// (entry/access.hpp). The memory model reads its order and scope, the race detector its kind and
// strength, reports its code address.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scanlab::sim::detail {

// The PTX memory model's order and scope of a strong access or a fence.
enum class Order : std::uint8_t { relaxed, acquire, release, acq_rel, seq_cst };
enum class Scope : std::uint8_t { block, device, system };

struct Access {
  enum class Kind : std::uint8_t { read, write, read_modify_write };
  // plain: an ordinary load or store. volatile_access: strong and relaxed, of system scope,
  // between blocks; inside a block a plain access (as racecheck treats warp-synchronous code).
  // atomic: strong, of its order and scope.
  enum class Strength : std::uint8_t { plain, volatile_access, atomic };

  std::uintptr_t address = 0;
  std::size_t bytes = 0;
  Kind kind = Kind::read;
  Strength strength = Strength::plain;
  Order order = Order::relaxed;
  Scope scope = Scope::system;
  // A spin-wait point: before the access the thread lets the others run (a volatile access, a C++
  // atomic; a CUDA atomic yields after its operation instead).
  bool spin_point = false;
  // An atomic write whose result does not depend on what was there (atomicExch, an atomic store):
  // it may be the first write of a location.
  bool blind = false;
  // atomicCAS, compare_exchange: it checks the guess its thread read before.
  bool compare_and_swap = false;
  std::uintptr_t pc = 0;  // the code that made it, whose line reports name
};

}  // namespace scanlab::sim::detail
