# A lab's test program, from its folder grader/labs/NN-name/:
#
#   scanlab_add_lab_tests(SOURCE <file.cu>)
#
# builds labNN_tests from every *_test.cpp of the folder and its instantiations.cu, which
# #includes SCANLAB_LAB_SOURCE: <file.cu> of the submission's NN-name/ folder (labs/ for
# students, solutions/ for the kit's own checks). Earlier labs that <file.cu> includes
# ("02-kogge-stone/kogge_stone.cu") come from SCANLAB_EARLIER_LABS_DIR. The test program links the grader's
# harness, is run by ctest (label grader), and is part of `lab_tests`, the target that builds
# every lab's test program.
#
# The *_test.cpp files are an object library of their own, labNN_suite: no submission's file is
# on their path, so one build of them serves every submission. A build tree configured with
# SCANLAB_PREBUILT_DIR (grader/cmake/Prebuilt.cmake) imports them, with the simulator runtime
# and the harness, from that tree and compiles only the lab's own translation unit.

add_custom_target(lab_tests)

# Every grade links the lab's test program again, and so does every known-bad kernel of the
# self-tests: LLVM's linker does it in a third of the processor time of binutils' default one
# (0.25 s against 0.7 s for lab 01's), where the machine has it (Debian's lld).
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" SCANLAB_HAVE_LLD)

# A lab with a performance check (grader/labs/common/performance_check.hpp) has a
# performance_reference.cu that compiles its reference solution into a namespace of its own.
# On the cuda backend CUB's baseline joins the lab's suite; where the kit has its solutions
# (the instructor's copy, not the student repository) that file joins it too, with
# SCANLAB_HAS_REFERENCE_SOLUTION. A student's copy times the submission against CUB alone and
# the check says that its grading is the instructor's; on the simulator the check's test is
# skipped and says why. Neither depends on the submission, so they belong to the suite, built
# once for every submission.
function(scanlab_add_performance_reference suite lab_dir source)
  set(reference_entry "${CMAKE_CURRENT_SOURCE_DIR}/performance_reference.cu")
  set(reference_source "${PROJECT_SOURCE_DIR}/solutions/${lab_dir}/${source}")
  if(NOT SCANLAB_BACKEND STREQUAL "cuda" OR NOT EXISTS "${reference_entry}")
    return()
  endif()
  set(sources "${SCANLAB_LAB_TEST_HELPERS}/performance_baselines.cu")
  # The GPU timer is reports/bench's.
  target_include_directories(${suite} PRIVATE "${PROJECT_SOURCE_DIR}/reports/bench_program")
  if(EXISTS "${reference_source}")
    list(APPEND sources "${reference_entry}")
    set_source_files_properties("${reference_entry}" TARGET_DIRECTORY ${suite} PROPERTIES
      COMPILE_DEFINITIONS "SCANLAB_REFERENCE_SOURCE=\"${reference_source}\"")
    # The earlier labs a reference includes are references too.
    target_include_directories(${suite} PRIVATE "${PROJECT_SOURCE_DIR}/solutions")
    target_compile_definitions(${suite} PRIVATE SCANLAB_HAS_REFERENCE_SOLUTION)
  endif()
  target_sources(${suite} PRIVATE ${sources})
  set_source_files_properties(${sources} TARGET_DIRECTORY ${suite} PROPERTIES LANGUAGE CUDA)
endfunction()

# Paths as the student reads them, written by the compiler itself: the debug information (which
# the simulator's reports and addr2line read) and __FILE__ (SCANLAB_CUDA_CHECK's messages, the
# barriers' call sites) name a lab file from its lab folder on ("02-kogge-stone/kogge_stone.cu",
# never the grader's staging copy of the submission) and a file of the kit from the kit's top
# ("common/include/scanlab/affine_map.hpp", "grader/labs/common/scan_run.hpp"), so nothing
# downstream rewrites a path. GCC applies the last map that matches: the most specific comes
# last (a build root inside the kit puts the staging copy and the build tree under the kit's
# top). The folder the compiler runs in (the tree's top with Ninja, the target's folder with
# Make), the compile unit's own folder, maps to nothing, so that addr2line does not put it in
# front of the relative paths. Where `rewritten` is given (the simulator's
# rewritten copies of the lab file and of the instantiations), their folders map to their
# sources' folders.
function(scanlab_write_student_paths target)
  cmake_parse_arguments(ARG "" "" "REWRITTEN" ${ARGN})
  set(maps "${PROJECT_SOURCE_DIR}/=" "${SCANLAB_EARLIER_LABS_DIR}/=" "${SCANLAB_SUBMISSION_DIR}/="
           "${CMAKE_BINARY_DIR}=" "${CMAKE_CURRENT_BINARY_DIR}=")
  foreach(pair IN LISTS ARG_REWRITTEN)
    string(REPLACE "|" ";" pair "${pair}")
    list(GET pair 0 rewritten)
    list(GET pair 1 shown)
    get_filename_component(rewritten_dir "${rewritten}" DIRECTORY)
    list(APPEND maps "${rewritten_dir}=${shown}")
  endforeach()
  set(options)
  foreach(map IN LISTS maps)
    if(SCANLAB_BACKEND STREQUAL "cuda")
      # nvcc hands these to the host compiler; the device code's line information keeps the
      # real paths, and the grader writes compute-sanitizer's report the student's way.
      list(APPEND options "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffile-prefix-map=${map}>"
                          "$<$<COMPILE_LANGUAGE:CXX>:-ffile-prefix-map=${map}>")
    else()
      list(APPEND options "-ffile-prefix-map=${map}")
    endif()
  endforeach()
  if(NOT SCANLAB_BACKEND STREQUAL "cuda")
    # DWARF 5 line tables start in file 1, which binutils' addr2line (2.40) takes for the compile
    # unit's own file: a line of the student's __device__ helper was named at the rewritten copy
    # of the instantiations. DWARF 4 numbers files from 1, and every tool agrees on them.
    list(APPEND options "-gdwarf-4")
  endif()
  target_compile_options(${target} PRIVATE ${options})
