package main

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"
)

// Script commands for testdata/script/model*.txtar.
func init() {
	scriptCmds["modelimage"] = modelImage
	scriptCmds["csvrows"] = csvRows
	scriptCmds["modelrun"] = modelRun
}

// modelrun FILE STATUS MIN-RESULTS: FILE is a valid cryptocost run of kind
// model with that status and at least MIN-RESULTS results, every metric
// labelled as not measured here (modelled, or imported beside a model).
// (checkjson wants raw samples on every "time" metric, as a bench run has;
// a model's time is one exact value.)
func modelRun(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: modelrun FILE STATUS MIN-RESULTS")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	run := runs[0]
	minResults, _ := strconv.Atoi(args[2])
	ok := run.Kind == "model" && string(run.Status) == args[1] && len(run.Results) >= minResults
	for _, r := range run.Results {
		for _, m := range r.Metrics {
			if m.Label == result.Measured {
				ok = false
			}
		}
	}
	if ok == neg {
		ts.Fatalf("%s: kind %s, status %s, %d results; want kind model, status %s, at least %d results, nothing labelled measured",
			args[0], run.Kind, run.Status, len(run.Results), args[1], minResults)
	}
}

// modelimage FILE: FILE is a PNG that decodes, or an SVG document, by its
// extension.
func modelImage(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: modelimage FILE")
	}
	data := []byte(ts.ReadFile(args[0]))
	var err error
	switch {
	case strings.HasSuffix(args[0], ".png"):
		_, err = png.Decode(bytes.NewReader(data))
	case strings.HasSuffix(args[0], ".svg"):
		if !bytes.Contains(data, []byte("<svg")) {
			err = errNoSVG
		}
	default:
		ts.Fatalf("modelimage: %s is neither .png nor .svg", args[0])
	}
	if (err == nil) == neg {
		ts.Fatalf("%s: image check %v (negated: %v)", args[0], err, neg)
	}
}

type noSVG struct{}

func (noSVG) Error() string { return "no <svg element" }

var errNoSVG = noSVG{}

// csvrows FILE N: FILE is CSV with exactly N data rows after the header.
func csvRows(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: csvrows FILE N")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("csvrows: %v", err)
	}
	rows, err := csv.NewReader(strings.NewReader(ts.ReadFile(args[0]))).ReadAll()
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	if (len(rows)-1 == want) == neg {
		ts.Fatalf("%s: %d data rows, want %d", args[0], len(rows)-1, want)
	}
}

// TestWriteOutKeepsSpecialFiles: -o to something that is not a regular
// file (a pipe here; /dev/null in use) is written, never replaced by a
// renamed temporary file; a regular file is replaced whole.
func TestWriteOutKeepsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	cmd := &cobra.Command{}
	if err := writeOut(cmd, fifo, func(w io.Writer) error { _, err := io.WriteString(w, "row\n"); return err }); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "row\n" {
			t.Errorf("the pipe read %q", s)
		}
	case <-time.After(time.Minute): // a hang guard: the row is in the pipe already
		t.Error("nothing was written to the pipe")
	}
	if st, err := os.Stat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", st.Mode(), err)
	}
	file := filepath.Join(dir, "out.csv")
	os.WriteFile(file, []byte("old"), 0o644)
	if err := writeOut(cmd, file, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "new" {
		t.Errorf("file holds %q", b)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o644 {
		t.Errorf("file mode %v", st.Mode())
	}
}
