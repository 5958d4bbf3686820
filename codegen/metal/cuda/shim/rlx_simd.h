// rlx_simd.h: simdgroup functions, barriers and atomics for the CUDA shim
// (metal_stdlib includes it). Device code only.
//
// An Apple simdgroup and an NVIDIA warp are both 32 lanes, numbered in the
// threadgroup's linear thread order, so simdgroup s of a threadgroup is
// warp s of the block and a lane is %laneid. MSL's simd functions work
// over the active lanes: those that have not returned and take part in
// the call. __activemask() names them here; when all 32 are there the
// reductions are butterflies of __shfl_xor_sync (every lane ends with the
// same bits), otherwise the active lanes are folded in lane order with
// __shfl_sync from each, as the CPU shim folds them.
#ifndef RLX_CUDA_SIMD_H
#define RLX_CUDA_SIMD_H

namespace metal {

RLX_D unsigned rlx_laneid() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// Shuffles of any trivially copyable value, four bytes at a time.
template <class T>
RLX_D T rlx_shfl(const T &x, int src, unsigned mask) {
  constexpr int W = (int)((sizeof(T) + 3) / 4);
  unsigned w[W];
  w[W - 1] = 0;
  RLX_MEMCPY((void *)w, (const void *)&x, sizeof(T));
  for (int i = 0; i < W; i++) w[i] = __shfl_sync(mask, w[i], src);
  T r;
  RLX_MEMCPY((void *)&r, (const void *)w, sizeof(T));
  return r;
}
template <class T>
RLX_D T rlx_shfl_xor(const T &x, int lanemask, unsigned mask) {
  constexpr int W = (int)((sizeof(T) + 3) / 4);
  unsigned w[W];
  w[W - 1] = 0;
  RLX_MEMCPY((void *)w, (const void *)&x, sizeof(T));
  for (int i = 0; i < W; i++) w[i] = __shfl_xor_sync(mask, w[i], lanemask);
  T r;
  RLX_MEMCPY((void *)&r, (const void *)w, sizeof(T));
  return r;
}

// The reductions: op is applied as op(accumulated, next).
template <class T, class Op>
RLX_D T rlx_simd_reduce(T x, Op op) {
  const unsigned m = __activemask();
  if (m == 0xffffffffu) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, rlx_shfl_xor(x, o, m));
    return x;
  }
  unsigned rest = m & (m - 1u);
  T r = rlx_shfl(x, __ffs((int)m) - 1, m);
  for (; rest; rest &= rest - 1u) r = op(r, rlx_shfl(x, __ffs((int)rest) - 1, m));
  return r;
}

struct rlx_op_add {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return T(a + b);
  }
};
struct rlx_op_mul {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return T(a * b);
  }
};
struct rlx_op_max {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return rlxm_max(a, b);
  }
};
struct rlx_op_min {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return rlxm_min(a, b);
  }
};
struct rlx_op_and {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return T(a & b);
  }
};
struct rlx_op_or {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return T(a | b);
  }
};
struct rlx_op_xor {
  template <class T>
  RLX_D T operator()(const T &a, const T &b) const {
    return T(a ^ b);
  }
};

template <class T>
RLX_D T simd_sum(T x) {
  return rlx_simd_reduce(x, rlx_op_add());
}
template <class T>
RLX_D T simd_product(T x) {
  return rlx_simd_reduce(x, rlx_op_mul());
}
template <class T>
RLX_D T simd_max(T x) {
  return rlx_simd_reduce(x, rlx_op_max());
}
template <class T>
RLX_D T simd_min(T x) {
  return rlx_simd_reduce(x, rlx_op_min());
}
template <class T>
RLX_D T simd_and(T x) {
  return rlx_simd_reduce(x, rlx_op_and());
}
template <class T>
RLX_D T simd_or(T x) {
  return rlx_simd_reduce(x, rlx_op_or());
}
template <class T>
RLX_D T simd_xor(T x) {
  return rlx_simd_reduce(x, rlx_op_xor());
}

