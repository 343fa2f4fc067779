package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// opener opens (creating) the store at path, as import's --db does.
func opener(path string) func(context.Context) (*Store, error) {
	return func(ctx context.Context) (*Store, error) { return Open(ctx, path) }
}

// TestImportRequest imports files into a store it creates, tags their
// runs, and says what it did with each; a second import says the runs
// are already there. Tier: fast.
func TestImportRequest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "board.json")
	if err := os.WriteFile(file, runFile(t, testRun("R1", "bench", t0, 2), testRun("R2", "bench", t0.Add(time.Hour), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "new", "results.db")
	req := ImportRequest{Open: opener(db), Tags: []string{"pi"}}
	var out, errOut bytes.Buffer
	if err := req.Import(ctx, []string{file}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if err := req.Import(ctx, []string{file}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	want := file + ": imported run R1 (2 results)\n" + file + ": imported run R2 (1 results)\n" +
		file + ": run R1 is already in the store\n" + file + ": run R2 is already in the store\n"
	if out.String() != want || errOut.String() != strings.Repeat("store: "+db+"\n", 2) {
		t.Errorf("said %q and %q", out.String(), errOut.String())
	}
	st, err := OpenExisting(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if runs, _ := st.List(ctx, Filter{Tags: []string{"pi"}}); len(runs) != 2 {
		t.Errorf("%d runs tagged pi, want 2", len(runs))
	}
	if err := (ImportRequest{Open: opener(db), Tags: []string{""}}).Import(ctx, []string{file}, &out, &errOut); err == nil || err.Error() != "empty --tag" {
		t.Errorf("an empty tag: %v", err)
	}
}

// TestPushRequest pushes the run files of a directory, goes on past a
// file that is not a run, and counts what it pushed. Tier: fast.
func TestPushRequest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"a.json": runFile(t, testRun("R1", "bench", t0, 1)), "b.json": []byte("not a run")} {
		if err := os.WriteFile(filepath.Join(runs, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "results.db")
	var out, errOut bytes.Buffer
	err := ImportRequest{Open: opener(db)}.Push(ctx, []string{runs}, &out, &errOut)
	if err == nil || err.Error() != "1 of 2 files not pushed (above)" {
		t.Errorf("err = %v", err)
	}
	if want := filepath.Join(runs, "a.json") + ": pushed run R1 (1 results)\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	if e := errOut.String(); !strings.HasPrefix(e, "cryptocost: "+filepath.Join(runs, "b.json")) || !strings.HasSuffix(e, "pushed 1 runs to "+db+" (0 already there)\n") {
		t.Errorf("stderr %q", e)
	}
	if err := (ImportRequest{Open: opener(db)}).Push(ctx, []string{filepath.Join(dir, "absent")}, &out, &errOut); err == nil || !strings.HasPrefix(err.Error(), "cannot push ") {
		t.Errorf("an absent file: %v", err)
	}
}
