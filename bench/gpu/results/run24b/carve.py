import sys
p=sys.argv[1]
s=open(p).read()
a='''  void *args[] = {&b, &poison};
  cudaError_t err = cudaLaunchKernel(e.fn,'''
b='''  void *args[] = {&b, &poison};
  static bool carved[1024];
  if (k < 1024 && !carved[k]) {
    cudaFuncSetAttribute(e.fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
    carved[k] = true;
  }
  cudaError_t err = cudaLaunchKernel(e.fn,'''
assert s.count(a)==1
open(p,'w').write(s.replace(a,b))
