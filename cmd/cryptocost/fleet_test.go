package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/pgtest"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/store"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"
)

// TestScriptsPostgres runs the store and compare scripts with
// $CRYPTOCOST_DB naming a new PostgreSQL database each: runs, show,
// compare, export and import must behave the same on either store.
// Tier: full (a PostgreSQL server).
func TestScriptsPostgres(t *testing.T) {
	srv := pgtest.Start(t)
	testscript.Run(t, testscript.Params{
		Files: []string{"testdata/script/store.txtar", "testdata/script/compare.txtar"},
		Cmds:  scriptCmds,
		Condition: func(cond string) (bool, error) {
			if cond == "postgres" {
				return true, nil
			}
			v, ok := scriptConditions[cond]
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return v, nil
		},
		Setup: func(env *testscript.Env) error {
			for _, f := range scriptSetups {
				if err := f(env); err != nil {
					return err
				}
			}
			db, err := srv.CreateDatabase("postgres")
			if err != nil {
				return err
			}
			env.Defer(func() { srv.DropDatabase(db) })
			env.Setenv(store.EnvDB, srv.SocketURL(db))
			return nil
		},
	})
}

// fleetRun is a run as a board writes it with -o: made on host, for
// device (or none), at started.
func fleetRun(id, host, goarch, device string, started time.Time, schemes ...string) *result.Run {
	run := &result.Run{Schema: result.Schema, ID: id, Kind: "bench", Tool: result.Tool{Name: "cryptocost", Version: "v0.0.0-test"},
		Started: started, Finished: started.Add(time.Minute), Status: result.Complete,
		Environment: result.Environment{Hostname: host, MachineID: "m-" + host, OS: "linux", Arch: goarch, GoVersion: "go1.26.8", CPUs: 4, GOMAXPROCS: 4, Device: device}}
	for i, s := range schemes {
		r := result.Result{
			Subject: result.Subject{Kind: "primitive", Name: s + "@go/sign", Scheme: s, Provider: "go", Family: "sign", Operation: "sign"},
			Metrics: []result.Metric{result.NewSampled("time", "ns", result.Lower, result.Measured,
				[]float64{1000, 1010, 990, 1005, 995, float64(1000 + i)})},
			Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "adaptive", Samples: 6, Stop: "converged"}},
		}
		if device != "" {
			r.Metrics = append(r.Metrics, result.NewScalar("device-time", "ms", result.Lower, result.Estimated, 12),
				result.NewScalar("energy", "mJ", result.Lower, result.Estimated, 0.5))
		}
		run.Results = append(run.Results, r)
	}
	return run
}

