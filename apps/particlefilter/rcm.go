package particlefilter

import (
	"context"
	"time"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/order"
)

// PlanRCM orders every tracked frame's likelihood threads by reverse
// Cuthill-McKee (package order) of the frame's locality graph, particles
// and pixels joined by samples, keeping the particles in the order the
// ordering lists them: particles that read the same pixels run on
// neighbouring threads, the order a careful user would apply before
// reaching for a partitioner. Frames are ordered in parallel; Prep sums
// their times.
func PlanRCM(ctx context.Context, v *Video, tr *Trajectory, blockSize int) (*Plan, error) {
	frames := v.Frames - 1
	plan := &Plan{Variant: RCM, BlockSize: blockSize, Method: "rcm", Perm: make([][]int32, frames)}
	took := make([]time.Duration, frames)
	err := par.DoCtx(ctx, frames, func(f int) error {
		start := time.Now()
		fm, err := NewFrameMatrix(v, tr, f+1)
		if err != nil {
			return err
		}
		plan.Perm[f] = rcmParticles(fm)
		took[f] = time.Since(start)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, t := range took {
		plan.Prep += t
	}
	return plan, nil
}

// rcmParticles is the particles of fm in the reverse Cuthill-McKee order
// of its bipartite graph (particle i is vertex i, column c vertex N+c;
// order.RCM adds the reverse arcs).
func rcmParticles(fm *FrameMatrix) []int32 {
	coo := fm.COO
	n := coo.NRows
	ptr := make([]int64, n+coo.NCols+1)
	adj := make([]int32, len(coo.Col))
	// The entries are row-major (particle i's samples at i*CountOnes).
	for i := 0; i < n; i++ {
		ptr[i+1] = int64((i + 1) * CountOnes)
	}
	for v := n + 1; v <= n+coo.NCols; v++ {
		ptr[v] = ptr[n]
	}
	for e, c := range coo.Col {
		adj[e] = int32(n) + c
	}
	perm := order.RCM(n+coo.NCols, ptr, adj)
	out := make([]int32, 0, n)
	for _, v := range perm {
		if int(v) < n {
			out = append(out, v)
		}
	}
	return out
}
