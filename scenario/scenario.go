// Package scenario runs the seed systems as real, instrumented workloads on
// loopback: a phone as a remote signing token (S001), secure time
// synchronisation for sensor networks (S003), and signed sensor readings
// through a CoAP mirror proxy (S004). Each scenario is a small real system
// — real sockets through the link emulator, real TLS/DTLS/CoAP stacks —
// measured like the TLS lab (bytes, packets, time, CPU) and reported in the
// shared result model, with packet traces the radio models price and a
// matching analytic model to put beside it.
//
// Scenarios register themselves (registry, not switch): a subpackage's init
// calls Register, and cmd/cryptocost imports the subpackages.
package scenario

import (
	"context"
	"io"

	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/pflag"
)

// Scenario is one runnable seed system.
type Scenario interface {
	// Name is the command-line name ("remote-sign").
	Name() string
	// Summary is one line for `cryptocost scenario list`.
	Summary() string
	// Flags registers the scenario's own flags; Validate is called after
	// parsing and before any work, and must reject bad values with an
	// error saying what would work.
	Flags(fs *pflag.FlagSet)
	Validate() error
	// Run runs the scenario and returns its results. On ctx cancellation
	// it returns what it measured with Status Interrupted.
	Run(ctx context.Context, env Env) (*result.Run, error)
}

// Exampler is implemented by scenarios that show how their command is
// used (`cryptocost scenario NAME --help`'s Examples).
type Exampler interface {
	Examples() string
}

// TableWriter is implemented by scenarios with a table of their own shape
// (the study's); others get the generic result table.
type TableWriter interface {
	WriteTable(w io.Writer, run *result.Run) error
}

// Env is what every scenario gets from the common flags. It carries no
// device and no radio: a scenario records its work and its packet
// traces, and the costing stage prices them on whatever device and radio
// the user names (package costing, wired by the command).
type Env struct {
	// Link is the emulated link between the parties (zero: loopback
	// without emulation).
	Link *link.Profile
	// Quick asks for a run of seconds (fewer repetitions, sizes).
	Quick bool
	// Log receives progress notes (stderr, or io.Discard with --quiet).
	Log io.Writer
	// Progress, if not nil, hears how far the run is: Request.Check
	// gives progress events (for scripts, an event log).
	Progress Progress
}

// Progress hears about a run's progress: Begin with the number of steps,
// Step as each is done (done so far, the one under way), End.
type Progress interface {
	Begin(total int)
	Step(done int, current string)
	End()
}

// Pricing is what a scenario's own flags say about pricing its run: the
// device it is priced on when the user names none (S001's phone for the
// remote signer), whether the run is on the device itself, an assumed
// speed of the device relative to this machine, where calibrations are.
type Pricing struct {
	DefaultDevice string
	OnDevice      bool
	Speed         float64
	Calibrations  string
	// References names an operation whose literature currents the
	// device's profile holds, to show beside the run ("sign").
	References string
}

// Priced is implemented by scenarios whose flags say how to price them.
type Priced interface {
	Pricing() Pricing
}

// scenarios is the registry (internal/registry), filled by the
// scenario packages' init functions.
var scenarios = registry.New[Scenario]("scenario")

// Register adds a scenario; it panics on a duplicate name (a programming
// error any test finds).
func Register(s Scenario) { scenarios.MustAdd(s.Name(), s) }

// All returns the registered scenarios by name.
func All() []Scenario {
	return scenarios.SortedValues()
}

// Lookup returns the scenario named name (case and punctuation ignored).
func Lookup(name string) (Scenario, error) {
	if s, ok := scenarios.Lookup(name); ok {
		return s, nil
	}
	u := scenarios.Unknown(name)
	u.Want = scenarios.Sorted()
	return nil, u
}

// Configure parses args as the scenario's own flags and validates them: a
// scenario set up from a command line, for tests and programs that run a
// scenario without cobra.
func Configure(s Scenario, args ...string) error {
	fs := pflag.NewFlagSet(s.Name(), pflag.ContinueOnError)
	s.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return s.Validate()
}
