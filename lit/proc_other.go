//go:build !unix

package lit

import "os/exec"

// setProcessGroup does nothing where there are no process groups; a
// timeout kills only the direct child.
func setProcessGroup(*exec.Cmd) {}