template <class T>
RLX_D T simd_shuffle(T x, ushort lane) {
  return rlx_shfl(x, lane & 31, __activemask());
}
template <class T>
RLX_D T simd_broadcast(T x, ushort lane) {
  return rlx_shfl(x, lane & 31, __activemask());
}
template <class T>
RLX_D T simd_broadcast_first(T x) {
  const unsigned m = __activemask();
  return rlx_shfl(x, __ffs((int)m) - 1, m);
}
template <class T>
RLX_D T simd_shuffle_xor(T x, ushort mask) {
  return rlx_shfl(x, (int)((rlx_laneid() ^ mask) & 31u), __activemask());
}
// Lanes whose source is past the end keep their own value.
template <class T>
RLX_D T simd_shuffle_down(T x, ushort delta) {
  const unsigned l = rlx_laneid() + delta;
  const T v = rlx_shfl(x, (int)(l & 31u), __activemask());
  return l < 32u ? v : x;
}
template <class T>
RLX_D T simd_shuffle_up(T x, ushort delta) {
  const unsigned me = rlx_laneid();
  const T v = rlx_shfl(x, (int)((me - delta) & 31u), __activemask());
  return me >= delta ? v : x;
}
template <class T>
RLX_D T simd_shuffle_rotate_down(T x, ushort delta) {
  return rlx_shfl(x, (int)((rlx_laneid() + delta) & 31u), __activemask());
}
template <class T>
RLX_D T simd_shuffle_rotate_up(T x, ushort delta) {
  return rlx_shfl(x, (int)((rlx_laneid() - delta) & 31u), __activemask());
}

// Prefix sums over the active lanes below (exclusive) or up to
// (inclusive) the caller, in lane order.
template <class T>
RLX_D T rlx_simd_prefix(T x, bool inclusive) {
  const unsigned m = __activemask();
  const unsigned me = rlx_laneid();
  T r = T(0);
  for (unsigned rest = m; rest; rest &= rest - 1u) {
    const int l = __ffs((int)rest) - 1;
    const T v = rlx_shfl(x, l, m);
    if ((unsigned)l < me || (inclusive && (unsigned)l == me)) r = T(r + v);
  }
  return r;
}
template <class T>
RLX_D T simd_prefix_exclusive_sum(T x) {
  return rlx_simd_prefix(x, false);
}
template <class T>
RLX_D T simd_prefix_inclusive_sum(T x) {
  return rlx_simd_prefix(x, true);
}

RLX_D bool simd_any(bool x) { return __any_sync(__activemask(), x) != 0; }
RLX_D bool simd_all(bool x) { return __all_sync(__activemask(), x) != 0; }
RLX_D bool simd_is_first() { return rlx_laneid() == (unsigned)(__ffs((int)__activemask()) - 1); }
// simd_ballot's simd_vote, as the mask of lanes whose predicate is true.
RLX_D ulong simd_ballot(bool x) { return (ulong)__ballot_sync(__activemask(), x); }

// ---- barriers ---------------------------------------------------------------
// threadgroup_barrier is __syncthreads, which also orders the block's
// device-memory accesses, so every flag combination maps to it;
// simdgroup_barrier is __syncwarp over the active lanes.
enum class mem_flags : unsigned {
  mem_none = 0,
  mem_device = 1,
  mem_threadgroup = 2,
  mem_texture = 4,
  mem_threadgroup_imageblock = 8,
  mem_object_data = 16
};
RLX_HD mem_flags operator|(mem_flags a, mem_flags b) { return (mem_flags)((unsigned)a | (unsigned)b); }
RLX_D void threadgroup_barrier(mem_flags) { __syncthreads(); }
RLX_D void simdgroup_barrier(mem_flags) { __syncwarp(__activemask()); }

// ---- atomics ----------------------------------------------------------------
// atomic<T> has T's layout; the functions are CUDA's atomics (relaxed, as
// MSL's are).
enum memory_order { memory_order_relaxed = 0, memory_order_acquire = 2, memory_order_release = 3,
                    memory_order_acq_rel = 4, memory_order_seq_cst = 5 };
enum thread_scope { thread_scope_thread = 0, thread_scope_simdgroup = 1, thread_scope_threadgroup = 2,
                    thread_scope_device = 3 };

// atomic_thread_fence (MSL 3.2): a device-scope fence is __threadfence
// (fence.sc.gpu), which orders this thread's device-memory accesses for
// every thread of the grid; a narrower scope is the block's fence.
RLX_D void atomic_thread_fence(mem_flags, memory_order, thread_scope s) {
  if (s == thread_scope_device) {
    __threadfence();
  } else {
    __threadfence_block();
  }
}

