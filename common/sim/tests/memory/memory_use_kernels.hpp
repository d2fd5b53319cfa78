// Launchers of memory_use_kernels.cu.
#pragma once

#include <cstddef>

// A fresh buffer of `words` ints, set by cudaMemset (null if it cannot be had).
int* filled_words(std::size_t words);
// Runs a kernel of 1024-thread blocks that reads each word once and writes it once; returns
// whether it left every word one larger.
bool increment_each_word(int* data, std::size_t words);
void free_words(int* data);
