// call_summer.h — (internal) the calls between one function and the others, summed per other
// function: calls_of (calltree/analysis/callers.h) and the viewer's function detail, which keys
// functions by file and name, both sum with it. Not installed: a program asks calls_of.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "calltree/analysis/callers.h"

namespace calltree {

// The summing behind calls_of, for code that numbers functions its own way (the viewer keys
// them by file and name): calls between one node and others, added one call row at
// a time, summed per other node.
class call_summer {
 public:
  explicit call_summer(std::size_t events) : events_(events) {}
  // One call row between the node and `other`: its index (call_summary::first_call of the
  // first), count and inclusive costs (`events` of them).
  void add(std::uint32_t other, std::uint32_t call, std::uint64_t count,
           std::span<const std::uint64_t> costs);
  // The sums, by other node ascending (recursive not set: the caller knows its cycles), and
  // the summer is empty again.
  std::vector<call_summary> take();

 private:
  std::size_t events_;
  std::map<std::uint32_t, call_summary> sums_;
};

}  // namespace calltree
