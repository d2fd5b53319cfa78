#include "warp_specialized_api.hpp"
#include "caller_storage_checks.hpp"

namespace {

using namespace lab10;

// Calls that share one temporary storage (caller_storage_checks.hpp), with 4-byte values and
// with 8-byte ones (they travel differently through the status words).
const auto small_tiles = [](auto&&... arguments) { warp_specialized_scan<SmallPolicy>(arguments...); };

TEST(Lab10RepeatedCalls, IndependentOfTheCallBefore) {
    expect_calls_with_one_storage_independent<Int32Plus>(small_tiles, 40 * kSmallTile + 7, kSmallTile);
    expect_calls_with_one_storage_independent<AffineCompose>(small_tiles, 40 * kSmallTile + 7, kSmallTile);
}

}  // namespace
