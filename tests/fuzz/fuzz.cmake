# fuzz.cmake - the fuzz harnesses of tests/fuzz/ (docs/robustness.md), included by the
# top-level CMakeLists.txt.
#
# Normal build (any compiler): every harness tests/fuzz/fuzz_<name>.c is linked with
# replay.c into fuzz_replay_<name>, and ctest runs it on tests/fuzz-corpus/<name>/
# (label "unit", so the sanitizer build replays them too).
#
# -DCOLLSIM_FUZZ=ON (clang only; scripts/fuzz.sh): the library is instrumented for
# libFuzzer with ASan + UBSan, and every harness becomes a libFuzzer binary fuzz_<name>.
option(COLLSIM_FUZZ "Build the libFuzzer harnesses of tests/fuzz (needs clang)" OFF)

file(GLOB FUZZ_HARNESSES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.c)

if(COLLSIM_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "COLLSIM_FUZZ needs clang (CC=clang): libFuzzer is part of clang")
  endif()
  set(FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                 -fno-omit-frame-pointer -Wno-unknown-warning-option)
  target_compile_options(collsim_core PRIVATE ${FUZZ_FLAGS})
  set_target_properties(collsim_core PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
  foreach(src ${FUZZ_HARNESSES})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
    target_compile_options(${name} PRIVATE ${FUZZ_FLAGS})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${name} PRIVATE collsim_core)
    set_target_properties(${name} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
  endforeach()
else()
  foreach(src ${FUZZ_HARNESSES})
    get_filename_component(name ${src} NAME_WE)
    string(REGEX REPLACE "^fuzz_" "" harness ${name})
    add_executable(fuzz_replay_${harness} ${src} ${CMAKE_SOURCE_DIR}/tests/fuzz/replay.c)
    target_include_directories(fuzz_replay_${harness} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
    target_link_libraries(fuzz_replay_${harness} PRIVATE collsim_core)
    add_test(NAME fuzz_replay_${harness} COMMAND fuzz_replay_${harness}
             ${CMAKE_SOURCE_DIR}/tests/fuzz-corpus/${harness} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(fuzz_replay_${harness} PROPERTIES LABELS "unit")
  endforeach()
endif()
