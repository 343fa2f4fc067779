package radio

import (
	"fmt"
	"io"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// This file holds radio simulate's whole request as the runner calls it
// (check, run, the files beside the run) and radio show.

// SimulateRequest is radio simulate: the simulation, the files written
// beside its run and where the notes go.
type SimulateRequest struct {
	Simulation
	// Plot and Timeline are the --plot and --timeline files (empty: not
	// written).
	Plot, Timeline string
	// Log is where the notes go: stderr, or nil with --quiet.
	Log io.Writer
}

// Check checks the --plot file's format and prepares the simulation:
// everything before anything is priced.
func (r *SimulateRequest) Check() error {
	if r.Plot != "" {
		if _, err := PlotFormat(r.Plot); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	return r.Prepare()
}

// Run prices every case on every radio into run (a new run of kind
// radio) and finishes it.
func (r *SimulateRequest) Run(run *result.Run) (*result.Run, error) {
	if err := r.Price(run, r.Log); err != nil {
		return nil, err
	}
	run.Finished = time.Now().UTC()
	if err := run.Validate(); err != nil {
		return nil, err // a bug: never written or saved
	}
	return run, nil
}

// Files writes the --plot and --timeline files, one per breakdown.
func (r *SimulateRequest) Files() error { return r.WriteFiles(r.Log, r.Plot, r.Timeline) }

// Show is radio show: a profile's parameters with their sources, or with
// data its data file. The profile is the one named (names holds at most
// one) or the one in file, never both.
func Show(w io.Writer, names []string, file string, data bool) error {
	var p *Profile
	var err error
	switch {
	case file != "" && len(names) == 0:
		p, err = LoadFile(file)
	case file == "" && len(names) == 1:
		p, err = Lookup(names[0])
	default:
		return fmt.Errorf("give a profile NAME or --radio-file FILE (`cryptocost radio list` names them)")
	}
	if err != nil {
		return err
	}
	if data {
		_, err := w.Write(p.Data)
		return err
	}
	return WriteProfile(w, p)
}
