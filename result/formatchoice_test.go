package result

import (
	"io"
	"strings"
	"testing"
)

type choiceTestFormat string

func (f choiceTestFormat) Name() string                 { return string(f) }
func (choiceTestFormat) Description() string            { return "a command's own" }
func (choiceTestFormat) Write(io.Writer, ...*Run) error { return nil }

// -o's extension chooses the format only when --format is not given.
func TestFormatForFile(t *testing.T) {
	for _, tc := range []struct {
		format string
		given  bool
		file   string
		want   string
	}{
		{"table", false, "", "table"},
		{"table", false, "run.JSON", "json"},
		{"table", false, "runs.csv", "csv"},
		{"table", false, "run.txt", "table"},
		{"table", true, "run.json", "table"},
		{"gobench", true, "runs.csv", "gobench"},
	} {
		if got := FormatForFile(tc.format, tc.given, tc.file); got != tc.want {
			t.Errorf("FormatForFile(%q, %v, %q) = %q, want %q", tc.format, tc.given, tc.file, got, tc.want)
		}
	}
}

// A command's own formats come first, match in any case, and make the
// error list them.
func TestFormatWith(t *testing.T) {
	own := []Format{choiceTestFormat("text"), choiceTestFormat("markdown")}
	if got := DefaultFormatName(own); got != "text" {
		t.Errorf("default %q, want text", got)
	}
	if got := DefaultFormatName(nil); got != "table" {
		t.Errorf("default %q, want table", got)
	}
	if f, err := FormatWith("Markdown", own); err != nil || f.Name() != "markdown" {
		t.Errorf("FormatWith(Markdown) = %v, %v", f, err)
	}
	if f, err := FormatWith("json", own); err != nil || f.Name() != "json" {
		t.Errorf("FormatWith(json) = %v, %v", f, err)
	}
	_, err := FormatWith("yaml", own)
	if err == nil || err.Error() != "unknown format \"yaml\": want one of text, markdown, "+strings.Join(FormatNames(), ", ") {
		t.Errorf("FormatWith(yaml) = %v", err)
	}
	if _, err := FormatWith("yaml", nil); err == nil {
		t.Error("FormatWith(yaml) without own formats: no error")
	}
}
