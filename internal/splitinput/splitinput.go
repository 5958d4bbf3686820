package splitinput

import (
	"bytes"
	"strconv"
)

// Chunk is one piece of a split input file.
type Chunk struct {
	// Name is the buffer name used in locations and diagnostics, as
	// mlir-opt 19 names it: "within split at FILE:LINE offset ".
	Name string
	Src  []byte
}

// NearMiss is a split marker that was not followed by the rest of the
// marker; mlir-opt warns about it and does not split there.
type NearMiss struct {
	Line, Col int
	Text      string
}

// Split splits src at marker the way mlir-opt 19 does: src is cut at
// every occurrence of the marker without its last two characters, and a
// cut counts only when those two characters follow; other cuts are
// reported as near misses and undone. Each chunk starts right after its
// marker, so its first line is the rest of the marker's line, and it is
// named after the file line where it starts.
func Split(file string, src []byte, marker string) ([]Chunk, []NearMiss) {
	const checkLen = 2
	if len(marker) <= checkLen {
		return []Chunk{{Name: file, Src: src}}, nil
	}
	prefix := []byte(marker[:len(marker)-checkLen])
	suffix := []byte(marker[len(marker)-checkLen:])
	raw := bytes.Split(src, prefix)
	var misses []NearMiss
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
		misses = append(misses, NearMiss{Line: line, Col: col, Text: lineText(src, bufStart)})
		prev.end = off
	}
	pieces = append(pieces, prev)
	out := make([]Chunk, len(pieces))
	for i, p := range pieces {
		line, _ := lineCol(src, p.start)
		out[i] = Chunk{Name: "within split at " + file + ":" + strconv.Itoa(line) + " offset ", Src: src[p.start:p.end]}
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
