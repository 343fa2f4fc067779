package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// testRun is a small run with n primitive results, each with a sampled
// time, a scalar allocation count and an estimated metric.
func testRun(id, kind string, started time.Time, n int) *result.Run {
	run := &result.Run{
		Schema: result.Schema, ID: id, Kind: kind,
		Tool:    result.Tool{Name: "cryptocost", Version: "v0.0.0-test"},
		Started: started, Finished: started.Add(time.Minute), Status: result.Complete,
		Environment: result.Environment{Hostname: "lab1", OS: "linux", Arch: "amd64", GoVersion: "go1.26.8",
			CPUModel: "Test CPU", CPUs: 2, GOMAXPROCS: 2},
	}
	for i := range n {
		samples := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1001, 999, float64(1003 + i)}
		run.Results = append(run.Results, result.Result{
			Subject: result.Subject{Kind: "primitive", Name: fmt.Sprintf("S%d@go/hash/1k", i), Scheme: fmt.Sprintf("S%d", i),
				Provider: "go", Family: "hash", Operation: "hash", InputBytes: 1024},
			Metrics: []result.Metric{
				result.NewSampled("time", "ns/op", result.Lower, result.Measured, samples),
				result.NewScalar("allocs", "allocs/op", result.Lower, result.Measured, 0),
				{Name: "cycles", Unit: "cycles", Better: result.Lower, Label: result.Estimated,
					Method: "wall time × 2000 MHz", Summary: result.NewScalar("", "", "", "", 2000).Summary},
			},
			Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "adaptive", Samples: 10, Stop: "converged"}},
		})
	}
	return run
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "sub", "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// count returns the number of rows of table belonging to run id (all rows
// when id is "").
func count(t *testing.T, s *Store, table, id string) int {
	t.Helper()
	col := "run_id"
	if table == "runs" {
		col = "id"
	}
	q := "SELECT count(*) FROM " + table
	var args []any
	if id != "" {
		q += " WHERE " + col + " = ?"
		args = append(args, id)
	}
	var n int
	if err := s.db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func jsonOf(t *testing.T, run *result.Run) string {
	t.Helper()
	doc, err := document(run)
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}

func TestSaveGetRoundTrip(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	run := testRun("20261201T100000Z-aaaa0001", "bench", t0, 3)
	run.Tags = []string{"baseline"}
	want := jsonOf(t, run)
	if err := s.Save(ctx, run); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "20261201T100000Z-aaaa")
	if err != nil {
		t.Fatal(err)
	}
	if j := jsonOf(t, got.Run); j != want {
		t.Errorf("document changed in the store:\n got %s\nwant %s", j, want)
	}
	if got.Origin.Kind != Local || got.Results != 3 || got.Hostname != "lab1" || !got.Started.Equal(t0) {
		t.Errorf("summary = %+v", got.Summary)
	}
	if n := count(t, s, "results", run.ID); n != 3 {
		t.Errorf("%d result rows, want 3", n)
	}
	if n := count(t, s, "metrics", run.ID); n != 9 {
		t.Errorf("%d metric rows, want 9", n)
	}
	// The index holds the medians the document's summaries hold.
	var median float64
	var label string
	if err := s.db.QueryRow(`SELECT median, label FROM metrics WHERE run_id = ? AND subject = 'S1@go/hash/1k' AND name = 'time'`,
		run.ID).Scan(&median, &label); err != nil {
		t.Fatal(err)
	}
	if median != run.Results[1].Metrics[0].Summary.Median || label != "measured" {
		t.Errorf("indexed median %v %s, want %v measured", median, label, run.Results[1].Metrics[0].Summary.Median)
	}
	// Saving the same ID twice is refused, and leaves the first intact.
	err = s.Save(ctx, testRun(run.ID, "bench", t0, 1))
	if err == nil || !strings.Contains(err.Error(), "already in the store") {
		t.Errorf("second save of %s: %v", run.ID, err)
	}
	if n := count(t, s, "results", run.ID); n != 3 {
		t.Errorf("after a refused save: %d result rows, want 3", n)
	}
}

