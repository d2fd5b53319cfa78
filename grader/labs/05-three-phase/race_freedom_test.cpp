#include "three_phase_api.hpp"

namespace {

using namespace lab05;

TEST(Lab05RaceFreedom, ThreePhase) { expect_section_scan_race_free(kThreePhase, kThreePhaseSpec); }

}  // namespace
