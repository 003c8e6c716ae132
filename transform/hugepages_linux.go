package transform

import (
	"syscall"
	"unsafe"
)

// hugePages asks Linux to back s with transparent huge pages. It takes
// effect where THP is in its "madvise" mode (as on the 2-core benchmark
// machine) and changes nothing under "always" or "never". Only the whole
// 2 MiB pages inside s are advised, so small slices are left alone.
func hugePages(s []int32) {
	const huge = 2 << 20
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
	if len(b) < 2*huge {
		return
	}
	start := int(-uintptr(unsafe.Pointer(&b[0])) & (huge - 1))
	end := start + (len(b)-start)&^(huge-1)
	_ = syscall.Madvise(b[start:end], syscall.MADV_HUGEPAGE) // advice only: nothing to do if refused
}
