//go:build !linux

package transform

// hugePages is a no-op where huge pages cannot be asked for.
func hugePages([]int32) {}
