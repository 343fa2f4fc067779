package meter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// The requests of energy trace, attribute and measure, as their flags
// give them: each with a Check before any work (where there is one to
// make) and a Run that makes the command's run.

// TraceRequest is a meter's CSV trace to read (--trace and the options
// of its layout): energy trace integrates it, energy attribute splits it
// into phases.
type TraceRequest struct {
	File    string
	Options TraceOptions
	// Interval is the time between readings, for loggers that print no
	// time (an INA226 sketch's delay); it sets Options.Interval.
	Interval time.Duration
}

// Read reads the trace.
func (t *TraceRequest) Read() (*Trace, error) {
	if t.File == "" {
		return nil, fmt.Errorf("--trace FILE is required: a CSV from the meter (time and current or power columns)")
	}
	fh, err := os.Open(t.File)
	if err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	defer fh.Close()
	t.Options.Interval = t.Interval.Seconds()
	return ReadTrace(t.File, fh, t.Options)
}

// Run integrates the trace: one result with the energy, duration, mean
// power and (when the trace has it) current.
func (t *TraceRequest) Run(context.Context) (*result.Run, error) {
	tr, err := t.Read()
	if err != nil {
		return nil, err
	}
	run := measure.NewRun("energy-trace")
	run.Results = append(run.Results, TraceResult(tr))
	return run, nil
}

// AttributeRequest is energy attribute's: the trace's energy per phase,
// the phases from a markers file (shifted by Offset seconds) or from the
// trace's Digital channel, net of the idle baseline (Options).
type AttributeRequest struct {
	Trace            TraceRequest
	Markers, Digital string
	Offset           float64
	Options          AttributeOptions
}

// Check says where the phases come from: markers or a digital channel,
// one of them.
func (a *AttributeRequest) Check() error {
	if (a.Markers == "") == (a.Digital == "") {
		return fmt.Errorf("give --markers FILE.jsonl (the start and end of each phase) or --digital CHANNEL (the trace's own digital input, high during each phase), one of them")
	}
	return nil
}

// Run reads the trace and the phases and attributes the energy to them:
// a result per phase (AttributionResults).
func (a *AttributeRequest) Run(context.Context) (*result.Run, error) {
	t, err := a.Trace.Read()
	if err != nil {
		return nil, err
	}
	phases, source, err := Phases(t, a.Markers, a.Digital, a.Offset)
	if err != nil {
		return nil, err
	}
	ats, err := Attribute(t, phases, a.Options)
	if err != nil {
		return nil, err
	}
	run := measure.NewRun("energy-attribute")
	run.Results = AttributionResults(t, source, ats)
	return run, nil
}

// MeasureRequest is energy measure's: read the Meter (a name, Names)
// while Command runs, or for Duration without one.
type MeasureRequest struct {
	Config   Config
	Meter    string
	Duration time.Duration
	// Command is the measured command and its arguments; its stdout and
	// stderr go to Output (nil: discarded).
	Command []string
	Output  io.Writer

	meter Meter
}

// CommandError is a measured command's non-zero exit status.
type CommandError struct{ Status int }

func (e *CommandError) Error() string {
	return fmt.Sprintf("the measured command exited with status %d", e.Status)
}

// Check opens the meter, so a meter that cannot measure here fails
// before any work.
func (m *MeasureRequest) Check() (err error) {
	if m.Meter == "" {
		return fmt.Errorf("--meter NAME is required: one of %s (cryptocost energy meters says which work here)", strings.Join(Names(), ", "))
	}
	if len(m.Command) == 0 && m.Duration <= 0 {
		return fmt.Errorf("give --duration D or a command after --")
	}
	m.meter, err = Open(m.Meter, m.Config)
	return err
}

// Run reads the meter while the command runs, or for Duration: one
// result with the energy, duration, power and each domain's energy
// (ReadingResult). A run cut short by ctx is interrupted; a command that
// exits non-zero gives the run and a *CommandError.
func (m *MeasureRequest) Run(ctx context.Context) (*result.Run, error) {
	if m.meter == nil {
		if err := m.Check(); err != nil {
			return nil, err
		}
	}
	sess, err := m.meter.Start(ctx)
	if err != nil {
		return nil, err
	}
	what, cmdErr := m.measured(ctx)
	rd, err := sess.Stop()
	if err != nil {
		return nil, err
	}
	run := measure.NewRun("energy-measure")
	if ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	run.Results = append(run.Results, ReadingResult(rd, what))
	var ee *exec.ExitError
	if errors.As(cmdErr, &ee) {
		return run, &CommandError{ee.ExitCode()}
	}
	return run, cmdErr
}

// measured runs what is measured: the command, or idling for Duration;
// it returns what ran and the command's error.
func (m *MeasureRequest) measured(ctx context.Context) (string, error) {
	if len(m.Command) == 0 {
		select {
		case <-time.After(m.Duration):
		case <-ctx.Done():
		}
		return "idle for " + m.Duration.String(), nil
	}
	c := exec.CommandContext(ctx, m.Command[0], m.Command[1:]...)
	c.Stdout, c.Stderr = m.Output, m.Output
	return strings.Join(m.Command, " "), c.Run()
}
