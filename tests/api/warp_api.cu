// SPDX-License-Identifier: MIT
//
// warp_api: warp votes, matches and shuffles under member masks narrower
// than the warp, in a converged warp, directly and through cooperative
// groups' tiles (thread_block_tile<N>, coalesced and labeled groups),
// with the cooperative-groups collectives (reduce, scans) on top. Each
// lane's answer is printed as one hex line per case; expected output
// recorded on an NVIDIA H100, driver 580.159.04, CUDA 13.0, from the
// compute_80 PTX this test is built as (warp_api.expected).

#include <cstdint>
#include <cstdio>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Cases of one launch: each writes one 32-bit word per lane.
enum {
  kBallotSplit,      // __ballot_sync(0xf, 1) by lanes 0-3, (~0xf, odd) by the rest
  kBallotTile,       // __ballot_sync(tile mask, odd lane)
  kAllTile,          // __all_sync(tile mask, lane != 5)
  kAnyTile,          // __any_sync(tile mask, lane == 9)
  kMatchAnyTile,     // __match_any_sync(tile mask, lane / 2)
  kMatchAllTile,     // __match_all_sync(tile mask, lane < 8) and its pred
  kMatchAllPred,
  kMatchAnyHalf,     // __match_any_sync(0x0000ffff or 0xffff0000, lane % 3)
  kTile4All,         // thread_block_tile<4>::all(lane % 7 != 6)
  kTile4Any,
  kTile4Ballot,
  kTile4MatchAny,
  kTile4MatchAll,
  kTile8Ballot,
  kTile16Any,
  kTile2All,
  kTile4Shfl,        // tile4.shfl(lane * 10, 3)
  kTile8ShflDown,
  kTile16ShflXor,
  kTile4Reduce,      // cg::reduce(tile4, lane + 1, plus)
  kTile8ReduceMax,
  kTile16ReduceAnd,
  kTile32ReduceOr,
  kTile8InclScan,
  kTile4ExclScan,
  kCoalescedSize,    // odd lanes: coalesced_threads().size()
  kCoalescedRank,
  kCoalescedBallot,
  kCoalescedAll,
  kLabeledSize,      // labeled_partition(warp, lane % 3).size()
  kLabeledRank,
  kLabeledReduce,
  kBinarySize,       // binary_partition(warp, lane < 10).size()
  kBinaryAny,
  kMetaRank,         // tile4.meta_group_rank()
  kMetaSize,
  kCases
};

static const char *const kNames[kCases] = {
    "ballot_sync(0xf, 1) | ballot_sync(~0xf, odd)", "ballot_sync(tile mask, odd)",
    "all_sync(tile mask, lane != 5)", "any_sync(tile mask, lane == 9)",
    "match_any_sync(tile mask, lane / 2)", "match_all_sync(tile mask, lane < 8)",
    "match_all_sync pred", "match_any_sync(half mask, lane % 3)",
    "tile<4>.all(lane % 7 != 6)", "tile<4>.any(lane == 13)",
    "tile<4>.ballot(lane & 1)", "tile<4>.match_any(lane / 3)",
    "tile<4>.match_all(lane / 4)", "tile<8>.ballot(lane % 3 == 0)",
    "tile<16>.any(lane == 20)", "tile<2>.all(lane != 7)",
    "tile<4>.shfl(lane * 10, 3)", "tile<8>.shfl_down(lane, 3)",
    "tile<16>.shfl_xor(lane, 5)", "reduce(tile<4>, lane + 1, plus)",
    "reduce(tile<8>, lane * 7 % 11, greater)",
    "reduce(tile<16>, ~(1 << lane), bit_and)",
    "reduce(tile<32>, 1 << lane, bit_or)", "inclusive_scan(tile<8>, lane)",
    "exclusive_scan(tile<4>, lane + 1)", "coalesced (odd lanes) size",
    "coalesced thread_rank", "coalesced ballot(rank < 4)",
    "coalesced all(lane > 0)", "labeled_partition(lane % 3) size",
    "labeled thread_rank", "labeled reduce(lane)",
    "binary_partition(lane < 10) size", "binary any(lane == 3)",
    "tile<4>.meta_group_rank", "tile<4>.meta_group_size"};

