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
  # The skeletons only need their lab programs to build (`lab_tests`), and what those share
  # with the solutions' (the harness, each lab's GoogleTest objects with CUB's baseline) is
  # imported from the solutions' tree, as a prepared grading machine does: only the skeletons'
  # own files are compiled again.
  if(submission STREQUAL "labs")
    set(targets --target lab_tests)
    set(prebuilt "-DSCANLAB_PREBUILT_DIR=${BUILD_ROOT}/nvcc-solutions")
  else()
    set(targets)
    set(prebuilt)
  endif()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${tree}" -DSCANLAB_BACKEND=cuda
            "-DSCANLAB_SUBMISSION_DIR=${SOURCE_DIR}/${submission}" "-DCMAKE_CUDA_COMPILER=${NVCC}"
            -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release ${prebuilt}
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "configuring the cuda backend for ${submission}/ failed")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${tree}" --parallel ${JOBS} ${targets} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nvcc could not build ${submission}/ for the cuda backend")
  endif()
endforeach()
