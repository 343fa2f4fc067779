package result

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBenchstatShowsDeltas runs benchstat — built from the golang.org/x/perf
// version go.mod pins — on two gobench files of two different runs, as
// the README's `benchstat a.txt b.txt` does, and finds one table with a
// delta column: the run IDs must not split the files into two tables.
//
// Tier: full (it builds benchstat with the go command).
func TestBenchstatShowsDeltas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat (full tier)")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to build benchstat: install Go 1.26")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "benchstat")
	build := exec.Command(goCmd, "build", "-o", bin, "golang.org/x/perf/cmd/benchstat")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building benchstat: %v\n%s", err, out)
	}
	a, b := fixture(), fixture()
	b.ID, b.Tool.Version = "20261202T100000Z-11111111", "v0.0.1-test"
	for i := range b.Results[0].Metrics[0].Samples {
		b.Results[0].Metrics[0].Samples[i] *= 1.2 // 20 % slower
	}
	files := map[string]*Run{"a.txt": a, "b.txt": b}
	for name, run := range files {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := (gobenchFormat{}).Write(f, run); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	cmd := exec.Command(bin, "a.txt", "b.txt")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "vs base") {
		t.Errorf("no delta column (vs base):\n%s", text)
	}
	// Each table has both files as columns (split tables have one each).
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "a.txt") != strings.Contains(line, "b.txt") {
			t.Errorf("a table with one file only: %q\n%s", line, text)
			break
		}
	}
	if !regexp.MustCompile(`SHA-256@go/hash/size=1k.*\+20\.\d+%`).MatchString(text) {
		t.Errorf("no +20%% delta for SHA-256:\n%s", text)
	}
}
