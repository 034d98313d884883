// handle.h — what a Python Profile holds: a loaded profile (loaded.h) and, computed once on
// first use, every function's self and inclusive cost (calltree/analysis/inclusive.h) and
// every function's own file (names.h).
//
// A handle never changes after it is made but for that one computation, which runs without the
// GIL under a once-flag: two Python threads may ask a profile for its functions at once, and
// other threads run while it is computed.
#pragma once

#include <memory>
#include <mutex>

#include "calltree/analysis/inclusive.h"
#include "loaded.h"
#include "names.h"

namespace calltree::python {

class profile_handle {
 public:
  explicit profile_handle(std::unique_ptr<loaded_profile> loaded) : loaded_(std::move(loaded)) {}

  const loaded_profile& loaded() const { return *loaded_; }
  const profile& model() const { return loaded_->profile; }

  // compute_inclusive(model()), made on the first call. Call it without the GIL.
  const inclusive_result& inclusive() const {
    std::call_once(inclusive_once_, [this] { inclusive_ = compute_inclusive(model()); });
    return inclusive_;
  }
  // own_files(model()), made on the first call. Call it without the GIL.
  const std::vector<file_id>& own_files() const {
    std::call_once(own_files_once_, [this] { own_files_ = python::own_files(model()); });
    return own_files_;
  }

 private:
  std::unique_ptr<loaded_profile> loaded_;
  mutable std::once_flag inclusive_once_;
  mutable inclusive_result inclusive_;
  mutable std::once_flag own_files_once_;
  mutable std::vector<file_id> own_files_;
};

}  // namespace calltree::python
