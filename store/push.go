package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/internal/atomicfile"
	"github.com/cryptocost/cryptocost/result"
)

// Pushing: runs written to files on machines without a store (a board
// that ran with -o, an offline phone, a run whose save failed) sent to a
// store, typically a lab's shared PostgreSQL, as imports.

// RunFiles expands the arguments of push: files as they are, and every
// *.json file under a directory (sorted), so `push DIR` sends what a board
// collected.
func RunFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("cannot push %s: %w", a, err)
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".json") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot push %s: %w", a, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("cannot push %s: no .json run files in it (write them with -o run.json or --format json)", a)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

// FileOutcome is what pushing one file did.
type FileOutcome struct {
	File string
	Runs []ImportOutcome
	Err  error
}

// ImportFiles imports each file in its own transaction, with tags added to
// its runs, and reports each outcome as it is known; a file that fails
// (unreadable, not a run, a different run under a stored ID) is reported
// and the others go on. It returns how many files failed. Pushing a file
// twice, or a file whose runs are already stored, is harmless (ContentHash).
func (s *Store) ImportFiles(ctx context.Context, files, tags []string, each func(FileOutcome)) (failed int) {
	for _, file := range files {
		o := FileOutcome{File: file}
		f, err := os.Open(file)
		if err == nil {
			o.Runs, err = s.ImportTagged(ctx, f, file, tags)
			f.Close()
		}
		if err != nil {
			o.Err = err
			failed++
		}
		each(o)
		if ctx.Err() != nil {
			break
		}
	}
	return failed
}

// UnsavedDir is where runs that could not be saved are kept as files:
// the store's data directory's "unsaved" folder.
func UnsavedDir() (string, error) {
	dir, err := dataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "cryptocost", "unsaved"), nil
}

// SaveOrKeep saves run in the store db (SaveRun); if that fails — the
// server unreachable, a wrong password, a full disk — it writes the run as
// JSON to UnsavedDir (else the working directory), so nothing measured is
// lost, and returns the file with the save's error. `cryptocost push` the
// file when the store is back: the run's content hash makes that
// harmless even if the save did reach the store.
func SaveOrKeep(ctx context.Context, db string, run *result.Run) (kept string, err error) {
	err = SaveRun(ctx, db, run)
	if err == nil {
		return "", nil
	}
	kept, kerr := Keep(run)
	if kerr != nil {
		return "", errors.Join(err, fmt.Errorf("and the run could not be kept in a file: %w", kerr))
	}
	return kept, err
}

// Keep writes run as JSON (what push and import read) to UnsavedDir, else
// the working directory, as RUN-ID.json, and returns the file.
func Keep(run *result.Run) (string, error) {
	dir, err := UnsavedDir()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		dir = "."
	}
	doc, err := document(run)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	f, err := result.FormatByName("json")
	if err != nil {
		return "", err
	}
	// The document as stored (its command line redacted), indented.
	runs, err := result.ReadJSON(bytes.NewReader(doc))
	if err != nil {
		return "", err
	}
	if err := f.Write(&buf, runs[0]); err != nil {
		return "", err
	}
	// An ID has no spaces or colons (document checks) but may have a
	// slash: never a path.
	path := filepath.Join(dir, strings.NewReplacer("/", "_", `\`, "_").Replace(run.ID)+".json")
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return "", err
	}
	return path, nil
}

// CheckImports refuses an empty tag and an argument that is not a file,
// before the store is opened (import takes files; push also takes
// directories, RunFiles).
func CheckImports(args, tags []string) error {
	for _, t := range tags {
		if t == "" {
			return fmt.Errorf("empty --tag")
		}
	}
	for _, a := range args {
		if fi, err := os.Stat(a); err != nil {
			return fmt.Errorf("cannot import %s: %w", a, err)
		} else if fi.IsDir() {
			return fmt.Errorf("cannot import %s: a directory; give the JSON files (%s/*.json)", a, a)
		}
	}
	return nil
}
