package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spac-gpu/spac/gpu"
)

// version is what --version prints: the module version, the VCS revision
// the binary was built from (and whether the tree had uncommitted changes),
// the Go version, and whether the binary has CUDA support (the cuda build
// tag, which gpu.Built reports without opening a device).
func version() string {
	mod, rev, dirty := "(devel)", "unknown (built without VCS stamping)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			mod = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = ", with uncommitted changes"
				}
			}
		}
	}
	cuda := "without CUDA (build with 'make gpu' for it)"
	if gpu.Built {
		cuda = "with CUDA"
	}
	return fmt.Sprintf("%s, revision %s%s, %s %s/%s, %s", mod, rev, dirty, runtime.Version(), runtime.GOOS, runtime.GOARCH, cuda)
}
