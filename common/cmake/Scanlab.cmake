# Building lab code for either backend from the same .cu files.
#
#   scanlab_add_cuda_sources(<target> <file.cu>...)
#   scanlab_add_lab_tests(<NN> LAB_DIR <NN-name> LAB_SOURCE <file.cu>
#                         INSTANTIATIONS <inst.cu> TESTS <test.cpp>...)

if(SCANLAB_BACKEND STREQUAL "cuda")
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
elseif(NOT SCANLAB_BACKEND STREQUAL "sim")
  message(FATAL_ERROR "SCANLAB_BACKEND must be sim or cuda, not '${SCANLAB_BACKEND}'")
endif()

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(SCANLAB_REWRITER "${CMAKE_CURRENT_LIST_DIR}/../sim/tools/cu_rewrite.py")

function(_scanlab_rewritten_path source out_var)
  get_filename_component(abs "${source}" ABSOLUTE)
  string(MD5 tag "${abs}")
  string(SUBSTRING "${tag}" 0 8 tag)
  get_filename_component(name "${abs}" NAME)
  set(${out_var} "${CMAKE_CURRENT_BINARY_DIR}/scanlab_sim/${tag}/${name}.cpp" PARENT_SCOPE)
endfunction()

# The rewritten C++ for a .cu: same lines, launches and __shared__ turned into simulator calls.
function(_scanlab_rewrite source out_var)
  get_filename_component(abs "${source}" ABSOLUTE)
  get_filename_component(name "${abs}" NAME)
  _scanlab_rewritten_path("${abs}" out)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND Python3::Interpreter "${SCANLAB_REWRITER}" "${abs}" -o "${out}"
    DEPENDS "${abs}" "${SCANLAB_REWRITER}"
    COMMENT "Preparing ${name} for the CPU simulator"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Flags that route every load and store of lab code to the simulator (see
# common/sim/runtime/instrumentation_hooks.cpp): ThreadSanitizer's instrumentation, with
# scanlab's runtime in place of libtsan. -fno-tree-sink keeps each store on its own source
# line (GCC would sink the stores of both arms of an `if` into one instruction, and reports
# would name the wrong line).
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(SCANLAB_SIM_INSTRUMENT_FLAGS
      -fsanitize=thread "SHELL:-mllvm -tsan-distinguish-volatile=1" "SHELL:-mllvm -tsan-instrument-func-entry-exit=0"
      -g -O1 -fno-omit-frame-pointer)
else()
  set(SCANLAB_SIM_INSTRUMENT_FLAGS
      -fsanitize=thread --param=tsan-distinguish-volatile=1 --param=tsan-instrument-func-entry-exit=0
      -fno-tree-sink -g -O1 -fno-omit-frame-pointer)
endif()

function(scanlab_add_cuda_sources target)
  foreach(source IN LISTS ARGN)
    if(SCANLAB_BACKEND STREQUAL "cuda")
      target_sources(${target} PRIVATE "${source}")
      set_source_files_properties("${source}" TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CUDA)
    else()
      _scanlab_rewrite("${source}" rewritten)
      target_sources(${target} PRIVATE "${rewritten}")
      set_source_files_properties("${rewritten}" TARGET_DIRECTORY ${target}
        PROPERTIES COMPILE_OPTIONS "${SCANLAB_SIM_INSTRUMENT_FLAGS}" GENERATED TRUE)
      get_filename_component(dir "${source}" DIRECTORY)
      get_filename_component(dir "${dir}" ABSOLUTE)
      target_include_directories(${target} PRIVATE "${dir}")
    endif()
  endforeach()
  if(SCANLAB_BACKEND STREQUAL "cuda")
    target_link_libraries(${target} PRIVATE scanlab_common CUDA::cudart)
  else()
    target_link_libraries(${target} PRIVATE scanlab_common scanlab_sim)
  endif()
endfunction()

function(scanlab_add_lab_tests number)
  cmake_parse_arguments(ARG "" "LAB_DIR;LAB_SOURCE;INSTANTIATIONS" "TESTS" ${ARGN})
  set(target "lab${number}_tests")
  set(lab_file "${SCANLAB_SUBMISSION_DIR}/${ARG_LAB_DIR}/${ARG_LAB_SOURCE}")
  add_executable(${target} ${ARG_TESTS})
  if(SCANLAB_BACKEND STREQUAL "cuda")
    set(included "${lab_file}")
  else()
    # The instantiation file #includes the rewritten lab file: generate it as part of the
    # target, and rebuild the instantiations whenever it changes.
    _scanlab_rewrite("${lab_file}" included)
    target_sources(${target} PRIVATE "${included}")
    set_source_files_properties("${included}" TARGET_DIRECTORY ${target} PROPERTIES HEADER_FILE_ONLY TRUE GENERATED TRUE)
    _scanlab_rewritten_path("${ARG_INSTANTIATIONS}" rewritten_instantiations)
    set_source_files_properties("${rewritten_instantiations}" TARGET_DIRECTORY ${target}
      PROPERTIES OBJECT_DEPENDS "${included}")
  endif()
  scanlab_add_cuda_sources(${target} "${ARG_INSTANTIATIONS}")
  target_compile_definitions(${target} PRIVATE "SCANLAB_LAB_SOURCE=\"${included}\"")
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}/common"
                                               "${SCANLAB_SUBMISSION_DIR}/${ARG_LAB_DIR}")
  target_link_libraries(${target} PRIVATE scanlab_grader_harness GTest::gtest)
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES LABELS grader)
endfunction()
