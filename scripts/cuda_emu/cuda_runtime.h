// A CPU stand-in for <cuda_runtime.h>: runs the CUDA subset the task harnesses use, so the
// functional side of a task can be checked on a machine without a GPU
// (scripts/validate_cuda_gpu.py --emulate). Kernel launches `k<<<g, b>>>(...)` are rewritten
// by that script into `hwr_emu::launcher(k, g, b)(...)`.
//
// Model: the blocks of a grid run one after another; the threads of a block are fibers that
// switch only at __syncthreads, __syncwarp and warp collectives. So barriers, shuffles and
// atomics behave as on a GPU, but data races never show and nothing is timed. x86-64 only.
#pragma once

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using uint3 = dim3;

struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
struct alignas(8) int2 {
    int x, y;
};
struct alignas(16) int4 {
    int x, y, z, w;
};
struct alignas(4) uchar4 {
    unsigned char x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __shared__ static
#define __constant__
#define __launch_bounds__(...)

enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorIllegalAddress = 700,
};
using cudaError = cudaError_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};
using cudaStream_t = void*;
struct hwr_emu_event {
    std::chrono::steady_clock::time_point at;
};
using cudaEvent_t = hwr_emu_event*;

inline dim3 threadIdx, blockIdx, blockDim, gridDim;
constexpr int warpSize = 32;

namespace hwr_emu {

inline cudaError_t last_error = cudaSuccess;

inline cudaError_t fail(cudaError_t err)
{
    last_error = err;
    return err;
}

extern "C" void hwr_emu_switch(void** save_sp, void* load_sp);
asm(R"(
    .text
    .globl hwr_emu_switch
    .type hwr_emu_switch, @function
hwr_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size hwr_emu_switch, .-hwr_emu_switch
)");

constexpr size_t kStack = 128 * 1024;

struct Fiber {
    void* sp = nullptr;
    dim3 tid;
    unsigned linear = 0;
    bool done = false;
};

struct Group {  // a block or a warp: a reusable barrier over its live threads
    unsigned live = 0, arrived = 0, generation = 0;
};

struct Block {
    std::vector<Fiber> fibers;
    std::vector<Group> warps;
    std::vector<uint64_t> slots;  // one per thread: the values warp collectives exchange
    Group all;
    void (*body)(void*) = nullptr;
    void* arg = nullptr;
};

inline std::vector<char*> stacks;
inline Block* block = nullptr;
inline Fiber* current = nullptr;
inline void* scheduler_sp = nullptr;

inline void yield() { hwr_emu_switch(&current->sp, scheduler_sp); }

inline void wait(Group& g)
{
    unsigned generation = g.generation;
    if (++g.arrived >= g.live) {
        g.arrived = 0;
        ++g.generation;
        return;
    }
    while (g.generation == generation) yield();
}

inline void leave(Group& g)
{
    --g.live;
    if (g.arrived > 0 && g.arrived >= g.live) {
        g.arrived = 0;
        ++g.generation;
    }
}

inline void entry()
{
    block->body(block->arg);
    current->done = true;
    leave(block->all);
    leave(block->warps[current->linear / 32]);
    hwr_emu_switch(&current->sp, scheduler_sp);
    abort();  // a finished fiber is never resumed
}

inline void prepare(Fiber& f, char* stack)
{
    auto top = reinterpret_cast<uintptr_t>(stack + kStack) & ~uintptr_t(15);
    auto* sp = reinterpret_cast<void**>(top);
    *--sp = nullptr;  // alignment: the entry sees the stack as after a call
    *--sp = reinterpret_cast<void*>(&entry);
    for (int i = 0; i < 6; ++i) *--sp = nullptr;
    f.sp = sp;
}

inline void run_block(dim3 bdim, void (*body)(void*), void* arg)
{
    unsigned n = bdim.x * bdim.y * bdim.z;
    while (stacks.size() < n) stacks.push_back(static_cast<char*>(malloc(kStack)));
    Block b;
    b.fibers.resize(n);
    b.warps.resize((n + 31) / 32);
    b.slots.assign(n, 0);
    b.all.live = n;
    b.body = body;
    b.arg = arg;
    for (unsigned i = 0; i < n; ++i) {
        Fiber& f = b.fibers[i];
        f.linear = i;
        f.tid = dim3(i % bdim.x, (i / bdim.x) % bdim.y, i / (bdim.x * bdim.y));
        b.warps[i / 32].live += 1;
        prepare(f, stacks[i]);
    }
    block = &b;
    for (unsigned alive = n; alive > 0;) {
        alive = 0;
        for (Fiber& f : b.fibers) {
            if (f.done) continue;
            current = &f;
            threadIdx = f.tid;
            hwr_emu_switch(&scheduler_sp, f.sp);
            alive += f.done ? 0 : 1;
        }
    }
    block = nullptr;
    current = nullptr;
}

template <class F>
void call(void* f)
{
    (*static_cast<F*>(f))();
}

template <class... Params>
struct Launch {
    void (*kernel)(Params...);
    dim3 grid, blk;
    template <class... Args>
    void operator()(Args&&... args) const
    {
        unsigned threads = blk.x * blk.y * blk.z;
        if (threads == 0 || threads > 1024 || blk.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
            grid.y > 65535 || grid.z > 65535) {
            fail(cudaErrorInvalidConfiguration);
            return;
        }
        auto body = [&] { kernel(static_cast<Params>(args)...); };
        gridDim = grid;
        blockDim = blk;
        for (unsigned z = 0; z < grid.z; ++z)
            for (unsigned y = 0; y < grid.y; ++y)
                for (unsigned x = 0; x < grid.x; ++x) {
                    blockIdx = dim3(x, y, z);
                    run_block(blk, &call<decltype(body)>, &body);
                }
    }
};

template <class... Params>
Launch<Params...> launcher(void (*kernel)(Params...), dim3 grid, dim3 blk, size_t = 0, cudaStream_t = nullptr)
{
    return Launch<Params...>{kernel, grid, blk};
}

template <class T, class Pick>
T exchange(T value, Pick pick)
{
    Block& b = *block;
    unsigned me = current->linear, base = me & ~31u;
    std::memcpy(&b.slots[me], &value, sizeof(T));
    wait(b.warps[me / 32]);
    unsigned src = base + pick(me - base);
    T out;
    std::memcpy(&out, &b.slots[src < b.fibers.size() ? src : me], sizeof(T));
    wait(b.warps[me / 32]);
    return out;
}

inline unsigned lane_of_width(unsigned lane, int width) { return lane % (unsigned)width; }

}  // namespace hwr_emu

