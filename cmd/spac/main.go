// Command spac partitions the tasks of an irregular GPU program (the
// nonzeros of a sparse matrix, the edges of a graph) into balanced,
// thread-block-sized parts with few data copies, and compares SPAC with the
// other edge partitioners on the same input.
//
// Exit status: 0 on success, 1 on failure, 2 on a usage error, 130 when
// interrupted by SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/transform"
)

// usageError marks errors in how the command was called (exit status 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func newRoot() *cobra.Command {
	env := readEnvironment(os.Getenv)
	transform.SetHugePages(env.hugePages)
	gpu.SetPTXDir(env.ptxDir)
	root := &cobra.Command{
		Use:   "spac",
		Short: "Balanced edge partitions and locality schedules for irregular GPU programs",
		Long: `spac turns a sparse matrix or graph into balanced edge partitions for GPU
thread blocks: every task (nonzero, edge) goes to one block, no block gets
more tasks than it has threads, and data objects (rows, columns, vertices)
are copied into as few blocks as possible.

Inputs: Matrix Market (.mtx, coordinate or array, any field and symmetry),
SNAP-style edge lists and METIS .graph files, optionally gzip-compressed;
"-" reads standard input.

Typical use:
  spac gen cant --scale 0.1 -o cant.mtx          # a generated stand-in matrix
  spac stats cant.mtx                            # what is in it
  spac partition cant.mtx --block-size 1024      # SPAC, summary on stdout
  spac compare cant.mtx --block-size 1024        # every method, one table`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		// Without a command, the usage on standard error and exit status 2.
		RunE: func(c *cobra.Command, args []string) error {
			c.SetOut(c.ErrOrStderr())
			c.Usage()
			return usagef("a command is missing")
		},
	}
	root.SetVersionTemplate("spac {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nsee '%s --help'", err, c.CommandPath())}
	})
	root.AddCommand(newPartitionCmd(), newCompareCmd(), newStatsCmd(), newGenCmd(), newEvaluateCmd())
	root.AddCommand(scheduleCommands(env)...)
	root.AddCommand(cfdCommand())
	root.AddCommand(btreeCommand(), gaussianCommand())
	root.AddCommand(particlefilterCommand(), rodiniaCommand())
	root.AddCommand(spmvCommand(env), reorderCommand(env))
	root.AddCommand(cgCommand(env))
	root.AddCommand(traverseCommand(problemBFS, env), traverseCommand(problemSSSP, env))
	root.AddCommand(apspCommand())
	root.AddCommand(traverseGroupCommand())
	return root
}

func main() {
	ctx, cancel := cancelOnSignal(context.Background())
	defer cancel(nil)
	err := newRoot().ExecuteContext(ctx)
	var sig interrupted
	if err != nil && errors.As(context.Cause(ctx), &sig) {
		err = sig // whatever the step in flight made of the cancellation
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "spac:", err)
	}
	mpiFinalize()
	os.Exit(exitCode(err))
}

// interrupted is the cause of a run canceled by SIGINT or SIGTERM.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + signalName(i.sig) }

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// cancelOnSignal cancels the returned context on the first SIGINT or
// SIGTERM, with an [interrupted] cause, so both end a run the same way:
// every step stops at its next check, outputs in progress are discarded,
// and the process exits 130. A second signal ends the process at once.
func cancelOnSignal(parent context.Context) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			cancel(interrupted{s})
		case <-ctx.Done():
			signal.Stop(sigs)
		}
	}()
	return ctx, cancel
}

// exitCode maps an error to the exit status: 0 ok, 2 usage, 130
// interrupted, 1 otherwise.
func exitCode(err error) int {
	var u usageError
	var sig interrupted
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u), isCobraUsage(err):
		return 2
	case errors.As(err, &sig):
		return 130
	}
	return 1
}

// isCobraUsage recognises the errors cobra itself raises for a bad command
// line (an unknown command), which it does not type.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command")
}

// deprecatedAlias adds --old to c as a deprecated name of --name: the
// same value, and a note on standard error saying to use --name.
func deprecatedAlias(c *cobra.Command, old, name string) {
	fl := c.Flags().Lookup(name)
	alias := *fl
	alias.Name, alias.Shorthand = old, ""
	c.Flags().AddFlag(&alias)
	if err := c.Flags().MarkDeprecated(old, "use --"+name); err != nil {
		panic(err)
	}
}

// oneInput accepts exactly one positional argument, the input path.
func oneInput(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s takes one input file (or - for standard input), got %d arguments\nsee '%s --help'", c.Name(), len(args), c.CommandPath())
	}
	return nil
}
