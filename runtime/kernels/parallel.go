package kernels

import (
	"runtime"
	"sync"
)

// minParallelWork is the estimated number of scalar operations below which a
// job runs on the calling goroutine: starting goroutines costs microseconds.
const minParallelWork = 1 << 15

// parallelFor calls body on contiguous sub-ranges covering [0, n), using at
// most GOMAXPROCS goroutines, and waits for them. work estimates the total
// number of scalar operations. Callers only split work over independent
// output elements, so the partition never changes the results.
func parallelFor(n, work int, body func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 || work < minParallelWork {
		if n > 0 {
			body(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	wg.Wait()
}
