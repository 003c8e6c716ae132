// Package cudacheck initializes the CUDA driver before gorgonia.org/cu
// does, so that a CUDA build of spac on a machine without a usable GPU
// stops with a message that says what is wrong and what to use instead
// (cu's own package initializer exits with a bare driver error).
//
// It is imported by package gpu in builds with the cuda tag only; Go runs
// it before gorgonia.org/cu because its dependencies are a subset of cu's
// and its import path sorts first. Without the tag it is empty.
package cudacheck
