package mslcpu

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Init says how a job buffer starts.
type Init uint8

const (
	// Poison fills the buffer with 0xff bytes (NaN for floats, -1 for
	// integers), so that a kernel reading what it never wrote shows.
	Poison Init = iota
	Data        // the buffer's Data
	Zero        // zeros (the status word)
)

// Buffer is one buffer of a job.
type Buffer struct {
	Size int64
	Init Init
	Data []byte // Size bytes when Init is Data
}

// Dispatch is one kernel launch of a job; Buffers[i] is the job buffer
// bound at index i.
type Dispatch struct {
	Kernel            string
	Grid, Threadgroup [3]int
	ThreadgroupMemory int
	Buffers           []int
}

// Job is a set of buffers and the dispatches that run over them, in order.
type Job struct {
	Buffers    []Buffer
	Dispatches []Dispatch
}

// Result is a job's buffers after it ran, and the number of guard bytes
// changed before and after each (always 0 in an ASan build, which has no
// guards: AddressSanitizer reports overruns itself).
type Result struct {
	Buffers                 [][]byte
	GuardBefore, GuardAfter []int
}

// GuardError describes the buffers whose guard bytes changed, or is "".
func (r *Result) GuardError(names func(i int) string) string {
	var msgs []string
	for i := range r.Buffers {
		if r.GuardBefore[i] > 0 {
			msgs = append(msgs, fmt.Sprintf("%s: %d guard bytes before the start were written", names(i), r.GuardBefore[i]))
		}
		if r.GuardAfter[i] > 0 {
			msgs = append(msgs, fmt.Sprintf("%s: %d guard bytes after the end were written", names(i), r.GuardAfter[i]))
		}
	}
	return strings.Join(msgs, "; ")
}

// RunError is a harness run that failed: a sanitizer report, a deadlock, a
// barrier that not every thread reached, or a crash.
type RunError struct {
	Mode   Mode
	Output string // the program's stderr
	Err    error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("harness (%s) failed: %v\n%s", e.Mode, e.Err, e.Output)
}

// Run runs jobs, one after another in one process.
func (b *Binary) Run(jobs []*Job) ([]*Result, error) {
	dir, err := os.MkdirTemp("", "rlx-msl-job")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	jobFile, resFile := filepath.Join(dir, "job"), filepath.Join(dir, "res")
	if err := b.writeJobs(jobFile, jobs); err != nil {
		return nil, err
	}
	cmd := exec.Command(b.path, jobFile, resFile)
	cmd.Env = append(os.Environ(),
		"ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0",
		"TSAN_OPTIONS=halt_on_error=1:exitcode=66:report_signal_unsafe=0")
	if b.Fibers {
		cmd.Env = append(cmd.Env, "RLX_MSL_EXECUTOR=fibers")
	}
	if b.Deadline > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("RLX_MSL_DEADLINE=%d", int(b.Deadline.Seconds()+0.5)))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cmd.ProcessState != nil {
		b.LastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return nil, &RunError{Mode: b.Mode, Output: stderr.String(), Err: err}
	}
	b.LastStderr = stderr.String()
	return readResults(resFile, jobs)
}

func (b *Binary) writeJobs(path string, jobs []*Job) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	le := binary.LittleEndian
	u32 := func(v int) { w.Write(le.AppendUint32(nil, uint32(v))) }
	w.WriteString("RLXJOB1\n")
	u32(len(jobs))
	for _, j := range jobs {
		u32(len(j.Buffers))
		for _, buf := range j.Buffers {
			w.Write(le.AppendUint64(nil, uint64(buf.Size)))
			w.WriteByte(byte([]Init{Poison: 0, Data: 1, Zero: 2}[buf.Init]))
			if buf.Init == Data {
				if int64(len(buf.Data)) != buf.Size {
					f.Close()
					return fmt.Errorf("job buffer of %d bytes holds %d", buf.Size, len(buf.Data))
				}
				w.Write(buf.Data)
			}
		}
		u32(len(j.Dispatches))
		for _, d := range j.Dispatches {
			k, ok := b.index[d.Kernel]
			if !ok {
				f.Close()
				return fmt.Errorf("kernel %s is not in the harness", d.Kernel)
			}
			u32(k)
			for _, v := range d.Grid {
				u32(v)
			}
			for _, v := range d.Threadgroup {
				u32(v)
			}
			w.Write(le.AppendUint64(nil, uint64(d.ThreadgroupMemory)))
			u32(len(d.Buffers))
			for _, id := range d.Buffers {
				u32(id)
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readResults(path string, jobs []*Job) ([]*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	magic := make([]byte, 8)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "RLXRES1\n" {
		return nil, fmt.Errorf("harness wrote no result")
	}
	var res []*Result
	for _, j := range jobs {
		out := &Result{}
		for range j.Buffers {
			var hdr struct {
				Size          uint64
				Before, After uint32
			}
			if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
				return nil, fmt.Errorf("reading the harness result: %v", err)
			}
			data := make([]byte, hdr.Size)
			if _, err := io.ReadFull(r, data); err != nil {
				return nil, fmt.Errorf("reading the harness result: %v", err)
			}
			out.Buffers = append(out.Buffers, data)
			out.GuardBefore = append(out.GuardBefore, int(hdr.Before))
			out.GuardAfter = append(out.GuardAfter, int(hdr.After))
		}
		res = append(res, out)
	}
	return res, nil
}
