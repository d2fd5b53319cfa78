// <channel_descriptor.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "textures and CUDA arrays (channel_descriptor.h) is not supported by the scanlab CPU simulator"
