package transform

import (
	"syscall"
	"unsafe"
)

// hugePages asks Linux to back s with transparent huge pages: on the 2-core
// benchmark machine (THP "madvise") first touches of fresh 4 KiB pages were
// half of the coarsening's time. Under THP "never" it changes nothing;
// under "always" the pages are huge already, but the advice still opts the
// range into the kernel's "defrag" setting for madvised memory (with the
// default, faults there may wait for compaction), and it stays on the
// range when the Go heap later reuses it. The Go runtime itself stopped
// advising huge pages for those reasons (golang/go#61718, #64332); the
// graph arrays here are large, short-lived and written once, where the
// trade measured well. SetHugePages(false) (the command does it for
// SPAC_HUGEPAGES=off in the environment) turns the advice off. Only the whole 2 MiB pages inside s are advised, so small
// slices are left alone.
func hugePages(s []int32) {
	if hugePagesOff.Load() {
		return
	}
	const huge = 2 << 20
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
	if len(b) < 2*huge {
		return
	}
	start := int(-uintptr(unsafe.Pointer(&b[0])) & (huge - 1))
	end := start + (len(b)-start)&^(huge-1)
	_ = syscall.Madvise(b[start:end], syscall.MADV_HUGEPAGE) // advice only: nothing to do if refused
}
