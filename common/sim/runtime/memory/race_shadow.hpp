// The race detector's shadow cells of device memory: what each word's last accesses were.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scanlab::sim::detail::race_shadow {

// A freed global buffer: its records are dropped and their pages given back.
void forget_range(std::uintptr_t begin, std::size_t bytes);

}  // namespace scanlab::sim::detail::race_shadow