template <class T>
struct rlx_atomic {
  T v;
};
typedef rlx_atomic<int> rlx_atomic_int;
typedef rlx_atomic<uint> rlx_atomic_uint;
typedef rlx_atomic<bool> rlx_atomic_bool;
typedef rlx_atomic<float> rlx_atomic_float;

RLX_D int rlx_atomic_add(int *p, int x) { return atomicAdd(p, x); }
RLX_D uint rlx_atomic_add(uint *p, uint x) { return atomicAdd(p, x); }
RLX_D float rlx_atomic_add(float *p, float x) { return atomicAdd(p, x); }
RLX_D int rlx_atomic_sub(int *p, int x) { return atomicSub(p, x); }
RLX_D uint rlx_atomic_sub(uint *p, uint x) { return atomicSub(p, x); }
RLX_D float rlx_atomic_sub(float *p, float x) { return atomicAdd(p, -x); }
RLX_D int rlx_atomic_or(int *p, int x) { return atomicOr(p, x); }
RLX_D uint rlx_atomic_or(uint *p, uint x) { return atomicOr(p, x); }
RLX_D int rlx_atomic_and(int *p, int x) { return atomicAnd(p, x); }
RLX_D uint rlx_atomic_and(uint *p, uint x) { return atomicAnd(p, x); }
RLX_D int rlx_atomic_xor(int *p, int x) { return atomicXor(p, x); }
RLX_D uint rlx_atomic_xor(uint *p, uint x) { return atomicXor(p, x); }
RLX_D int rlx_atomic_max(int *p, int x) { return atomicMax(p, x); }
RLX_D uint rlx_atomic_max(uint *p, uint x) { return atomicMax(p, x); }
RLX_D int rlx_atomic_min(int *p, int x) { return atomicMin(p, x); }
RLX_D uint rlx_atomic_min(uint *p, uint x) { return atomicMin(p, x); }
RLX_D int rlx_atomic_exch(int *p, int x) { return atomicExch(p, x); }
RLX_D uint rlx_atomic_exch(uint *p, uint x) { return atomicExch(p, x); }
RLX_D float rlx_atomic_exch(float *p, float x) { return atomicExch(p, x); }
RLX_D int rlx_atomic_cas(int *p, int c, int x) { return atomicCAS(p, c, x); }
RLX_D uint rlx_atomic_cas(uint *p, uint c, uint x) { return atomicCAS(p, c, x); }

#define RLX_ATOMIC_FN(NAME, IMPL)                                              \
  template <class T, class U>                                                  \
  RLX_D T atomic_##NAME##_explicit(rlx_atomic<T> *a, U x, memory_order) {      \
    return IMPL(&a->v, (T)x);                                                  \
  }
RLX_ATOMIC_FN(fetch_add, rlx_atomic_add)
RLX_ATOMIC_FN(fetch_sub, rlx_atomic_sub)
RLX_ATOMIC_FN(fetch_or, rlx_atomic_or)
RLX_ATOMIC_FN(fetch_and, rlx_atomic_and)
RLX_ATOMIC_FN(fetch_xor, rlx_atomic_xor)
RLX_ATOMIC_FN(fetch_max, rlx_atomic_max)
RLX_ATOMIC_FN(fetch_min, rlx_atomic_min)
RLX_ATOMIC_FN(exchange, rlx_atomic_exch)
#undef RLX_ATOMIC_FN

template <class T>
RLX_D T atomic_load_explicit(rlx_atomic<T> *a, memory_order) {
  return *(volatile T *)&a->v;
}
template <class T, class U>
RLX_D void atomic_store_explicit(rlx_atomic<T> *a, U x, memory_order) {
  *(volatile T *)&a->v = (T)x;
}
template <class T, class U>
RLX_D bool atomic_compare_exchange_weak_explicit(rlx_atomic<T> *a, T *expected, U desired, memory_order,
                                                 memory_order) {
  const T old = rlx_atomic_cas(&a->v, *expected, (T)desired);
  if (old == *expected) return true;
  *expected = old;
  return false;
}

}  // namespace metal

#endif
