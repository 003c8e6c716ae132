package cg

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"
)

// runLowered runs cmd from a thread of its own at nice value nice, so that
// the child has it from its first instruction: Linux keeps nice values per
// thread and a child inherits the one of the thread that forked it, while
// lowering the child after its start would miss the threads its runtime
// has already made. The thread never goes back to the Go scheduler (it
// ends with its goroutine), and the child gets SIGKILL when that thread
// ends first, i.e. when the parent dies.
func runLowered(cmd *exec.Cmd, nice int) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		tid := syscall.Gettid()
		// The raw system call returns 20 - nice; a lower nice value than
		// the thread has would need privileges, and is not asked for.
		prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
		if err != nil {
			done <- fmt.Errorf("reading the thread's nice value: %w", err)
			return
		}
		if nice > 20-prio {
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil {
				done <- fmt.Errorf("setting the nice value %d for the partitioner: %w", nice, err)
				return
			}
		}
		done <- cmd.Run()
	}()
	return <-done
}