func writeRunFile(t *testing.T, path string, run *result.Run) {
	t.Helper()
	f, _ := result.FormatByName("json")
	var buf bytes.Buffer
	if err := f.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFleetPush is the lab of docs/store-and-reports.md: three machines —
// this one (native), an ARMv7 board and a RISC-V board (the cross builds
// under qemu-user) — each measure a run with -o, then push a directory of
// runs to one shared PostgreSQL store at once. Ten runs are in every
// directory (as when boards push a shared NFS folder) and ten are each
// machine's own. Nothing is lost or duplicated; the provenance says which
// machine measured what; runs --by device and report --fleet show the
// fleet. Tier: full (PostgreSQL, cross builds, qemu-user).
func TestFleetPush(t *testing.T) {
	srv := pgtest.Start(t)
	dbURL := srv.SocketURL(srv.NewDatabase(t, "postgres"))
	native, err := exec.LookPath("cryptocost") // testscript.Main puts this binary on PATH as cryptocost
	if err != nil {
		t.Fatal(err)
	}
	type pusher struct{ name, qemu, bin, goarch string }
	pushers := []pusher{{name: "native", bin: native}}
	dir, errs := crossBuild(t)
	for _, p := range []pusher{
		{name: "armv7", qemu: "qemu-arm", bin: filepath.Join(dir, "cryptocost-linux-armv7"), goarch: "arm"},
		{name: "riscv64", qemu: "qemu-riscv64", bin: filepath.Join(dir, "cryptocost-linux-"+"riscv64"), goarch: "riscv64"},
	} {
		if e, failed := errs["linux-"+p.name]; failed {
			t.Fatalf("the %s build failed:\n%s", p.name, e)
		}
		if _, err := exec.LookPath(p.qemu); err != nil {
			t.Fatalf("%s not found (Debian package qemu-user; scripts/deps/store.txt): %v", p.qemu, err)
		}
		pushers = append(pushers, p)
	}
	command := func(ctx context.Context, p pusher, args ...string) *exec.Cmd {
		if p.qemu != "" {
			return exec.CommandContext(ctx, p.qemu, append([]string{p.bin}, args...)...)
		}
		return exec.CommandContext(ctx, p.bin, args...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	work := t.TempDir()
	shared := make([]*result.Run, 10)
	for i := range shared {
		shared[i] = fleetRun(fmt.Sprintf("20261201T10%02d00Z-5ea7%04d", i, i), "laptop", "amd64", "telosb", t0.Add(time.Duration(i)*time.Minute), "Ed25519", "ECDSA-P256")
	}
	want := map[string]bool{}
	for _, r := range shared {
		want[r.ID] = true
	}
	dirs := make([]string, len(pushers))
	for n, p := range pushers {
		dirs[n] = filepath.Join(work, p.name)
		os.MkdirAll(filepath.Join(dirs[n], "own"), 0o755)
		for i, r := range shared {
			writeRunFile(t, filepath.Join(dirs[n], fmt.Sprintf("shared-%d.json", i)), r)
		}
		for i := range 10 {
			r := fleetRun(fmt.Sprintf("20261202T%02d%02d00Z-%s", n, i, p.name), "board-"+p.name, cmpOr(p.goarch, "amd64"), "",
				t0.Add(24*time.Hour+time.Duration(n*10+i)*time.Minute), "Ed25519", "ECDSA-P256")
			writeRunFile(t, filepath.Join(dirs[n], "own", fmt.Sprintf("%d.json", i)), r)
			want[r.ID] = true
		}
	}

	// Each machine measures one real run, -o into its directory (as a
	// board without a store does).
	var wg sync.WaitGroup
	benchErr := make([]error, len(pushers))
	for n, p := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := command(ctx, p, "bench", "--quick", "--algo", "SHA-256", "--op", "hash", "--sizes", "64",
				"--point-budget", "20ms", "--time-budget", "5s", "--no-save", "-q", "-o", filepath.Join(dirs[n], "measured.json"))
			if out, err := c.CombinedOutput(); err != nil {
				benchErr[n] = fmt.Errorf("%s bench: %v\n%s", p.name, err, out)
			}
		}()
	}
	wg.Wait()
	measured := map[string]string{} // run ID → the pusher that measured it
	for n, p := range pushers {
		if benchErr[n] != nil {
			t.Fatal(benchErr[n])
		}
		runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, filepath.Join(dirs[n], "measured.json"))))
		if err != nil {
			t.Fatal(err)
		}
		measured[runs[0].ID] = p.name
		want[runs[0].ID] = true
		if p.goarch != "" && runs[0].Environment.Arch != p.goarch {
			t.Errorf("%s measured on %s", p.name, runs[0].Environment.Arch)
		}
	}

	// The three push at once.
	outs := make([]string, len(pushers))
	pushErr := make([]error, len(pushers))
	start := make(chan struct{})
	for n, p := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c := command(ctx, p, "push", "--db", dbURL, "--tag", "fleet-"+p.name, dirs[n])
			var out bytes.Buffer
			c.Stdout, c.Stderr = &out, &out
			pushErr[n] = c.Run()
			outs[n] = out.String()
		}()
	}
	close(start)
	wg.Wait()
	for n, p := range pushers {
		if pushErr[n] != nil {
			t.Fatalf("%s push: %v\n%s", p.name, pushErr[n], outs[n])
		}
		// One line per file: pushed, or already there (another pusher won).
		said := strings.Count(outs[n], ": pushed run ") + strings.Count(outs[n], " is already in the store\n")
		if said != 21 || strings.Contains(outs[n], "REDACTED") {
			t.Errorf("%s push reported %d of its 21 files:\n%s", p.name, said, outs[n])
		}
	}

	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.List(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range runs {
		got[r.ID]++
		if !want[r.ID] {
			t.Errorf("run %s in the store was never pushed", r.ID)
		}
		if r.Origin.Kind != store.Imported || r.Origin.By == "" || r.Origin.SHA256 == "" {
			t.Errorf("run %s: origin %+v; want imported, with the file's hash and the pushing host", r.ID, r.Origin)
		}
	}
	for id := range want {
		if got[id] != 1 {
			t.Errorf("run %s is in the store %d times, want once", id, got[id])
		}
	}
	if len(runs) != len(want) {
		t.Errorf("%d runs stored, want %d (10 shared + 3 × 10 own + 3 measured)", len(runs), len(want))
	}
	// Which machine measured what: each measured run keeps its
	// environment, and is tagged by its pusher.
	for id, name := range measured {
		r, err := st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !containsString(r.Tags, "fleet-"+name) {
			t.Errorf("measured run %s of %s has tags %v", id, name, r.Tags)
		}
	}
	// A shared run is tagged by every pusher: one run, three tags.
	if r, err := st.Get(ctx, shared[0].ID); err != nil || len(r.Tags) != 3 {
		t.Errorf("shared run tags: %v %v", r.Tags, err)
	}

	// The fleet views, through the CLI.
	stdout, stderr, err := runMain(t, "runs", "--by", "device", "--db", dbURL)
	if err != nil {
		t.Fatalf("runs --by device: %v\n%s", err, stderr)
	}
	for _, line := range []string{"telosb  ", "board-armv7", "board-riscv64", "linux/riscv64"} {
		if !strings.Contains(stdout, line) {
			t.Errorf("runs --by device lacks %q:\n%s", line, stdout)
		}
	}
	html := filepath.Join(work, "fleet.html")
	if _, stderr, err := runMain(t, "report", "--fleet", "--db", dbURL, "-o", html); err != nil {
		t.Fatalf("report --fleet: %v\n%s", err, stderr)
	}
	page := string(mustRead(t, html))
	for _, s := range []string{"Fleet: device × algorithm × operation", "<th>board-riscv64</th>", "<th>telosb</th>",
		"Energy per operation on each device", "estimated", "10 runs"} {
		if !strings.Contains(page, s) {
			t.Errorf("the fleet report lacks %q", s)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestSaveKeepsUnsaved: a run whose PostgreSQL save fails (the server
// went away after the run started) is kept in a file, and the warning says
// where and how to push it, naming the server without its password.
// Tier: fast (a refused connection on 127.0.0.1, no server).
func TestSaveKeepsUnsaved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	// As a runner whose store was up when it checked (validate) and is
	// gone when the run ends: save alone.
	var saves saveFlags
	cmd := &cobra.Command{Use: "fake", RunE: func(cmd *cobra.Command, _ []string) error {
		saves.save(cmd, fakeRun("R-offline"), false)
		return nil
	}}
	saves.register(cmd)
	var stderr bytes.Buffer
	cmd.SetErr(&stderr)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetArgs([]string{"--db", "postgres://lab:hunter2@" + addr + "/lab?sslmode=disable", "--tag", "pi"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("an unsaved run failed the command: %v", err)
	}
	kept := filepath.Join(dir, "cryptocost", "unsaved", "R-offline.json")
	for _, want := range []string{"warning: run R-offline not saved", "cannot reach the PostgreSQL server at " + addr,
		"the run is kept in " + kept, "cryptocost push --db postgres://lab@" + addr + "/lab?sslmode=disable " + kept} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "hunter2") {
		t.Errorf("the password was printed:\n%s", stderr.String())
	}
	runs, err := result.ReadJSON(bytes.NewReader(mustRead(t, kept)))
	if err != nil || runs[0].ID != "R-offline" || !containsString(runs[0].Tags, "pi") {
		t.Fatalf("kept file: %+v, %v", runs, err)
	}
}
