package store

// Tests of the PostgreSQL store against a real server (internal/pgtest:
// Debian's postgresql, started once for this test binary). Tier: full —
// every test here skips under -short and fails naming the package when
// PostgreSQL is missing.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/pgtest"
	"github.com/cryptocost/cryptocost/result"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// openPG opens a store on a new database of the test server.
func openPG(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// pgCount is count for either store.
func pgCount(t *testing.T, s *Store, table, id string) int {
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
	if err := s.queryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func runFile(t *testing.T, runs ...*result.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	f, _ := result.FormatByName("json")
	if err := f.Write(&buf, runs...); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fleetRuns are runs as a small lab makes them: a laptop pricing for a
// TelosB (time measured on the laptop, device-time and energy estimated
// for the mote), a Pi benchmarking itself twice, and a second Pi under
// the same host name (another machine ID).
func fleetRuns() []*result.Run {
	laptop := testRun("20261201T090000Z-1a070001", "bench", t0.Add(-time.Hour), 2)
	laptop.Environment.Device = "telosb"
	for i := range laptop.Results {
		r := &laptop.Results[i]
		r.Metrics = append(r.Metrics,
			result.NewScalar("device-time", "s", result.Lower, result.Estimated, 0.002*float64(i+1)),
			result.NewScalar("energy", "J", result.Lower, result.Estimated, 1e-5*float64(i+1)))
	}
	laptop.Inputs = []result.Input{
		result.NewInput("device-profile", "telosb", "builtin:energy/devices/telosb.yaml", "yaml", []byte("name: telosb\nvolts: 3.0\n")),
		result.NewInput("calibration", "telosb", "/home/lab/.config/cryptocost/calibrations/telosb.json", "json", []byte(`{"device":"telosb"}`)),
	}
	pi1 := testRun("20261201T100000Z-91000001", "bench", t0, 2)
	pi1.Environment.Hostname, pi1.Environment.Arch, pi1.Environment.MachineID = "raspberrypi", "arm64", "aaaa"
	pi1b := testRun("20261202T100000Z-91000002", "bench", t0.Add(24*time.Hour), 2)
	pi1b.Environment = pi1.Environment
	pi1b.Results[0].Metrics[0] = result.NewSampled("time", "ns/op", result.Lower, result.Measured,
		[]float64{2000, 2010, 1990, 2005, 1995, 2002})
	pi2 := testRun("20261202T110000Z-92000001", "bench", t0.Add(25*time.Hour), 1)
	pi2.Environment.Hostname, pi2.Environment.Arch, pi2.Environment.MachineID = "raspberrypi", "arm64", "bbbb"
	pi2.Tags = []string{"rack-2"}
	return []*result.Run{laptop, pi1, pi1b, pi2}
}

// TestStoresAgree does the same things to an SQLite store and a
// PostgreSQL store and checks every answer is the same: the commands on
// top (runs, show, compare, report, export, import) read only these.
func TestStoresAgree(t *testing.T) {
	ctx := context.Background()
	type answers struct {
		Lists    map[string][]Summary
		Docs     map[string]string
		Resolved map[string]string
		Devices  []DeviceSummary
		Matrix   []MatrixCell
		Inputs   []string
		Rows     map[string]int
	}
	do := func(s *Store) answers {
		a := answers{Lists: map[string][]Summary{}, Docs: map[string]string{}, Resolved: map[string]string{}, Rows: map[string]int{}}
		runs := fleetRuns()
		for _, r := range runs[:3] {
			if err := s.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Import(ctx, bytes.NewReader(runFile(t, runs[3])), "pi2.json"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Tag(ctx, "20261201T10", "baseline"); err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]Filter{
			"all": {}, "kind": {Kind: "BENCH"}, "device": {Device: "TelosB"}, "host": {Host: "RaspberryPi"},
			"since": {Since: t0}, "until": {Until: t0.Add(time.Hour)}, "tag": {Tags: []string{"baseline"}},
			"tags": {Tags: []string{"rack-2"}, Origin: Imported}, "limit": {Limit: 2}, "none": {Kind: "tls"},
		} {
			l, err := s.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for i := range l {
				l[i].SavedAt, l[i].Origin.At = time.Time{}, time.Time{}
			}
			a.Lists[name] = l
		}
		for _, ref := range []string{"latest", "20261201T09", "20261202t11", "2026120", "nope", "%", "_0261201T090000Z-1a070001"} {
			id, err := s.Resolve(ctx, ref)
			if err != nil {
				id = "error: " + strings.Replace(err.Error(), s.Path(), "STORE", 1)
			}
			a.Resolved[ref] = id
		}
		for _, r := range runs {
			got, err := s.Get(ctx, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			a.Docs[r.ID] = jsonOf(t, got.Run)
		}
		var err error
		if a.Devices, err = s.ByDevice(ctx, Filter{}); err != nil {
			t.Fatal(err)
		}
		if a.Matrix, err = s.Matrix(ctx, Filter{}); err != nil {
			t.Fatal(err)
		}
		ins, err := s.Inputs(ctx, runs[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			a.Inputs = append(a.Inputs, in.Kind+" "+in.Name+" "+in.SHA256)
		}
		if _, err := s.Delete(ctx, runs[1].ID); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"runs", "run_tags", "results", "metrics", "run_inputs"} {
			a.Rows[table] = pgCount(t, s, table, "")
		}
		return a
	}
	lite, pg := do(openTemp(t)), do(openPG(t))
	if !reflect.DeepEqual(lite, pg) {
		for _, f := range []string{"Lists", "Docs", "Resolved", "Devices", "Matrix", "Inputs", "Rows"} {
			l, p := reflect.ValueOf(lite).FieldByName(f).Interface(), reflect.ValueOf(pg).FieldByName(f).Interface()
			if !reflect.DeepEqual(l, p) {
				t.Errorf("%s differ:\nsqlite   %+v\npostgres %+v", f, l, p)
			}
		}
	}
	// And the answers are right, not merely equal.
	if got := len(pg.Lists["all"]); got != 4 {
		t.Errorf("%d runs listed, want 4", got)
	}
	if got := pg.Lists["host"]; len(got) != 3 {
		t.Errorf("--host RaspberryPi matched %d runs, want 3 (case ignored)", len(got))
	}
	if got := pg.Resolved["20261202t11"]; got != "20261202T110000Z-92000001" {
		t.Errorf("prefix in another case resolved to %q", got)
	}
	for _, ref := range []string{"%", "_0261201T090000Z-1a070001"} {
		if !strings.HasPrefix(pg.Resolved[ref], "error: no run") {
			t.Errorf("%q resolved to %q: LIKE wildcards must match literally", ref, pg.Resolved[ref])
		}
	}
	if len(pg.Inputs) != 2 {
		t.Errorf("inputs %v, want the device profile and the calibration", pg.Inputs)
	}
	if pg.Rows["run_inputs"] != 2 || pg.Rows["runs"] != 3 {
		t.Errorf("rows after deleting one run: %v", pg.Rows)
	}
	devs := map[string]DeviceSummary{}
	for _, d := range pg.Devices {
		devs[d.Device] = d
	}
	if d := devs["raspberrypi"]; d.Runs != 3 || d.Machines != 2 || !slices.Equal(d.Platforms, []string{"linux/arm64"}) {
		t.Errorf("raspberrypi: %+v, want 3 runs on 2 machines (two machine IDs)", d)
	}
	if d := devs["telosb"]; d.Runs != 1 || !slices.Equal(d.Hosts, []string{"lab1"}) {
		t.Errorf("telosb: %+v", d)
	}
	checkMatrix(t, pg.Matrix)
}

// checkMatrix checks the fleet matrix of fleetRuns.
func checkMatrix(t *testing.T, cells []MatrixCell) {
	t.Helper()
	find := func(dev, scheme, q string) *MatrixCell {
		for i, c := range cells {
			if c.Device == dev && c.Scheme == scheme && c.Quantity == q {
				return &cells[i]
			}
		}
		return nil
	}
	// The laptop measured its own time; the mote's is estimated.
	if c := find("lab1", "S0", QuantityTime); c == nil || c.Label != result.Measured {
		t.Errorf("lab1 S0 time: %+v, want measured on the laptop", c)
	}
	if c := find("telosb", "S1", QuantityTime); c == nil || c.Label != result.Estimated || c.Median != 0.004 {
		t.Errorf("telosb S1 time: %+v, want 4 ms estimated", c)
	}
	if c := find("telosb", "S1", QuantityEnergy); c == nil || c.Label != result.Estimated || c.Unit != "J" {
		t.Errorf("telosb S1 energy: %+v", c)
	}
	// The Pis' S0: three runs, the latest (pi2, 1 µs) shown, the range
	// reaching the slower run's 2 µs.
	c := find("raspberrypi", "S0", QuantityTime)
	if c == nil || c.Runs != 3 || c.Run != "20261202T110000Z-92000001" || c.Hi < 1.9e-6 || c.Lo > 1.1e-6 {
		t.Errorf("raspberrypi S0 time: %+v", c)
	}
	if find("raspberrypi", "S0", QuantityEnergy) != nil {
		t.Error("an energy appeared for the Pis, which priced none")
	}
}

func TestPostgresRoundTrip(t *testing.T) {
	u := pgtest.URL(t)
	ctx := context.Background()
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Dialect() != "postgres" || strings.Contains(s.Path(), "host=") == false {
		t.Errorf("dialect %s, path %s", s.Dialect(), s.Path())
	}
	if v, err := s.version(ctx); err != nil || v != SchemaVersion() {
		t.Fatalf("schema version %d (%v), want %d", v, err, SchemaVersion())
	}
	run := fleetRuns()[0]
	run.Results[0].Metrics[0].Summary.CILow = math.Inf(-1) // an unbounded interval: NULL in the index
	want := jsonOf(t, run)
	if err := s.Save(ctx, run); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j := jsonOf(t, got.Run); j != want {
		t.Errorf("document changed in the store:\n got %s\nwant %s", j, want)
	}
	if n := pgCount(t, s, "metrics", run.ID); n != 10 {
		t.Errorf("%d metric rows, want 10", n)
	}
	var median float64
	if err := s.queryRow(ctx, `SELECT median FROM metrics WHERE run_id = ? AND subject = 'S1@go/hash/1k' AND name = 'time'`,
		run.ID).Scan(&median); err != nil || median != run.Results[1].Metrics[0].Summary.Median {
		t.Errorf("indexed median %v (%v), want %v: a double, not PostgreSQL's 4-byte REAL", median, err, run.Results[1].Metrics[0].Summary.Median)
	}
	// Reopening applies nothing and keeps everything.
	s2, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if l, _ := s2.List(ctx, Filter{}); len(l) != 1 {
		t.Errorf("reopened store lists %d runs", len(l))
	}
}

// TestPostgresIdempotent: a run saved twice is one run; pushed from its
// file, from an export with more tags, or at once from two writers, still
// one; the same ID with other content is an error that changes nothing.
func TestPostgresIdempotent(t *testing.T) {
	s := openPG(t)
	ctx := context.Background()
	run := fleetRuns()[1]
	if err := s.Save(ctx, run); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, run); err != nil {
		t.Errorf("saving the same run again: %v", err)
	}
	tagged := *run
	tagged.Tags = []string{"from-export"}
	out, err := s.Import(ctx, bytes.NewReader(runFile(t, &tagged)), "export.json")
	if err != nil || len(out) != 1 || !out[0].AlreadyStored {
		t.Fatalf("import of the same run with a tag: %+v %v", out, err)
	}
	got, _ := s.Get(ctx, run.ID)
	if !slices.Equal(got.Tags, []string{"from-export"}) || got.Origin.Kind != Local {
		t.Errorf("after the re-import: tags %v, origin %v; want the tag added, the run still local", got.Tags, got.Origin.Kind)
	}
	other := fleetRuns()[1]
	other.Results = other.Results[:1]
	if _, err := s.Import(ctx, bytes.NewReader(runFile(t, other)), "forged.json"); err == nil || !strings.Contains(err.Error(), "different run with id "+run.ID) {
		t.Errorf("a different run under a stored id: %v", err)
	}
	if err := s.Save(ctx, other); err == nil || !strings.Contains(err.Error(), "already in the store") {
		t.Errorf("saving a different run under a stored id: %v", err)
	}
	if n := pgCount(t, s, "results", run.ID); n != 2 {
		t.Errorf("%d result rows after refused saves, want 2", n)
	}
	if n := pgCount(t, s, "runs", ""); n != 1 {
		t.Errorf("%d runs, want 1", n)
	}
}

// TestPostgresAtomic fails a save part-way (the hook between result rows,
// which COPY calls as it streams) and by cancelling, and finds no trace.
func TestPostgresAtomic(t *testing.T) {
	s := openPG(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	boom := errors.New("disk on fire")
	s.afterResult = func(i int) error {
		if i == 2 {
			return boom
		}
		return nil
	}
	if err := s.Save(ctx, testRun("R-hook", "bench", t0, 5)); !errors.Is(err, boom) {
		t.Errorf("save with a failing hook: %v", err)
	}
	s.afterResult = func(i int) error {
		if i == 1 {
			cancel()
		}
		return nil
	}
	if err := s.Save(ctx, testRun("R-cancel", "bench", t0, 5)); err == nil {
		t.Error("a save cancelled half-way succeeded")
	}
	s.afterResult = nil
	for _, table := range []string{"runs", "run_tags", "results", "metrics", "run_inputs"} {
		if n := pgCount(t, s, table, ""); n != 0 {
			t.Errorf("%d rows left in %s by failed saves", n, table)
		}
	}
	if err := s.Save(context.Background(), testRun("R-after", "bench", t0, 5)); err != nil {
		t.Errorf("a save after failed ones: %v", err)
	}
}

// TestPostgresConcurrent: processes' worth of stores (each its own
// connection pool) open a new database at once — racing to migrate it —
// then save distinct runs and all push one shared run at once.
func TestPostgresConcurrent(t *testing.T) {
	srv := pgtest.Start(t)
	u := srv.SocketURL(srv.NewDatabase(t, "postgres"))
	ctx := context.Background()
	const writers = 6
	shared := runFile(t, testRun("R-shared", "bench", t0, 10))
	var wg sync.WaitGroup
	errs := make(chan error, writers*3)
	outcomes := make(chan bool, writers)
	start := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := Open(ctx, u)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for i := range 3 {
				if err := s.Save(ctx, testRun(fmt.Sprintf("R-w%d-%d", w, i), "bench", t0.Add(time.Duration(i)*time.Second), 10)); err != nil {
					errs <- err
				}
			}
			out, err := s.Import(ctx, bytes.NewReader(shared), fmt.Sprintf("writer%d.json", w))
			if err != nil {
				errs <- err
				return
			}
			outcomes <- !out[0].AlreadyStored
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	close(outcomes)
	for err := range errs {
		t.Error(err)
	}
	inserted := 0
	for o := range outcomes {
		if o {
			inserted++
		}
	}
	if inserted != 1 {
		t.Errorf("the shared run was inserted by %d writers, want exactly 1", inserted)
	}
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := pgCount(t, s, "runs", ""); n != writers*3+1 {
		t.Errorf("%d runs, want %d", n, writers*3+1)
	}
	if n := pgCount(t, s, "results", ""); n != (writers*3+1)*10 {
		t.Errorf("%d results, want %d", n, (writers*3+1)*10)
	}
	if n := pgCount(t, s, "schema_version", ""); n != len(migrations) {
		t.Errorf("%d schema_version rows after racing migrations, want %d", n, len(migrations))
	}
}

// TestPostgresHostileNames: IDs, tags, subjects and hosts written to break
// SQL built by string concatenation are stored and found as the text they
// are, and the store is intact after.
func TestPostgresHostileNames(t *testing.T) {
	ctx := context.Background()
	hostile := []string{
		`x'); DROP TABLE runs; --`,
		`Robert'); DELETE FROM metrics WHERE ('1'='1`,
		`$1$2?`, `%_\`, `"quoted"`, `😈-ünïcode`, `tab	inside`,
	}
	for _, s := range []*Store{openTemp(t), openPG(t)} {
		t.Run(s.Dialect(), func(t *testing.T) {
			for i, h := range hostile {
				run := testRun(fmt.Sprintf("R-%d-%s", i, strings.NewReplacer(" ", "", "\t", "").Replace(h)), "bench'--", t0, 1)
				run.Results[0].Subject.Name = h
				run.Results[0].Subject.Scheme = h
				run.Environment.Hostname, run.Environment.Device = h, h
				tag := strings.NewReplacer(" ", "", "\t", "", ",", "").Replace(h)
				run.Tags = []string{tag}
				if err := s.Save(ctx, run); err != nil {
					t.Fatalf("%q: %v", h, err)
				}
				l, err := s.List(ctx, Filter{Tags: []string{tag}, Host: h, Device: h, Kind: "bench'--"})
				if err != nil || len(l) != 1 || l[0].ID != run.ID {
					t.Errorf("%q: listed %+v, %v", h, l, err)
				}
				got, err := s.Get(ctx, run.ID)
				if err != nil || got.Run.Results[0].Subject.Name != h || got.Hostname != h {
					t.Errorf("%q: read back %v", h, err)
				}
				if _, err := s.Tag(ctx, run.ID, tag+"'x"); err != nil {
					t.Errorf("tag %q: %v", tag+"'x", err)
				}
			}
			if n := pgCount(t, s, "runs", ""); n != len(hostile) {
				t.Errorf("%d runs, want %d", n, len(hostile))
			}
			if n := pgCount(t, s, "metrics", ""); n != 3*len(hostile) {
				t.Errorf("%d metric rows, want %d", n, 3*len(hostile))
			}
			cells, err := s.Matrix(ctx, Filter{})
			if err != nil || len(cells) != len(hostile) {
				t.Errorf("matrix of hostile names: %d cells, %v", len(cells), err)
			}
		})
	}
}

// TestPostgresCredentials: a password from the URL, $PGPASSWORD or a
// password file works; a wrong one fails quickly naming the host and what
// to check; the password is never in a message, Path, or a stored run.
func TestPostgresCredentials(t *testing.T) {
	srv := pgtest.Start(t)
	const user, secret = "lab", "s3cret-Pa55"
	srv.Admin(t, "DROP ROLE IF EXISTS lab", "CREATE ROLE lab LOGIN PASSWORD '"+secret+"'")
	db := srv.NewDatabase(t, user)
	ctx := context.Background()
	t.Setenv("PGPASSWORD", "")
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))

	withPassword := srv.TCPURL(db, user, secret, url.Values{"sslmode": {"disable"}})
	s, err := Open(ctx, withPassword)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.Path(), secret) || !strings.Contains(s.Path(), "lab@127.0.0.1") {
		t.Errorf("Path() = %q: want the URL without its password", s.Path())
	}
	run := testRun("R-cred", "bench", t0, 1)
	run.Command = []string{"cryptocost", "bench", "--db", withPassword, "--db=" + withPassword,
		"--db", "host=db user=lab password=" + secret}
	if err := s.Save(ctx, run); err != nil {
		t.Fatal(err)
	}
	var leaks int
	if err := s.queryRow(ctx, `SELECT count(*) FROM runs WHERE document LIKE ?`, "%"+secret+"%").Scan(&leaks); err != nil || leaks != 0 {
		t.Errorf("the password is in %d stored documents (%v)", leaks, err)
	}
	got, _ := s.Get(ctx, "R-cred")
	if got == nil || !strings.Contains(strings.Join(got.Run.Command, " "), "lab:REDACTED@127.0.0.1") {
		t.Errorf("stored command %v: want the URL with its password redacted", got.Run.Command)
	}
	s.Close()

	noPassword := srv.TCPURL(db, user, "", url.Values{"sslmode": {"disable"}})
	t.Run("PGPASSWORD", func(t *testing.T) {
		t.Setenv("PGPASSWORD", secret)
		s, err := Open(ctx, noPassword)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
	t.Run("pgpass", func(t *testing.T) {
		pass := filepath.Join(t.TempDir(), "pgpass")
		os.WriteFile(pass, []byte("# host:port:database:user:password\n127.0.0.1:*:*:lab:"+secret+"\n"), 0o600)
		t.Setenv("PGPASSFILE", pass)
		s, err := Open(ctx, noPassword)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
	wrong := srv.TCPURL(db, user, "not-"+secret, url.Values{"sslmode": {"disable"}})
	for name, u := range map[string]string{"wrong password": wrong, "no password": noPassword} {
		_, err := Open(ctx, u)
		host := fmt.Sprintf("127.0.0.1:%d", srv.Port)
		if err == nil || !strings.Contains(err.Error(), host) || !strings.Contains(err.Error(), "refused the login") ||
			!strings.Contains(err.Error(), "~/.pgpass") || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: %v; want an error naming %s and what to check, without the password", name, err, host)
		}
	}
	_, err = Open(ctx, srv.TCPURL("no_such_db", user, secret, url.Values{"sslmode": {"disable"}}))
	if err == nil || !strings.Contains(err.Error(), "no such database") || strings.Contains(err.Error(), secret) {
		t.Errorf("unknown database: %v", err)
	}
}

// TestPostgresSSLMode: sslmode is honoured — require refuses a server
// without TLS (this one has none), disable connects.
func TestPostgresSSLMode(t *testing.T) {
	srv := pgtest.Start(t)
	srv.Admin(t, "DROP ROLE IF EXISTS tlsuser", "CREATE ROLE tlsuser LOGIN PASSWORD 'pw'")
	db := srv.NewDatabase(t, "tlsuser")
	ctx := context.Background()
	for _, mode := range []string{"require", "verify-ca", "verify-full"} {
		_, err := Open(ctx, srv.TCPURL(db, "tlsuser", "pw", url.Values{"sslmode": {mode}}))
		if err == nil || !strings.Contains(err.Error(), "does not offer TLS") {
			t.Errorf("sslmode=%s against a server without TLS: %v", mode, err)
		}
	}
	for _, mode := range []string{"disable", "prefer"} {
		s, err := Open(ctx, srv.TCPURL(db, "tlsuser", "pw", url.Values{"sslmode": {mode}}))
		if err != nil {
			t.Errorf("sslmode=%s: %v", mode, err)
			continue
		}
		s.Close()
	}
}

// TestPostgresUnreachable: a closed port and a server that never answers
// fail with an error naming the host and what to check (the second within
// connect_timeout); SaveOrKeep keeps the run in a file that pushes later.
func TestPostgresUnreachable(t *testing.T) {
	ctx := context.Background()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() { // accepts, then says nothing: a black hole one hop away
		var held []net.Conn
		for {
			c, err := silent.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	for _, tc := range []struct{ addr, want string }{
		{closedAddr, "connection refused"},
		{silent.Addr().String(), "no answer within the connect timeout"},
	} {
		u := "postgres://lab:hunter2@" + tc.addr + "/lab?sslmode=disable&connect_timeout=1"
		run := testRun("R-offline-"+strings.ReplaceAll(tc.addr, ":", "-"), "bench", t0, 2)
		kept, err := SaveOrKeep(ctx, u, run)
		if err == nil || !strings.Contains(err.Error(), "cannot reach the PostgreSQL server at "+tc.addr) ||
			!strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "check the host and port") ||
			strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: %v", tc.addr, err)
		}
		if kept == "" {
			t.Fatalf("%s: the run was not kept", tc.addr)
		}
		// The kept file is the run, and pushes.
		s := openPG(t)
		failed := s.ImportFiles(ctx, []string{kept}, nil, func(o FileOutcome) {
			if o.Err != nil || len(o.Runs) != 1 || o.Runs[0].ID != run.ID {
				t.Errorf("pushing the kept file: %+v", o)
			}
		})
		if failed != 0 {
			t.Errorf("%d kept files failed to push", failed)
		}
	}
}

// TestPostgresInputs: the inputs a run carries are stored with it,
// indexed, and come back byte for byte; a tampered input is refused.
func TestPostgresInputs(t *testing.T) {
	s := openPG(t)
	ctx := context.Background()
	run := fleetRuns()[0]
	if err := s.Save(ctx, run); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Run.Inputs, run.Inputs) {
		t.Errorf("inputs came back as %+v", got.Run.Inputs)
	}
	used, err := s.RunsWithInput(ctx, run.Inputs[0].SHA256)
	if err != nil || !slices.Equal(used, []string{run.ID}) {
		t.Errorf("runs priced with the profile: %v, %v", used, err)
	}
	bad := fleetRuns()[0]
	bad.ID = "R-tampered"
	bad.Inputs[0].Content += "volts: 5.0\n"
	if err := s.Save(ctx, bad); err == nil || !strings.Contains(err.Error(), "is not its content's") {
		t.Errorf("a tampered input: %v", err)
	}
}
