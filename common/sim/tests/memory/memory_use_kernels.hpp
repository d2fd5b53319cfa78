// Launchers of memory_use_kernels.cu.
#pragma once

#include <cstddef>

// A fresh buffer of `words` ints, set by cudaMemset (null if it cannot be had).
int* filled_words(std::size_t words);
// Runs a kernel of 1024-thread blocks that reads each word once and writes it once; returns
// whether it left every word one larger.
bool increment_each_word(int* data, std::size_t words);
void free_words(int* data);
// Runs a chain of `links` one-thread hand-offs (a 32-thread block each, value, fence, flag),
// in which the last link also reads the first link's value; returns whether the values came
// out right. Until the next launch, the simulator keeps what each flag carried.
bool chain_of_handoffs(unsigned links);
