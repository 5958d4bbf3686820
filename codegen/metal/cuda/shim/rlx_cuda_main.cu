// rlx_cuda_main.cu: the job runner program, for compute-sanitizer: the
// generated kernels and the runtime linked with this main.
//   run JOBS RESULTS [--exact] [--no-results] [--outputs-only] [--repeat N]
// --repeat N runs each job's dispatches N times on the same buffers.
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" int rlx_run_jobs(const char *job_path, const char *res_path, int flags, unsigned repeat);

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s JOBS RESULTS [--exact] [--no-results] [--outputs-only] [--repeat N]\n", argv[0]);
    return 2;
  }
  int flags = 0;
  unsigned repeat = 1;
  for (int i = 3; i < argc; i++) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      char *end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (*end != 0 || n < 1 || n > 1000) {
        std::fprintf(stderr, "--repeat wants a count from 1 to 1000, not %s\n", argv[i]);
        return 2;
      }
      repeat = (unsigned)n;
    } else if (std::strcmp(argv[i], "--exact") == 0) {
      flags |= 1;
    } else if (std::strcmp(argv[i], "--no-results") == 0) {
      flags |= 2;
    } else if (std::strcmp(argv[i], "--outputs-only") == 0) {
      flags |= 4;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  return rlx_run_jobs(argv[1], argv[2], flags, repeat) == 0 ? 0 : 1;
}
