# Building lab code for either backend from the same .cu files.
#
#   scanlab_add_cuda_sources(<target> <file.cu>...)   nvcc, or rewritten for the simulator
#   scanlab_sim_rewrite(<file.cu> <out_var> [INCLUDE_DIRS dir...])
#                                                       the rewritten C++ of a .cu (sim backend)
#   scanlab_sim_rewritten_path(<file.cu> <out_var>)     where that rewritten file goes

# The compute capabilities of this machine's GPUs as CMake architectures ("90;80"), from
# nvidia-smi; empty where there is no GPU or no driver.
function(scanlab_detect_gpu_architectures out_var)
  set(architectures "")
  find_program(SCANLAB_NVIDIA_SMI nvidia-smi)
  if(SCANLAB_NVIDIA_SMI)
    execute_process(COMMAND "${SCANLAB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE capabilities RESULT_VARIABLE status ERROR_QUIET TIMEOUT 30)
    if(status EQUAL 0)
      string(REPLACE "\n" ";" capabilities "${capabilities}")
      foreach(capability IN LISTS capabilities)
        string(STRIP "${capability}" capability)
        if(capability MATCHES "^([0-9]+)\\.([0-9]+)$")
          list(APPEND architectures "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES architectures)
    endif()
  endif()
  set(${out_var} "${architectures}" PARENT_SCOPE)
endfunction()

if(SCANLAB_BACKEND STREQUAL "cuda")
  # The GPU architectures to compile for. Unless CMAKE_CUDA_ARCHITECTURES or CUDAARCHS says
  # otherwise: those of the GPUs on this machine, else 90 (the H100). Decided before
  # enable_language(CUDA), which would otherwise settle on nvcc's own default (7.5 for CUDA 13):
  # code for an older architecture still runs on a newer GPU, JIT-compiled, but CUB and Thrust
  # then choose their tunings for that older architecture, and every baseline is slower than a
  # user's build would be.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    scanlab_detect_gpu_architectures(scanlab_gpu_architectures)
    if(scanlab_gpu_architectures)
      set(CMAKE_CUDA_ARCHITECTURES "${scanlab_gpu_architectures}")
      message(STATUS "scanlab: compiling for the GPU architectures of this machine: ${scanlab_gpu_architectures}")
    else()
      set(CMAKE_CUDA_ARCHITECTURES 90)
      message(STATUS "scanlab: no GPU found; compiling for architecture 90 (set CMAKE_CUDA_ARCHITECTURES for another)")
    endif()
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
elseif(NOT SCANLAB_BACKEND STREQUAL "sim")
  message(FATAL_ERROR "SCANLAB_BACKEND must be sim or cuda, not '${SCANLAB_BACKEND}'")
endif()

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(SCANLAB_REWRITER "${CMAKE_CURRENT_LIST_DIR}/../sim/tools/cu_rewrite.py")
set(SCANLAB_REWRITER_TOKENS "${CMAKE_CURRENT_LIST_DIR}/../sim/tools/cpp_tokens.py")

function(scanlab_sim_rewritten_path source out_var)
  get_filename_component(abs "${source}" ABSOLUTE)
  string(MD5 tag "${abs}")
  string(SUBSTRING "${tag}" 0 8 tag)
  get_filename_component(name "${abs}" NAME)
  set(${out_var} "${CMAKE_CURRENT_BINARY_DIR}/scanlab_sim/${tag}/${name}.cpp" PARENT_SCOPE)
endfunction()

# The rewritten C++ for a .cu: same lines, launches and __shared__ turned into simulator calls.
function(scanlab_sim_rewrite source out_var)
  cmake_parse_arguments(ARG "" "" "INCLUDE_DIRS" ${ARGN})
  set(include_args)
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    list(APPEND include_args -I "${dir}")
  endforeach()
  get_filename_component(abs "${source}" ABSOLUTE)
  get_filename_component(name "${abs}" NAME)
  scanlab_sim_rewritten_path("${abs}" out)
  # The program's own headers with CUDA syntax (found next to the file or in INCLUDE_DIRS)
  # are rewritten beside ${out}; the depfile makes a change to any header the rewrite read
  # run it again.
  add_custom_command(
    OUTPUT "${out}"
    COMMAND Python3::Interpreter "${SCANLAB_REWRITER}" "${abs}" -o "${out}" --depfile "${out}.d" ${include_args}
    DEPENDS "${abs}" "${SCANLAB_REWRITER}" "${SCANLAB_REWRITER_TOKENS}"
    DEPFILE "${out}.d"
    COMMENT "Preparing ${name} for the CPU simulator"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# How lab code is compiled for the simulator: one definition, common/sim/lab_code_flags.json,
# which common/bin/simcc reads too.
set(SCANLAB_SIM_FLAGS_FILE "${CMAKE_CURRENT_LIST_DIR}/../sim/lab_code_flags.json")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${SCANLAB_SIM_FLAGS_FILE}")
file(READ "${SCANLAB_SIM_FLAGS_FILE}" _scanlab_sim_flags_json)

# The strings of a JSON array; a string with a space (an option and its value) stays one flag.
function(_scanlab_json_flags out_var)
  string(JSON count LENGTH "${_scanlab_sim_flags_json}" ${ARGN})
  set(flags)
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON flag GET "${_scanlab_sim_flags_json}" ${ARGN} ${i})
      if(flag MATCHES " ")
        set(flag "SHELL:${flag}")
      endif()
      list(APPEND flags "${flag}")
    endforeach()
  endif()
  set(${out_var} "${flags}" PARENT_SCOPE)
endfunction()

if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  _scanlab_json_flags(SCANLAB_SIM_INSTRUMENT_FLAGS lab_code Clang)
else()
  _scanlab_json_flags(SCANLAB_SIM_INSTRUMENT_FLAGS lab_code GNU)
endif()
_scanlab_json_flags(SCANLAB_SIM_RUNTIME_FLAGS runtime)
_scanlab_json_flags(SCANLAB_SIM_DEFINITIONS definitions)
string(JSON SCANLAB_SIM_CXX_STANDARD GET "${_scanlab_sim_flags_json}" standard)
if(NOT SCANLAB_SIM_CXX_STANDARD STREQUAL "c++${CMAKE_CXX_STANDARD}")
  message(FATAL_ERROR "${SCANLAB_SIM_FLAGS_FILE} says ${SCANLAB_SIM_CXX_STANDARD}, the build c++${CMAKE_CXX_STANDARD}")
endif()

function(scanlab_add_cuda_sources target)
  foreach(source IN LISTS ARGN)
    if(SCANLAB_BACKEND STREQUAL "cuda")
      target_sources(${target} PRIVATE "${source}")
      set_source_files_properties("${source}" TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CUDA)
    else()
      scanlab_sim_rewrite("${source}" rewritten)
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
