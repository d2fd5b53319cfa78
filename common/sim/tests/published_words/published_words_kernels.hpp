// Launchers of published_words_kernels.cu: one block publishes a value of two words, each word
// its state (high half) beside its part (low half), as lab 09's tiles do; other blocks poll them.
#pragma once

#include <vector>

// What a reader saw of the two words when it took the value: the state of the first word and
// the two parts.
struct Observation {
    unsigned state;
    unsigned first_part;
    unsigned second_part;
};

// Block 0 publishes value A (state 1), then value B (state 2); `readers` blocks each poll with
// volatile loads until the state reaches 1, then until it reaches 2, and note both observations.
// `check_both_states`: a reader takes the words only when both show the same state (else the
// first word's state alone decides). Returns readers x 2 observations.
std::vector<Observation> publish_two_values(unsigned readers, bool check_both_states);
// The parts of the two values block 0 publishes.
constexpr unsigned kFirstPartOf[3] = {0, 0x1111u, 0x3333u};
constexpr unsigned kSecondPartOf[3] = {0, 0x2222u, 0x4444u};

// Block 0 publishes value A; block 1 polls the two words through a plain pointer
// (`volatile_pointer` false) or a volatile one, until both show state 1. Returns what block 1 saw;
// *launch_error is what cudaDeviceSynchronize said.
Observation poll_two_words(bool volatile_pointer, int* launch_error);
// The line of published_words_kernels.cu where the poll loads the words.
extern const int kPollLoadLine;
