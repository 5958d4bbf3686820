package run

import (
	"encoding/binary"
	"syscall"
)

// physicalMemory returns the machine's physical memory in bytes, or 0 when
// it cannot tell.
func physicalMemory() int64 {
	s, err := syscall.Sysctl("hw.memsize")
	if err != nil {
		return 0
	}
	// The value is a little-endian uint64 whose trailing zero bytes the
	// string conversion drops.
	b := make([]byte, 8)
	copy(b, s)
	return int64(binary.LittleEndian.Uint64(b))
}
