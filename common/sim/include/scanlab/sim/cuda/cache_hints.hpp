// The read-only load (__ldg) and the loads and stores with a cache hint (__ldcg, __stcg, ...):
// memory accesses, not computations, so they stand apart from the bit intrinsics.
#pragma once

template <class T>
T __ldg(const T* p) { return *p; }
// Loads and stores with a cache hint: plain (weak) accesses in the memory model, whatever cache
// level they go through, so a hand-off through them needs fences like any other.
template <class T>
T __ldcg(const T* p) { return *p; }
template <class T>
T __ldca(const T* p) { return *p; }
template <class T>
T __ldcs(const T* p) { return *p; }
template <class T>
T __ldlu(const T* p) { return *p; }
template <class T>
T __ldcv(const T* p) { return *p; }
template <class T>
void __stcg(T* p, T value) { *p = value; }
template <class T>
void __stcs(T* p, T value) { *p = value; }
template <class T>
void __stwb(T* p, T value) { *p = value; }
template <class T>
void __stwt(T* p, T value) { *p = value; }
