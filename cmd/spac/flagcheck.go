package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
)

// The numeric flags of every command are checked here, before any input is
// read: a value out of range is a usage error (exit status 2) that names
// the flag, the value and the range accepted. Each command lists its
// checks in one place and passes them to firstErr, so that a new flag gets
// its range next to the others.

// maxCount is the largest count a flag takes (parts, iterations, runs):
// counts are int32 on the GPU and in the file formats.
const maxCount = math.MaxInt32

// intIn checks lo <= v <= hi; why, when not empty, says what the range
// stands for.
func intIn(flag string, v, lo, hi int, why string) error {
	if v >= lo && v <= hi {
		return nil
	}
	return usagef("--%s %d: want %s%s", flag, v, intRange(lo, hi), because(why))
}

func intRange(lo, hi int) string {
	if hi == maxCount {
		return fmt.Sprintf("%d or more", lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// floatIn checks lo <= v <= hi (lo < v when openLo) and refuses NaN and the
// infinities, which every comparison would let through or misread.
func floatIn(flag string, v, lo, hi float64, openLo bool, why string) error {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0) && v <= hi && (v > lo || (!openLo && v == lo))
	if ok {
		return nil
	}
	left := "["
	if openLo {
		left = "("
	}
	rng := fmt.Sprintf("a finite number in %s%g, %g]", left, lo, hi)
	if math.IsInf(hi, 1) {
		rng = fmt.Sprintf("a finite number %s %g", map[bool]string{true: ">", false: ">="}[openLo], lo)
	}
	return usagef("--%s %g: want %s%s", flag, v, rng, because(why))
}

// durationIn checks lo <= d <= hi.
func durationIn(flag string, d, lo, hi time.Duration, why string) error {
	if d >= lo && d <= hi {
		return nil
	}
	return usagef("--%s %v: want %v to %v%s", flag, d, lo, hi, because(why))
}

// bytesIn parses a size flag (see parseBytes) and checks lo <= v <= hi.
func bytesIn(flag, s string, lo, hi int64, why string) (int64, error) {
	v, err := parseBytes(s)
	if err != nil {
		return 0, usagef("--%s: %v", flag, err)
	}
	if v < lo || v > hi {
		return 0, usagef("--%s %s: want %s to %s (%d to %d bytes)%s", flag, s, formatBytes(lo), formatBytes(hi), lo, hi, because(why))
	}
	return v, nil
}

// parseBytes reads a size such as 49152, 48K, 48KiB, 48KB, 1MiB or 2GiB; every
// unit is binary (a GPU's "48 KB" of shared memory is 49152 bytes).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.ToLower(strings.TrimSpace(t[len(num):]))
	mult := int64(1)
	switch unit {
	case "", "b":
	case "k", "kb", "kib":
		mult = 1 << 10
	case "m", "mb", "mib":
		mult = 1 << 20
	case "g", "gb", "gib":
		mult = 1 << 30
	case "t", "tb", "tib":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("%q: unknown unit %q (want B, KiB, MiB, GiB or TiB)", s, unit)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size in bytes", s)
	}
	return n * mult, nil
}

func because(why string) string {
	if why == "" {
		return ""
	}
	return " (" + why + ")"
}

// firstErr returns the first error of a command's checks.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// formatBytes writes n with the largest binary unit that divides it.
func formatBytes(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// gpuBlockIn checks a block size of the GPU kernels: a multiple of 32 (a
// warp) from 32 to 16384 tasks (spac-d16's largest parts).
func gpuBlockIn(flag string, b int) error {
	if spmv.CheckBlockSize(b) != nil {
		return usagef("--%s %d: want a multiple of 32 from 32 to %d tasks (whole warps; a thread a task up to 1024, eight a thread up to %d)", flag, b, spmv.MaxBlockSize, spmv.MaxBlockSize)
	}
	return nil
}

// gpuThreadsIn checks a block size of kernels that run a thread a task: a
// multiple of 32 (a warp) from 32 to 1024 (a CUDA block).
func gpuThreadsIn(flag string, b int) error {
	if b > spmv.MaxThreads || spmv.CheckBlockSize(b) != nil {
		return usagef("--%s %d: want a multiple of 32 from 32 to %d (whole warps, at most a CUDA block)", flag, b, spmv.MaxThreads)
	}
	return nil
}
