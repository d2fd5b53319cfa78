// How the scheduler treats a value published as two words (runtime/threads/scheduler.hpp,
// cross_block; runtime/threads/plain_poll.hpp): a reader that skips the check that the words
// belong together meets a value half published, and its twin that checks never does; a poll of
// the words through a plain pointer ends and is reported as a race at its line, and its twin
// through a volatile pointer runs clean. Each run twice, on one OS thread and on three: the same
// seed gives the same run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <scanlab/sim/diagnostics.hpp>

#include "published_words_kernels.hpp"

namespace {

using scanlab::sim::Report;
using scanlab::sim::ReportKind;

constexpr unsigned kReaders = 8;

void run_on(unsigned os_threads) {
    scanlab::sim::Schedule s = scanlab::sim::get_schedule();
    s.threads = os_threads;
    s.replay = false;
    scanlab::sim::set_schedule(s);
    scanlab::sim::forget_reported_places();
    scanlab::sim::take_reports();
}

// Whether both parts are those of the value the state names.
bool whole(const Observation& o) {
    return o.state >= 1 && o.state <= 2 && o.first_part == kFirstPartOf[o.state] && o.second_part == kSecondPartOf[o.state];
}

unsigned torn_count(const std::vector<Observation>& seen) {
    unsigned torn = 0;
    for (const Observation& o : seen) torn += whole(o) ? 0 : 1;
    return torn;
}

// The errors among the reports: a word that carries its own state is read with volatile loads on
// purpose, which the memory model notes as a warning only.
unsigned error_count(const std::vector<Report>& reports) {
    unsigned errors = 0;
    for (const Report& r : reports) errors += r.is_error ? 1 : 0;
    return errors;
}

std::vector<std::string> texts(const std::vector<Report>& reports) {
    std::vector<std::string> out;
    for (const Report& r : reports) out.push_back(r.text);
    return out;
}

TEST(SimPublishedWords, ReaderThatChecksOnlyTheFirstWordMeetsAHalfPublishedValue) {
    for (unsigned os_threads : {1u, 3u}) {
        run_on(os_threads);
        const std::vector<Observation> seen = publish_two_values(kReaders, false);
        ASSERT_EQ(seen.size(), 2 * kReaders);
        EXPECT_GT(torn_count(seen), 0u) << "on " << os_threads << " OS threads no reader met a torn value";
    }
}

TEST(SimPublishedWords, ReaderThatChecksBothStatesTakesWholeValues) {
    for (unsigned os_threads : {1u, 3u}) {
        run_on(os_threads);
        const std::vector<Observation> seen = publish_two_values(kReaders, true);
        ASSERT_EQ(seen.size(), 2 * kReaders);
        EXPECT_EQ(torn_count(seen), 0u) << "on " << os_threads << " OS threads";
        for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i].state, i % 2 + 1) << "observation " << i;
        EXPECT_EQ(error_count(scanlab::sim::take_reports()), 0u);
    }
}

TEST(SimPublishedWords, TornReadsAreTheSameOnAnyNumberOfOsThreads) {
    run_on(1);
    const std::vector<Observation> one = publish_two_values(kReaders, false);
    run_on(3);
    const std::vector<Observation> three = publish_two_values(kReaders, false);
    ASSERT_EQ(one.size(), three.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
        EXPECT_EQ(one[i].state, three[i].state) << "observation " << i;
        EXPECT_EQ(one[i].first_part, three[i].first_part) << "observation " << i;
        EXPECT_EQ(one[i].second_part, three[i].second_part) << "observation " << i;
    }
}

TEST(SimPublishedWords, PlainPollOfTwoWordsIsARaceAtItsLine) {
    std::vector<std::string> first_run;
    for (unsigned os_threads : {1u, 3u}) {
        run_on(os_threads);
        int error = -1;
        const Observation seen = poll_two_words(false, &error);
        EXPECT_EQ(error, 0) << "the poll ended: the publisher ran";
        EXPECT_TRUE(whole(seen) && seen.state == 1);
        const std::vector<Report> reports = scanlab::sim::take_reports();
        const std::string line = ":" + std::to_string(kPollLoadLine);
        bool at_poll = false;
        for (const Report& r : reports) {
            const std::string& place = r.first_place;
            const bool at_line = place.size() >= line.size() && place.compare(place.size() - line.size(), line.size(), line) == 0;
            if (r.kind == ReportKind::race && r.is_error && at_line && place.find("published_words_kernels.cu") != std::string::npos &&
                r.text.find("volatile") != std::string::npos && r.text.find("atomic_ref") != std::string::npos)
                at_poll = true;
        }
        EXPECT_TRUE(at_poll) << "no race reported at the poll's line" << line << " with volatile and atomic_ref as the fix";
        if (first_run.empty()) first_run = texts(reports);
        else EXPECT_EQ(texts(reports), first_run) << "the reports differ between 1 and 3 OS threads";
    }
}

TEST(SimPublishedWords, VolatilePollOfTwoWordsRunsClean) {
    run_on(1);
    int error = -1;
    const Observation seen = poll_two_words(true, &error);
    EXPECT_EQ(error, 0);
    EXPECT_TRUE(whole(seen) && seen.state == 1);
    EXPECT_EQ(error_count(scanlab::sim::take_reports()), 0u);
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    scanlab::sim::set_error_exit_status(0);  // the reports are judged here
    return RUN_ALL_TESTS();
}
