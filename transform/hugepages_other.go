//go:build !linux

package transform

// hugePages is a no-op where huge pages cannot be asked for.
func hugePages([]int32) {}

// release is a no-op where pages cannot be given back.
func release([]int32) {}

func releaseBytes([]byte) {}
