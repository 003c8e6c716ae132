// Package cfd is Rodinia's cfd benchmark (euler3d, an explicit finite-volume
// solver of the 3D Euler equations on an unstructured mesh) on the CPU and
// the GPU, in its original element-centric form and in the SPAC-scheduled
// face-centric form.
//
// # Meshes
//
// A Mesh has N elements, each with an area and four face slots; slot j of
// element i names a neighbour (index >= 0), a wing wall (Wing, -1) or the
// far field (FarField, -2), and carries the face normal as the solver uses
// it (pointing into the element: Rodinia negates the file's normals on
// reading). Arrays are structure-of-arrays as in euler3d.cu:
// Neighbor[i + j*N], Normal[i + (j + k*NNB)*N] for component k.
//
// ReadDomn and WriteDomn read and write Rodinia's .domn text format:
// the element count, then per element its area and four times
// "id nx ny nz", with ids 1-based, 0 for a wing face and negative for a
// far-field face, normals pointing out of the element. Values are written
// in Go's shortest exact form, so a mesh written and read back is
// bit-for-bit the same.
//
// Generate makes quadrilateral meshes in the x-y plane (four faces per
// element, a wing-shaped hole whose faces are wing walls, far field around
// the outside) at the sizes of Rodinia's inputs (presets fvcorr-097k,
// fvcorr-193k, missile-0.2m) or any size ("mesh:n=5000000"); element ids
// are shuffled unless asked otherwise, so that the order carries no
// locality of its own, as a mesh from an unstructured generator need not.
//
// # The solver
//
// Solver runs euler3d's time loop: initialize_variables sets every element
// to the far-field state (Mach 1.2, angle of attack 0, GAMMA 1.4); each
// iteration copies the variables, computes the local step factors, then
// runs three Runge-Kutta rounds of compute_flux and time_step. The five
// variables (density, momentum x/y/z, energy) are stored
// structure-of-arrays, Var[i + v*N]. Precision is a type parameter
// (float32 or float64).
//
// The original compute_flux is element-centric: every element visits its
// four faces and recomputes its neighbours' pressure and flux
// contributions, so every interior face is evaluated twice. Its flux is
// antisymmetric: the face's contribution to one element is minus its
// contribution to the other (the mesh's normals are opposite).
//
// # The SPAC schedule
//
// The locality graph has a vertex per element and an edge per pair of
// neighbouring elements (each interior face once). Its SPAC edge partition
// into parts of at most one thread block of faces becomes a Schedule:
//
//   - every element gets a home part, the part holding most of its faces
//     (ties to the lowest part); its wing and far-field faces go to that
//     part too, so boundary faces add no copies;
//   - elements are renumbered so that each part's home elements are
//     contiguous, the ones no other part touches first; the mesh and the
//     variables are permuted accordingly, and step factor and time step run
//     on that order;
//   - each part lists its unique elements (home ones first, then copies of
//     other parts' elements) and its faces by part-local slot.
//
// The face-centric compute_flux runs part by part as a thread block would:
// stage the part's elements' variables and derived quantities (pressure,
// speed of sound, flux contributions) in a per-part scratch (shared
// memory), evaluate each face once, add its flux to one element and
// subtract it from the other in the scratch, then write the scratch out:
// a plain store for elements only this part touches, an addition for the
// others (whose flux was cleared first). On a GPU the additions are
// atomics.
//
// Arithmetic order differs from the original (one evaluation per face, a
// different summation order per element), so the two agree to rounding,
// not bit for bit; Tolerance states and explains the accepted difference.
//
// # The RCM baseline
//
// RenumberRCM renumbers the elements by reverse Cuthill-McKee of the
// element graph (package order) and permutes the mesh: the original
// kernels, unchanged, then read neighbours at nearby indices. It is the
// fair baseline of the SPAC schedule, the order a careful user applies
// before reaching for a partitioner; the element-centric solver computes
// bit for bit the same values on either numbering.
//
// # On the GPU
//
// kernels/cfd.cu holds the kernels in fp32 and fp64 (cfd_<kernel>_f32,
// _f64), compiled to PTX by 'make ptx' and embedded (Module); GPU.Simulate
// runs them on package gpu's runtime, which without the cuda build tag returns
// gpu.ErrNoCUDA. The original form is euler3d.cu's: initialize_variables,
// then per iteration a device copy of the variables, compute_step_factor
// and three rounds of compute_flux (a thread per element) and time_step,
// every kernel with the chosen block size. The SPAC form runs the same
// step factor and time step on the schedule's numbering, and a flux kernel
// with a thread block per part, exactly the CPU's faceFlux: the block
// stages its slots' variables and derived quantities in shared memory (16
// values per slot; over 48 KiB in fp64 at block size 1024, where the
// kernel opts in to more), evaluates its faces with shared-memory atomics
// into the slots' accumulators, and writes them out with plain stores for
// its exclusive elements and global atomics for the shared ones, which
// time_step zeroes after reading them. Both use the CPU solver's
// expressions in the same order, and agree with it to rounding (the GPU
// fuses multiply-adds); the far-field state is computed on the host as the
// CPU computes it. Times are CUDA events around all iterations, after a
// warm-up iteration.
package cfd
