//go:build unix

package lit

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts cmd in its own process group and makes cancelling
// it (on a timeout) kill the whole group, as lit kills a test's process
// and its children.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
