#include "three_phase_api.hpp"

namespace {

using namespace lab05;

TEST(Lab05InputUnmodified, ThreePhase) { expect_section_scan_leaves_input(kThreePhase, kThreePhaseSpec); }

}  // namespace
