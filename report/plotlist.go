package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// ImageFormat is a chart image's format: the one given (svg or png), or
// the file's extension's, else svg.
func ImageFormat(format, file string) (string, error) {
	if format == "" {
		format = strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
		if format != "png" {
			format = "svg"
		}
	}
	if format != "svg" && format != "png" {
		return "", fmt.Errorf("--format %q: want svg or png", format)
	}
	return format, nil
}

// WriteChartList lists the charts built and, for each builder that made
// none, the data it needs.
func WriteChartList(w io.Writer, charts []*Chart, absent []Builder) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHART\tTITLE")
	for _, c := range charts {
		fmt.Fprintf(tw, "%s\t%s\n", c.ID, c.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, b := range absent {
		fmt.Fprintf(w, "no %s chart: needs %s\n", b.Name, b.Expects)
	}
	return nil
}
