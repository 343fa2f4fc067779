package store

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Show is the show command: the run ref names in the store at db
// (never created) written to w in format f, under its header (WriteHeader)
// when f is the table.
func Show(ctx context.Context, db, ref string, f result.Format, w io.Writer) error {
	return withExisting(ctx, db, func(st *Store) error {
		got, err := st.Get(ctx, ref)
		if err != nil {
			return err
		}
		if f.Name() == "table" {
			WriteHeader(w, got)
		}
		return f.Write(w, got.Run)
	})
}

// WriteHeader writes where a stored run came from, above its table: its
// ID, kind, status, start, origin and tags, then the command that made
// it.
func WriteHeader(w io.Writer, got *Stored) {
	origin := "made here"
	if got.Origin.Kind == Imported {
		origin = got.Origin.String()
	}
	fmt.Fprintf(w, "run %s · %s · %s · started %s · %s", got.ID, got.Kind, got.Status,
		got.Started.UTC().Format("2006-01-02 15:04:05Z"), origin)
	if len(got.Tags) > 0 {
		fmt.Fprintf(w, " · tags %s", strings.Join(got.Tags, ","))
	}
	fmt.Fprintln(w)
	if len(got.Run.Command) > 0 {
		fmt.Fprintf(w, "command: %s\n", strings.Join(got.Run.Command, " "))
	}
}
