package store

import (
	"context"
	"fmt"
	"time"
)

// Selection is export's --all and --since: every stored run, or those
// started at or after a date, time or age, instead of runs named.
type Selection struct {
	All   bool
	Since string
}

// Refs are the runs to export: refs as given, or the IDs of the runs
// the selection picks in the store at db (never created), oldest first.
// Giving both refs and a selection, or neither, is an error, and so is
// a selection of none.
func (s Selection) Refs(ctx context.Context, db string, refs []string) ([]string, error) {
	selecting := s.All || s.Since != ""
	if selecting == (len(refs) > 0) {
		return nil, fmt.Errorf("give the runs to export (RUN..., or latest), or --all, or --since DATE|AGE: one of them")
	}
	if !selecting {
		return refs, nil
	}
	t, err := ParseWhen(s.Since, time.Now(), false)
	if err != nil {
		return nil, fmt.Errorf("--since: %w", err)
	}
	var ids []string
	err = withExisting(ctx, db, func(st *Store) error {
		ids, err = st.IDs(ctx, Filter{Since: t})
		return err
	})
	if err == nil && len(ids) == 0 {
		err = fmt.Errorf("no runs to export: the store has none%s", map[bool]string{true: " since " + s.Since}[s.Since != ""])
	}
	return ids, err
}
