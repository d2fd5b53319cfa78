#include "warp_specialized_api.hpp"
#include "caller_storage_checks.hpp"

namespace {

using namespace lab10;

TEST(Lab10DeviceMemory, AllocatesNothing) {
    expect_no_device_memory_of_its_own([](auto&&... arguments) { warp_specialized_scan<SmallPolicy>(arguments...); },
                                       kSmallTile);
}

}  // namespace
