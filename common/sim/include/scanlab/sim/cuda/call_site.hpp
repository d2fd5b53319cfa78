// The program's file and line, taken by the simulator's entry points as defaulted trailing
// parameters: an optimizer may merge identical calls from both branches of an `if`, so a return
// address could name the wrong one. Shared by every concern header that reports a call.
#pragma once

#define SCANLAB_SIM_SITE_PARAMS const char *scanlab_file = __builtin_FILE(), unsigned scanlab_line = __builtin_LINE()
