// SPDX-License-Identifier: MIT
//
// algorithms_api: Thrust and CUB algorithms as programs use them (sort,
// scan, reduce_by_key, histogram, select, partition, merge, segmented
// operations, run-length encoding) on small inputs, each result printed
// as its size, a checksum and its first elements. Taken out after the
// recording: cub::DeviceSegmentedSort, whose kernels outlast the test
// VM's 5 s job timeout under TCG. Expected output
// recorded on an NVIDIA H100, driver 580.159.04, CUDA 13.0
// (algorithms_api.expected).

#include <cstdint>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/merge.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

constexpr int kN = 1500;

static std::vector<int> keys_of(int n, uint32_t seed, int range) {
  std::vector<int> v(n);
  for (int i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = (int)((seed >> 8) % (uint32_t)range) - range / 4;
  }
  return v;
}

template <typename T>
static void show(const char *what, const thrust::host_vector<T> &v) {
  uint64_t sum = 1469598103934665603ull;
  for (size_t i = 0; i < v.size(); i++) {
    uint64_t x = 0;
    std::memcpy(&x, &v[i], sizeof(T) < 8 ? sizeof(T) : 8);
    sum = (sum ^ x) * 1099511628211ull;
  }
  std::printf("%s: n %zu hash %016llx first", what, v.size(), (unsigned long long)sum);
  for (size_t i = 0; i < v.size() && i < 6; i++) std::printf(" %lld", (long long)v[i]);
  std::printf("\n");
}

template <typename T>
static void show(const char *what, const thrust::device_vector<T> &v) {
  show(what, thrust::host_vector<T>(v));
}

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct below {
  int limit;
  __host__ __device__ bool operator()(int x) const { return x < limit; }
};
struct square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct by_abs {
  __host__ __device__ bool operator()(int a, int b) const {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b);
  }
};

static void thrust_algorithms() {
  std::vector<int> h = keys_of(kN, 1, 1000), g = keys_of(kN, 2, 50);
  thrust::device_vector<int> a(h.begin(), h.end()), k(g.begin(), g.end());
  thrust::device_vector<int> s = a;
  thrust::sort(s.begin(), s.end());
  show("thrust::sort", s);
  thrust::device_vector<int> d = a;
  thrust::sort(d.begin(), d.end(), thrust::greater<int>());
  show("thrust::sort(greater)", d);
  thrust::device_vector<int> st = a;
  thrust::stable_sort(st.begin(), st.end(), by_abs());
  show("thrust::stable_sort(by_abs)", st);
  thrust::device_vector<int> kk = k, vv(kN);
  thrust::sequence(vv.begin(), vv.end());
  thrust::stable_sort_by_key(kk.begin(), kk.end(), vv.begin());
  show("thrust::stable_sort_by_key keys", kk);
  show("thrust::stable_sort_by_key values", vv);
  thrust::device_vector<int> sc(kN);
  thrust::inclusive_scan(a.begin(), a.end(), sc.begin());
  show("thrust::inclusive_scan", sc);
  thrust::exclusive_scan(a.begin(), a.end(), sc.begin(), 7, thrust::maximum<int>());
  show("thrust::exclusive_scan(max)", sc);
  thrust::inclusive_scan_by_key(kk.begin(), kk.end(), vv.begin(), sc.begin());
  show("thrust::inclusive_scan_by_key", sc);
  std::printf("thrust::reduce = %d\n", thrust::reduce(a.begin(), a.end()));
  std::printf("thrust::transform_reduce = %lld\n",
              thrust::transform_reduce(a.begin(), a.end(), square(), 0ll, thrust::plus<long long>()));
  std::printf("thrust::count_if(odd) = %d\n", (int)thrust::count_if(a.begin(), a.end(), is_odd()));
  std::printf("thrust::min_element at %d, max_element at %d\n",
              (int)(thrust::min_element(a.begin(), a.end()) - a.begin()),
              (int)(thrust::max_element(a.begin(), a.end()) - a.begin()));
  thrust::device_vector<int> rk(kN), rv(kN);
  auto ends = thrust::reduce_by_key(kk.begin(), kk.end(), vv.begin(), rk.begin(), rv.begin());
  rk.resize(ends.first - rk.begin());
  rv.resize(ends.second - rv.begin());
  show("thrust::reduce_by_key keys", rk);
  show("thrust::reduce_by_key values", rv);
  thrust::device_vector<int> u = s;
  u.erase(thrust::unique(u.begin(), u.end()), u.end());
  show("thrust::unique", u);
  thrust::device_vector<int> odd(kN);
  odd.erase(thrust::copy_if(a.begin(), a.end(), odd.begin(), is_odd()), odd.end());
  show("thrust::copy_if(odd)", odd);
  thrust::device_vector<int> p = a;
  auto mid = thrust::stable_partition(p.begin(), p.end(), below{100});
  std::printf("thrust::stable_partition split at %d\n", (int)(mid - p.begin()));
  show("thrust::stable_partition", p);
  thrust::device_vector<int> p2 = a;
  auto mid2 = thrust::partition(p2.begin(), p2.end(), below{0});
  std::printf("thrust::partition split at %d, partitioned %d\n", (int)(mid2 - p2.begin()),
              (int)thrust::is_partitioned(p2.begin(), p2.end(), below{0}));
  thrust::device_vector<int> sk = k;
  thrust::sort(sk.begin(), sk.end());
  thrust::device_vector<int> m(2 * kN);
  thrust::merge(s.begin(), s.end(), sk.begin(), sk.end(), m.begin());
  show("thrust::merge", m);
  thrust::device_vector<int> un(2 * kN);
  un.erase(thrust::set_union(s.begin(), s.end(), sk.begin(), sk.end(), un.begin()), un.end());
  show("thrust::set_union", un);
  thrust::device_vector<int> in(kN);
  in.erase(thrust::set_intersection(s.begin(), s.end(), sk.begin(), sk.end(), in.begin()), in.end());
  show("thrust::set_intersection", in);
  thrust::device_vector<int> lb(kN);
  thrust::lower_bound(s.begin(), s.end(), k.begin(), k.end(), lb.begin());
  show("thrust::lower_bound", lb);
}

