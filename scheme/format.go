package scheme

import "strconv"

func itoa(i int) string     { return strconv.Itoa(i) }
func quote(s string) string { return strconv.Quote(s) }

// Must panics if err is non-nil; for tests and examples with names known to
// exist.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
