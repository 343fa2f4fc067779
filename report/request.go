package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// Request is the report command's request: the runs named and, with
// Fleet, a store's fleet matrix, written as one self-contained HTML file.
// Check validates it before any run is read; Write writes it.
type Request struct {
	// Runs name the runs reported (RUN..., latest or run JSON files).
	Runs []string
	// Output is the HTML file, written atomically.
	Output string
	// Title is the page's; Tool, the cryptocost that writes it.
	Title, Tool string
	// Fleet adds the store's device × algorithm × operation matrix, over
	// the runs started at or after Since (a date, a time or an age: 7d).
	Fleet bool
	Since string
}

// Check refuses a report without runs or without an HTML file to write.
func (r *Request) Check() error {
	if len(r.Runs) == 0 && !r.Fleet {
		return fmt.Errorf("give the runs to report (RUN..., latest or run JSON files), or --fleet")
	}
	if r.Output == "" {
		return fmt.Errorf("give the report file with -o, such as -o report.html")
	}
	if !strings.HasSuffix(strings.ToLower(r.Output), ".html") && !strings.HasSuffix(strings.ToLower(r.Output), ".htm") {
		return fmt.Errorf("-o %s: the report is HTML; name the file .html", r.Output)
	}
	return nil
}

// Write writes the runs (origins[i] is where runs[i] came from, "" for
// nowhere said) and the fleet matrix (nil for none) to Output, and says
// so on log.
func (r *Request) Write(log io.Writer, runs []*result.Run, origins []string, fleet *Fleet) error {
	opt := Options{Title: r.Title, Origins: map[string]string{}, Tool: r.Tool, Fleet: fleet}
	for i, o := range origins {
		if o != "" {
			opt.Origins[runs[i].ID] = o
		}
	}
	if err := atomicfile.Write(r.Output, func(w io.Writer) error { return WriteHTML(w, runs, opt) }); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s\n", r.Output)
	return nil
}