inline void __syncthreads() { hwr_emu::wait(hwr_emu::block->all); }
inline int __syncthreads_count(int predicate)
{
    hwr_emu::Block& b = *hwr_emu::block;
    b.slots[hwr_emu::current->linear] = predicate ? 1 : 0;
    hwr_emu::wait(b.all);
    int count = 0;
    for (const hwr_emu::Fiber& f : b.fibers) count += f.done ? 0 : (int)b.slots[f.linear];
    hwr_emu::wait(b.all);
    return count;
}
inline int __syncthreads_or(int predicate) { return __syncthreads_count(predicate) > 0; }
inline int __syncthreads_and(int predicate)
{
    int alive = 0;
    for (const hwr_emu::Fiber& f : hwr_emu::block->fibers) alive += f.done ? 0 : 1;
    return __syncthreads_count(predicate) == alive;
}
inline void __syncwarp(unsigned = 0xffffffffu) { hwr_emu::wait(hwr_emu::block->warps[hwr_emu::current->linear / 32]); }
inline void __threadfence() {}
inline void __threadfence_block() {}
inline unsigned __activemask() { return 0xffffffffu; }

template <class T>
T __shfl_sync(unsigned, T v, int src, int width = 32)
{
    return hwr_emu::exchange(v, [&](unsigned lane) { return lane - lane % width + (unsigned)src % width; });
}
template <class T>
T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32)
{
    return hwr_emu::exchange(
        v, [&](unsigned lane) { return lane % width + delta < (unsigned)width ? lane + delta : lane; });
}
template <class T>
T __shfl_up_sync(unsigned, T v, unsigned delta, int width = 32)
{
    return hwr_emu::exchange(v, [&](unsigned lane) { return lane % width >= delta ? lane - delta : lane; });
}
template <class T>
T __shfl_xor_sync(unsigned, T v, int mask, int width = 32)
{
    return hwr_emu::exchange(v, [&](unsigned lane) {
        unsigned src = lane ^ (unsigned)mask;
        return src / width == lane / width ? src : lane;
    });
}
inline unsigned __ballot_sync(unsigned, int predicate)
{
    unsigned result = 0;
    for (int lane = 0; lane < 32; ++lane) {
        int bit = __shfl_sync(0xffffffffu, predicate ? 1 : 0, lane);
        result |= (unsigned)bit << lane;
    }
    return result;
}
inline int __any_sync(unsigned m, int p) { return __ballot_sync(m, p) != 0; }
inline int __all_sync(unsigned m, int p) { return __ballot_sync(m, p) == __ballot_sync(m, 1); }

