package scenario

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/pflag"
)

// fake is a scenario that records the environment it ran in.
type fake struct {
	invalid error
	env     Env
}

func (*fake) Name() string         { return "fake" }
func (*fake) Summary() string      { return "a scenario for tests" }
func (*fake) Flags(*pflag.FlagSet) {}
func (f *fake) Validate() error    { return f.invalid }
func (f *fake) Run(_ context.Context, env Env) (*result.Run, error) {
	f.env = env
	return &result.Run{}, nil
}

// tabled is a fake with its own table.
type tabled struct{ fake }

func (*tabled) WriteTable(w io.Writer, _ *result.Run) error {
	_, err := io.WriteString(w, "own table\n")
	return err
}

// TestRequestCheck checks the errors a scenario request is refused with
// and the environment it runs in.
func TestRequestCheck(t *testing.T) {
	invalid := errors.New("--rounds 0: want at least 1")
	if err := (&Request{Scenario: &fake{invalid: invalid}, Link: "LAN"}).Check(); err != invalid {
		t.Errorf("invalid flags: %v; want the scenario's own error first", err)
	}
	if err := (&Request{Scenario: &fake{}, Link: "no-such-link"}).Check(); err == nil || !strings.HasPrefix(err.Error(), "--link: ") {
		t.Errorf("unknown link: %v; want a --link error", err)
	}
	var log bytes.Buffer
	s := &fake{}
	r := &Request{Scenario: s, Link: "LAN", Quick: true, Log: &log}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !s.env.Quick || s.env.Link == nil || s.env.Link.Name != "LAN" || s.env.Progress == nil {
		t.Errorf("env %+v: want quick, the LAN link and progress events", s.env)
	}
	r.Quiet = true
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.Env.Log == io.Writer(&log) {
		t.Errorf("quiet: the notes still go to the log")
	}
}

// TestTableFormat checks that a scenario with its own table writes it,
// a blank line between runs, and that others get none.
func TestTableFormat(t *testing.T) {
	if f := TableFormat(&fake{}); f != nil {
		t.Errorf("a scenario without a table: %v; want nil", f)
	}
	var b strings.Builder
	if err := TableFormat(&tabled{}).Write(&b, &result.Run{}, &result.Run{}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "own table\n\nown table\n" {
		t.Errorf("tables %q", b.String())
	}
	if got := Examples(&fake{}); got != "  cryptocost scenario fake --quick" {
		t.Errorf("examples %q", got)
	}
}