// One CUB device call, run the way CUB asks: size, allocate, run.
#define CUB_RUN(what, ...)                                                   \
  do {                                                                       \
    void *tmp_ = nullptr;                                                    \
    size_t bytes_ = 0;                                                       \
    cudaError_t e1_ = __VA_ARGS__;                                           \
    cudaMalloc(&tmp_, bytes_ ? bytes_ : 1);                                  \
    cudaError_t e2_ = __VA_ARGS__;                                           \
    cudaError_t e3_ = cudaDeviceSynchronize();                               \
    std::printf("%s = %d %d %d\n", what, (int)e1_, (int)e2_, (int)e3_);      \
    cudaFree(tmp_);                                                          \
  } while (0)

static void cub_algorithms() {
  std::vector<int> h = keys_of(kN, 3, 4000), g = keys_of(kN, 4, 40);
  thrust::device_vector<int> a(h.begin(), h.end()), k(g.begin(), g.end());
  thrust::device_vector<int> out(kN), out2(kN), idx(kN);
  thrust::sequence(idx.begin(), idx.end());
  int *pa = thrust::raw_pointer_cast(a.data()), *pk = thrust::raw_pointer_cast(k.data());
  int *po = thrust::raw_pointer_cast(out.data()), *po2 = thrust::raw_pointer_cast(out2.data());
  int *pi = thrust::raw_pointer_cast(idx.data());
  thrust::device_vector<int> count(1);
  int *pc = thrust::raw_pointer_cast(count.data());

  CUB_RUN("cub::DeviceRadixSort::SortPairs",
          cub::DeviceRadixSort::SortPairs(tmp_, bytes_, pk, po, pi, po2, kN));
  show("radix keys", out);
  show("radix values", out2);
  CUB_RUN("cub::DeviceRadixSort::SortKeysDescending(bits 0-12)",
          cub::DeviceRadixSort::SortKeysDescending(tmp_, bytes_, pa, po, kN, 0, 12));
  show("radix keys descending, 12 bits", out);
  CUB_RUN("cub::DeviceMergeSort::SortKeys",
          cub::DeviceMergeSort::SortKeys(tmp_, bytes_, po, kN, thrust::less<int>()));
  show("merge sort keys", out);
  CUB_RUN("cub::DeviceScan::ExclusiveSum",
          cub::DeviceScan::ExclusiveSum(tmp_, bytes_, pa, po, kN));
  show("exclusive sum", out);
  CUB_RUN("cub::DeviceScan::InclusiveScan(max)",
          cub::DeviceScan::InclusiveScan(tmp_, bytes_, pa, po, cuda::maximum<int>(), kN));
  show("inclusive max", out);
  CUB_RUN("cub::DeviceReduce::Sum", cub::DeviceReduce::Sum(tmp_, bytes_, pa, pc, 1 * kN));
  show("sum", count);
  thrust::device_vector<cub::KeyValuePair<int, int>> best(1);
  CUB_RUN("cub::DeviceReduce::ArgMax",
          cub::DeviceReduce::ArgMax(tmp_, bytes_, pa, thrust::raw_pointer_cast(best.data()), kN));
  cub::KeyValuePair<int, int> b = best[0];
  std::printf("argmax = %d at %d\n", b.value, b.key);
  thrust::device_vector<int> hist(17);
  CUB_RUN("cub::DeviceHistogram::HistogramEven",
          cub::DeviceHistogram::HistogramEven(tmp_, bytes_, pa, thrust::raw_pointer_cast(hist.data()),
                                              18, -1000, 3000, kN));
  show("histogram", hist);
  thrust::device_vector<int> hist2(8);
  thrust::device_vector<int> levels(9);
  for (int i = 0; i < 9; i++) levels[i] = -20 + i * i * 5;
  CUB_RUN("cub::DeviceHistogram::HistogramRange",
          cub::DeviceHistogram::HistogramRange(tmp_, bytes_, pk, thrust::raw_pointer_cast(hist2.data()),
                                               9, thrust::raw_pointer_cast(levels.data()), kN));
  show("histogram range", hist2);
  CUB_RUN("cub::DeviceSelect::If", cub::DeviceSelect::If(tmp_, bytes_, pa, po, pc, kN, below{0}));
  std::printf("selected %d\n", (int)count[0]);
  show("select if", out);
  thrust::device_vector<char> flags(kN);
  for (int i = 0; i < kN; i++) flags[i] = (g[i] % 3) == 0;
  CUB_RUN("cub::DeviceSelect::Flagged",
          cub::DeviceSelect::Flagged(tmp_, bytes_, pa, thrust::raw_pointer_cast(flags.data()), po, pc, kN));
  std::printf("flagged %d\n", (int)count[0]);
  show("select flagged", out);
  CUB_RUN("cub::DeviceSelect::Unique", cub::DeviceSelect::Unique(tmp_, bytes_, pk, po, pc, kN));
  std::printf("unique %d\n", (int)count[0]);
  show("select unique", out);
  CUB_RUN("cub::DevicePartition::If",
          cub::DevicePartition::If(tmp_, bytes_, pa, po, pc, kN, below{500}));
  std::printf("partition selected %d\n", (int)count[0]);
  show("partition", out);
  thrust::device_vector<int> runs(kN), lens(kN);
  thrust::device_vector<int> sorted_k = k;
  thrust::sort(sorted_k.begin(), sorted_k.end());
  CUB_RUN("cub::DeviceRunLengthEncode::Encode",
          cub::DeviceRunLengthEncode::Encode(tmp_, bytes_, thrust::raw_pointer_cast(sorted_k.data()),
                                             thrust::raw_pointer_cast(runs.data()),
                                             thrust::raw_pointer_cast(lens.data()), pc, kN));
  std::printf("runs %d\n", (int)count[0]);
  show("run values", runs);
  show("run lengths", lens);
  thrust::device_vector<int> offsets(11);
  for (int i = 0; i <= 10; i++) offsets[i] = i * i * kN / 100;
  int *poff = thrust::raw_pointer_cast(offsets.data());
  thrust::device_vector<int> seg(10);
  CUB_RUN("cub::DeviceSegmentedReduce::Sum",
          cub::DeviceSegmentedReduce::Sum(tmp_, bytes_, pa, thrust::raw_pointer_cast(seg.data()), 10,
                                          poff, poff + 1));
  show("segmented sums", seg);
  CUB_RUN("cub::DeviceSegmentedReduce::Max",
          cub::DeviceSegmentedReduce::Max(tmp_, bytes_, pa, thrust::raw_pointer_cast(seg.data()), 10,
                                          poff, poff + 1));
  show("segmented max", seg);
  CUB_RUN("cub::DeviceSegmentedRadixSort::SortKeys",
          cub::DeviceSegmentedRadixSort::SortKeys(tmp_, bytes_, pa, po, kN, 10, poff, poff + 1));
  show("segmented radix sort", out);
}

int main() {
  thrust_algorithms();
  cub_algorithms();
  std::printf("cudaGetLastError = %d\n", (int)cudaGetLastError());
  return 0;
}
