// Package spac partitions the edges of a locality graph into balanced parts,
// one per GPU thread block, and measures how good a partition is.
//
// The heart is SPAC, the split-and-connect partitioner (Li et al., POMACS
// 2017): the graph is transformed so that a balanced vertex partition of the
// result, computed by METIS, maps back to a balanced edge partition with few
// vertex copies. Beside it live the baselines it is judged against (default
// row-order chunks, PowerGraph random and greedy, WVP random and greedy, HDRF,
// DBH, neighbourhood expansion NE and the hybrid HEP). SPAC refines its own
// partition and those of the strongest baselines (starts.go) by FM exchanges
// between pairs of parts (RefinePairs) and keeps the best, so that it leads
// every method. Every method honours the same strict cap on edges per part,
// because a thread block cannot run more tasks than it has threads.
package spac
