package plan

import "fmt"

// CommandKind says what a command does.
type CommandKind uint8

// Command kinds, in the words of rlx_runtime.h.
const (
	// CmdFillZero zeroes arena bytes (a status word).
	CmdFillZero CommandKind = iota
	// CmdCopyWeight copies weight bytes into the arena (a returned leaf).
	CmdCopyWeight
	// CmdDispatch encodes one kernel dispatch of a Metal step.
	CmdDispatch
	// CmdMPS encodes an MPS step's executable.
	CmdMPS
	// CmdHost runs a host step on the CPU, after the GPU work before it.
	CmdHost
	// CmdCopy encodes an arena-to-arena copy of a copy step.
	CmdCopy
	// CmdCommitWait commits the encoded work and waits for it: the CPU
	// waits here and nowhere else.
	CmdCommitWait
)

var commandNames = [...]string{"fill_zero", "copy_weight", "dispatch", "mps", "host", "copy", "commit_wait"}

func (k CommandKind) String() string { return commandNames[k] }

// Command is one entry of a run's command stream.
type Command struct {
	Kind CommandKind
	// Step is the step the command belongs to (-1 for the prologue and
	// the final wait); Index the dispatch (CmdDispatch) or copy (CmdCopy)
	// within it.
	Step, Index int
	// Src and Dst are byte offsets (Src into the weights for
	// CmdCopyWeight, into the arena for CmdCopy; Dst into the arena) and
	// Bytes the length, for fills and copies.
	Src, Dst, Bytes int64
}

func (c Command) String() string {
	switch c.Kind {
	case CmdFillZero:
		return fmt.Sprintf("fill_zero arena@%d+%d", c.Dst, c.Bytes)
	case CmdCopyWeight:
		return fmt.Sprintf("copy_weight weights@%d -> arena@%d +%d", c.Src, c.Dst, c.Bytes)
	case CmdCopy:
		return fmt.Sprintf("copy arena@%d -> arena@%d +%d (step %d)", c.Src, c.Dst, c.Bytes, c.Step)
	case CmdDispatch:
		return fmt.Sprintf("dispatch step %d #%d", c.Step, c.Index)
	case CmdMPS, CmdHost:
		return fmt.Sprintf("%s step %d", c.Kind, c.Step)
	}
	return c.Kind.String()
}

// Commands returns the command stream of one run: the status words
// zeroed and the returned leaves filled, then every step's commands in
// order, and one commit-and-wait at the end. The GPU runs the stream in
// order with no CPU wait between steps; only a host step, which needs the
// results before it on the CPU, adds a wait before it (and the GPU work
// after it goes into a new command buffer). Every backend and the AOT
// host module encode this stream, so Waits is what a run costs in CPU
// waits on any of them.
func (p *Plan) Commands() []Command {
	var cmds []Command
	pending := false
	for _, v := range p.Values {
		if v.Kind == KindStatus {
			cmds = append(cmds, Command{Kind: CmdFillZero, Step: -1, Dst: v.Offset, Bytes: v.Bytes})
			pending = true
		}
	}
	for _, l := range p.Leaves {
		v, w := p.Values[l.Value], p.Weights[l.Weight]
		cmds = append(cmds, Command{Kind: CmdCopyWeight, Step: -1, Src: w.Offset, Dst: v.Offset, Bytes: v.Bytes})
		pending = true
	}
	for _, st := range p.Steps {
		switch st.Kind {
		case StepMetal:
			for i := range st.Dispatches {
				cmds = append(cmds, Command{Kind: CmdDispatch, Step: st.Index, Index: i})
				pending = true
			}
		case StepMPS:
			cmds = append(cmds, Command{Kind: CmdMPS, Step: st.Index})
			pending = true
		case StepHost:
			if pending {
				cmds = append(cmds, Command{Kind: CmdCommitWait, Step: -1})
				pending = false
			}
			cmds = append(cmds, Command{Kind: CmdHost, Step: st.Index})
		case StepCopy:
			for i, c := range st.Copies {
				cmds = append(cmds, Command{Kind: CmdCopy, Step: st.Index, Index: i, Src: p.Values[c.From].Offset, Dst: p.Values[c.To].Offset, Bytes: c.Bytes})
				pending = true
			}
		}
	}
	if pending {
		cmds = append(cmds, Command{Kind: CmdCommitWait, Step: -1})
	}
	return cmds
}

// Waits returns the CPU waits of one run: the commit-and-wait commands of
// Commands.
func (p *Plan) Waits() int {
	n := 0
	for _, c := range p.Commands() {
		if c.Kind == CmdCommitWait {
			n++
		}
	}
	return n
}
