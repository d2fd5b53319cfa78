// printf and clock() as kernel code calls them. On a GPU, printf writes each time a kernel runs
// and clock() differs from run to run, so a run that called either is never replayed
// (launch_replay.hpp). These definitions take the C library's place in a program built with
// simcc, whose link line names the runtime's archive before the C library, and pass each call on.
// GCC turns `printf("done\n")` into `puts("done")` and `printf("%c", c)` into `putchar(c)`, so
// those are here too.
#undef _FORTIFY_SOURCE  // <stdio.h> would define printf itself as an inline wrapper
#ifndef __NO_INLINE__
#define __NO_INLINE__ 1  // nor putchar as an inline function, which Clang will not let us define again
#endif
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "launch/launch_replay.hpp"

namespace scanlab::sim::detail::launch_replay {
Watch watch;
}  // namespace scanlab::sim::detail::launch_replay

namespace {
using scanlab::sim::detail::launch_replay::watch;
void noted() { scanlab::sim::detail::launch_replay::note_unrepeatable_call(); }
}  // namespace

extern "C" {

int __vprintf_chk(int flag, const char* format, va_list arguments);

int printf(const char* format, ...) {
  noted();
  if (watch.paused) return 0;  // a launch run again to judge its garbage reads prints nothing
  va_list arguments;
  va_start(arguments, format);
  const int written = vprintf(format, arguments);
  va_end(arguments);
  return written;
}

// What printf becomes in code compiled with _FORTIFY_SOURCE.
int __printf_chk(int flag, const char* format, ...) {
  noted();
  if (watch.paused) return 0;
  va_list arguments;
  va_start(arguments, format);
  const int written = __vprintf_chk(flag, format, arguments);
  va_end(arguments);
  return written;
}

int puts(const char* text) {
  noted();
  if (watch.paused) return 1;
  flockfile(stdout);
  const int result = (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF) ? EOF : 1;
  funlockfile(stdout);
  return result;
}

int putchar(int c) {
  noted();
  if (watch.paused) return c;
  return fputc(c, stdout);
}

clock_t clock(void) {
  noted();
  timespec now;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(now.tv_sec * CLOCKS_PER_SEC + now.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}

}  // extern "C"
