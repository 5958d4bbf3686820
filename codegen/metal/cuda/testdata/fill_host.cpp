// fill_host.cpp: shim/rlx_fill.h's rlx_fill_random built as plain host
// C++ (TestDeviceFillOnHost). Each argument triple "elem size seed" runs
// every thread of a 3×5 grid in turn (a grid-stride of 15, so that each
// thread writes several positions) over a buffer of size bytes and writes
// the bytes to stdout, one buffer after another.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define __device__
#define __global__
struct rlx_index {
  unsigned x, y, z;
};
static rlx_index blockIdx, threadIdx, blockDim, gridDim;
#define RLX_FILL_HOST
#include "rlx_fill.h"

int main(int argc, char **argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    std::fprintf(stderr, "usage: fill_host elem size seed [elem size seed ...]\n");
    return 2;
  }
  gridDim = {3, 1, 1};
  blockDim = {5, 1, 1};
  for (int a = 1; a + 2 < argc; a += 3) {
    const int elem = std::atoi(argv[a]);
    const unsigned long long size = std::strtoull(argv[a + 1], nullptr, 10);
    const unsigned seed = (unsigned)std::strtoul(argv[a + 2], nullptr, 10);
    std::vector<unsigned char> p(size, 0xee);
    for (unsigned b = 0; b < gridDim.x; b++)
      for (unsigned t = 0; t < blockDim.x; t++) {
        blockIdx.x = b;
        threadIdx.x = t;
        rlx_fill_random(p.data(), size, elem, seed);
      }
    if (size && std::fwrite(p.data(), 1, size, stdout) != size) return 1;
  }
  return 0;
}
