package matrices

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Two families of networks that users bring and the other generators do not
// make: road networks (planar, degrees 1 to 6, no hubs) and social networks
// (communities of every size, power-law degrees, numbered without regard to
// either).

func checkRoad(nx, ny int, keep, diag float64) error {
	if nx < 1 || ny < 1 || int64(nx)*int64(ny) > math.MaxInt32 {
		return fmt.Errorf("road: a %d x %d grid must have 1 to %d vertices", nx, ny, math.MaxInt32)
	}
	if !genFinite(keep) || keep <= 0 || keep > 1 {
		return fmt.Errorf("road: keep %v must be in (0, 1]", keep)
	}
	if !genFinite(diag) || diag < 0 || diag > 1 {
		return fmt.Errorf("road: diag %v must be in [0, 1]", diag)
	}
	return checkGenEntries("road", float64(nx)*float64(ny)*(2*keep+diag))
}

// Road returns an undirected road-network-like graph on an nx x ny grid:
// each edge of the grid is kept with probability keep and each cell gains
// its diagonal with probability diag (a road off the grid), so the mean
// degree is about 4*keep + 2*diag (2.9 by default, as in the road networks
// of California or Pennsylvania) and no vertex has more than 6 edges.
// Vertices are numbered row by row, which keeps neighbours close; 'spac
// reorder --order random' takes that locality away. The result is
// Symmetric, each edge stored once as (v, u) with v > u, no diagonal; rows
// are sorted.
func Road(nx, ny int, keep, diag float64, seed int64) (*COO, error) {
	if err := checkRoad(nx, ny, keep, diag); err != nil {
		return nil, err
	}
	r := genRand(seed, streamRoad)
	want := int(float64(nx) * float64(ny) * (2*keep + diag) * 1.01)
	out := &COO{
		Name:  fmt.Sprintf("road(nx=%d,ny=%d,keep=%g,diag=%g,seed=%d)", nx, ny, keep, diag, seed),
		NRows: nx * ny, NCols: nx * ny, Field: Real, Symmetry: Symmetric,
		Row: make([]int32, 0, want), Col: make([]int32, 0, want), Val: make([]float64, 0, want),
	}
	add := func(v, u int, p float64) {
		if r.Float64() < p {
			out.Row = append(out.Row, int32(v))
			out.Col = append(out.Col, int32(u))
			out.Val = append(out.Val, genValue(r))
		}
	}
	for y := 0; y < ny; y++ {
		for x := 0; x < nx; x++ {
			v := y*nx + x
			// The edges to lower numbers, in increasing order of u.
			if y > 0 && x > 0 {
				add(v, v-nx-1, diag)
			}
			if y > 0 {
				add(v, v-nx, keep)
			}
			if x > 0 {
				add(v, v-1, keep)
			}
		}
	}
	return out, nil
}

func checkCommunity(n int, deg, mix float64) error {
	if n < 2 || n > math.MaxInt32 {
		return fmt.Errorf("community: n %d must be in [2, %d]", n, math.MaxInt32)
	}
	if !genFinite(deg) || deg <= 0 || deg > float64(n-1) {
		return fmt.Errorf("community: deg %v must be in (0, n-1]", deg)
	}
	if !genFinite(mix) || mix < 0 || mix > 1 {
		return fmt.Errorf("community: mix %v must be in [0, 1]", mix)
	}
	return checkGenEntries("community", float64(n)*deg/2)
}

// Community size and vertex weight laws: sizes Pareto with exponent 1.5
// from communityMin (mean about 3x that), clipped to communityMax (the last
// community takes what is left, at least 5); weights
// Pareto with exponent 1.8 (a degree tail like collaboration and social
// graphs').
const (
	communityMin   = 20
	communityMax   = 5000
	communitySizeA = 1.5
	communityWtA   = 1.8
)

// Community returns an undirected social-network-like graph on n vertices
// with communities: vertices are split into communities of power-law sizes
// (20 to 5000, about 60 on average), each vertex gets a power-law weight, and n*deg/2 edges are
// drawn (a Chung-Lu graph): one end by weight from all vertices, the other
// by weight from the same community with probability 1-mix, else from all;
// loops and repeated pairs are drawn again, so the mean degree is deg. Vertices are numbered at random, as social graphs
// come: the communities are there to find, not in the order. The result is
// Symmetric, each edge stored once as (v, u) with v > u, no diagonal; rows
// are sorted.
func Community(n int, deg, mix float64, seed int64) (*COO, error) {
	if err := checkCommunity(n, deg, mix); err != nil {
		return nil, err
	}
	r := genRand(seed, streamCommunity)
	pareto := func(a float64) float64 { return math.Pow(1-r.Float64(), -1/a) }
	// Communities: [start[c], start[c+1]) before the numbering.
	start := []int{0}
	for left := n; left > 0; {
		s := min(max(int(communityMin*pareto(communitySizeA)), 5), communityMax, left)
		if left-s < 5 { // no community of fewer than 5 at the end
			s = left
		}
		start = append(start, start[len(start)-1]+s)
		left -= s
	}
	// cum[v]: the weights of vertices 0..v; a community's are a range of it.
	cum := make([]float64, n)
	total := 0.0
	for v := range cum {
		total += pareto(communityWtA)
		cum[v] = total
	}
	of := make([]int32, n) // v's community
	for c := 0; c+1 < len(start); c++ {
		for v := start[c]; v < start[c+1]; v++ {
			of[v] = int32(c)
		}
	}
	pick := func(lo, hi int) int { // a vertex of [lo, hi) by weight
		base := 0.0
		if lo > 0 {
			base = cum[lo-1]
		}
		t := base + r.Float64()*(cum[hi-1]-base)
		return min(lo+sort.SearchFloat64s(cum[lo:hi], t), hi-1)
	}
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	// Draws until m distinct edges (hubs in small communities repeat
	// pairs: a fifth of the first draws at the defaults), a few rounds at
	// most: a community too small for its share of edges may never get them.
	m := int(float64(n) * deg / 2)
	keys := make([]uint64, 0, m)
	for round := 0; round < 8 && len(keys) < m; round++ {
		for range m - len(keys) {
			u := pick(0, n)
			var v int
			if r.Float64() < mix {
				v = pick(0, n)
			} else {
				c := of[u]
				v = pick(start[c], start[c+1])
			}
			a, b := perm[u], perm[v]
			if a == b {
				continue
			}
			if a < b {
				a, b = b, a
			}
			keys = append(keys, uint64(a)<<32|uint64(b))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	out := &COO{
		Name:  fmt.Sprintf("community(n=%d,deg=%g,mix=%g,seed=%d)", n, deg, mix, seed),
		NRows: n, NCols: n, Field: Real, Symmetry: Symmetric,
		Row: make([]int32, len(keys)), Col: make([]int32, len(keys)), Val: make([]float64, len(keys)),
	}
	for i, k := range keys {
		out.Row[i], out.Col[i], out.Val[i] = int32(k>>32), int32(uint32(k)), genValue(r)
	}
	return out, nil
}
