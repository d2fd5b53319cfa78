#include "three_phase_api.hpp"

namespace {

using namespace lab05;

TEST(Lab05OperationCount, ThreePhase) { expect_section_scan_applications(kThreePhase, kThreePhaseSpec); }

}  // namespace
