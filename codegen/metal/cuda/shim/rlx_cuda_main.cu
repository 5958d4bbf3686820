// rlx_cuda_main.cu: the job runner program, for compute-sanitizer: the
// generated kernels and the runtime linked with this main.
//   run JOBS RESULTS [--exact] [--no-results] [--outputs-only]
#include <cstdio>
#include <cstring>

extern "C" int rlx_run_jobs(const char *job_path, const char *res_path, int flags);

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s JOBS RESULTS [--exact] [--no-results] [--outputs-only]\n", argv[0]);
    return 2;
  }
  int flags = 0;
  for (int i = 3; i < argc; i++) {
    if (std::strcmp(argv[i], "--exact") == 0) {
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
  return rlx_run_jobs(argv[1], argv[2], flags) == 0 ? 0 : 1;
}