__global__ void warp_cases(uint32_t *out) {
  unsigned lane = threadIdx.x % 32;
  unsigned tile_mask = 0xfu << (lane & ~3u);
  auto put = [&](int c, uint32_t v) { out[c * 32 + lane] = v; };
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto t2 = cg::tiled_partition<2>(block);
  auto t4 = cg::tiled_partition<4>(block);
  auto t8 = cg::tiled_partition<8>(block);
  auto t16 = cg::tiled_partition<16>(block);

  if (lane < 4)
    put(kBallotSplit, __ballot_sync(0xf, 1));
  else
    put(kBallotSplit, __ballot_sync(~0xfu, lane & 1));
  put(kBallotTile, __ballot_sync(tile_mask, lane & 1));
  put(kAllTile, __all_sync(tile_mask, lane != 5));
  put(kAnyTile, __any_sync(tile_mask, lane == 9));
  put(kMatchAnyTile, __match_any_sync(tile_mask, lane / 2));
  int pred = -1;
  put(kMatchAllTile, __match_all_sync(tile_mask, lane < 8, &pred));
  put(kMatchAllPred, pred);
  put(kMatchAnyHalf,
      __match_any_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, lane % 3));
  put(kTile4All, t4.all(lane % 7 != 6));
  put(kTile4Any, t4.any(lane == 13));
  put(kTile4Ballot, t4.ballot(lane & 1));
  put(kTile4MatchAny, t4.match_any(lane / 3));
  int pred4 = -1;
  put(kTile4MatchAll, t4.match_all(lane / 4, pred4) | (pred4 << 16));
  put(kTile8Ballot, t8.ballot(lane % 3 == 0));
  put(kTile16Any, t16.any(lane == 20));
  put(kTile2All, t2.all(lane != 7));
  put(kTile4Shfl, t4.shfl(lane * 10, 3));
  put(kTile8ShflDown, t8.shfl_down(lane, 3));
  put(kTile16ShflXor, t16.shfl_xor(lane, 5));
  put(kTile4Reduce, cg::reduce(t4, lane + 1, cg::plus<unsigned>()));
  put(kTile8ReduceMax, cg::reduce(t8, lane * 7 % 11, cg::greater<unsigned>()));
  put(kTile16ReduceAnd,
      cg::reduce(t16, ~(1u << lane), cg::bit_and<unsigned>()));
  put(kTile32ReduceOr, cg::reduce(warp, 1u << lane, cg::bit_or<unsigned>()));
  put(kTile8InclScan, cg::inclusive_scan(t8, lane));
  put(kTile4ExclScan, cg::exclusive_scan(t4, lane + 1));
  if (lane & 1) {
    auto odd = cg::coalesced_threads();
    put(kCoalescedSize, odd.size());
    put(kCoalescedRank, odd.thread_rank());
    put(kCoalescedBallot, odd.ballot(odd.thread_rank() < 4));
    put(kCoalescedAll, odd.all(lane > 0));
  } else {
    put(kCoalescedSize, 0xeeee);
    put(kCoalescedRank, 0xeeee);
    put(kCoalescedBallot, 0xeeee);
    put(kCoalescedAll, 0xeeee);
  }
  auto third = cg::labeled_partition(warp, lane % 3);
  put(kLabeledSize, third.size());
  put(kLabeledRank, third.thread_rank());
  put(kLabeledReduce, cg::reduce(third, lane, cg::plus<unsigned>()));
  auto low = cg::binary_partition(warp, lane < 10);
  put(kBinarySize, low.size());
  put(kBinaryAny, low.any(lane == 3));
  put(kMetaRank, t4.meta_group_rank());
  put(kMetaSize, t4.meta_group_size());
}

int main() {
  uint32_t *out;
  static uint32_t host[kCases * 32];
  std::printf("cudaMalloc = %d\n", (int)cudaMalloc(&out, sizeof(host)));
  std::printf("cudaMemset = %d\n", (int)cudaMemset(out, 0x5a, sizeof(host)));
  warp_cases<<<1, 32>>>(out);
  std::printf("launch = %d\n", (int)cudaGetLastError());
  std::printf("cudaDeviceSynchronize = %d\n", (int)cudaDeviceSynchronize());
  std::printf("cudaMemcpy = %d\n",
              (int)cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost));
  for (int c = 0; c < kCases; c++) {
    std::printf("%s:", kNames[c]);
    for (int l = 0; l < 32; l++) std::printf(" %x", host[c * 32 + l]);
    std::printf("\n");
  }
  return 0;
}
