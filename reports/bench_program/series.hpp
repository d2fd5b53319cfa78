// What one bench program measures: its series, each a scan (or the copy) called the same way
// at every size. A lab's adapter (grader/labs/NN-name/bench_adapter.cu) and the baselines
// (baselines.cu) describe their series here; the sweep (sweep.hpp) runs them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "scanlab/counting_op.hpp"
#include "scanlab/operators.hpp"

namespace scanlab::bench {

// How the expected output of a series is computed on the host: a scan of each section (or of the
// whole array), the input itself (the copy), or each section's total at every element (a
// block-wide count).
enum class Reference { inclusive, exclusive, copy, section_total };

// One series of the results file (reports/results-format.md), without its points.
struct SeriesInfo {
    std::string id;         // unique, stable: "06-hierarchical/hierarchical_scan"
    std::string lab;        // "" for a baseline (written as null)
    std::string label;      // legend text
    std::string algorithm;  // keys colour and time-unit model: kogge-stone, cub, copy, ...
    std::string role = "lab";            // lab | baseline | ceiling
    std::string where = "gpu";           // gpu | cpu
    std::string scope = "whole-array";   // whole-array | sections
    unsigned block_size = 0;             // threads per block; 0: does not apply (null)
    unsigned section_size = 0;           // elements per section or tile; 0: does not apply (null)
    std::string sweep;                   // "block_size" for a block-size sweep series, else ""
    Reference reference = Reference::inclusive;
    int input_offset = 0;                // the series scans input + offset (lab 08: counts of 0..16)
    unsigned max_log2_n = 30;            // the largest size this series runs at
    bool counts_on_gpu = true;           // a counting run is possible (not for the copy)
};

// The element types and operators a series is instantiated for.
template <class T>
using CountedPlus = CountingOp<Plus<T>>;

template <class T, class Op>
using ScanCall = std::function<void(const T* in, T* out, std::size_t n, Op op)>;

// A series with its calls, type-erased so that the sweep (another translation unit) can run
// them: plain Plus for correctness and timing, CountingOp for the operator applications.
struct Series {
    SeriesInfo info;
    ScanCall<int, Plus<int>> int_plus;
    ScanCall<float, Plus<float>> float_plus;
    ScanCall<int, CountedPlus<int>> int_counted;
    ScanCall<float, CountedPlus<float>> float_counted;

    template <class T> const ScanCall<T, Plus<T>>& plain() const;
    template <class T> const ScanCall<T, CountedPlus<T>>& counted() const;
};

template <> inline const ScanCall<int, Plus<int>>& Series::plain<int>() const { return int_plus; }
template <> inline const ScanCall<float, Plus<float>>& Series::plain<float>() const { return float_plus; }
template <> inline const ScanCall<int, CountedPlus<int>>& Series::counted<int>() const { return int_counted; }
template <> inline const ScanCall<float, CountedPlus<float>>& Series::counted<float>() const { return float_counted; }

class SeriesList {
public:
    // `call(in, out, n, op)` is generic over the element type and the operator: a lambda
    // with auto parameters that calls the lab's host entry.
    template <class Call>
    void add(SeriesInfo info, Call call) {
        series_.push_back(Series{std::move(info), call, call, call, call});
    }
    const std::vector<Series>& all() const { return series_; }

private:
    std::vector<Series> series_;
};

// A lab's series: its id is "lab/entry" (the host entry's name).
inline SeriesInfo lab_series(const std::string& lab, const std::string& entry, std::string label,
                             std::string algorithm, std::string scope, unsigned block_size, unsigned section_size,
                             Reference reference = Reference::inclusive) {
    SeriesInfo info;
    info.id = lab + "/" + entry;
    info.lab = lab;
    info.label = std::move(label);
    info.algorithm = std::move(algorithm);
    info.scope = std::move(scope);
    info.block_size = block_size;
    info.section_size = section_size;
    info.reference = reference;
    return info;
}

// The series `base` at another block size, for a block-size sweep (measured at the sweep's
// sizes only, int32 only).
inline SeriesInfo at_block_size(SeriesInfo base, unsigned block_size, unsigned section_size) {
    base.id += "/block-" + std::to_string(block_size);
    base.label += ", " + std::to_string(block_size) + " threads";
    base.block_size = block_size;
    base.section_size = section_size;
    base.sweep = "block_size";
    return base;
}

// Defined once per bench program: by a lab's adapter, or by the baselines.
void register_series(SeriesList& list);

}  // namespace scanlab::bench
