# The fuzz targets' committed inputs replayed in every build (`make test`, and under ASan and
# UBSan in `make test-sanitize`): fuzz_replay holds every tests/fuzz/fuzz_*.cc, each entry
# function renamed (calltree_fuzz_<target>), and runs it on the target's regression inputs
# (tests/fuzz/regressions/<target>: every failure fuzzing ever found) and its minimised corpus
# (tests/fuzz/corpus/<target>). Included from tests/CMakeLists.txt.
set(CALLTREE_FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)
set(CALLTREE_FUZZ_TARGETS fuzz_annotate fuzz_check fuzz_diff fuzz_merge fuzz_profile fuzz_reader
                          fuzz_roundtrip fuzz_serve_api fuzz_import_folded fuzz_import_cpuprofile
                          fuzz_import_pprof fuzz_import_pstats fuzz_import_perf)
add_executable(fuzz_replay ${CALLTREE_FUZZ_DIR}/replay_main.cc)
foreach(name ${CALLTREE_FUZZ_TARGETS})
  target_sources(fuzz_replay PRIVATE ${CALLTREE_FUZZ_DIR}/${name}.cc)
  set_source_files_properties(${CALLTREE_FUZZ_DIR}/${name}.cc PROPERTIES COMPILE_DEFINITIONS
                              "LLVMFuzzerTestOneInput=calltree_fuzz_${name}")
  add_test(NAME fuzz.replay.${name}
           COMMAND fuzz_replay ${name} ${CALLTREE_FUZZ_DIR}/regressions/${name}
                   ${CALLTREE_FUZZ_DIR}/corpus/${name})
  set_tests_properties(fuzz.replay.${name} PROPERTIES TIMEOUT 300)
endforeach()
# (Test code: -Og as the unit tests, which also keeps GCC 12's -O3 -Wrestrict false positives on
# std::string's inlined inserts out of the Release build; GCC bug 105329.)
calltree_test_options(fuzz_replay)
target_link_libraries(fuzz_replay PRIVATE calltree_server calltree::calltree)
target_include_directories(fuzz_replay PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/server
                                               ${CALLTREE_FUZZ_DIR})
target_compile_definitions(fuzz_replay PRIVATE CALLTREE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
