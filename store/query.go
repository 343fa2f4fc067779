package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Summary is what the store's index knows about a run, without its
// document.
type Summary struct {
	ID          string        `json:"id"`
	Kind        string        `json:"kind"`
	Status      result.Status `json:"status"`
	Started     time.Time     `json:"started"`
	Finished    time.Time     `json:"finished"`
	Hostname    string        `json:"hostname,omitempty"`
	Device      string        `json:"device,omitempty"`
	GOOS        string        `json:"goos,omitempty"`
	GOARCH      string        `json:"goarch,omitempty"`
	CPUModel    string        `json:"cpu_model,omitempty"`
	ToolVersion string        `json:"tool_version,omitempty"`
	// MachineID is the measuring machine's ID (result.Environment's
	// machine_id), which tells apart boards that share a host name.
	MachineID string `json:"machine_id,omitempty"`
	// ContentSHA256 is ContentHash of the run: the key of idempotent
	// saves.
	ContentSHA256 string    `json:"content_sha256"`
	Results       int       `json:"results"`
	Tags          []string  `json:"tags,omitempty"`
	Origin        Origin    `json:"origin"`
	SavedAt       time.Time `json:"saved_at"`
}

// Stored is a run read back from the store with what the store knows
// about it.
type Stored struct {
	Summary
	Run *result.Run
}

// Filter selects runs; zero fields match everything.
type Filter struct {
	Kind   string // exact, ignoring case: "bench", "tls"
	Device string // the environment's device profile, ignoring case
	Host   string // the environment's hostname, ignoring case
	Status string // complete, interrupted, failed
	Origin string // local or imported
	// Since and Until bound the run's start time: Since ≤ started < Until.
	Since, Until time.Time
	// Tags must all be on the run.
	Tags []string
	// Limit caps the number of runs returned (most recent first); 0 for
	// no cap.
	Limit int
}

const summaryColumns = `id, kind, status, started, finished, hostname, device, goos, goarch, cpu_model,
	tool_version, machine_id, content_sha256, results, origin, imported_from, imported_sha256, imported_at,
	imported_by, saved_at`

// List returns the runs matching f, most recent first.
func (s *Store) List(ctx context.Context, f Filter) ([]Summary, error) {
	where, args := f.where("")
	q := "SELECT " + summaryColumns + " FROM runs" + where + " ORDER BY started DESC, id DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		sum, err := scanSummary(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Tags, err = s.tags(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// where is the SQL condition (" WHERE …", or "") and its parameters
// for f, on the runs table under alias (runs' own columns when "").
func (f Filter) where(alias string) (string, []any) {
	col := func(c string) string {
		if alias == "" {
			return c
		}
		return alias + "." + c
	}
	var where []string
	var args []any
	eq := func(c, v string) {
		if v != "" {
			// lower() on both sides: ASCII case folding, as SQLite's
			// NOCASE, in either database.
			where = append(where, "lower("+col(c)+") = lower(?)")
			args = append(args, v)
		}
	}
	eq("kind", f.Kind)
	eq("device", f.Device)
	eq("hostname", f.Host)
	eq("status", f.Status)
	eq("origin", f.Origin)
	if !f.Since.IsZero() {
		where = append(where, col("started")+" >= ?")
		args = append(args, formatTime(f.Since))
	}
	if !f.Until.IsZero() {
		where = append(where, col("started")+" < ?")
		args = append(args, formatTime(f.Until))
	}
	for _, t := range f.Tags {
		where = append(where, col("id")+" IN (SELECT run_id FROM run_tags WHERE tag = ?)")
		args = append(args, t)
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

func scanSummary(row interface{ Scan(...any) error }, extra ...any) (Summary, error) {
	var sum Summary
	var status, started, finished, importedAt, savedAt string
	dest := []any{&sum.ID, &sum.Kind, &status, &started, &finished, &sum.Hostname, &sum.Device, &sum.GOOS,
		&sum.GOARCH, &sum.CPUModel, &sum.ToolVersion, &sum.MachineID, &sum.ContentSHA256, &sum.Results,
		&sum.Origin.Kind, &sum.Origin.From, &sum.Origin.SHA256, &importedAt, &sum.Origin.By, &savedAt}
	err := row.Scan(append(dest, extra...)...)
	if err != nil {
		return sum, err
	}
	sum.Status = result.Status(status)
	sum.Started, sum.Finished, sum.SavedAt = parseTime(started), parseTime(finished), parseTime(savedAt)
	if importedAt != "" {
		sum.Origin.At = parseTime(importedAt)
	}
	return sum, nil
}

func (s *Store) tags(ctx context.Context, id string) ([]string, error) {
	rows, err := s.query(ctx, `SELECT tag FROM run_tags WHERE run_id = ? ORDER BY tag`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tags []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		tags = append(tags, t)
	}
	return tags, rows.Err()
}

// Latest is the run reference that means the most recently started run.
const Latest = "latest"

// Resolve turns a run reference — a full ID, a unique prefix of one, or
// "latest" — into the run's ID.
func (s *Store) Resolve(ctx context.Context, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", errors.New("empty run id: give an id or a unique prefix (cryptocost runs lists them)")
	}
	if strings.EqualFold(ref, Latest) {
		var id string
		err := s.queryRow(ctx, `SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1`).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("no runs in %s yet: run cryptocost bench, or import one", s.path)
		}
		return id, err
	}
	escaped := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(ref)
	// lower() on both sides: SQLite's LIKE ignores ASCII case,
	// PostgreSQL's does not; a prefix matches the same on either.
	rows, err := s.query(ctx, `SELECT id FROM runs WHERE id = ? OR lower(id) LIKE lower(?) ESCAPE '\' ORDER BY id LIMIT 6`, ref, escaped+"%")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", err
		}
		if id == ref {
			return id, nil // an exact ID wins over longer IDs it prefixes
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("no run %q in %s: cryptocost runs lists the stored runs", ref, s.path)
	case 1:
		return ids[0], nil
	}
	more := ""
	if len(ids) > 5 {
		ids, more = ids[:5], ", …"
	}
	return "", fmt.Errorf("run %q is ambiguous: it starts %s%s; give more characters", ref, strings.Join(ids, ", "), more)
}

