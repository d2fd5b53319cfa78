#include "decoupled_lookback_api.hpp"
#include "caller_storage_checks.hpp"

namespace {

using namespace lab09;

TEST(Lab09DeviceMemory, AllocatesNothing) {
    expect_no_device_memory_of_its_own([](auto&&... arguments) { decoupled_lookback_scan<SmallPolicy>(arguments...); },
                                       kSmallTile);
}

}  // namespace
