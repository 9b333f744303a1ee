# Two runs' trajectory.h5 and checkpoint.h5 hold the same data (h5diff,
# exact: no tolerance), whatever wrote them.
find_program(H5DIFF h5diff REQUIRED)
foreach(file trajectory.h5 checkpoint.h5)
  execute_process(COMMAND ${H5DIFF} ${A}/${file} ${B}/${file}
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${file} differs between ${A} and ${B}:\n${out}${err}")
  endif()
endforeach()
message(STATUS "identical: ${A} and ${B}")
