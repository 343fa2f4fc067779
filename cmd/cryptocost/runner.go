package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

// runner is the template of every command that makes a run: bench, tls,
// mcu bench, the scenarios, energy cost/battery/trace/attribute/measure,
// radio simulate, model eval/sweep/compare. Its flags are --format, -o,
// --db, --no-save and --tag; a command gives its own flags and a job,
// and RunE is one call:
//
//	resolve --format → check the flags → run → stamp the run → price it
//	→ write it atomically → save it in the store → the exit status of
//	the run's status
//
// A run is written and saved whatever happened to it (interrupted,
// failed, not priced): a measurement is never lost to a later error.
type runner struct {
	outputs outputFlags
	saves   saveFlags
	quiet   bool
}

// job is what one command supplies to the runner.
type job struct {
	// check validates the command's own flags before any work.
	check func() error
	// run does the work. A run returned with an error is still stamped,
	// written and saved, and the error is the command's.
	run func(ctx context.Context) (*result.Run, error)
	// energy prices the run (checked before the work); price is a
	// command's own pricing (mcu's by target). Either may be nil.
	energy *energyFlags
	price  func(*result.Run) error
	// table replaces the result package's table format (the TLS lab's,
	// a scenario's, mcu's).
	table result.Format
	// after runs once the run is written to a table on stdout (extra
	// tables, notes).
	after func(cmd *cobra.Command, run *result.Run) error
	// files writes what the command writes beside the run (plots,
	// timelines), after it is saved, whatever the format.
	files func(cmd *cobra.Command, run *result.Run) error
	// noun is what an interrupted run wrote, with its verb ("results
	// measured", "cells measured", "points computed");
	// failed prefixes a failed run's errors ("scenario sensor failed").
	noun, failed string
}

func (r *runner) register(cmd *cobra.Command) {
	r.outputs.register(cmd)
	r.saves.register(cmd)
}

// execute is the template.
func (r *runner) execute(cmd *cobra.Command, j job) error {
	format, err := r.outputs.resolve(cmd)
	if err != nil {
		return err
	}
	if err := r.check(j); err != nil {
		return err
	}
	run, runErr := j.run(cmd.Context())
	if run == nil {
		return runErr
	}
	stamp(run)
	priceErr := r.price(cmd, j, run)
	if j.table != nil && format.Name() == "table" {
		format = j.table
	}
	if err := r.outputs.write(cmd, format, run); err != nil {
		return err
	}
	r.saves.save(cmd, run, r.quiet) // interrupted and failed runs too
	if j.after != nil && format.Name() == "table" {
		if err := j.after(cmd, run); err != nil {
			return err
		}
	}
	if j.files != nil {
		if err := j.files(cmd, run); err != nil {
			return err
		}
	}
	return errors.Join(runErr, priceErr, exitStatus(run, j.noun, j.failed))
}

// check validates the store flags, the command's and the pricing's
// before any work.
func (r *runner) check(j job) error {
	if err := r.saves.validate(); err != nil {
		return err
	}
	if j.check != nil {
		if err := j.check(); err != nil {
			return err
		}
	}
	if j.energy != nil {
		return j.energy.check()
	}
	return nil
}

// price runs the costing stage; its failure is the command's error after
// the run is written.
func (r *runner) price(cmd *cobra.Command, j job, run *result.Run) error {
	if j.price != nil {
		if err := j.price(run); err != nil {
			return fmt.Errorf("energy: %w", err)
		}
	}
	if j.energy != nil {
		if err := j.energy.apply(run); err != nil {
			return fmt.Errorf("energy: %w", err)
		}
		j.energy.note(cmd, r.quiet)
	}
	return nil
}

// stamp records what made the run: this tool and this command line (its
// secrets redacted by Main), and when it finished if the runner did not.
func stamp(run *result.Run) { result.Stamp(run, tool(), os.Args) }

// exitStatus is the one mapping from a run's status to the exit status:
// interrupted is 130 (what was measured is written), failed is 1 with
// the run's errors (result.StatusError), anything else 0.
func exitStatus(run *result.Run, noun, failed string) error {
	code := exitError
	if run.Status == result.Interrupted {
		code = exitInterrupted
	}
	if err := result.StatusError(run, noun, failed); err != nil {
		return &statusError{code, err}
	}
	return nil
}
