package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/output"
)

// checkOutputs checks the output files named by the given flags of c right
// after flag parsing, before any work (output.Check): a path that cannot be
// written is a usage error naming the flag, the path and the fix. At most
// one of them may be "-", standard output.
func checkOutputs(c *cobra.Command, flags ...string) error {
	stdout := ""
	for _, name := range flags {
		path := c.Flags().Lookup(name).Value.String()
		if path == "" {
			continue
		}
		if path == output.Stdout {
			if stdout != "" {
				return usagef("--%s - and --%s - both write standard output; give one of them a file", stdout, name)
			}
			stdout = name
		}
		if err := output.Check(path); err != nil {
			return usagef("--%s %v", name, err)
		}
	}
	return nil
}

// checkOutputDir checks a directory output flag of c the same way with
// check (output.CheckDir with what the directory may hold, or
// schedule.CheckNPYDir).
func checkOutputDir(c *cobra.Command, flag string, check func(dir string) error) error {
	path := c.Flags().Lookup(flag).Value.String()
	if path == "" {
		return nil
	}
	if err := check(path); err != nil {
		return usagef("--%s %v", flag, err)
	}
	return nil
}

// reportDir is the check of a directory that a report is written into.
func reportDir(dir string) error { return output.CheckDir(dir, nil) }

// reportInputs is the Args of a report command (cfd report, rodinia
// report): one or more input files of a kind ("CSV", "JSON").
func reportInputs(kind string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usagef("%s %s takes one or more %s files\nsee '%s --help'", c.Parent().Name(), c.Name(), kind, c.CommandPath())
		}
		return nil
	}
}

// reportOutput checks a report command's -o DIR: given, and a directory
// it may write into.
func reportOutput(c *cobra.Command, out string) error {
	if out == "" {
		return usagef("%s %s needs -o DIR", c.Parent().Name(), c.Name())
	}
	return checkOutputDir(c, "output", reportDir)
}

// fileList names the files of a report for the line that says what was
// written: "a, b and c".
func fileList(files []output.File) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// writeJSON writes v as the JSON of --format json: indented two spaces.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
