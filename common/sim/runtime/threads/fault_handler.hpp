// A kernel thread that dereferences an address that exists nowhere (a null or garbage pointer,
// an index beyond even the guard ranges around device memory) gets a report at its line before
// the program dies of the fault, instead of a bare "Segmentation fault".
#pragma once

namespace scanlab::sim::detail::fault_handler {

// Installs the handler (once per process) and an alternate signal stack for the calling OS
// thread (once per thread), since a fiber's stack is too small for the report.
void install();

}  // namespace scanlab::sim::detail::fault_handler
