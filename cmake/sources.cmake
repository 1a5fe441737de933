# The library's sources: its C sources, for the main build (CMakeLists.txt)
# and the fuzz build (fuzz/CMakeLists.txt), which compiles them again with
# clang's instrumentation; and the GPU plugin's. LG_SOURCE_ROOT is the repository's root.
if(NOT DEFINED LG_SOURCE_ROOT)
  set(LG_SOURCE_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
endif()
# The library's own include folders: the core's (internal.h, kernels.h), the
# CPU kernels' (cpu.h, whose table the dispatch reads) and the algorithms'.
set(LG_PRIVATE_INCLUDES ${LG_SOURCE_ROOT}/src/graph ${LG_SOURCE_ROOT}/src/kernels/cpu
  ${LG_SOURCE_ROOT}/src/algorithms)
set(LG_SOURCES
  ${LG_SOURCE_ROOT}/src/graph/alloc.c
  ${LG_SOURCE_ROOT}/src/graph/error.c
  ${LG_SOURCE_ROOT}/src/algorithms/version.c
  ${LG_SOURCE_ROOT}/src/graph/context.c
  ${LG_SOURCE_ROOT}/src/graph/graph.c
  ${LG_SOURCE_ROOT}/src/graph/names.c
  ${LG_SOURCE_ROOT}/src/graph/csr.c
  ${LG_SOURCE_ROOT}/src/graph/build.c
  ${LG_SOURCE_ROOT}/src/graph/build_csr.c
  ${LG_SOURCE_ROOT}/src/graph/build_options.c
  ${LG_SOURCE_ROOT}/src/graph/build_device.c
  ${LG_SOURCE_ROOT}/src/graph/io/dispatch.c
  ${LG_SOURCE_ROOT}/src/graph/io/file.c
  ${LG_SOURCE_ROOT}/src/graph/io/text.c
  ${LG_SOURCE_ROOT}/src/graph/io/edges.c
  ${LG_SOURCE_ROOT}/src/graph/io/text_read.c
  ${LG_SOURCE_ROOT}/src/graph/io/text_write.c
  ${LG_SOURCE_ROOT}/src/graph/io/mtx.c
  ${LG_SOURCE_ROOT}/src/graph/io/edgelist.c
  ${LG_SOURCE_ROOT}/src/graph/io/lgb.c
  ${LG_SOURCE_ROOT}/src/graph/io/lgb_part.c
  ${LG_SOURCE_ROOT}/src/graph/io/part.c
  ${LG_SOURCE_ROOT}/src/graph/generate.c
  ${LG_SOURCE_ROOT}/src/algorithms/dispatch.c
  ${LG_SOURCE_ROOT}/src/algorithms/run.c
  ${LG_SOURCE_ROOT}/src/graph/plugin.c
  ${LG_SOURCE_ROOT}/src/graph/modules.c
  ${LG_SOURCE_ROOT}/src/kernels/cpu/kernels.c
  ${LG_SOURCE_ROOT}/src/kernels/cpu/hub_order.c
  ${LG_SOURCE_ROOT}/src/kernels/cpu/pagerank_segments.c)

# The algorithms' CPU kernels (added by the list, at the end of this file),
# which may take vector paths (src/kernels/cpu/vec.h), compiled a second
# time as their scalar twins: LG_VEC_SCALAR picks the portable scans and
# drops the `omp simd` marks, the vectorisers are off, and the kernels' rows
# get a _scalar suffix (src/kernels/cpu/cpu.h; lg__cpu_vector_paths chooses
# between the two).
set(LG_TWIN_SOURCES)
set(LG_TWIN_DEFINITIONS LG_VEC_SCALAR)
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(LG_TWIN_OPTIONS -fno-vectorize -fno-slp-vectorize)
else()
  set(LG_TWIN_OPTIONS -fno-tree-vectorize)
endif()

# The GPU plugin's sources and the headers they depend on, relative to the
# repository's root (CMakeLists.txt builds them with nvcc or hipcc).
set(LG_GPU_SOURCES
  src/kernels/hip/plugin.hip
  src/kernels/hip/transfer.hip
  src/kernels/hip/device_graph.hip
  src/kernels/hip/pull.hip
  src/kernels/hip/build.hip)
set(LG_GPU_HEADERS
  src/kernels/hip/gpu.h src/kernels/hip/wave.h src/kernels/hip/prims.h src/kernels/hip/expand.h
  src/kernels/hip/gpu_runtime.h src/kernels/hip/pull_kernel.h src/kernels/hip/power_kernel.h
  src/kernels/hip/bfs_kernel.h
  src/graph/plugin.h src/graph/kernels.h src/graph/algorithms.h include/libgraph.h)

# Each algorithm's own files, by its line X(ID, name, GPU|CPU) in the list
# (src/graph/algorithms.h), so that a new algorithm adds no line here:
# src/algorithms/<name>.c (its descriptor and entry point) and
# src/kernels/cpu/<name>.c (its CPU kernel, also built as its scalar twin)
# for every algorithm, and src/kernels/hip/<name>.hip for one marked GPU.
# A change of the list runs CMake again.
file(READ ${LG_SOURCE_ROOT}/src/graph/algorithms.h LG_ALGORITHM_LIST)
string(REGEX MATCHALL "X\\([A-Z0-9_]+, *[a-z0-9_]+, *(GPU|CPU)\\)" LG_ALGORITHM_LINES
       "${LG_ALGORITHM_LIST}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${LG_SOURCE_ROOT}/src/graph/algorithms.h)
set(LG_ALGORITHM_NAMES)
set(LG_GPU_ALGORITHM_NAMES) # those marked GPU: their C tests run again on GPU contexts
foreach(line ${LG_ALGORITHM_LINES})
  string(REGEX REPLACE "X\\([A-Z0-9_]+, *([a-z0-9_]+), *(GPU|CPU)\\)" "\\1;\\2" entry "${line}")
  list(GET entry 0 name)
  list(GET entry 1 where)
  list(APPEND LG_ALGORITHM_NAMES ${name})
  list(APPEND LG_SOURCES ${LG_SOURCE_ROOT}/src/algorithms/${name}.c
       ${LG_SOURCE_ROOT}/src/kernels/cpu/${name}.c)
  list(APPEND LG_TWIN_SOURCES ${LG_SOURCE_ROOT}/src/kernels/cpu/${name}.c)
  if(where STREQUAL "GPU")
    list(APPEND LG_GPU_SOURCES src/kernels/hip/${name}.hip)
    list(APPEND LG_GPU_ALGORITHM_NAMES ${name})
  endif()
endforeach()
if(NOT LG_ALGORITHM_NAMES)
  message(FATAL_ERROR "no algorithm read from src/graph/algorithms.h's LG_ALGORITHMS list")
endif()
