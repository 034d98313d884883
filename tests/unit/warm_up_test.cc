// warm_up_test.cc — the session's warm-up and its remembered orders: a list answered from an
// order the warm-up made (or another query shared) is the list a fresh session makes, and a
// thread asking for what another is making waits for it rather than making it again.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "views/function_list.h"
#include "views/session.h"

namespace calltree {
namespace {

const std::string corpus = CALLTREE_CORPUS_DIR;

std::unique_ptr<views::session> load(const std::string& name) {
  auto s = views::load_session(corpus + "/" + name, views::load_options{});
  EXPECT_TRUE(s) << s.error().message;
  return s ? std::move(*s) : nullptr;
}

// What a list shows: each row's id and its costs.
std::vector<std::uint64_t> shown(const views::session& s, const views::list_query& q) {
  auto l = views::list_functions(s, q);
  EXPECT_TRUE(l) << l.error().message;
  std::vector<std::uint64_t> out;
  if (!l) return out;
  out.push_back(l->total_rows);
  for (const views::list_row& r : l->rows) {
    out.push_back(r.id);
    out.insert(out.end(), r.self.begin(), r.self.end());
    out.insert(out.end(), r.inclusive.begin(), r.inclusive.end());
    out.push_back(r.calls);
  }
  out.push_back(l->total_groups);
  for (const views::group_row& g : l->groups) {
    out.push_back(std::hash<std::string>()(g.name));
    out.push_back(g.functions);
    out.insert(out.end(), g.self.begin(), g.self.end());
    out.insert(out.end(), g.inclusive.begin(), g.inclusive.end());
  }
  return out;
}

// Every order the page asks (each event, self and inclusive, both ways; calls; with the event's
// column alone as the page asks, every column, and one derived column; ungrouped and grouped by
// object), on a warmed session and on fresh ones: the same rows and groups.
TEST(WarmUp, OrdersAreAFreshSessionsOrders) {
  for (const char* file :
       {"vg-sqlite3-workload-cache-branch-sim.callgrind", "vg-recurse-cacheuse.callgrind"}) {
    SCOPED_TRACE(file);
    auto warmed = load(file);
    ASSERT_TRUE(warmed);
    views::warm_up(*warmed);
    const std::vector<std::string> events = warmed->p.events.empty()
                                                ? std::vector<std::string>{}
                                                : std::vector<std::string>{"Ir", "Dr", "D1mr"};
    for (const std::string& e : events)
      for (views::sort_by by :
           {views::sort_by::self, views::sort_by::inclusive, views::sort_by::calls})
        for (bool desc : {true, false})
          for (int shown_columns = 0; shown_columns < 6; ++shown_columns) {
            SCOPED_TRACE(e + " " + std::to_string(static_cast<int>(by)) + " " +
                         std::to_string(desc) + " " + std::to_string(shown_columns));
            views::list_query q;
            q.sort_event = e;
            q.by = by;
            q.descending = desc;
            if (shown_columns >= 3) q.group = views::grouping::object;
            q.limit = 40;
            q.offset = 3;
            if (shown_columns % 3 == 1) q.events = {e};
            if (shown_columns % 3 == 2) {
              q.events = {"Dw", e, "Twice"};
              q.derived = {"Twice=2*Ir"};
            }
            auto fresh = load(file);
            ASSERT_TRUE(fresh);
            EXPECT_EQ(shown(*warmed, q), shown(*fresh, q));
          }
    // A derived column of the same name and another formula: its own order.
    views::list_query twice, thrice;
    twice.sort_event = thrice.sort_event = "X";
    twice.derived = {"X=2*Dr+Ir"};
    thrice.derived = {"X=Ir-Dr"};
    twice.events = thrice.events = {"X"};
    auto fresh = load(file);
    EXPECT_EQ(shown(*warmed, twice), shown(*fresh, twice));
    EXPECT_EQ(shown(*warmed, thrice), shown(*load(file), thrice));
  }
}

TEST(WarmUp, StopsWhenAsked) {
  auto s = load("vg-sqlite3-workload-cache-branch-sim.callgrind");
  ASSERT_TRUE(s);
  std::atomic<bool> stop{true};
  views::warm_up(*s, &stop);  // (the first list only)
  views::list_query q;
  q.by = views::sort_by::name;
  auto fresh = load("vg-sqlite3-workload-cache-branch-sim.callgrind");
  EXPECT_EQ(shown(*s, q), shown(*fresh, q));
}

TEST(Remembered, ASecondAskerWaitsForTheMaker) {
  auto s = load("vg-recurse-cacheuse.callgrind");
  ASSERT_TRUE(s);
  std::atomic<int> made{0};
  std::atomic<bool> making{false};
  auto make = [&]() -> std::shared_ptr<const int> {
    making = true;
    ++made;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return std::make_shared<const int>(42);
  };
  std::shared_ptr<const int> first, second;
  std::thread maker([&] { first = s->remembered<int>("test|wait", make); });
  while (!making) std::this_thread::yield();
  second = s->remembered<int>("test|wait", make);
  maker.join();
  EXPECT_EQ(made, 1);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first.get(), second.get());
  // A maker that throws: the one waiting makes it itself.
  making = false;
  std::thread thrower([&] {
    EXPECT_THROW(s->remembered<int>("test|throw",
                                    [&]() -> std::shared_ptr<const int> {
                                      making = true;
                                      std::this_thread::sleep_for(std::chrono::milliseconds(100));
                                      throw std::runtime_error("no");
                                    }),
                 std::runtime_error);
  });
  while (!making) std::this_thread::yield();
  auto after = s->remembered<int>("test|throw", make);
  thrower.join();
  ASSERT_TRUE(after);
  EXPECT_EQ(*after, 42);
  EXPECT_EQ(made, 2);
}

}  // namespace
}  // namespace calltree
