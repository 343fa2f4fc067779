package result

import (
	"fmt"
	"path/filepath"
	"strings"
)

// FormatNamesWith are the formats a command's --format takes: its own
// (own, such as energy battery's text and markdown), then this package's.
func FormatNamesWith(own []Format) []string {
	var names []string
	for _, f := range own {
		names = append(names, f.Name())
	}
	return append(names, FormatNames()...)
}

// DefaultFormatName is --format's default: a command's first own
// format, else table.
func DefaultFormatName(own []Format) string {
	if len(own) > 0 {
		return own[0].Name()
	}
	return "table"
}

// FormatWith is the format named: one of own (by name, in any case),
// else a registered one. The one --format resolver.
func FormatWith(name string, own []Format) (Format, error) {
	for _, f := range own {
		if strings.EqualFold(f.Name(), name) {
			return f, nil
		}
	}
	f, err := FormatByName(name)
	if err != nil && len(own) > 0 {
		return nil, fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(FormatNamesWith(own), ", "))
	}
	return f, err
}

// FormatForFile is the --format a command writes file in: format when
// it was given, else the format of file's extension (.json, .csv), else
// format (its default). The rule of every command that writes files.
func FormatForFile(format string, given bool, file string) string {
	if !given && file != "" {
		switch strings.ToLower(filepath.Ext(file)) {
		case ".json":
			return "json"
		case ".csv":
			return "csv"
		}
	}
	return format
}
