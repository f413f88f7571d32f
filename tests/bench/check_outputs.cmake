# vt-bench's --json, --csv and --svg on one CPU row: each file is written, whole, and holds
# that row; then --host-overhead's JSON for the same case. Run by ctest with
# -DVT_BENCH=<vt-bench> -DDIR=<a scratch folder>.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(row conv_update/C8192/B1)
execute_process(
  COMMAND "${VT_BENCH}" --device cpu --case ${row} --variant default
          --json "${DIR}/r.json" --csv "${DIR}/r.csv" --svg "${DIR}/r.svg"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vt-bench exited with ${rc}:\n${out}\n${err}")
endif()
file(GLOB leftovers "${DIR}/*.part")
if(leftovers)
  message(FATAL_ERROR "partial files left behind: ${leftovers}")
endif()

# Reads the JSON file PATH: the length of its array ARRAY into `n`, and each FIELD of that
# array's first element into a variable of the field's name.
function(read_first_row path array)
  file(READ "${path}" json)
  set(json "${json}" PARENT_SCOPE)
  string(JSON len LENGTH "${json}" ${array})
  set(n ${len} PARENT_SCOPE)
  foreach(field IN LISTS ARGN)
    string(JSON value GET "${json}" ${array} 0 ${field})
    set(${field} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()

read_first_row("${DIR}/r.json" rows case variant parity failed floor_bytes gb_per_s)
string(JSON command GET "${json}" command)
if(NOT n EQUAL 1 OR NOT case STREQUAL row OR NOT variant STREQUAL "default" OR NOT parity STREQUAL "identical"
   OR failed OR NOT floor_bytes GREATER 0 OR NOT gb_per_s GREATER 0 OR NOT command MATCHES "--json")
  message(FATAL_ERROR "unexpected JSON:\n${json}")
endif()

file(STRINGS "${DIR}/r.csv" csv)
list(LENGTH csv lines)
list(GET csv 0 header)
if(NOT lines EQUAL 2 OR NOT header MATCHES "^device,model,op,case,variant,provider,floor_bytes,"
   OR NOT csv MATCHES ",${row},default,.*,\"identical\"$")
  message(FATAL_ERROR "unexpected CSV:\n${csv}")
endif()

file(READ "${DIR}/r.svg" svg)
if(NOT svg MATCHES "^<svg " OR NOT svg MATCHES "<title>${row}: " OR NOT svg MATCHES "</svg>\n$")
  message(FATAL_ERROR "unexpected SVG:\n${svg}")
endif()

# --host-overhead's JSON: the row, the threads that timed it, its two times and the host's
# pace, each above zero.
execute_process(
  COMMAND "${VT_BENCH}" --host-overhead --threads 2 --device cpu --case ${row} --json "${DIR}/host.json"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vt-bench --host-overhead exited with ${rc}:\n${out}\n${err}")
endif()
read_first_row("${DIR}/host.json" host_overhead case threads validation_dispatch_us whole_call_us host_pace_us error)
if(NOT n EQUAL 1 OR NOT case STREQUAL row OR NOT threads EQUAL 2 OR NOT validation_dispatch_us GREATER 0
   OR NOT whole_call_us GREATER 0 OR NOT host_pace_us GREATER 0 OR NOT error STREQUAL "")
  message(FATAL_ERROR "unexpected host-overhead JSON:\n${json}")
endif()
message(STATUS "json, csv and svg hold ${row}, and so does the host-overhead JSON")