// Get reads the run ref names (see Resolve). The run's Tags are the
// store's tags (the run's own plus those added with Tag).
func (s *Store) Get(ctx context.Context, ref string) (*Stored, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	var doc string
	sum, err := scanSummary(s.queryRow(ctx, "SELECT "+summaryColumns+", document FROM runs WHERE id = ?", id), &doc)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	runs, err := result.ReadJSON(strings.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("run %s: stored document unreadable: %w", id, err)
	}
	if sum.Tags, err = s.tags(ctx, id); err != nil {
		return nil, err
	}
	runs[0].Tags = slices.Clone(sum.Tags)
	return &Stored{Summary: sum, Run: runs[0]}, nil
}

// Tag adds tags to the run ref names.
func (s *Store) Tag(ctx context.Context, ref string, tags ...string) (string, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return "", err
	}
	for _, t := range tags {
		if err := checkTag(t); err != nil {
			return "", err
		}
	}
	return id, s.inTx(ctx, func(t *txn) error { return insertTags(ctx, t, id, tags) })
}

// Untag removes tags from the run ref names.
func (s *Store) Untag(ctx context.Context, ref string, tags ...string) (string, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return "", err
	}
	return id, s.inTx(ctx, func(t *txn) error {
		for _, tag := range tags {
			if _, err := t.exec(ctx, `DELETE FROM run_tags WHERE run_id = ? AND tag = ?`, id, tag); err != nil {
				return err
			}
		}
		return nil
	})
}

// Delete removes the run ref names, with its index rows.
func (s *Store) Delete(ctx context.Context, ref string) (string, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return "", err
	}
	return id, s.inTx(ctx, func(t *txn) error {
		_, err := t.exec(ctx, `DELETE FROM runs WHERE id = ?`, id)
		return err
	})
}

// checkTag refuses tags that would be confusing on a command line.
func checkTag(t string) error {
	if t == "" || strings.ContainsAny(t, " \t\n,") {
		return fmt.Errorf("bad tag %q: use a word without spaces or commas, such as baseline or pi-zero", t)
	}
	return nil
}

// StoredInput is the index entry of an input a run carries (its content
// is in the run's document: Run.Inputs).
type StoredInput struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Source string `json:"source,omitempty"`
}

// Inputs lists the inputs (device profiles, calibrations) the run ref
// names was priced with.
func (s *Store) Inputs(ctx context.Context, ref string) ([]StoredInput, error) {
	id, err := s.Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	rows, err := s.query(ctx, `SELECT kind, name, sha256, source FROM run_inputs WHERE run_id = ? ORDER BY kind, name, sha256`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredInput
	for rows.Next() {
		var in StoredInput
		if err := rows.Scan(&in.Kind, &in.Name, &in.SHA256, &in.Source); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

// RunsWithInput lists the IDs of the runs that carry the input whose
// content has that SHA-256 (every run priced with one calibration).
func (s *Store) RunsWithInput(ctx context.Context, sha256 string) ([]string, error) {
	rows, err := s.query(ctx, `SELECT DISTINCT run_id FROM run_inputs WHERE sha256 = ? ORDER BY run_id`, sha256)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
