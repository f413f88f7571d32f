# Read by ctest (through TEST_INCLUDE_FILES) when it loads the test list, so every plugin is
# built and the device axis is complete. Registers one ctest test per suite and device (a
# process start, with every backend's initialisation, per device rather than per case), and
# one per backend for availability, which ctest reports as skipped when the backend is absent.
# Input: PARITY_TEST, the test binary.
execute_process(COMMAND "${PARITY_TEST}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  add_test(parity_listing "${PARITY_TEST}" --gtest_list_tests)  # fails, and shows why
  set_tests_properties(parity_listing PROPERTIES LABELS parity)
  return()
endif()

string(REPLACE "\n" ";" lines "${listing}")
set(suite "")
set(groups "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ ]+\\.)")  # "Cases/Parity."
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)")  # "  MatchesReference/fwd_k2__cpu_0  # GetParam() = ..."
    set(test "${suite}${CMAKE_MATCH_1}")
    if(test MATCHES "^(.*/)[^/]*__([A-Za-z0-9_]+)$")  # parameterised per device: group
      set(filter "${CMAKE_MATCH_1}*__${CMAKE_MATCH_2}")
      list(FIND groups "${filter}" seen)  # ctest reads this under old policies: no IN_LIST
      if(seen EQUAL -1)
        list(APPEND groups "${filter}")
        add_test("${CMAKE_MATCH_1}${CMAKE_MATCH_2}" "${PARITY_TEST}" "--gtest_filter=${filter}")
        set_tests_properties("${CMAKE_MATCH_1}${CMAKE_MATCH_2}" PROPERTIES LABELS parity)
      endif()
    else()
      add_test("${test}" "${PARITY_TEST}" "--gtest_filter=${test}")
      set_tests_properties("${test}" PROPERTIES LABELS parity SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
    endif()
  endif()
endforeach()
