# Compiles and links every target of the cuda backend with nvcc, for the reference solutions
# and for the skeletons, without running anything (no GPU is needed). Run by ctest:
#   cmake -DSOURCE_DIR=<repo> -DBUILD_ROOT=<dir> -DJOBS=<n> -P CheckNvccBuild.cmake
# Without the CUDA toolkit the check is skipped (the ctest test's SKIP_REGULAR_EXPRESSION
# matches the message), except in CI, which must check the GPU build every time.
find_program(NVCC nvcc HINTS /usr/local/cuda/bin)
if(NOT NVCC)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "nvcc was not found: CI must check the GPU build (install the CUDA toolkit)")
  endif()
  message(NOTICE "nvcc-build skipped: nvcc (the CUDA toolkit) was not found on this machine")
  return()
endif()

foreach(submission solutions labs)
  set(tree "${BUILD_ROOT}/nvcc-${submission}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${tree}" -DSCANLAB_BACKEND=cuda
            "-DSCANLAB_SUBMISSION_DIR=${SOURCE_DIR}/${submission}" "-DCMAKE_CUDA_COMPILER=${NVCC}"
            -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "configuring the cuda backend for ${submission}/ failed")
  endif()
  # The skeletons only need their lab suites to build (`lab_tests`: every lab's test program);
  # the rest is the same source as above.
  if(submission STREQUAL "labs")
    set(targets --target lab_tests)
  else()
    set(targets)
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${tree}" --parallel ${JOBS} ${targets} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nvcc could not build ${submission}/ for the cuda backend")
  endif()
endforeach()
