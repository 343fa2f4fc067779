package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestPlotRequestCheck asks for a chart and an output unless listing, and
// resolves the image format. Tier: fast.
func TestPlotRequestCheck(t *testing.T) {
	for _, c := range []struct {
		req        PlotRequest
		want, form string
	}{
		{PlotRequest{Output: "a.svg"}, "name a chart with --chart (cryptocost plot RUN --list shows them)", ""},
		{PlotRequest{Chart: "throughput"}, "give the output with -o, such as -o throughput.svg", ""},
		{PlotRequest{Chart: "throughput", Output: "a.svg", Format: "pdf"}, `--format "pdf": want svg or png`, ""},
		{PlotRequest{List: true}, "", "svg"},
		{PlotRequest{Chart: "throughput", Output: "a.PNG"}, "", "png"},
		{PlotRequest{Chart: "throughput", Output: "dir/"}, "", "svg"},
	} {
		err := c.req.Check()
		if c.want == "" && (err != nil || c.req.format != c.form) || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("Check %+v: %v, format %q; want %q, %q", c.req, err, c.req.format, c.want, c.form)
		}
	}
}

// TestPlotRequestRun lists the charts, writes one to a file, several into
// a directory, and refuses several charts for a file. Tier: fast (renders
// SVG).
func TestPlotRequestRun(t *testing.T) {
	runs := []*result.Run{benchRun()}
	run := func(req PlotRequest) (string, string, error) {
		t.Helper()
		if err := req.Check(); err != nil {
			t.Fatal(err)
		}
		var w, log bytes.Buffer
		err := req.Run(&w, &log, runs)
		return w.String(), log.String(), err
	}
	if out, _, err := run(PlotRequest{List: true}); err != nil || !strings.Contains(out, "throughput-hash") {
		t.Errorf("--list: %v\n%s", err, out)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "hash.svg")
	if _, log, err := run(PlotRequest{Chart: "throughput-hash", Output: file}); err != nil || log != "wrote "+file+" (throughput-hash)\n" {
		t.Errorf("one chart: %v, log %q", err, log)
	}
	if _, err := os.Stat(file); err != nil {
		t.Error(err)
	}
	sub := filepath.Join(dir, "charts")
	if _, log, err := run(PlotRequest{Chart: "throughput", Output: sub}); err != nil || strings.Count(log, "wrote ") != 2 {
		t.Errorf("a builder's charts: %v, log %q", err, log)
	}
	for _, id := range []string{"throughput-hash", "throughput-aead"} {
		if _, err := os.Stat(filepath.Join(sub, id+".svg")); err != nil {
			t.Error(err)
		}
	}
	if _, _, err := run(PlotRequest{Chart: "throughput", Output: file}); err == nil || !strings.Contains(err.Error(), `"throughput" names 2 charts, so -o must be a directory`) {
		t.Errorf("several charts for a file: %v", err)
	}
}

// TestRequestCheck refuses a report without runs or an HTML file. Tier:
// fast.
func TestRequestCheck(t *testing.T) {
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Output: "r.html"}, "give the runs to report (RUN..., latest or run JSON files), or --fleet"},
		{Request{Runs: []string{"latest"}}, "give the report file with -o, such as -o report.html"},
		{Request{Runs: []string{"latest"}, Output: "r.pdf"}, "-o r.pdf: the report is HTML; name the file .html"},
		{Request{Runs: []string{"latest"}, Output: "r.HTM"}, ""},
		{Request{Fleet: true, Output: "r.html"}, ""},
	} {
		err := c.req.Check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("Check %+v: %v, want %q", c.req, err, c.want)
		}
	}
}

// TestRequestWrite writes the HTML file with the runs' origins and says
// so. Tier: fast.
func TestRequestWrite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	req := Request{Runs: []string{"a.json"}, Output: out, Title: "Lab report"}
	var log bytes.Buffer
	if err := req.Write(&log, []*result.Run{benchRun()}, []string{"file a.json"}, nil); err != nil {
		t.Fatal(err)
	}
	if log.String() != "wrote "+out+"\n" {
		t.Errorf("log %q", log.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Lab report", "file a.json"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
