package report

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"github.com/cryptocost/cryptocost/result"
)

// Options describe a report.
type Options struct {
	// Title of the page (default: "cryptocost report").
	Title string
	// Origins maps a run ID to where it came from ("imported from
	// board.json on …"), shown in the runs table.
	Origins map[string]string
	// Generated is the report's time (default now); Tool the cryptocost
	// that wrote it.
	Generated time.Time
	Tool      string
	// Fleet, when set, adds the fleet section: the device × algorithm ×
	// operation matrix of a shared store (fleet.go).
	Fleet *Fleet
}

//go:embed report.html.tmpl
var pageTemplate string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": strings.Join,
	"inc":  func(i int) int { return i + 1 },
}).Parse(pageTemplate))

// The data the template renders.
type (
	pageData struct {
		Title     string
		Generated string
		Tool      string
		Font      template.CSS
		Runs      []runData
		Figures   []figureData
		Absent    []Builder
		Fleet     *fleetData
	}
	runData struct {
		Label, ID, Kind, Status, Started, Duration, Host, Device, Platform, CPU, Tool, Origin string
		Tags                                                                                  []string
		Command                                                                               string
		Results                                                                               int
		Rows                                                                                  []resultRow
		Env                                                                                   [][2]string
		Deps                                                                                  [][2]string
		Notes                                                                                 []string
		Methods                                                                               []methodData
		Verified                                                                              []string
		Errors                                                                                []string
	}
	resultRow struct {
		Subject, Metric, Median, Unit, CI, N, Label, How string
		First                                            bool
		Span                                             int
		Warnings                                         []string
		Error                                            string
		NotMeasured                                      bool
	}
	methodData struct {
		Name, Timer, Stops string
		Subjects           int
	}
	figureData struct {
		N       int
		ID      string
		Builder string
		Title   string
		Caption string
		Sources []string
		SVG     template.HTML
		Table   *Table
	}
)

// WriteHTML writes one self-contained HTML page: runs, figures (inline
// SVG), result tables, environments and methods. It needs no network and
// no script to display.
func WriteHTML(w io.Writer, runs []*result.Run, opt Options) error {
	if len(runs) == 0 && opt.Fleet == nil {
		return fmt.Errorf("no runs to report")
	}
	in := NewInput(runs...)
	charts, absent, err := BuildAll(in)
	if err != nil {
		return err
	}
	if opt.Generated.IsZero() {
		opt.Generated = time.Now()
	}
	data := pageData{
		Title:     cmp.Or(opt.Title, "cryptocost report"),
		Generated: opt.Generated.UTC().Format("2006-01-02 15:04 UTC"),
		Tool:      opt.Tool,
		Font:      template.CSS("@font-face{font-family:'Liberation Sans';src:url(data:font/ttf;base64," + base64.StdEncoding.EncodeToString(liberationsansregular.TTF) + ") format('truetype');}"),
		Absent:    absent,
		Fleet:     fleetSection(opt.Fleet),
	}
	for i, run := range runs {
		data.Runs = append(data.Runs, runSection(in.Labels[i], run, opt.Origins[run.ID]))
	}
	for i, c := range charts {
		var buf bytes.Buffer
		if err := c.RenderInline(&buf); err != nil {
			return fmt.Errorf("chart %s: %w", c.ID, err)
		}
		data.Figures = append(data.Figures, figureData{N: i + 1, ID: c.ID, Builder: c.Builder, Title: c.Title, Caption: c.Caption,
			Sources: c.Sources, Table: c.Table, SVG: inlineSVG(buf.Bytes(), c.Title)})
	}
	return page.Execute(w, data)
}

// inlineSVG drops the XML prolog (not allowed inside HTML) and labels the
// image for screen readers.
func inlineSVG(svg []byte, title string) template.HTML {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = strings.Replace(s, "<svg ", `<svg role="img" aria-label="`+template.HTMLEscapeString(title)+`" `, 1)
	return template.HTML(s)
}

func runSection(label string, run *result.Run, origin string) runData {
	env := run.Environment
	rd := runData{
		Label: label, ID: run.ID, Kind: run.Kind, Status: string(run.Status),
		Started:  run.Started.UTC().Format("2006-01-02 15:04:05 UTC"),
		Duration: run.Finished.Sub(run.Started).Round(time.Second).String(),
		Host:     env.Hostname, Device: env.Device, Platform: env.OS + "/" + env.Arch + map[bool]string{true: " GOARM=" + env.GOARM}[env.GOARM != ""],
		CPU: env.CPUModel, Tool: strings.TrimSpace(run.Tool.Version + " " + run.Tool.Commit), Origin: cmp.Or(origin, "made here"),
		Tags: run.Tags, Command: strings.Join(run.Command, " "), Results: len(run.Results), Notes: env.Notes, Errors: run.Errors,
	}
	add := func(k, v string) {
		if v != "" && v != "0" {
			rd.Env = append(rd.Env, [2]string{k, v})
		}
	}
	add("hostname", env.Hostname)
	add("OS / architecture", env.OS+"/"+env.Arch)
	add("GOARM", env.GOARM)
	add("Go", env.GoVersion)
	add("kernel", env.Kernel)
	add("CPU", env.CPUModel)
	add("logical CPUs", fmt.Sprint(env.CPUs))
	add("GOMAXPROCS", fmt.Sprint(env.GOMAXPROCS))
	if env.CPUMHz > 0 {
		add("clock", fmt.Sprintf("%.0f MHz (%s)", env.CPUMHz, env.CPUMHzFrom))
	}
	add("governor", env.Governor)
	add("virtualization", env.Virtual)
	add("device profile", env.Device)
	for _, k := range slices.Sorted(maps.Keys(env.Deps)) {
		rd.Deps = append(rd.Deps, [2]string{k, env.Deps[k]})
	}
	methods := map[string]*methodData{}
	var order []string
	verified := map[string]bool{}
	for _, r := range run.Results {
		if r.Provenance.Verified != "" {
			verified[r.Provenance.Verified] = true
		}
		if r.Error != "" {
			rd.Rows = append(rd.Rows, resultRow{Subject: r.Subject.Name, First: true, Span: 1, Error: r.Error})
			continue
		}
		meth := r.Provenance.Method
		key := meth.Name + "\x00" + meth.Timer
		md := methods[key]
		if md == nil {
			md = &methodData{Name: cmp.Or(meth.Name, string(r.Provenance.Label)), Timer: meth.Timer}
			methods[key] = md
			order = append(order, key)
		}
		md.Subjects++
		if meth.Stop != "" && !strings.Contains(md.Stops, meth.Stop) {
			md.Stops = strings.TrimPrefix(md.Stops+", "+meth.Stop, ", ")
		}
		for i := range r.Metrics {
			m := &r.Metrics[i]
			row := resultRow{Subject: r.Subject.Name, Metric: m.Name, Median: num(m.Summary.Median), Unit: m.Unit,
				CI: ciText(m.Summary, 1), N: fmt.Sprint(max(m.Summary.N, len(m.Samples))), Label: string(m.Label),
				How: Provenance(&r, m), NotMeasured: m.Label != result.Measured}
			if i == 0 {
				row.First, row.Span, row.Warnings = true, len(r.Metrics), r.Warnings
			}
			rd.Rows = append(rd.Rows, row)
		}
	}
	for _, k := range order {
		rd.Methods = append(rd.Methods, *methods[k])
	}
	rd.Verified = slices.Sorted(maps.Keys(verified))
	return rd
}
