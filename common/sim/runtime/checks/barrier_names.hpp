// What a report calls a barrier object and a wait on one: by the program's own words, the init()
// that made the barrier and the line that waited, never by the bytes of the shared memory it
// lies in ("byte 2064 of 'shared_bytes'" tells a student nothing).
#pragma once

#include <cstdint>
#include <string>

#include "threads/block.hpp"

namespace scanlab::sim::detail::barrier_names {

// "`shared.resolved[s]` (init() at file:436, the 3rd of the 7 barriers made there)": the
// expression init() was given, and which of the barriers one init() made in a loop this is (in
// the order they were made); the init()'s line alone where its source cannot be read.
std::string barrier(const Block& b, std::uintptr_t address);

// "the pipeline in `state` (make_pipeline() at file:21)": a block-scope pipeline by the shared
// variable its state begins (where it begins one) and the make_pipeline() that made it.
std::string pipeline(const Block& b, std::uintptr_t state);

// "file:365 (through wait_phase at file:164)": where a wait (or an arrival) at code address
// `pc` is, named by the line of `function` (the function of the access the report is about) that
// led to it where the wait lies in a helper inlined into it (with no function: the line that
// called the helper); else the wait's own line.
std::string place(std::uintptr_t pc, const std::string& function);

// "file:line", without the function.
std::string line_of(std::uintptr_t pc);

// "1st", "2nd", "3rd", "4th", ...
std::string ordinal(std::uint32_t n);

}  // namespace scanlab::sim::detail::barrier_names
