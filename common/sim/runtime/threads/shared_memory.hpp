// Each resident block's shared memory: an arena of the shared range of device memory, holding,
// after a leading red zone, the dynamic part first, then the static __shared__ variables in the
// order the block's threads first reach their declarations, each followed by its red zone.
// (Lab code reaches it through scanlab/sim/shared_memory.hpp; this is the runtime's side.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/site.hpp"

namespace scanlab::sim::detail {
struct Block;
}

namespace scanlab::sim::detail::shared_memory {

struct Variable {
  const void* key;  // the declaration; null for the dynamic part
  std::size_t offset;
  std::size_t bytes;
  const char* name;
  Site declared;
};

// A block's part.
struct Arena {
  unsigned char* base = nullptr;
  std::size_t used = 0;  // where the next variable's alignment padding begins
  std::vector<Variable> variables;
  const char* dynamic_name = nullptr;  // the kernel's extern __shared__ array, once it asked for it
  Site dynamic_declared;
};

// The dynamic shared memory a launch may ask for: 48 KiB, or more after cudaFuncSetAttribute.
std::size_t dynamic_limit();

// Takes the arena of the block's slot and places the launch's dynamic shared memory in it.
void begin_block(Block& b);
// Nothing in the arena is live once its block is gone.
void end_block(Block& b);

// The shared memory the block has declared so far, dynamic and static: what it takes of a
// multiprocessor's, for how many blocks fit on one at once.
std::size_t bytes_declared(const Block& b);

// "shared variable 'tile' (declared at file:8), byte 4 of 256": where an address is, in the
// student's terms; outside shared memory, what global_memory::describe_address says.
std::string describe_address(std::uintptr_t a, const Block& b);

// The fix of an access past the end of the kernel's dynamic shared memory (its extern __shared__
// array): the size its launch gave it, at the launch's line. Empty for any other address. The
// same words for every such access of a launch, so that a report tells them once.
std::string fix_past_dynamic_memory(std::uintptr_t a, const Block& b);

}  // namespace scanlab::sim::detail::shared_memory
