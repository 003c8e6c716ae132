// Package btree is Rodinia's b+tree benchmark (batched B+tree queries on
// the GPU) on the CPU and the GPU: the original kernels, the same kernels
// on RCM-ordered data (the fair baseline), and SPAC-scheduled blocks that
// share tree nodes in shared memory.
//
// # The benchmark
//
// Rodinia builds a B+tree on the host from a key file (mil.txt: the number
// of keys, then the keys; each key is its own record value), lays it out
// as an array of fixed-size nodes in breadth-first order, and runs the
// commands of a command file on the GPU: "k COUNT" searches COUNT random
// keys (kernel findK), "j COUNT RANGE" COUNT random ranges of RANGE keys
// (findRangeK: where the first key's record is, and how many records to
// the last). Both kernels run one thread block per query with as many
// threads as the tree's order (its block size, RD_WG_SIZE): at each level
// thread t tests whether the key falls between the node's keys t and t+1,
// the one that succeeds names the child, and at the leaf the thread
// holding the key names the record.
//
// ReadKeys/WriteKeys and ReadCommands/WriteCommands read and write those
// files; GenerateKeys makes key files of any size (presets "mil", Rodinia's
// million keys with its command.txt, and "h100", a tree several times the
// H100's L2 cache); MakeQueries draws the queries of the commands from a
// seed as Rodinia draws them from rand(). Build bulk-loads the tree at the
// fill random insertion leaves (DefaultFill); Tree.FindK and
// Tree.FindRange answer queries on the CPU as the kernels do, the
// reference every GPU answer is checked against, exactly.
//
// # Locality graph and schedule
//
// Tasks are the queries; data objects are tree nodes. A query reads one
// node per level, but the upper levels are shared by nearly all queries
// and stay in cache whatever the order; what sets a query apart is its
// lowest two nodes. So query q is an edge: for findK between its leaf and
// the leaf's parent (a self-loop when the root is the only node), for
// findRangeK between the leaves of its two ends (Locality). A balanced
// edge partition into parts of at most PerBlock queries (DefaultPerBlock:
// one per warp) groups queries that share leaves and parents (NewSchedule,
// through pipeline.PartitionGraph); within a part the queries are sorted by
// key. A SPAC block runs its part's queries one after another with the
// original's node search, its threads across a node's keys, but keeps the
// last node of every level of the path and reads a node from global memory
// only when the path moves to another one: every node a part touches is
// read once per block instead of once per query (Schedule.Run counts those
// reads on the CPU; OriginalLoads is the original's count). The nodes
// above the leaves are staged whole in shared memory, keys and child
// numbers, since every thread compares keys and the thread that matched
// reads the child; the leaf stays in registers, each thread holding its
// own slot (key and record position), the only one it reads. Staging only
// the keys, with the picked child read from global memory, was measured
// slower on the H100: it adds a dependent load at every level.
//
// The schedule's order alone (job swapping: block i of the original
// kernels runs query Order[i], so a part's queries run in consecutive
// blocks) is the spac-swap variant of 'spac btree': it separates what the
// order gains from what the staging gains.
//
// The RCM baseline (NewRCM) renumbers the nodes by reverse Cuthill-McKee
// of the locality graph (package order) and runs the queries sorted by
// their nodes' new numbers, through the original kernels: consecutive
// blocks then search neighbouring leaves, which the caches reward without
// a change to the kernels.
//
// # On the GPU
//
// kernels/btree.cu holds the four kernels, compiled to PTX by 'make ptx'
// and embedded (Module); GPU.Run runs one batch on package gpu's runtime,
// which without the cuda build tag returns gpu.ErrNoCUDA. The original
// kernels keep each query's current node in global memory, as Rodinia's do;
// times are CUDA events around one launch, the median of repeated launches
// after a warm-up.
//
// # JSON report
//
// 'spac btree --format json' (and 'spac gaussian', with the same schema)
// writes one object:
//
//	{
//	  "app": "btree",              // or "gaussian"
//	  "input": "mil",              // preset, spec or file name
//	  "device": "NVIDIA H100 ...", // the GPU and where the PTX came from; "" on the CPU
//	  "sizes": {"keys": 1000000, "findk": 10000, "findrange": 6000}, // gaussian: {"n": 1024}
//	  "runs": [{
//	    "kernel": "findk",         // btree: findk or findrange; gaussian: elimination; particlefilter: filter or likelihood; cfd: iteration
//	    "variant": "spac",         // original, rcm or spac; btree also spac-swap, particlefilter naive
//	    "method": "spac",          // a spac run's partitioning method (spac, default, ...); "" otherwise
//	    "device": "gpu",           // gpu or cpu
//	    "precision": "",           // gaussian: fp32 or fp64; btree: ""
//	    "block_size": 256,         // threads per block (b+tree: the tree's order)
//	    "blocks": 1250,            // blocks launched (gaussian: over all steps)
//	    "time_ms": 0.0412,         // median time of one run: one launch (b+tree), the whole elimination (gaussian); CPU: wall time
//	    "reps": 10,                // timed repetitions
//	    "partition_s": 0.35,       // spac: the partitioner; rcm: the ordering; 0 for original
//	    "schedule_s": 0.002,       // spac: building the schedule from the partition
//	    "parts": 1250,             // spac: parts of the partition (b+tree: blocks of a launch; gaussian: blocks of a window)
//	    "per_block": 8,            // spac: the partition's cap (b+tree: queries; gaussian: tasks)
//	    "copies": 2718,            // spac: vertex copies of the locality graph
//	    "rf": 1.33,                // spac: replication factor
//	    "loads": 21412,            // predicted global loads of data objects (b+tree: node records; gaussian: values)
//	    "shared_bytes": 6168,      // dynamic shared memory per block
//	    "checked": true,           // compared with the CPU reference
//	    "ok": true,                // and equal to it (within the stated tolerance)
//	    "mismatches": 0,           // b+tree: queries answered differently; gaussian: values not bit-identical
//	    "max_rel_diff": 0          // gaussian: largest |x - x_ref| / max |x_ref| (1.8e308 for NaN or infinity)
//	  }]
//	}
//
// Fields that do not apply are zero (or ""). A sweep draws time_ms against
// block_size per kernel and variant (the paper's Fig. 14) and the best of
// each variant over block sizes (Fig. 15).
package btree
