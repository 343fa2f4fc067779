package model

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// tableCosts opens a model's own cost table, as a command without cost
// flags does.
func tableCosts(m *Model) (*Costs, error) {
	t, err := OpenCosts(m.DefaultCosts)
	if err != nil {
		return nil, err
	}
	return t.Costs(), nil
}

func request(set, vary []string) Request {
	return Request{Set: set, Vary: vary, Costs: tableCosts}
}

// TestRequestChecks checks the requests' Check errors, word for word the
// ones model eval, sweep and compare print, all before any work.
// Tier: fast.
func TestRequestChecks(t *testing.T) {
	noCosts := Request{Costs: func(*Model) (*Costs, error) { return nil, errors.New("no costs here") }}
	for _, tc := range []struct {
		name  string
		check func() error
		want  string
	}{
		{"eval unknown model", (&EvalRequest{Request: request(nil, nil), Name: "nosuch"}).Check, `no model "nosuch": give a model file`},
		{"eval bad --set", (&EvalRequest{Request: request([]string{"n"}, nil), Name: "tinysersync"}).Check, `--set "n": want NAME=VALUE, such as n=6`},
		{"eval costs", (&EvalRequest{Request: noCosts, Name: "tinysersync"}).Check, "no costs here"},
		{"sweep without --vary", func() error {
			return (&SweepRequest{Request: request(nil, nil), Name: "tinysersync"}).Check(context.Background())
		},
			"sweep needs at least one --vary, such as --vary n=2..14 (model eval evaluates one point)"},
		{"sweep bad --plot", func() error {
			return (&SweepRequest{Request: request(nil, []string{"n=2..4"}), Name: "tinysersync", Plots: []string{"energy"}}).Check(context.Background())
		}, `--plot "energy": want OUTPUT=FILE, such as energy=energy.svg`},
		{"sweep --vary twice", func() error {
			return (&SweepRequest{Request: request(nil, []string{"n=2..4", "n=6"}), Name: "tinysersync"}).Check(context.Background())
		}, "--vary n is given twice"},
		{"compare nothing", (&CompareRequest{Request: request(nil, nil), Names: []string{"tinysersync"}, Metrics: []string{"energy"}}).Check,
			"compare needs --vary NAME=VALUES (the first is the x axis), --measured RUN.json, or both"},
		{"compare twice", (&CompareRequest{Request: request(nil, []string{"n=2..4"}), Names: []string{"tinysersync", "tinysersync"}, Metrics: []string{"energy"}}).Check,
			"model tinysersync is given twice: compare different models, or its variants with --variant"},
		{"compare metric", (&CompareRequest{Request: request(nil, []string{"n=2..4"}), Names: []string{"tinysersync"}, Metrics: []string{"joy"}}).Check, "--metrics"},
	} {
		err := tc.check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestEvalRequest evaluates one point through the request: a run of
// every variant, the breakdown's metrics with Detail, and the model's
// table. Tier: fast.
func TestEvalRequest(t *testing.T) {
	e := &EvalRequest{Request: request([]string{"n=6"}, nil), Name: "tinysersync", Detail: true}
	if err := e.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := e.Run(context.Background())
	if err != nil || run.Kind != "model" || run.Status == result.Interrupted || len(run.Results) == 0 {
		t.Fatalf("Run = %+v, %v", run, err)
	}
	if !strings.Contains(run.Results[0].Subject.Name, "n=6") {
		t.Errorf("subject %s does not say n=6", run.Results[0].Subject.Name)
	}
	var b bytes.Buffer
	table := e.Table(context.Background())
	if err := table.Write(&b, run); err != nil || table.Name() != "table" || b.Len() == 0 {
		t.Errorf("table %s: %q, %v", table.Name(), b.String(), err)
	}
}

// TestSweepRequest streams a sweep as a table and as a wide CSV, and
// checks what each is saved as and a cancelled run. Tier: fast.
func TestSweepRequest(t *testing.T) {
	var log bytes.Buffer
	s := &SweepRequest{Request: request(nil, []string{"n=2..5"}), Name: "tinysersync"}
	s.Log = &log
	ctx := context.Background()
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	var table, wide bytes.Buffer
	if err := s.Stream(ctx, &table, "table"); err != nil || s.Written() != s.Points() || table.Len() == 0 {
		t.Fatalf("table: %d of %d points, %v", s.Written(), s.Points(), err)
	}
	if run := s.StreamedRun(ctx, "table", false); run == nil || len(run.Results) != s.Points() {
		t.Errorf("a table sweep is saved as a run of its %d points: %+v", s.Points(), run)
	}
	if err := s.Stream(ctx, &wide, "wide-csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&wide).ReadAll()
	if err != nil || len(rows)-1 != s.Written() || s.Written() != s.Points() {
		t.Errorf("wide CSV: %d rows, wrote %d of %d points, %v", len(rows)-1, s.Written(), s.Points(), err)
	}
	if run := s.StreamedRun(ctx, "wide-csv", false); run != nil || !strings.Contains(log.String(), "note: a wide-csv sweep is not saved") {
		t.Errorf("a wide-csv sweep is not saved, and says so: %v, %q", run, log.String())
	}
	log.Reset()
	if s.StreamedRun(ctx, "wide-csv", true); log.Len() != 0 {
		t.Errorf("quiet, it says nothing: %q", log.String())
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if run, err := s.Run(cancelled); err != nil || run.Status != result.Interrupted {
		t.Errorf("a cancelled sweep is an interrupted run: %+v, %v", run, err)
	}
	if err := s.Stream(cancelled, &bytes.Buffer{}, "wide-csv"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled stream returns the cancellation: %v", err)
	}
}

// TestCompareRequest compares two models along n: the points of both,
// the crossovers as notes, and the comparison's table. Tier: fast.
func TestCompareRequest(t *testing.T) {
	c := &CompareRequest{Request: request(nil, []string{"n=2..14"}), Names: []string{"secsywise", "tinysersync"}, Metrics: []string{"energy"}}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := c.Run(context.Background())
	if err != nil || len(run.Results) == 0 {
		t.Fatalf("Run = %+v, %v", run, err)
	}
	crossovers := 0
	for _, n := range run.Environment.Notes {
		if strings.HasPrefix(n, "crossover: ") {
			crossovers++
		}
	}
	var b bytes.Buffer
	if err := c.Table().Write(&b, run); err != nil || crossovers == 0 || !strings.Contains(b.String(), "uses less energy than") {
		t.Errorf("%d crossovers, table %q, %v", crossovers, b.String(), err)
	}
}

// TestFormats checks the model's formats: --format's help, the table
// and wide-csv names, and wide-csv refusing to write a run. Tier: fast.
func TestFormats(t *testing.T) {
	help := FormatHelp("wide-csv (one row per point, streamed)")
	if !strings.HasPrefix(help, "table, wide-csv (one row per point, streamed), ") || strings.Count(help, "table") != 1 {
		t.Errorf("FormatHelp = %q", help)
	}
	if FormatHelp("") != "table, "+strings.TrimPrefix(help, "table, wide-csv (one row per point, streamed), ") {
		t.Errorf("FormatHelp(\"\") = %q", FormatHelp(""))
	}
	if err := (WideCSV{}).Write(&bytes.Buffer{}, NewRun()); err == nil || (WideCSV{}).Name() != "wide-csv" {
		t.Errorf("wide-csv writes a run: %v", err)
	}
}

// TestShow shows a model and a cost table, as text and as YAML, and an
// unknown name. Tier: fast.
func TestShow(t *testing.T) {
	for _, arg := range []string{"tinysersync", "telosb"} {
		var text, yaml bytes.Buffer
		if err := Show(&text, arg, false); err != nil || text.Len() == 0 {
			t.Errorf("show %s: %v", arg, err)
		}
		if err := Show(&yaml, arg, true); err != nil || !strings.Contains(yaml.String(), "name: ") {
			t.Errorf("show %s --yaml: %q, %v", arg, yaml.String(), err)
		}
	}
	if err := Show(&bytes.Buffer{}, "nosuch", false); err == nil {
		t.Error("show nosuch: no error")
	}
}
