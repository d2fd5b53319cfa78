// CUDA's vector types and dim3, as the simulator provides them.
#pragma once

#define SCANLAB_SIM_VECTOR2(name, T) \
  struct alignas(2 * sizeof(T)) name { T x, y; }; \
  inline name make_##name(T x, T y) { return name{x, y}; }
#define SCANLAB_SIM_VECTOR3(name, T) \
  struct name { T x, y, z; }; \
  inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define SCANLAB_SIM_VECTOR4(name, T) \
  struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) name { T x, y, z, w; }; \
  inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

SCANLAB_SIM_VECTOR2(int2, int)
SCANLAB_SIM_VECTOR2(uint2, unsigned)
SCANLAB_SIM_VECTOR2(float2, float)
SCANLAB_SIM_VECTOR2(double2, double)
SCANLAB_SIM_VECTOR2(longlong2, long long)
SCANLAB_SIM_VECTOR3(int3, int)
SCANLAB_SIM_VECTOR3(uint3, unsigned)
SCANLAB_SIM_VECTOR3(float3, float)
SCANLAB_SIM_VECTOR4(int4, int)
SCANLAB_SIM_VECTOR4(uint4, unsigned)
SCANLAB_SIM_VECTOR4(float4, float)
SCANLAB_SIM_VECTOR4(double4, double)

#undef SCANLAB_SIM_VECTOR2
#undef SCANLAB_SIM_VECTOR3
#undef SCANLAB_SIM_VECTOR4

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
