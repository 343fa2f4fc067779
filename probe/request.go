package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Request is `cryptocost probe` as its command line gives it: the
// targets, the output format, and the options as strings (suites,
// versions) and a per-connection timeout. Check resolves it before any
// connection; Run probes the targets and Write writes their reports.
type Request struct {
	// Targets are the services, HOST:PORT; Compare puts several side by
	// side.
	Targets []string
	Compare bool
	// Format is the output format's name (WriterFor).
	Format string
	// Suites and Versions restrict what is offered (--suites, --versions);
	// Timeout limits each connection.
	Suites, Versions []string
	Timeout          time.Duration
	// Options are the probe's; Check completes them (Options.Configure).
	Options Options

	write Writer
}

// CheckTargets checks the number of targets a command line gives: one,
// or several with --compare.
func CheckTargets(targets []string, compare bool) error {
	switch {
	case len(targets) == 0:
		return errors.New("no target: want HOST:PORT, such as example.com:443")
	case len(targets) > 1 && !compare:
		return fmt.Errorf("%d targets: give one target, or --compare A B C to put several side by side", len(targets))
	}
	return nil
}

// Check resolves the output format and the options before any
// connection.
func (r *Request) Check() error {
	write, err := WriterFor(r.Format, r.Compare)
	if err != nil {
		return err
	}
	r.write = write
	return r.Options.Configure(r.Targets, r.Suites, r.Versions, r.Timeout)
}

// CheckRadio checks what prices a probe's traffic: a probe crosses no
// emulated link, so a device (named, with its radios) prices it only on
// the --radio given, one of the device's radios.
func CheckRadio(device string, radios []string, radio string) error {
	if device != "" && radio == "" {
		return fmt.Errorf("--device prices a connection's radio energy: add --radio, one of %s's radios (%s; cryptocost radio list)", device, strings.Join(radios, ", "))
	}
	return nil
}

// Run probes every target (ProbeAll).
func (r *Request) Run(ctx context.Context) ([]*Report, error) {
	return ProbeAll(ctx, r.Targets, r.Options)
}

// Write writes the reports in the checked format.
func (r *Request) Write(w io.Writer, reports []*Report) error { return r.write(w, reports) }

// ErrInterrupted is the outcome of a probe Ctrl-C stopped: what was
// found so far is written.
var ErrInterrupted = errors.New("interrupted: wrote what was found so far")

// Status turns the outcome into a command's error: ErrInterrupted when a
// probe was stopped and ctx is done (Ctrl-C); otherwise a note on log
// for each target stopped at the time limit, and the failures.
func (o Outcome) Status(ctx context.Context, log io.Writer) error {
	if len(o.Stopped) > 0 && ctx.Err() != nil {
		return ErrInterrupted
	}
	for _, target := range o.Stopped {
		fmt.Fprintf(log, "%s: stopped at the --time-limit; the report has what was found by then\n", target)
	}
	return o.Failed
}
