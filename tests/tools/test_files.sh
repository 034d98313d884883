# shellcheck shell=bash
# Sourced by the tests that read every corpus file: small_enough FILE is true when FILE is at
# most CALLTREE_TEST_MAX_BYTES bytes on disk, or when that is not set. Only `make test-sanitize`
# sets it (tests/unit/profile_files.h says why): under the sanitizers those tests read every
# dialect, part and compression of the corpus, but not its six largest files.
# CALLTREE_TEST_SUITE_MAX_BYTES is a suite's own limit (tests/CMakeLists.txt says which).
small_enough() {
  local size
  size=$(stat -c %s "$1" 2>/dev/null || echo 0)
  { [ -z "${CALLTREE_TEST_MAX_BYTES:-}" ] || [ "$size" -le "$CALLTREE_TEST_MAX_BYTES" ]; } &&
    { [ -z "${CALLTREE_TEST_SUITE_MAX_BYTES:-}" ] || [ "$size" -le "$CALLTREE_TEST_SUITE_MAX_BYTES" ]; }
}
