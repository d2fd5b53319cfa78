// Signals on the workers' OS threads.
//
// A kernel thread that dereferences an address that exists nowhere (a null or garbage pointer,
// an index beyond even the guard ranges around device memory) gets a report at its line before
// the program dies of the fault, instead of a bare "Segmentation fault". Host code that does
// (a host pointer never set, a freed one) gets one too, naming the program's lines on its call
// chain: the grader tells the lab's own host code from the code of the kit that called it.
//
// A kernel thread that spins without touching memory (a flag polled through a plain pointer,
// whose load the compiler hoisted out of the loop) never calls the simulator again: no access,
// barrier or atomic gives the scheduler the processor back, and the launch would hang. A
// watchdog OS thread samples, while a launch runs, where each worker is (a signal to the
// worker, whose handler notes the running CUDA thread and its program counter); a thread that
// stays inside a few bytes of its own code for kSpinSeconds is reported at the loop's line, and
// the worker is sent into the scheduler from where it spins, so the launch stops with
// cudaErrorLaunchTimeout and the program goes on.
#pragma once

namespace scanlab::sim::detail::fault_handler {

// Installs the handlers (once per process) and an alternate signal stack for the calling OS
// thread (once per thread), since a fiber's stack is too small for the report; the calling
// thread becomes one the watchdog samples while a launch runs.
void install();

// A launch starts and ends (launch.cpp): the watchdog samples the workers only in between.
void launch_begins();
void launch_ends();
// Whether a thread of the running launch was stopped where it spun: the launch ends, so blocks
// not started yet need not start (their findings would be dropped anyway).
bool spin_stopped_launch();

}  // namespace scanlab::sim::detail::fault_handler
