// Command firsttouch measures what memory costs the first time a process
// touches it: it maps fresh anonymous memory, writes one byte per 4 KB
// page and reports the time per MB and per page fault. On bare metal a
// fault costs well under a microsecond; in a virtual machine whose host
// backs guest memory lazily it can cost tens. bench/hybrid-split.sh prints
// it next to the page faults of the pass.
//
// usage: go run ./bench/firsttouch [MB]   (default 256)
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	mb := 256
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "firsttouch: bad size %q (want MB > 0)\n", os.Args[1])
			os.Exit(2)
		}
		mb = n
	}
	const page = 4096
	size := mb << 20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		fmt.Fprintf(os.Stderr, "firsttouch: mmap %d MB: %v\n", mb, err)
		os.Exit(1)
	}
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start := time.Now()
	for i := 0; i < size; i += page {
		mem[i] = 1
	}
	d := time.Since(start)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	faults := after.Minflt - before.Minflt
	perFault := 0.0
	if faults > 0 {
		perFault = float64(d.Microseconds()) / float64(faults)
	}
	fmt.Printf("%.2f ms per MB, %.1f µs per page fault (%d faults, %d MB)\n",
		float64(d.Microseconds())/1000/float64(mb), perFault, faults, mb)
}
