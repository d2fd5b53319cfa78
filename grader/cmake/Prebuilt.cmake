# Grading many submissions (grade --batch): a build tree configured with
#   -DSCANLAB_PREBUILT_DIR=<a build tree of the same kit and backend>
# imports from that tree what is not submission code, the simulator runtime (scanlab_sim), the
# headers' interface (scanlab_common), the grader's harness and each lab's GoogleTest objects
# (labNN_suite), instead of building them again; it compiles only each lab's own translation
# unit and links. grader/labs/CMakeLists.txt writes the list of those targets in every tree.
set(_prebuilt "${SCANLAB_PREBUILT_DIR}/scanlab-prebuilt.cmake")
if(NOT EXISTS "${_prebuilt}")
  message(FATAL_ERROR "SCANLAB_PREBUILT_DIR=${SCANLAB_PREBUILT_DIR} is not a configured scanlab build tree "
                      "(no scanlab-prebuilt.cmake)")
endif()
file(READ "${SCANLAB_PREBUILT_DIR}/scanlab-prebuilt-backend.txt" _prebuilt_backend)
if(NOT _prebuilt_backend STREQUAL SCANLAB_BACKEND)
  message(FATAL_ERROR "SCANLAB_PREBUILT_DIR=${SCANLAB_PREBUILT_DIR} was built for the ${_prebuilt_backend} "
                      "backend, this tree is for ${SCANLAB_BACKEND}")
endif()
# The imported targets name these packages' targets.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
if(SCANLAB_BACKEND STREQUAL "sim")
  find_package(Boost 1.66 REQUIRED COMPONENTS context)
endif()
include("${_prebuilt}")
