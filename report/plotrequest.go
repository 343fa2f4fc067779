package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// PlotRequest is the plot command's request: the charts a set of runs
// holds data for listed (List), or the ones Chart names written as images
// to Output, a file for one chart, a directory for several. Check
// validates it before any run is read; Run does it.
type PlotRequest struct {
	// Chart is a chart ID or a builder's name (Pick).
	Chart string
	// Output is the image file, or the directory for several charts.
	Output string
	// Format is svg or png ("": ImageFormat's choice from Output).
	Format string
	List   bool

	format string
}

// Check asks for the chart and the output unless listing, and resolves the
// image format.
func (p *PlotRequest) Check() error {
	if !p.List {
		if p.Chart == "" {
			return fmt.Errorf("name a chart with --chart (cryptocost plot RUN --list shows them)")
		}
		if p.Output == "" {
			return fmt.Errorf("give the output with -o, such as -o %s.svg", p.Chart)
		}
	}
	var err error
	p.format, err = ImageFormat(p.Format, p.Output)
	return err
}

// Run builds the runs' charts and lists them on w, or writes the chosen
// ones, saying each file on log.
func (p *PlotRequest) Run(w, log io.Writer, runs []*result.Run) error {
	charts, absent, err := BuildAll(NewInput(runs...))
	if err != nil {
		return err
	}
	if p.List {
		return WriteChartList(w, charts, absent)
	}
	return p.writeCharts(log, charts)
}

// writeCharts writes the charts Chart names: one to the file Output,
// several into the directory Output.
func (p *PlotRequest) writeCharts(log io.Writer, charts []*Chart) error {
	picked, err := Pick(charts, p.Chart)
	if err != nil {
		return err
	}
	if len(picked) == 1 && !isDir(p.Output) {
		return p.writeChart(log, picked[0], p.Output)
	}
	if err := os.MkdirAll(p.Output, 0o755); err != nil {
		return fmt.Errorf("%q names %d charts, so -o must be a directory: %w", p.Chart, len(picked), err)
	}
	for _, c := range picked {
		if err := p.writeChart(log, c, filepath.Join(p.Output, c.ID+"."+p.format)); err != nil {
			return err
		}
	}
	return nil
}

// writeChart writes one chart's image to path atomically.
func (p *PlotRequest) writeChart(log io.Writer, c *Chart, path string) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return c.Render(w, p.format) }); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s (%s)\n", path, c.ID)
	return nil
}

// isDir says whether p is a directory, or names one with a trailing
// separator.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir() || strings.HasSuffix(p, string(os.PathSeparator))
}
