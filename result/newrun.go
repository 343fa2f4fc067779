package result

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewID returns a run ID for a run started at t: its UTC time, which makes
// IDs sort by start, and 4 random bytes, which make them unique.
func NewID(t time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// NewRun starts a complete run of kind, now, in env: the one constructor
// every runner uses (measure.NewRun captures this machine's environment).
func NewRun(kind string, env Environment) *Run {
	now := time.Now().UTC()
	return &Run{Schema: Schema, ID: NewID(now), Kind: kind, Started: now, Status: Complete, Environment: env}
}
