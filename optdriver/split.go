package optdriver

import (
	"bytes"
	"strconv"
)

// chunk is one piece of a split input file.
type chunk struct {
	// name is the buffer name used in locations and diagnostics, as
	// mlir-opt 19 names it: "within split at FILE:LINE offset ".
	name string
	src  []byte
}

// nearMiss is a split marker that was not followed by the rest of the
// marker; mlir-opt warns about it and does not split there.
type nearMiss struct {
	line, col int
	text      string
}

// splitInput splits src at marker the way mlir-opt 19 does: src is cut at
// every occurrence of the marker without its last two characters, and a
// cut counts only when those two characters follow; other cuts are
// reported as near misses and undone. Each chunk starts right after its
// marker, so its first line is the rest of the marker's line, and it is
// named after the file line where it starts.
func splitInput(file string, src []byte, marker string) ([]chunk, []nearMiss) {
	const checkLen = 2
	if len(marker) <= checkLen {
		return []chunk{{name: file, src: src}}, nil
	}
	prefix := []byte(marker[:len(marker)-checkLen])
	suffix := []byte(marker[len(marker)-checkLen:])
	raw := bytes.Split(src, prefix)
	var misses []nearMiss
	type piece struct{ start, end int }
	var pieces []piece
	prev := piece{0, len(raw[0])}
	off := len(raw[0])
	for _, buf := range raw[1:] {
		bufStart := off + len(prefix)
		off = bufStart + len(buf)
		if bytes.HasPrefix(buf, suffix) && len(buf) > checkLen {
			pieces = append(pieces, prev)
			prev = piece{bufStart + checkLen, off}
			continue
		}
		line, col := lineCol(src, bufStart)
		misses = append(misses, nearMiss{line: line, col: col, text: lineText(src, bufStart)})
		prev.end = off
	}
	pieces = append(pieces, prev)
	out := make([]chunk, len(pieces))
	for i, p := range pieces {
		line, _ := lineCol(src, p.start)
		out[i] = chunk{name: "within split at " + file + ":" + strconv.Itoa(line) + " offset ", src: src[p.start:p.end]}
	}
	return out, misses
}

func lineCol(src []byte, pos int) (int, int) {
	line := 1 + bytes.Count(src[:pos], []byte{'\n'})
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	return line, pos - start + 1
}

func lineText(src []byte, pos int) string {
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	end := bytes.IndexByte(src[pos:], '\n')
	if end < 0 {
		return string(src[start:])
	}
	return string(src[start : pos+end])
}
