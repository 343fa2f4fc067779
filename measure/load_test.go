package measure

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestLoadWatch reads a /proc written by the test: the load average at
// start, its highest sample and at the end; CPU pressure as the share of
// the run's time (its clock injected) some task waited; steal as the share
// of all CPU time; and unknowns as -1 where the files are missing. Fast
// tier.
func TestLoadWatch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(user, steal int) string {
		return "cpu  " + itoa(user) + " 0 100 1000 0 0 0 " + itoa(steal) + " 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
	}
	write("loadavg", "3.50 2.00 1.00 3/300 1234\n")
	write("pressure/cpu", "some avg10=50.00 avg60=40.00 avg300=30.00 total=1000000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
	write("stat", stat(500, 100))
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }

	w := watchLoad(dir, 2, clock)
	write("loadavg", "9.25 3.00 1.00 9/300 1234\n")
	now = now.Add(500 * time.Millisecond)
	w.Sample() // too soon: not read
	now = now.Add(time.Second)
	w.Sample()
	write("loadavg", "6.00 3.00 1.00 2/300 1234\n")
	now = now.Add(500 * time.Millisecond)         // 2 s in all
	write("pressure/cpu", "some total=2500000\n") // 1.5 s of the 2 s
	write("stat", stat(500+300, 100+100))         // 400 more jiffies, 100 of them stolen
	l := w.Finish()
	if l.CPUs != 2 || l.LoadStart != 3.5 || l.LoadMax != 9.25 || l.LoadEnd != 6 {
		t.Errorf("load %+v, want 2 CPUs, 3.5 at start, 9.25 highest, 6 at the end", l)
	}
	if l.CPUPressure != 0.75 {
		t.Errorf("CPU pressure %v, want 0.75 (1.5 s of 2 s)", l.CPUPressure)
	}
	if l.Steal != 0.25 {
		t.Errorf("steal %v, want 0.25 (100 of 400 jiffies)", l.Steal)
	}

	none := watchLoad(t.TempDir(), 4, clock).Finish()
	if none.CPUPressure != -1 || none.Steal != -1 || none.LoadMax != 0 || none.CPUs != 4 {
		t.Errorf("without /proc: %+v, want unknowns", none)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
