// The simulator's block schedule for the life of one test (the forward-progress checks of the
// single-pass labs): blocks started in a given order, a given number resident at once.
#pragma once

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>

namespace scanlab::grading {

// Sets the schedule (seed 7) and restores the one before however the test ends.
class ScheduleScope {
public:
    ScheduleScope(scanlab::sim::Schedule::BlockOrder order, unsigned resident) : original_(scanlab::sim::get_schedule()) {
        scanlab::sim::Schedule schedule = original_;
        schedule.block_order = order;
        schedule.resident_blocks = resident;
        schedule.seed = 7;
        scanlab::sim::set_schedule(schedule);
    }
    ~ScheduleScope() { scanlab::sim::set_schedule(original_); }
    ScheduleScope(const ScheduleScope&) = delete;
    ScheduleScope& operator=(const ScheduleScope&) = delete;

private:
    scanlab::sim::Schedule original_;
};

}  // namespace scanlab::grading
#endif
