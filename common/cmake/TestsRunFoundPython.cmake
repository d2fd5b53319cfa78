# The kit's scripts that tests run (grader/grade, reports/bench, reports/plot) start `python3`
# from PATH, as a user's shell would. Called at the end of a folder's CMakeLists.txt, this puts
# a folder first in PATH for every test of that folder whose one entry, python3, starts the
# Python that CMake found, so those scripts run the interpreter the build was configured with,
# and run it directly. CMake may have found a version manager's shim (pyenv's is a chain of
# shell scripts that costs about half a second of processor time per start, and the grader's
# self-tests start grade several hundred times): python3 there starts the interpreter itself, as
# it names itself, by its own path (a script, not a link: a virtual environment's Python finds
# its environment from the path it is started by). Only python3 is put first: nothing else of
# that Python's folder (a pip-installed cmake, say) takes the place of the machine's own.
function(scanlab_tests_run_found_python)
  find_package(Python3 3.11 COMPONENTS Interpreter)
  get_property(tests DIRECTORY PROPERTY TESTS)
  if(NOT Python3_Interpreter_FOUND OR NOT tests)
    return()
  endif()
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE interpreter OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT EXISTS "${interpreter}")
    return()
  endif()
  set(python_dir "${CMAKE_BINARY_DIR}/tests-python")
  file(WRITE "${python_dir}/python3" "#!/bin/sh\nexec '${interpreter}' \"$@\"\n")
  file(CHMOD "${python_dir}/python3" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT_MODIFICATION "PATH=path_list_prepend:${python_dir}")
endfunction()
