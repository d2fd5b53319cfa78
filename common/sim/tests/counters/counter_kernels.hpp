// Launchers of counter_kernels.cu (one block each, see there).
#pragma once

void run_shared_pattern(unsigned stride, unsigned padded_every);
void run_shared_doubles();
void run_shared_broadcast();
void run_global_stride(unsigned stride);
void run_odd_lanes_differ();
void run_first_warp_only();
void run_reduction_tree(unsigned threads, bool packed);