// TestSaveIsAtomic fails a save part-way through, in three ways — the
// database refuses a row (a trigger raising an error on the second
// result), the code inserting rows fails, the context is cancelled — and
// checks that no trace of the run is left and the next save works.
func TestSaveIsAtomic(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		setup func(s *Store) (context.Context, func())
	}{
		{"database refuses a row", func(s *Store) (context.Context, func()) {
			if _, err := s.db.Exec(`CREATE TRIGGER fail BEFORE INSERT ON results WHEN NEW.subject = 'S1@go/hash/1k'
				BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
				t.Fatal(err)
			}
			return ctx, func() { s.db.Exec(`DROP TRIGGER fail`) }
		}},
		{"insert fails", func(s *Store) (context.Context, func()) {
			s.afterResult = func(i int) error {
				if i == 1 {
					return errors.New("injected failure")
				}
				return nil
			}
			return ctx, func() { s.afterResult = nil }
		}},
		{"context cancelled", func(s *Store) (context.Context, func()) {
			cctx, cancel := context.WithCancel(ctx)
			s.afterResult = func(i int) error {
				if i == 1 {
					cancel()
				}
				return nil
			}
			return cctx, func() { s.afterResult = nil }
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := openTemp(t)
			run := testRun("20261201T100000Z-bbbb0001", "bench", t0, 3)
			run.Tags = []string{"x"}
			sctx, undo := c.setup(s)
			err := s.Save(sctx, run)
			if err == nil {
				t.Fatal("save succeeded despite the injected failure")
			}
			for _, table := range []string{"runs", "run_tags", "results", "metrics"} {
				if n := count(t, s, table, ""); n != 0 {
					t.Errorf("after a failed save (%v): %d rows in %s, want 0", err, n, table)
				}
			}
			undo()
			if err := s.Save(ctx, run); err != nil {
				t.Fatalf("save after the failure: %v", err)
			}
			if n := count(t, s, "results", run.ID); n != 3 {
				t.Errorf("%d results after the retry, want 3", n)
			}
		})
	}
}

// TestKilledMidSave kills a process (SIGKILL: no deferred rollback, no
// cleanup) while it is inside a save's transaction, then checks that the
// store opens, passes SQLite's integrity check, holds nothing of that run
// and keeps the run saved before it.
func TestKilledMidSave(t *testing.T) {
	if os.Getenv("CRYPTOCOST_TEST_KILL_DB") != "" {
		return // the helper, run as its own process below
	}
	path := filepath.Join(t.TempDir(), "results.db")
	if err := SaveRun(context.Background(), path, testRun("20261201T090000Z-00000001", "bench", t0.Add(-time.Hour), 2)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledMidSaveHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CRYPTOCOST_TEST_KILL_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the helper says it is mid-transaction (or give up).
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "mid-save" {
				ready <- true
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			cmd.Wait()
			t.Fatal("helper ended without reaching the middle of its save")
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("helper never reached the middle of its save")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("store unusable after a killed save: %v", err)
	}
	defer s.Close()
	var check string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	if n := count(t, s, "results", "20261201T100000Z-dead0001"); n != 0 {
		t.Errorf("the killed save left %d result rows", n)
	}
	if n := count(t, s, "runs", ""); n != 1 {
		t.Errorf("%d runs after the killed save, want the 1 saved before", n)
	}
	if n := count(t, s, "results", ""); n != 2 {
		t.Errorf("%d results, want the earlier run's 2", n)
	}
}

// TestKilledMidSaveHelper is the process TestKilledMidSave kills: it saves
// a run and, half-way through its transaction, says so and waits.
func TestKilledMidSaveHelper(t *testing.T) {
	path := os.Getenv("CRYPTOCOST_TEST_KILL_DB")
	if path == "" {
		t.Skip("run by TestKilledMidSave as a separate process")
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.afterResult = func(i int) error {
		if i == 5 {
			fmt.Println("mid-save")
			os.Stdout.Sync()
			time.Sleep(time.Minute) // killed here
		}
		return nil
	}
	s.Save(context.Background(), testRun("20261201T100000Z-dead0001", "bench", t0, 10))
	t.Fatal("the helper's save finished: it should have been killed")
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "results.db")
	// A store as a cryptocost with only migration 1 left it, with a run.
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.Remove(path)
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	s = &Store{path: path}
	s.db, err = openDB(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.migrateTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.version(ctx); v != 1 {
		t.Fatalf("version %d, want 1", v)
	}
	run := testRun("20261201T100000Z-cccc0001", "bench", t0, 4)
	if _, err := s.db.Exec(`INSERT INTO runs (id, kind, status, started, finished, results, origin, saved_at, document)
		VALUES (?, 'bench', 'complete', ?, ?, 4, 'local', ?, ?)`, run.ID, formatTime(t0), formatTime(t0), formatTime(t0),
		jsonOf(t, run)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Opening it migrates to the current version and rebuilds the index
	// from the stored document.
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.version(ctx); v != SchemaVersion() || SchemaVersion() < 2 {
		t.Errorf("version %d after open, want %d", v, SchemaVersion())
	}
	if n := count(t, s, "results", run.ID); n != 4 {
		t.Errorf("migration 2 backfilled %d results, want 4", n)
	}
	if n := count(t, s, "metrics", run.ID); n != 12 {
		t.Errorf("migration 2 backfilled %d metrics, want 12", n)
	}
	var applied int
	s.db.QueryRow(`SELECT count(*) FROM schema_version`).Scan(&applied)
	if applied != len(migrations) {
		t.Errorf("%d schema_version rows, want %d", applied, len(migrations))
	}
	// A store from a newer cryptocost is refused, not damaged.
	if _, err := s.db.Exec(`INSERT INTO schema_version VALUES (99, 'future', '')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "newer than this cryptocost knows") {
		t.Errorf("opening a newer store: %v", err)
	}
}

// TestMigrationIsTransactional makes a migration fail half-way and checks
// the store stays at the previous version with none of its changes.
func TestMigrationIsTransactional(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "results.db")
	s := &Store{path: path}
	var err error
	if s.db, err = openDB(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.migrateTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	bad := migration{2, "half", execAll(`CREATE TABLE half_done (x); INSERT INTO no_such_table VALUES (1);`)}
	if err := s.apply(ctx, bad); err == nil {
		t.Fatal("a failing migration succeeded")
	}
	if v, _ := s.version(ctx); v != 1 {
		t.Errorf("version %d after a failed migration, want 1", v)
	}
	var n int
	s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'half_done'`).Scan(&n)
	if n != 0 {
		t.Error("a failed migration left its table behind")
	}
}

func TestList(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	mk := func(id, kind string, day int, device string, tags ...string) {
		r := testRun(id, kind, t0.AddDate(0, 0, day), 1)
		r.Environment.Device = device
		r.Tags = tags
		if err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	mk("A", "bench", 0, "", "baseline")
	mk("B", "bench", 1, "telosb", "baseline", "x")
	mk("C", "tls", 2, "telosb")
	mk("D", "model", 3, "n95", "x")
	cases := []struct {
		f    Filter
		want string
	}{
		{Filter{}, "DCBA"},
		{Filter{Kind: "BENCH"}, "BA"},
		{Filter{Device: "telosb"}, "CB"},
		{Filter{Tags: []string{"baseline"}}, "BA"},
		{Filter{Tags: []string{"baseline", "x"}}, "B"},
		{Filter{Since: t0.AddDate(0, 0, 1)}, "DCB"},
		{Filter{Until: t0.AddDate(0, 0, 2)}, "BA"},
		{Filter{Since: t0.AddDate(0, 0, 1), Until: t0.AddDate(0, 0, 3)}, "CB"},
		{Filter{Limit: 2}, "DC"},
		{Filter{Kind: "tls", Device: "n95"}, ""},
		{Filter{Origin: Imported}, ""},
	}
	for _, c := range cases {
		runs, err := s.List(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range runs {
			got += r.ID
		}
		if got != c.want {
			t.Errorf("List(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
	runs, _ := s.List(ctx, Filter{Kind: "bench"})
	if strings.Join(runs[0].Tags, ",") != "baseline,x" {
		t.Errorf("tags of B = %v", runs[0].Tags)
	}
}

func TestResolve(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if _, err := s.Resolve(ctx, Latest); err == nil || !strings.Contains(err.Error(), "no runs") {
		t.Errorf("latest of an empty store: %v", err)
	}
	for i, id := range []string{"20261201T100000Z-abcd0001", "20261201T100000Z-abce0002", "20261202T100000Z-ffff0003", "20261202T100000Z-ffff000"} {
		if err := s.Save(ctx, testRun(id, "bench", t0.Add(time.Duration(i)*time.Hour), 1)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ ref, want, err string }{
		{"20261201T100000Z-abcd0001", "20261201T100000Z-abcd0001", ""},
		{"20261201T100000Z-abcd", "20261201T100000Z-abcd0001", ""},
		{"20261201T100000Z-abc", "", "ambiguous: it starts 20261201T100000Z-abcd0001, 20261201T100000Z-abce0002"},
		{"2026120", "", "ambiguous"},
		{"20261202T100000Z-ffff000", "20261202T100000Z-ffff000", ""}, // exact beats prefix
		{"latest", "20261202T100000Z-ffff000", ""},
		{"1999", "", `no run "1999"`},
		{"2026_201", "", `no run`}, // LIKE wildcards are literal
		{"%", "", `no run`},
		{"", "", "empty run id"},
	}
	for _, c := range cases {
		got, err := s.Resolve(ctx, c.ref)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Resolve(%q) = %q, %v; want error containing %q", c.ref, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.ref, got, err, c.want)
		}
	}
}

func TestImport(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	board := testRun("20261201T100000Z-b0a40001", "bench", t0, 2)
	board.Environment.Hostname, board.Environment.Arch, board.Environment.GOARM = "pi-zero", "arm", "6"
	var file bytes.Buffer
	f, _ := result.FormatByName("json")
	if err := f.Write(&file, board); err != nil {
		t.Fatal(err)
	}
	data := file.Bytes()
	out, err := s.Import(ctx, bytes.NewReader(data), "board.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].AlreadyStored || out[0].Results != 2 {
		t.Fatalf("import outcome %+v", out)
	}
	got, err := s.Get(ctx, board.ID)
	if err != nil {
		t.Fatal(err)
	}
	o := got.Origin
	if o.Kind != Imported || o.From != "board.json" || len(o.SHA256) != 64 || o.At.IsZero() {
		t.Errorf("origin %+v", o)
	}
	if !strings.Contains(o.String(), "imported from board.json") {
		t.Errorf("origin string %q", o.String())
	}
	// Labels and environment stay as the board wrote them.
	if l := got.Run.Results[0].Metrics[0].Label; l != result.Measured {
		t.Errorf("imported time label %s, want measured (kept)", l)
	}
	if l := got.Run.Results[0].Metrics[2].Label; l != result.Estimated {
		t.Errorf("imported cycles label %s, want estimated (kept)", l)
	}
	if got.Run.Environment.Hostname != "pi-zero" || got.GOARCH != "arm" {
		t.Errorf("environment not kept: %+v", got.Run.Environment)
	}
	if runs, _ := s.List(ctx, Filter{Origin: Imported}); len(runs) != 1 {
		t.Errorf("%d imported runs listed, want 1", len(runs))
	}
	// Again: harmless.
	out, err = s.Import(ctx, bytes.NewReader(data), "board-again.json")
	if err != nil || !out[0].AlreadyStored {
		t.Errorf("second import: %+v, %v", out, err)
	}
	// A different run under the same ID is refused.
	board.Results = board.Results[:1]
	file.Reset()
	f.Write(&file, board)
	if _, err := s.Import(ctx, &file, "forged.json"); err == nil || !strings.Contains(err.Error(), "different run with id") {
		t.Errorf("conflicting import: %v", err)
	}
	// An array of runs is imported whole, or not at all.
	a, b := testRun("R-array-1", "bench", t0, 1), testRun("R-array-2", "bench", t0, 1)
	b.Results[0].Metrics[0].Label = "" // invalid: the whole file is refused
	file.Reset()
	f.Write(&file, a, b)
	if _, err := s.Import(ctx, &file, "two.json"); err == nil {
		t.Error("an array with an invalid run was imported")
	}
	if n := count(t, s, "runs", "R-array-1"); n != 0 {
		t.Error("the valid half of a refused array was imported")
	}
	for _, bad := range []struct{ in, want string }{
		{"", "not cryptocost JSON"},
		{"BenchmarkX 1 2 ns/op", "not cryptocost JSON"},
		{`{"schema":"other/v9"}`, `run schema "other/v9"`},
		{`{"schema":"cryptocost/run/v1","results":[]}`, "has no id"},
		{`{"schema":"cryptocost/run/v1","id":" ","results":[]}`, "an id has no spaces"}, // found by FuzzImport
	} {
		_, err := s.Import(ctx, strings.NewReader(bad.in), "bad.json")
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Import(%q): %v, want %q", bad.in, err, bad.want)
		}
	}
}

func TestImportSizeCap(t *testing.T) {
	s := openTemp(t)
	s.maxImport = 1000
	r := &repeatReader{b: ' ', n: 1010}
	_, err := s.Import(context.Background(), r, "huge.json")
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("huge import: %v", err)
	}
	if sizeText(MaxImportBytes) != "256 MiB" {
		t.Errorf("cap %s", sizeText(MaxImportBytes))
	}
}

type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errors.New("EOF") // not reached: the cap stops reading first
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

func TestTagUntagDelete(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if err := s.Save(ctx, testRun("R1", "bench", t0, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Tag(ctx, "R1", "pi", "baseline", "pi"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(ctx, "R1")
	if strings.Join(got.Run.Tags, ",") != "baseline,pi" {
		t.Errorf("tags %v", got.Run.Tags)
	}
	if _, err := s.Tag(ctx, "R1", "two words"); err == nil {
		t.Error("a tag with a space was accepted")
	}
	if _, err := s.Untag(ctx, "R1", "pi"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Get(ctx, "R1")
	if strings.Join(got.Run.Tags, ",") != "baseline" {
		t.Errorf("tags after untag %v", got.Run.Tags)
	}
	if _, err := s.Delete(ctx, "R1"); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"runs", "run_tags", "results", "metrics"} {
		if n := count(t, s, table, ""); n != 0 {
			t.Errorf("%d rows left in %s after delete", n, table)
		}
	}
}

func TestConcurrentSaves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	ctx := context.Background()
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			errs <- SaveRun(ctx, path, testRun(fmt.Sprintf("R%d", i), "bench", t0, 20))
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := count(t, s, "results", ""); n != 160 {
		t.Errorf("%d results after 8 concurrent saves of 20, want 160", n)
	}
}

// TestSaveRunAfterCancel: an interrupted run is saved even though the
// command's context is already cancelled.
func TestSaveRunAfterCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run := testRun("R-interrupted", "bench", t0, 1)
	run.Status = result.Interrupted
	if err := SaveRun(ctx, path, run); err != nil {
		t.Fatal(err)
	}
	s, _ := Open(context.Background(), path)
	defer s.Close()
	got, err := s.Get(context.Background(), "R-interrupted")
	if err != nil || got.Status != result.Interrupted {
		t.Errorf("interrupted run: %+v, %v", got, err)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv(EnvDB, "")
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_DATA_HOME", "/data")
	want := map[string]string{"linux": "/data/cryptocost/results.db"}
	if p, err := DefaultPath(); err != nil || (want[goos()] != "" && p != want[goos()]) {
		t.Errorf("DefaultPath with XDG_DATA_HOME = %q, %v", p, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative/dir") // invalid per the spec: ignored
	if p, _ := DefaultPath(); goos() == "linux" && p != "/home/u/.local/share/cryptocost/results.db" {
		t.Errorf("DefaultPath with a relative XDG_DATA_HOME = %q", p)
	}
	t.Setenv(EnvDB, "/tmp/x.db")
	if p, _ := DefaultPath(); p != "/tmp/x.db" {
		t.Errorf("DefaultPath with $%s = %q", EnvDB, p)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 100), 0o600)
	if _, err := Open(context.Background(), junk); err == nil || !strings.Contains(err.Error(), "not a cryptocost results store") {
		t.Errorf("opening a non-database: %v", err)
	}
	if _, err := Open(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("opening a directory: %v", err)
	}
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600)
	if _, err := Open(context.Background(), filepath.Join(blocker, "results.db")); err == nil || !strings.Contains(err.Error(), "--db") {
		t.Errorf("opening under a file: %v", err)
	}
}

// FuzzImport: whatever a file holds, Import stores valid runs or says why
// not; it never panics and never leaves a partial run.
func FuzzImport(f *testing.F) {
	var buf bytes.Buffer
	jf, _ := result.FormatByName("json")
	jf.Write(&buf, testRun("R-seed", "bench", t0, 2))
	f.Add(buf.Bytes())
	f.Add([]byte(`[{"schema":"cryptocost/run/v1","id":"x","results":[{"subject":{"name":"a"},"error":"e"}]}]`))
	f.Add([]byte(`{"schema":"cryptocost/run/v1","id":"y","results":[{"subject":{"name":"a"},"metrics":[{"name":"t","unit":"ns/op","label":"measured","summary":{"ci_low":1e400}}]}]}`))
	f.Add([]byte(`null`))
	s, err := Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := s.Import(context.Background(), bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		for _, o := range out {
			if _, err := s.Get(context.Background(), o.ID); err != nil {
				t.Errorf("imported run %q unreadable: %v", o.ID, err)
			}
		}
	})
}

func goos() string { return runtime.GOOS }

// TestRoundOneStore opens a store written by round 1's cryptocost
// (testdata/round1.db.gz: bench with --device telosb, bench, tls with
// --device nokia-n95, mcu, and the three scenarios, made with the build
// at commit 559623b) and checks that the vocabulary migration rewrote
// every run to the new names and base units: every run reads back, passes
// Validate, and compares with a run saved today.
func TestRoundOneStore(t *testing.T) {
	ctx := context.Background()
	gz, err := os.ReadFile("testdata/round1.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	db, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "results.db")
	if err := os.WriteFile(path, db, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.List(ctx, Filter{})
	if err != nil || len(runs) != 7 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	kinds := map[string]bool{}
	for _, sum := range runs {
		st, err := s.Get(ctx, sum.ID)
		if err != nil {
			t.Fatalf("run %s: %v", sum.ID, err)
		}
		if st.Run.Schema != result.Schema {
			t.Errorf("run %s: schema %s", sum.ID, st.Run.Schema)
		}
		if err := st.Run.Validate(); err != nil {
			t.Errorf("run %s (%s): %v", sum.ID, sum.Kind, err)
		}
		kinds[sum.Kind] = true
		for _, r := range st.Run.Results {
			if m := r.Metric("time"); m != nil && m.Unit != "s" {
				t.Errorf("%s: time in %s", r.Subject.Name, m.Unit)
			}
			if r.Subject.Kind == "primitive" && r.Subject.Scheme == "SHA-256" {
				// SHA-256 of 1 KiB takes microseconds, not thousands of seconds.
				if m := r.Metric("time"); m == nil || m.Summary.Median <= 1e-7 || m.Summary.Median >= 1e-3 {
					t.Errorf("SHA-256 1 KiB: %+v", m)
				}
			}
			if m := r.Metric("energy"); m != nil && m.Unit != "J" {
				t.Errorf("%s: energy in %s", r.Subject.Name, m.Unit)
			}
		}
	}
	for _, k := range []string{"bench", "tls", "mcu", "scenario"} {
		if !kinds[k] {
			t.Errorf("no %s run in the fixture", k)
		}
	}
	// The index was rebuilt in base units too.
	var units []string
	rows, err := s.db.Query(`SELECT DISTINCT unit FROM metrics WHERE name = 'time'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var u string
		rows.Scan(&u)
		units = append(units, u)
	}
	rows.Close()
	if len(units) != 1 || units[0] != "s" {
		t.Errorf("time units in the index: %v", units)
	}
}
