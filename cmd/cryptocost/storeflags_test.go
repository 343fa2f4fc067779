package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/spf13/cobra"
)

// runnerWithSaves is a command wired as a runner wires saveFlags.
func runnerWithSaves(run *result.Run) (*cobra.Command, *bytes.Buffer) {
	var saves saveFlags
	cmd := &cobra.Command{Use: "fake", RunE: func(cmd *cobra.Command, _ []string) error {
		if err := saves.validate(); err != nil {
			return err
		}
		saves.save(cmd, run, false)
		return nil
	}}
	saves.register(cmd)
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)
	cmd.SetOut(&bytes.Buffer{})
	return cmd, &stderr
}

func fakeRun(id string) *result.Run {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	return &result.Run{Schema: result.Schema, ID: id, Kind: "bench", Started: t0, Finished: t0, Status: result.Interrupted,
		Results: []result.Result{{Subject: result.Subject{Kind: "primitive", Name: "X@go/op"},
			Metrics: []result.Metric{result.NewScalar("time", "ns/op", result.Lower, result.Measured, 1)}}}}
}

func TestSaveFlags(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv(store.EnvDB, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as after Ctrl-C: the run is saved all the same

	// Default: saved in the data directory, tagged.
	cmd, stderr := runnerWithSaves(fakeRun("R1"))
	cmd.SetArgs([]string{"--tag", "pi"})
	if err := cmd.ExecuteContext(ctx); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(dir, "cryptocost", "results.db")
	if !strings.Contains(stderr.String(), "saved run R1 in "+def) {
		t.Errorf("stderr %q", stderr.String())
	}
	// --no-save: not saved. --db: another store.
	cmd, _ = runnerWithSaves(fakeRun("R2"))
	cmd.SetArgs([]string{"--no-save"})
	cmd.Execute()
	other := filepath.Join(dir, "other.db")
	cmd, _ = runnerWithSaves(fakeRun("R3"))
	cmd.SetArgs([]string{"--db", other})
	cmd.Execute()

	st, err := store.Open(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, _ := st.List(context.Background(), store.Filter{})
	if len(runs) != 1 || runs[0].ID != "R1" || strings.Join(runs[0].Tags, ",") != "pi" || runs[0].Status != result.Interrupted {
		t.Errorf("default store holds %+v; want only R1, tagged pi, interrupted", runs)
	}
	st2, _ := store.Open(context.Background(), other)
	defer st2.Close()
	if runs, _ := st2.List(context.Background(), store.Filter{}); len(runs) != 1 || runs[0].ID != "R3" {
		t.Errorf("--db store holds %+v", runs)
	}

	// A store that cannot be written: a warning, the command still succeeds.
	cmd, stderr = runnerWithSaves(fakeRun("R4"))
	cmd.SetArgs([]string{"--db", filepath.Join(def, "not-a-dir", "x.db")})
	if err := cmd.Execute(); err != nil {
		t.Errorf("an unsaveable run failed the command: %v", err)
	}
	if !strings.Contains(stderr.String(), "warning: run R4 not saved") || !strings.Contains(stderr.String(), "--no-save") {
		t.Errorf("stderr %q", stderr.String())
	}
	cmd, _ = runnerWithSaves(fakeRun("R5"))
	cmd.SetArgs([]string{"--tag", "two words"})
	if err := cmd.Execute(); err == nil {
		t.Error("a tag with a space was accepted")
	}
}
