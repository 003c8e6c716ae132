//go:build !linux

package cg

import "os/exec"

// runLowered runs cmd at the parent's priority: lowering the child's is
// done on Linux only.
func runLowered(cmd *exec.Cmd, nice int) error { return cmd.Run() }
