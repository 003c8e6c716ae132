// Package apsp computes all-pairs shortest paths of a weighted graph
// (package apps/traversal/graph): Floyd-Warshall, naive and blocked, on
// the CPU and on the GPU, and shortest paths from every source (Dijkstra
// on the CPU, batched label-correcting searches on the GPU), with float32
// or int32 distances and, on request, the next-hop matrix that
// reconstructs every path. The CPU functions are the references the
// kernels are checked against, and what 'spac apsp' runs without --gpu.
//
// # Results
//
// A Matrix holds N x N distances, row-major, row = source: 0 on the
// diagonal, Inf[T] (+Inf, or math.MaxInt32) for unreachable pairs. Next
// hops: Next[i*N+j] is the vertex after i on a shortest path to j (i when
// i == j, -1 when unreachable); Matrix.Path follows them. SSSPAll's next
// hops come from each source's shortest-path tree and do not loop (on the
// GPU each starts a shortest path of the fewest hops: AllSourcesGPU says
// when that is a guarantee). Floyd-Warshall's
// are pointers copied on strict improvement (next(i,j) = next(i,k)): with
// positive weights they always lead to j, but where zero-weight cycles make
// equal-length alternatives, ties can close them into a loop (Path then
// fails rather than spin); ask SSSPAll for paths on such graphs. Weights
// must be non-negative (ErrNegative: negative cycles are not detected);
// int32 distances need integer weights whose longest simple path stays
// below math.MaxInt32, checked up front. Memory: 4 N^2 bytes, 8 N^2 with
// next hops (Bytes), on the host and, for Floyd-Warshall on the GPU, on
// the device, which is checked against the free device memory first (an
// error names what is needed and the largest N that fits); SSSPAll on the
// GPU needs the graph and one batch there (GraphBytes, BatchBytes).
//
// # Methods
//
//   - FW: Floyd-Warshall in the textbook order, a step per k over the
//     whole matrix. FloydWarshall parallelizes the rows of a step; the
//     naive kernel launches once per k, a thread per element.
//   - FWBlocked: the blocked Floyd-Warshall (Venkataraman, Sahni and
//     Mukhopadhyaya; the CUDA slides' tiled version): per round of Tile
//     values of k, the diagonal tile, then its row and column of tiles,
//     then every other tile. The kernels stage the tiles in shared memory;
//     the third phase, almost all of the work, keeps each thread's R x R
//     elements (R = Tile/16, 256 threads) in registers and reads a column
//     of its column tile and a row of its row tile as two vector loads per
//     step, as an SGEMM's register tile does. Tiles: 32, 64 (the default)
//     and 128 (opt-in shared memory). N is padded to whole tiles on the
//     device with isolated vertices.
//   - SSSPAll: shortest paths from every source, for sparse graphs. On
//     the CPU Dijkstra (package ref) from every source in parallel. On the
//     GPU (AllSourcesGPU, kernels/ssspall.cu) Batch sources at a time
//     (1024 by default): a label-correcting search of the batch's sources
//     together, a round relaxing the frontier's (vertex, 32 sources)
//     slots, a warp per slot and a lane per source, so that an arc is read
//     once for 32 sources and their distances, vertex-major, share a
//     128-byte line; the rounds loop on the device (captured graphs, a
//     post to mapped memory read a few rounds behind). The device holds
//     the graph and one batch; the rows go to the host after each batch.
//   - Auto: Choose. On the CPU a size-and-density rule (SSSPAll on sparse
//     graphs, else FW). On the GPU a measured one: SSSPAll up to the
//     average degree where it meets FWBlocked at that N (GPUCrossover,
//     CrossoverDegree; FWBlocked until GPUCrossoverMeasured), else
//     FWBlocked; SolveGPU also takes SSSPAll when FWBlocked's matrix does
//     not fit the device.
//
// # Exactness
//
// int32 distances are exact, so every method gives the same ones. For
// float32 each sum is rounded to float32, and Floyd-Warshall joins
// sub-paths where Dijkstra adds arc after arc: the distances of the two
// differ by rounding, within Tolerance(N) relatively (Close). Each kernel
// has a CPU reference in its own order: the naive kernel's is
// FloydWarshall, the blocked kernels' FloydWarshallBlocked with the same
// tile; per element, both try the candidates d(i,k) + d(k,j) in increasing
// k on the same values with a strict comparison, so distances and next
// hops are equal bit for bit (Equal), float32 included. Zero weights are
// stored as +0, so that the kernels' fminf and the CPU's comparisons agree
// on the sign of zero. SSSPAll on the GPU adds arc after arc as Dijkstra
// does; its search converges to the minimum over paths of those rounded
// sums, which is unique, so its distances are AllSources' bit for bit,
// float32 included (its next hops may differ where shortest paths tie).
//
// # Concurrency and cancellation
//
// The CPU functions use every core (package internal/par) and check their
// context once per k (FW) or per round (FWBlocked); AllSources stops
// starting searches when it is cancelled. A Solver serves one call at a
// time; RunGPU checks its context every 1024 launches, AllSourcesGPU every
// 8 rounds.
//
// # Complexity
//
// Floyd-Warshall: N^3 relaxations (an add and a min each). The H100 issues
// 128 instructions per clock per multiprocessor, so at most 64
// relaxations per clock per multiprocessor: 132 x 1.98 GHz x 64 = 16.7 T
// relaxations per second, 33 ms for N = 8192 (PeakRelaxations; the
// benchmark reports the fraction reached). The blocked kernels read and
// write the matrix once per round (N/Tile rounds), the naive one once per
// k. Dijkstra from every source: O(N (N + M) log N). SSSPAll on the GPU:
// about c N M relaxations (c, how often the label-correcting search
// relaxes an arc, Run.Relaxed / (N M): 2 to 5 on random weights) in
// N/Batch batches of as many rounds as a shortest path has hops, each
// round a few microseconds of launch and ticket whatever its work: the
// fixed cost that makes Floyd-Warshall win on small N. With next hops, a
// second search over the tight arcs and a pass over every arc per batch.
package apsp
