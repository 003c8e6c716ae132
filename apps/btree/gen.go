package btree

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// KeySpec describes generated keys: N distinct keys from [0, Span), in
// random order (the order of the key file, which bulk loading ignores).
type KeySpec struct {
	N    int
	Span int // 0: N, the keys are a permutation of 0..N-1
	Seed uint64
}

// Preset is a named input: generated keys and Rodinia-style commands.
type Preset struct {
	Name, Description string
	Keys              KeySpec
	Commands          []Command
}

// RodiniaCommands are the commands of Rodinia's command.txt.
var RodiniaCommands = []Command{{Op: 'j', Count: 6000, Range: 3000}, {Op: 'k', Count: 10000}}

// Presets are Rodinia's input and one sized for an H100.
var Presets = []Preset{
	{"mil", "1,000,000 keys (0..999,999 in random order, as Rodinia's mil.txt) and Rodinia's command.txt: j 6000 3000, k 10000",
		KeySpec{N: 1000000}, RodiniaCommands},
	{"h100", "16,000,000 keys (a tree of 190 to 280 MB, four to six times the H100's 50 MB L2) and 500,000 queries of each kind: j 500000 3000, k 500000",
		KeySpec{N: 16000000}, []Command{{Op: 'j', Count: 500000, Range: 3000}, {Op: 'k', Count: 500000}}},
}

// LookupPreset returns the preset of that name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames lists the presets.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = p.Name
	}
	return names
}

// SpecHelp describes ParseSpec's syntax.
const SpecHelp = `keys:n=N[,span=S]: N distinct keys drawn from [0, S) (S at least N; default N, a
permutation of 0..N-1, so that every query of Rodinia's commands finds its key), in random order.`

// ParseSpec reads "keys:n=1000000,span=4000000" (see SpecHelp).
func ParseSpec(s string) (KeySpec, error) {
	rest, ok := strings.CutPrefix(s, "keys:")
	if !ok {
		return KeySpec{}, fmt.Errorf("%q: a key spec starts with keys:", s)
	}
	var spec KeySpec
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		x, err := strconv.Atoi(v)
		switch {
		case !ok:
			return KeySpec{}, fmt.Errorf("%q: %q is not key=value", s, kv)
		case k != "n" && k != "span":
			return KeySpec{}, fmt.Errorf("%q: unknown key %q (want n or span)", s, k)
		case err != nil || x < 1 || x > MaxKey:
			return KeySpec{}, fmt.Errorf("%q: %s=%s: want a positive integer up to %d", s, k, v, MaxKey)
		case k == "n":
			spec.N = x
		default:
			spec.Span = x
		}
	}
	if spec.N == 0 {
		return KeySpec{}, fmt.Errorf("%q: n (the number of keys) is missing", s)
	}
	if spec.N > maxKeys {
		return KeySpec{}, fmt.Errorf("%q: at most %d keys", s, maxKeys)
	}
	if spec.Span != 0 && spec.Span < spec.N {
		return KeySpec{}, fmt.Errorf("%q: span %d holds fewer than n=%d distinct keys", s, spec.Span, spec.N)
	}
	return spec, nil
}

// GenerateKeys makes the keys of spec: one key from each of N equal
// strata of [0, Span) (distinct by construction, and spread over the whole
// span as a uniform sample is), shuffled. The same spec gives the same keys.
func GenerateKeys(spec KeySpec) ([]int32, error) {
	span := spec.Span
	if span == 0 {
		span = spec.N
	}
	if spec.N < 1 || spec.N > maxKeys || span < spec.N || span > MaxKey {
		return nil, fmt.Errorf("keys: n=%d, span=%d: want 1 <= n <= %d and n <= span <= %d", spec.N, span, maxKeys, MaxKey)
	}
	rng := rand.New(rand.NewPCG(spec.Seed, 0x6b657973))
	keys := make([]int32, spec.N)
	n, s := int64(spec.N), int64(span)
	for j := range keys {
		lo, hi := s*int64(j)/n, s*int64(j+1)/n
		keys[j] = int32(lo + rng.Int64N(hi-lo))
	}
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys, nil
}
