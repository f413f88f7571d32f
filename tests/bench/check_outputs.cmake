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

file(READ "${DIR}/r.json" json)
string(JSON n LENGTH "${json}" rows)
string(JSON command GET "${json}" command)
string(JSON name GET "${json}" rows 0 case)
string(JSON variant GET "${json}" rows 0 variant)
string(JSON parity GET "${json}" rows 0 parity)
string(JSON failed GET "${json}" rows 0 failed)
string(JSON floor GET "${json}" rows 0 floor_bytes)
string(JSON gbs GET "${json}" rows 0 gb_per_s)
if(NOT n EQUAL 1 OR NOT name STREQUAL row OR NOT variant STREQUAL "default" OR NOT parity STREQUAL "identical"
   OR failed OR NOT floor GREATER 0 OR NOT gbs GREATER 0 OR NOT command MATCHES "--json")
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

# --host-overhead's JSON: the row, its two times and the host's pace, each above zero.
execute_process(
  COMMAND "${VT_BENCH}" --host-overhead --device cpu --case ${row} --json "${DIR}/host.json"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vt-bench --host-overhead exited with ${rc}:\n${out}\n${err}")
endif()
file(READ "${DIR}/host.json" json)
string(JSON n LENGTH "${json}" host_overhead)
string(JSON name GET "${json}" host_overhead 0 case)
string(JSON dispatch GET "${json}" host_overhead 0 validation_dispatch_us)
string(JSON whole GET "${json}" host_overhead 0 whole_call_us)
string(JSON pace GET "${json}" host_overhead 0 host_pace_us)
string(JSON error GET "${json}" host_overhead 0 error)
if(NOT n EQUAL 1 OR NOT name STREQUAL row OR NOT dispatch GREATER 0 OR NOT whole GREATER 0 OR NOT pace GREATER 0
   OR NOT error STREQUAL "")
  message(FATAL_ERROR "unexpected host-overhead JSON:\n${json}")
endif()
message(STATUS "json, csv and svg hold ${row}, and so does the host-overhead JSON")