endfunction()

function(scanlab_add_lab_tests)
  cmake_parse_arguments(ARG "" "SOURCE" "" ${ARGN})
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "scanlab_add_lab_tests: SOURCE <file.cu> is required")
  endif()
  get_filename_component(lab_dir "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  if(NOT lab_dir MATCHES "^([0-9][0-9])-[a-z0-9][a-z0-9-]*$")
    message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}: a lab folder is named NN-name")
  endif()
  set(target "lab${CMAKE_MATCH_1}_tests")
  set(suite "lab${CMAKE_MATCH_1}_suite")
  set(lab_file "${SCANLAB_SUBMISSION_DIR}/${lab_dir}/${ARG_SOURCE}")
  file(GLOB tests CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp")
  set(instantiations "${CMAKE_CURRENT_SOURCE_DIR}/instantiations.cu")

  if(NOT TARGET ${suite})
    add_library(${suite} OBJECT ${tests})
    # One compile for all of a lab's test files (a unity build): each alone spends most of its
    # time on the same headers (GoogleTest, the harness, the standard library) and the same
    # inline code, four times what one batch takes for labs 09 and 10. Every fresh build of the
    # kit's shared part (a first grade, `grade --prepare`, CI's) pays it. The files of a lab share
    # one translation unit, so two of them must not define the same helper, even in an anonymous
    # namespace: the compiler says so at once.
    set_target_properties(${suite} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
    # The suite's own C++ (GoogleTest's cases, the host's reference scans, the comparisons) is
    # optimized at -O1 whatever the build type: half the processor time of Release's -O3 (lab
    # 03's suite: 13 s against 23 s), and its tests run as fast, because what they spend their
    # time on is the lab's code, compiled with flags of its own. CUDA files of a suite (CUB's
    # baselines) keep the build type's.
    target_compile_options(${suite} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-O1>")
    target_include_directories(${suite} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}" "${SCANLAB_LAB_TEST_HELPERS}")
    if(SCANLAB_BACKEND STREQUAL "cuda")
      target_link_libraries(${suite} PUBLIC scanlab_grader_harness GTest::gtest scanlab_common CUDA::cudart)
    else()
      # The simulator's headers only: the suite's files compile while the runtime is still being
      # built; the lab's program links the runtime.
      target_link_libraries(${suite} PUBLIC scanlab_grader_harness GTest::gtest scanlab_common scanlab_sim_headers)
    endif()
    set_property(GLOBAL APPEND PROPERTY SCANLAB_LAB_SUITES ${suite})
    scanlab_add_performance_reference(${suite} "${lab_dir}" "${ARG_SOURCE}")
    scanlab_write_student_paths(${suite})
  endif()
  add_executable(${target})
  if(SCANLAB_BACKEND STREQUAL "cuda")
    set(included "${lab_file}")
  else()
    # The instantiation file #includes the rewritten lab file: generate it as part of the
    # target, and rebuild the instantiations whenever it changes.
    scanlab_sim_rewrite("${lab_file}" included INCLUDE_DIRS "${SCANLAB_EARLIER_LABS_DIR}")
    target_sources(${target} PRIVATE "${included}")
    set_source_files_properties("${included}" TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY TRUE GENERATED TRUE)
    scanlab_sim_rewritten_path("${instantiations}" rewritten_instantiations)
    set_source_files_properties("${rewritten_instantiations}" TARGET_DIRECTORY ${target}
      PROPERTIES OBJECT_DEPENDS "${included}")
  endif()
  scanlab_add_cuda_sources(${target} "${instantiations}")
  if(SCANLAB_BACKEND STREQUAL "cuda")
    scanlab_write_student_paths(${target})
  else()
    file(RELATIVE_PATH tests_dir "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
    scanlab_write_student_paths(${target} REWRITTEN "${included}|${lab_dir}"
                                "${rewritten_instantiations}|${tests_dir}")
  endif()
  target_compile_definitions(${target} PRIVATE "SCANLAB_LAB_SOURCE=\"${included}\"")
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}" "${SCANLAB_LAB_TEST_HELPERS}"
                                               "${SCANLAB_SUBMISSION_DIR}/${lab_dir}" "${SCANLAB_EARLIER_LABS_DIR}")
  target_link_libraries(${target} PRIVATE ${suite} scanlab_grader_harness GTest::gtest)
  if(NOT SCANLAB_BACKEND STREQUAL "cuda")
    target_link_libraries(${target} PRIVATE scanlab_sim)  # after the harness, which calls it
    if(SCANLAB_HAVE_LLD)
      target_link_options(${target} PRIVATE -fuse-ld=lld)
    endif()
  endif()
  add_dependencies(lab_tests ${target})
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES LABELS grader)
endfunction()
