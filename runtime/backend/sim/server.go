package sim

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/runtime/abi"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

//go:embed c/rlx_sim_server.cpp
var serverSource []byte

// Programs compiles sim servers and keeps them, by source and mode, in a
// temporary directory until Close: compiling the kernels is most of what
// New costs, so backends that run the same kernels share one.
type Programs struct {
	mu    sync.Mutex
	dir   string
	paths map[string]string
}

// NewPrograms returns an empty set of programs in a new temporary
// directory.
func NewPrograms() (*Programs, error) {
	dir, err := os.MkdirTemp("", "rlx-sim")
	if err != nil {
		return nil, err
	}
	return &Programs{dir: dir, paths: map[string]string{}}, nil
}

// Close removes the programs.
func (ps *Programs) Close() error { return os.RemoveAll(ps.dir) }

// Dir is the directory that holds the programs (and the arenas of the
// backends that use them).
func (ps *Programs) Dir() string { return ps.dir }

// program returns the server built from the emitted MSL out.
func (ps *Programs) program(out *metal.Output, mode mslcpu.Mode) (string, error) {
	comp, err := mslcpu.NewCompiler()
	if err != nil {
		return "", fmt.Errorf("the sim backend compiles the kernels with clang++-19: %w", err)
	}
	cxx := comp.Path()
	sum := sha256.Sum256([]byte(out.Source))
	key := hex.EncodeToString(sum[:8]) + "-" + mode.String()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p, ok := ps.paths[key]; ok {
		return p, nil
	}
	dir := filepath.Join(ps.dir, key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src, err := mslcpu.WriteSources(dir, out.Source, out.Kernels, mode)
	if err != nil {
		return "", err
	}
	files, err := abi.Write(dir, abi.Header, abi.CPU)
	if err != nil {
		return "", err
	}
	server := filepath.Join(dir, "rlx_sim_server.cpp")
	if err := os.WriteFile(server, serverSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "rlx-sim-server")
	args := append(append([]string{}, src.Flags...), "-I", src.Include, "-I", dir, server, files[1])
	args = append(append(args, src.Files...), "-o", bin)
	cmd := exec.Command(cxx, args...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("compiling the sim server: %v\n%s", err, msg.String())
	}
	ps.paths[key] = bin
	return bin, nil
}

// server is a running sim server.
type server struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	inPipe io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	kernel map[string]uint32
}

func startServer(bin string, mode mslcpu.Mode, arena string, arenaBytes int64, weights string, weightBytes int64) (*server, error) {
	s := &server{kernel: map[string]uint32{}}
	s.cmd = exec.Command(bin, arena, strconv.FormatInt(arenaBytes, 10), weights, strconv.FormatInt(weightBytes, 10))
	s.cmd.Stderr = &s.stderr
	if mode == mslcpu.Plain {
		// The dispatcher's fiber executor: the threads' semantics at a
		// fraction of OS threads' cost (sanitizer builds need threads).
		s.cmd.Env = append(os.Environ(), "RLX_MSL_EXECUTOR=fibers")
	}
	in, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.inPipe, s.in, s.out = in, bufio.NewWriter(in), bufio.NewReader(out)
	return s, nil
}

func (s *server) u32(v uint32) { s.in.Write(binary.LittleEndian.AppendUint32(nil, v)) }
func (s *server) u64(v uint64) { s.in.Write(binary.LittleEndian.AppendUint64(nil, v)) }

// reply reads the server's answer to the command just sent.
func (s *server) reply() error {
	if err := s.in.Flush(); err != nil {
		return s.died(err)
	}
	var hdr [8]byte
	if _, err := io.ReadFull(s.out, hdr[:]); err != nil {
		return s.died(err)
	}
	status, n := binary.LittleEndian.Uint32(hdr[:4]), binary.LittleEndian.Uint32(hdr[4:])
	msg := make([]byte, n)
	if _, err := io.ReadFull(s.out, msg); err != nil {
		return s.died(err)
	}
	if status != 0 {
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// died describes a server that stopped answering, with what it printed.
func (s *server) died(err error) error {
	s.cmd.Wait()
	return fmt.Errorf("the sim server failed (%v): %s", err, bytes.TrimSpace(s.stderr.Bytes()))
}

// register makes pipeline ids of the manifest's kernels.
func (s *server) register(man *metal.Manifest) error {
	for i, k := range man.Kernels {
		s.in.WriteByte('K')
		s.u32(uint32(i))
		s.u32(uint32(len(k.Name)))
		s.in.WriteString(k.Name)
		if err := s.reply(); err != nil {
			return err
		}
		s.kernel[k.Name] = uint32(i)
	}
	return nil
}

var accessCodes = map[string]uint32{"read": 1, "write": 2, "read_write": 3}

// dispatch runs a Metal step's dispatches.
func (s *server) dispatch(st *plan.Step) error {
	s.in.WriteByte('D')
	s.u32(uint32(len(st.Dispatches)))
	for _, d := range st.Dispatches {
		id, ok := s.kernel[d.Kernel]
		if !ok {
			return fmt.Errorf("kernel %s is not in the manifest", d.Kernel)
		}
		s.u32(id)
		for _, v := range d.Grid {
			s.u32(uint32(v))
		}
		for _, v := range d.Threadgroup {
			s.u32(uint32(v))
		}
		s.u32(uint32(d.ThreadgroupMemory))
		s.u32(uint32(len(d.Bindings)))
		for _, b := range d.Bindings {
			buf := uint32(0)
			if b.Buffer == plan.BufWeights {
				buf = 1
			}
			s.u32(buf)
			s.u32(accessCodes[b.Access])
			s.u64(uint64(b.Offset))
			s.u64(uint64(b.Bytes))
		}
	}
	return s.reply()
}

func (s *server) close() error {
	s.in.WriteByte('Q')
	s.in.Flush()
	s.inPipe.Close()
	return s.cmd.Wait()
}
