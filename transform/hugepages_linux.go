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
	if b := wholePages(s, 2<<20); b != nil {
		_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice only: nothing to do if refused
	}
}

// wholePages returns the bytes of the whole pages of the given size inside
// s, or nil when s spans less than two of them.
func wholePages(s []int32, page int) []byte {
	return wholeBytePages(bytesOf(s), page)
}

// bytesOf is s's memory as bytes.
func bytesOf(s []int32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s))
}

// wholeBytePages is wholePages of a byte slice.
func wholeBytePages(b []byte, page int) []byte {
	if len(b) < 2*page {
		return nil
	}
	start := int(-uintptr(unsafe.Pointer(&b[0])) & uintptr(page-1))
	end := start + (len(b)-start)&^(page-1)
	return b[start:end]
}

// release gives the physical pages wholly inside s back to the kernel
// (MADV_DONTNEED): for the tail of a graph array built in more room than it
// came to need, which was written while building and is never read again.
// The pages stay part of the Go allocation; read again they are zero, as
// fresh memory is, so the runtime may hand the room out again as it is.
func release(s []int32) { releaseBytes(bytesOf(s)) }

// releaseBytes is release for a byte slice (a packed chunk decoded).
func releaseBytes(s []byte) {
	if b := wholeBytePages(s, 4<<10); b != nil {
		_ = syscall.Madvise(b, syscall.MADV_DONTNEED) // advice only
	}
}