namespace hwr_emu {
// Atomics are scheduling points: another thread may run between reading and updating, so
// retry loops (atomicCAS) meet contention as they would on a GPU.
inline void atomic_point()
{
    if (current != nullptr) yield();
}
}  // namespace hwr_emu

template <class T, class U>
T atomicAdd(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = old + (T)v;
    return old;
}
template <class T, class U>
T atomicSub(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = old - (T)v;
    return old;
}
template <class T, class U>
T atomicMax(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = old > (T)v ? old : (T)v;
    return old;
}
template <class T, class U>
T atomicMin(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = old < (T)v ? old : (T)v;
    return old;
}
template <class T, class U>
T atomicExch(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = (T)v;
    return old;
}
template <class T, class U, class V>
T atomicCAS(T* p, U compare, V v)
{
    hwr_emu::atomic_point();
    T old = *p;
    if (old == (T)compare) *p = (T)v;
    return old;
}
template <class T, class U>
T atomicOr(T* p, U v)
{
    hwr_emu::atomic_point();
    T old = *p;
    *p = old | (T)v;
    return old;
}

inline long long __double_as_longlong(double x)
{
    long long i;
    std::memcpy(&i, &x, 8);
    return i;
}
inline double __longlong_as_double(long long i)
{
    double x;
    std::memcpy(&x, &i, 8);
    return x;
}

inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline float max(float a, float b) { return fmaxf(a, b); }
inline float min(float a, float b) { return fminf(a, b); }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline int __float2int_rd(float x) { return (int)floorf(x); }
inline int __float2int_rz(float x) { return (int)x; }
inline int __float_as_int(float x)
{
    int i;
    std::memcpy(&i, &x, 4);
    return i;
}
inline float __int_as_float(int i)
{
    float x;
    std::memcpy(&x, &i, 4);
    return x;
}
inline unsigned __float_as_uint(float x) { return (unsigned)__float_as_int(x); }
inline float __uint_as_float(unsigned u) { return __int_as_float((int)u); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
template <class T>
T __ldg(const T* p)
{
    return *p;
}

inline const char* cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    }
    return "cudaErrorUnknown";
}
inline const char* cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    }
    return "unknown error";
}
inline cudaError_t cudaGetLastError()
{
    cudaError_t e = hwr_emu::last_error;
    hwr_emu::last_error = cudaSuccess;
    return e;
}
inline cudaError_t cudaPeekAtLastError() { return hwr_emu::last_error; }

// More than this is "out of memory", like a request beyond any GPU's capacity.
constexpr size_t kEmuMemoryLimit = size_t(64) << 30;

inline cudaError_t cudaMalloc(void** p, size_t bytes)
{
    if (bytes > kEmuMemoryLimit) return hwr_emu::fail(cudaErrorMemoryAllocation);
    size_t rounded = (bytes + 255) / 256 * 256;
    *p = aligned_alloc(256, rounded ? rounded : 256);
    if (*p == nullptr) return hwr_emu::fail(cudaErrorMemoryAllocation);
    std::memset(*p, 0, rounded);
    return cudaSuccess;
}
template <class T>
cudaError_t cudaMalloc(T** p, size_t bytes)
{
    return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
inline cudaError_t cudaFree(void* p)
{
    free(p);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind)
{
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind k, cudaStream_t = nullptr)
{
    return cudaMemcpy(dst, src, bytes, k);
}
inline cudaError_t cudaMemset(void* dst, int value, size_t bytes)
{
    std::memset(dst, value, bytes);
    return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t = nullptr)
{
    return cudaMemset(dst, value, bytes);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice)
{
    if (offset + bytes > sizeof(T)) return hwr_emu::fail(cudaErrorInvalidValue);
    std::memcpy(reinterpret_cast<char*>(&symbol) + offset, src, bytes);
    return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr)
{
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t* e)
{
    *e = new hwr_emu_event();
    return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr)
{
    e->at = std::chrono::steady_clock::now();
    return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
    return cudaSuccess;
}
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };
inline cudaError_t cudaGetDevice(int* d)
{
    *d = 0;
    return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int)
{
    *value = attr == cudaDevAttrMultiProcessorCount ? 132 : 0;
    return cudaSuccess;
}
