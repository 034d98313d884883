// server/asm_cache.cc — what /api/v1/asm/ID keeps between requests (see asm_cache.h).
#include "asm_cache.h"

namespace calltree::server::detail {

std::size_t bytes_of(const objdump_reply& r) {
  std::size_t n = sizeof r + r.message.capacity() + r.path.capacity() + r.command.capacity() +
                  r.text.capacity() + r.errors.capacity();
  for (const auto& note : r.notes) n += sizeof note + note.capacity();
  return n;
}

asm_cache::asm_cache(objdump_runner run, asm_cache_limits limits)
    : run_(std::move(run)),
      limits_(limits),
      replies_(limits.objdump_bytes),
      answers_(limits.answer_bytes) {
  if (!run_) return;  // (no runner: the route answers 404 no_asm)
  cached_ = [this](const objdump_request& req) {
    std::string key = req.object;
    for (const auto& a : req.arguments) {
      key += '\0';
      key += a;
    }
    if (auto hit = replies_.find(key)) return std::move(*hit);
    runs_.fetch_add(1);
    objdump_reply reply = run_(req);
    if (reply.status == asm_status::ok) {
      reply.text.shrink_to_fit();
      replies_.put(key, reply);
    }
    return reply;
  };
}

std::optional<asm_cache::slot> asm_cache::try_slot() {
  unsigned now = busy_.load();
  while (now < limits_.jobs)
    if (busy_.compare_exchange_weak(now, now + 1)) return slot(&busy_);
  return std::nullopt;
}

}  // namespace calltree::server::detail
