// CUDA's vector types (char1 ... double4), their make_* functions, and dim3, as the simulator
// provides them: the same members, sizes and alignments as CUDA's vector_types.h, so that code
// that reinterprets arrays of them (float4 loads) sees the same layout.
#pragma once

// Alignment of an n-component vector of T in CUDA: the whole vector up to 16 bytes for 2 and 4
// components, the component's own for 1 and 3.
#define SCANLAB_SIM_VECTOR1(name, T) \
  struct name { T x; };             \
  inline name make_##name(T x) { return name{x}; }
#define SCANLAB_SIM_VECTOR2(name, T)                                         \
  struct alignas(2 * sizeof(T) > 16 ? 16 : 2 * sizeof(T)) name { T x, y; }; \
  inline name make_##name(T x, T y) { return name{x, y}; }
#define SCANLAB_SIM_VECTOR3(name, T) \
  struct name { T x, y, z; };       \
  inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define SCANLAB_SIM_VECTOR4(name, T)                                               \
  struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) name { T x, y, z, w; }; \
  inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
#define SCANLAB_SIM_VECTORS(prefix, T) \
  SCANLAB_SIM_VECTOR1(prefix##1, T)    \
  SCANLAB_SIM_VECTOR2(prefix##2, T)    \
  SCANLAB_SIM_VECTOR3(prefix##3, T)    \
  SCANLAB_SIM_VECTOR4(prefix##4, T)

SCANLAB_SIM_VECTORS(char, signed char)
SCANLAB_SIM_VECTORS(uchar, unsigned char)
SCANLAB_SIM_VECTORS(short, short)
SCANLAB_SIM_VECTORS(ushort, unsigned short)
SCANLAB_SIM_VECTORS(int, int)
SCANLAB_SIM_VECTORS(uint, unsigned)
SCANLAB_SIM_VECTORS(long, long)
SCANLAB_SIM_VECTORS(ulong, unsigned long)
SCANLAB_SIM_VECTORS(longlong, long long)
SCANLAB_SIM_VECTORS(ulonglong, unsigned long long)
SCANLAB_SIM_VECTORS(float, float)
SCANLAB_SIM_VECTORS(double, double)

#undef SCANLAB_SIM_VECTORS
#undef SCANLAB_SIM_VECTOR1
#undef SCANLAB_SIM_VECTOR2
#undef SCANLAB_SIM_VECTOR3
#undef SCANLAB_SIM_VECTOR4

static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4 && alignof(float4) == 16 && alignof(int2) == 8 &&
                  sizeof(float3) == 12 && alignof(double2) == 16,
              "CUDA's vector layouts");

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
