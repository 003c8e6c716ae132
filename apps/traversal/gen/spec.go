package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/matrices"
)

// Generator is a graph generator with its parameters: Kronecker or Road.
type Generator interface {
	Generate() (*graph.Edges, error)
	String() string
}

// Parse reads a generator as a command line names it:
//
//	kronecker:scale=22[,ef=16][,a=0.57,b=0.19,c=0.19][,seed=1]
//	road:nx=2000,ny=2000[,extra=0.25][,highways=0][,shuffle=false][,seed=1]
//
// "kron" abbreviates "kronecker"; "road:side=S" is an S x S grid. Omitted
// parameters take the Default* values. The seed given here, when any,
// wins over seed; seed is the command's --seed.
func Parse(spec string, seed uint64) (Generator, error) {
	kind, params, _ := strings.Cut(strings.TrimSpace(spec), ":")
	kv := map[string]string{}
	if params != "" {
		for _, p := range strings.Split(params, ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				return nil, fmt.Errorf("generator %q: %q is not key=value", spec, p)
			}
			kv[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	var err error
	num := func(key string, dst *int) {
		if s, ok := kv[key]; ok && err == nil {
			var x int
			if x, err = strconv.Atoi(s); err != nil {
				err = fmt.Errorf("generator %q: %s=%q is not an integer", spec, key, s)
			}
			*dst = x
		}
		delete(kv, key)
	}
	real := func(key string, dst *float64) {
		if s, ok := kv[key]; ok && err == nil {
			var x float64
			if x, err = strconv.ParseFloat(s, 64); err != nil {
				err = fmt.Errorf("generator %q: %s=%q is not a number", spec, key, s)
			}
			*dst = x
		}
		delete(kv, key)
	}
	seedParam := func(dst *uint64) {
		*dst = seed
		if s, ok := kv["seed"]; ok && err == nil {
			var x uint64
			if x, err = strconv.ParseUint(s, 10, 64); err != nil {
				err = fmt.Errorf("generator %q: seed=%q is not a non-negative integer", spec, s)
			}
			*dst = x
		}
		delete(kv, "seed")
	}
	var g Generator
	switch strings.ToLower(kind) {
	case "kronecker", "kron":
		k := DefaultKronecker(0)
		num("scale", &k.Scale)
		num("ef", &k.EdgeFactor)
		real("a", &k.A)
		real("b", &k.B)
		real("c", &k.C)
		seedParam(&k.Seed)
		if err == nil {
			err = k.check()
		}
		g = k
	case "road":
		r := DefaultRoad(0, 0)
		side := 0
		num("side", &side)
		r.NX, r.NY = side, side
		num("nx", &r.NX)
		num("ny", &r.NY)
		real("extra", &r.Extra)
		num("highways", &r.Highways)
		if s, ok := kv["shuffle"]; ok && err == nil {
			if r.Shuffle, err = strconv.ParseBool(s); err != nil {
				err = fmt.Errorf("generator %q: shuffle=%q is not true or false", spec, s)
			}
		}
		delete(kv, "shuffle")
		seedParam(&r.Seed)
		if err == nil {
			err = r.check()
		}
		g = r
	default:
		return nil, fmt.Errorf("unknown generator %q (want kronecker:scale=S,... or road:nx=X,ny=Y,...)", spec)
	}
	if err != nil {
		return nil, err
	}
	for k := range kv {
		return nil, fmt.Errorf("generator %q: unknown parameter %q", spec, k)
	}
	return g, nil
}

// IsSpec says whether arg names a generator (kronecker:, kron: or road:)
// rather than a file.
func IsSpec(arg string) bool {
	kind, _, ok := strings.Cut(arg, ":")
	switch strings.ToLower(kind) {
	case "kronecker", "kron", "road":
		return ok
	}
	return false
}

// Open builds the graph arg names: a generator spec (see Parse; seed is
// the default seed of its draws) or a file that graph.Load reads with
// read. A file whose name starts with "road:" is reached as "./road:...".
func Open(arg string, seed uint64, read matrices.ReadOptions, opt graph.Options) (*graph.Graph, error) {
	if !IsSpec(arg) {
		return graph.Load(arg, read, opt)
	}
	g, err := Parse(arg, seed)
	if err != nil {
		return nil, err
	}
	e, err := g.Generate()
	if err != nil {
		return nil, err
	}
	return graph.Build(e, opt)
}
