package transform

import "sync/atomic"

// hugePagesOff turns the huge-page advice off (SetHugePages).
var hugePagesOff atomic.Bool

// SetHugePages sets whether the large arrays this package builds are
// advised to the kernel as transparent huge pages (Linux; on by default,
// see hugePages). It is process-wide state: the command sets it once, from
// $SPAC_HUGEPAGES, before any work; the package reads no environment.
func SetHugePages(on bool) { hugePagesOff.Store(!on) }
